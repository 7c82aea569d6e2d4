// Command golfsolitaire is the Golf Solitaire server and its tools.
//
//	golfsolitaire [serve] [flags]     run the server (the default)
//	golfsolitaire help                list every command
//
// The commands are the table in commands.go; `golfsolitaire help` prints
// it. Run any command with -h for its flags.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv})
	stop()
	if err != nil {
		code := 1
		var ee *exitError
		if errors.As(err, &ee) {
			code = ee.code
		}
		if ee == nil || ee.err != nil {
			fmt.Fprintln(os.Stderr, "golfsolitaire:", err)
		}
		os.Exit(code)
	}
}

// env is what a command may touch of the outside world, so tests can run
// commands in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
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
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
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
