package cli

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
	rec, err := readRecord("replay", fs.Arg(0), e.stdin)
	if err != nil {
		return err
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

// readRecord reads one game record from the file name, or from stdin for
// "-", for the command cmd: a bad file or record is a usage error (exit 2).
func readRecord(cmd, name string, stdin io.Reader) (golf.Record, error) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return golf.Record{}, usageError("%s: %v", cmd, err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxRecordSize+1))
	if err != nil {
		return golf.Record{}, usageError("%s: reading the record: %v", cmd, err)
	}
	if len(b) > maxRecordSize {
		return golf.Record{}, usageError("%s: record larger than %d bytes", cmd, maxRecordSize)
	}
	rec, err := golf.DecodeRecord(b)
	if err != nil {
		return golf.Record{}, usageError("%s: %v", cmd, err)
	}
	return rec, nil
}

// moveReason is the reason of an illegal move without the "move N:" prefix.
func moveReason(err error) string {
	var me *golf.MoveError
	if errors.As(err, &me) {
		return me.Reason()
	}
	return err.Error()
}
