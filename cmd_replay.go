package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"golfsolitaire/golf"
)

// maxRecordSize bounds what replay reads; a real record is a few KiB.
const maxRecordSize = 1 << 20

// replayResult is what replay prints for a valid record.
type replayResult struct {
	Game      golf.Game `json:"game"`
	Seed      golf.Seed `json:"seed"`
	Score     int       `json:"score"`
	Over      bool      `json:"over"`
	Cleared   bool      `json:"cleared"`
	CardsLeft int       `json:"cardsLeft"`
	StockLeft int       `json:"stockLeft"`
	Moves     int       `json:"moves"`
}

func runReplay(args []string, e env) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprintln(e.stderr, "usage: golfsolitaire replay FILE (or - for standard input)") }
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &exitError{code: 2}
	}
	var r io.Reader = e.stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return usageError("replay: %v", err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxRecordSize+1))
	if err != nil {
		return usageError("replay: reading the record: %v", err)
	}
	if len(b) > maxRecordSize {
		return usageError("replay: record larger than %d bytes", maxRecordSize)
	}
	rec, err := golf.DecodeRecord(b)
	if err != nil {
		return usageError("replay: %v", err)
	}
	s, err := rec.Replay()
	if err != nil {
		var re *golf.ReplayError
		if errors.As(err, &re) {
			return &exitError{code: 1, err: fmt.Errorf("replay: illegal move at position %d (%q): %v", re.Index+1, rec.Moves[re.Index].String(), moveReason(re.Err))}
		}
		return &exitError{code: 1, err: fmt.Errorf("replay: %v", err)}
	}
	out, err := json.Marshal(replayResult{
		Game: rec.Variant.Game, Seed: rec.Seed, Score: s.Score(), Over: s.Over(), Cleared: s.Cleared(),
		CardsLeft: s.CardsLeft(), StockLeft: s.StockLeft(), Moves: len(rec.Moves),
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s\n", out)
	return err
}

// moveReason is the reason of an illegal move without the "move N:" prefix.
func moveReason(err error) string {
	var me *golf.MoveError
	if errors.As(err, &me) {
		return me.Reason()
	}
	return err.Error()
}
