package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// command is one subcommand: the table below is the only list of them, and
// both dispatch (run) and help are made from it.
type command struct {
	name string
	// args is the synopsis after the name, e.g. "FILE|-" or "[flags]".
	args string
	// summary says what the command does, in one line.
	summary string
	run     func(ctx context.Context, args []string, e env) error
}

// defaultCommand runs when the first argument is a flag or there is none.
const defaultCommand = "serve"

// commands returns every subcommand, in the order help lists them. It is a
// function rather than a variable because help itself is in the table and
// reads it.
func commands() []command {
	return []command{
		{"serve", "[flags]", "run the server (the default command)", runServe},
		{"worker", "--database URL [flags]", "work the job queue: record rated results and analyse holes for fair play", runWorker},
		{"deal", "[flags]", "print a deal as JSON", ctxless(runDeal)},
		{"replay", "FILE|-", "check and score a game record", ctxless(runReplay)},
		{"analyse", "[--json] FILE|-", "review a game record: the best score and the strokes each move lost", ctxless(runAnalyse)},
		{"verify", "--commitment HEX --seed HEX", "check a round seed against the commitment shown before play", ctxless(runVerify)},
		{"solve", "[flags]", "solve a deal, or with --count many numbered deals for statistics", runSolve},
		{"load", "--url URL | --serve STORE [flags]", "load-test a server and report throughput and move→ack latency", runLoad},
		{"load-server", "--store memory|redis|baseline [flags]", "the server load --serve starts as a process of its own: prints its URL, runs until its stdin closes", runLoadServer},
		{"healthcheck", "[--url URL]", "exit 0 when a running server's health check answers 200", runHealthcheck},
		{"fairplay", "simulate|rescore|compare|review [flags]", "simulate the fair-play rule on bots, score recorded rounds again, compare two analyses of the same rounds hole by hole, or review a server's flags", runFairplay},
		{"help", "", "list the commands", runHelp},
	}
}

// ctxless adapts a command that needs no context.
func ctxless(f func(args []string, e env) error) func(context.Context, []string, env) error {
	return func(_ context.Context, args []string, e env) error { return f(args, e) }
}

// lookupCommand finds a subcommand by name.
func lookupCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// commandNames lists the subcommands' names, for errors.
func commandNames() string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}

// runHelp prints the commands from the table.
func runHelp(_ context.Context, args []string, e env) error {
	if len(args) > 0 {
		return usageError("help: unexpected argument %q", args[0])
	}
	writeUsage(e.stdout)
	return nil
}

// writeUsage writes the list of commands.
func writeUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: golfsolitaire [COMMAND] [ARGS]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range commands() {
		fmt.Fprintf(tw, "  %s %s\t%s\n", c.name, c.args, c.summary)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Without a command (or with a flag first) golfsolitaire runs %s.\n", defaultCommand)
	fmt.Fprintln(w, "Run any command with -h for its flags.")
}
