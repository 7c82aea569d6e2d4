package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"golfsolitaire/golf"
)

// runAnalyse reviews one game record with the exact solver: the best
// score of the deal and, for each of the player's decisions, the strokes
// it lost (golf.ReviewRecord).
func runAnalyse(args []string, e env) error {
	fs := flag.NewFlagSet("analyse", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	asJSON := fs.Bool("json", false, "print the analysis as JSON: {\"score\",\"best\",\"exact\",\"undone\",\"decisions\":[{\"move\",\"before\",\"after\",\"lost\",\"better\"}]}")
	nodes := fs.Int64("nodes", 50_000_000, "node budget of each solve (0: none); past it the figures are the best found and exact is false")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: golfsolitaire analyse [--json] [--nodes N] FILE (or - for standard input)")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &exitError{code: 2}
	}
	if *nodes < 0 {
		return usageError("analyse: --nodes must not be negative")
	}
	rec, err := readRecord("analyse", fs.Arg(0), e.stdin)
	if err != nil {
		return err
	}
	var sv golf.Solver
	rv, err := golf.ReviewRecord(rec, &sv, &golf.SolveOptions{MaxNodes: *nodes})
	if err != nil {
		var re *golf.ReplayError
		if errors.As(err, &re) {
			return &exitError{code: 1, err: fmt.Errorf("analyse: illegal move at position %d (%q): %v", re.Index+1, rec.Moves[re.Index].String(), moveReason(re.Err))}
		}
		return &exitError{code: 1, err: fmt.Errorf("analyse: %v", err)}
	}
	if *asJSON {
		out, err := json.Marshal(rv)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(e.stdout, "%s\n", out)
		return err
	}
	exact := "proven best"
	if !rv.Exact {
		exact = "best found within the budget, not proven"
	}
	fmt.Fprintf(e.stdout, "score %d, best possible %d (%s): %d strokes lost\n", rv.Score, rv.Best, exact, rv.Score-rv.Best)
	if rv.Undone > 0 {
		fmt.Fprintf(e.stdout, "%d moves taken back (not counted as decisions)\n", rv.Undone)
	}
	for i, d := range rv.Decisions {
		if d.Lost == 0 {
			continue
		}
		better := ""
		if d.Better != "" {
			better = ", the solver plays " + d.Better
		}
		fmt.Fprintf(e.stdout, "move %d (%s): lost %d (best %d before, %d after%s)\n", i+1, d.Move, d.Lost, d.Before, d.After, better)
	}
	return nil
}
