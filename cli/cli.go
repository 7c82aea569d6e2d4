// Package cli is the golfsolitaire program: its commands (serve, the
// default, worker, load, solve, fairplay, ...), each a function run(ctx,
// args, env) in the table of commands.go, and the wiring of the server
// from flags and the environment. The root package's main only makes a
// signal context and calls Main; tests call Main or run in-process.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// Exit codes, documented in docs/deploy.md.
const (
	// ExitOK: the command did what it was asked.
	ExitOK = 0
	// ExitFailure: the command failed (bad input to a tool, a failed check).
	ExitFailure = 1
	// ExitUsage: the command line is wrong (unknown command or flag, a bad
	// flag value); nothing was started.
	ExitUsage = 2
	// ExitUnavailable: a dependency (Redis, PostgreSQL) could not be
	// reached when the command started; try again when it is up.
	ExitUnavailable = 3
)

// Main runs the command args name (serve when the first argument is a
// flag or there is none) and returns the process's exit code, having
// printed any error to stderr.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	err := run(ctx, args, env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv, setGC: setRuntimeGC})
	if err == nil {
		return ExitOK
	}
	code := ExitFailure
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	if ee == nil || ee.err != nil {
		fmt.Fprintln(stderr, "golfsolitaire:", err)
	}
	return code
}

// env is what a command may touch of the outside world, so tests can run
// commands in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// setGC sets the process's collector (GOGC, unless 0, and the soft
	// memory limit in bytes, unless 0) and returns what it then runs
	// with: Main's sets the runtime's; nil (in tests) leaves the process
	// alone.
	setGC func(percent int, limit int64) (int, int64)
}

// exitError carries a process exit code. A nil err means the command has
// already said what it had to say.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageError is a bad command line: exit code 2.
func usageError(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

func run(ctx context.Context, args []string, e env) error {
	name := defaultCommand
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	c, ok := lookupCommand(name)
	if !ok {
		return usageError("unknown command %q: the commands are %s (golfsolitaire help describes them)", name, commandNames())
	}
	return c.run(ctx, args, e)
}

// unavailableError is a dependency that cannot be reached: exit code 3.
func unavailableError(err error) error {
	return &exitError{code: ExitUnavailable, err: err}
}
