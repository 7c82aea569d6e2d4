// Command golfsolitaire is the Golf Solitaire server and its tools.
//
//	golfsolitaire [serve] [flags]     run the server (the default)
//	golfsolitaire help                list every command
//
// Everything lives in package cli (cli/commands.go is the table of
// commands); this file only makes the signal context and exits with the
// code cli.Main returns (docs/deploy.md lists the codes).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"golfsolitaire/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}
