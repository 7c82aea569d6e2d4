package cli

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/sim"
	"golfsolitaire/golf"
)

// simRecord is one simulated round as `fairplay simulate --record`
// writes it: enough to score the round again offline with another way of
// combining the segments' e-values (Lambda, Slip, Shares), since a
// segment keeps every order's regret.
type simRecord struct {
	Bot        string          `json:"bot"`
	KnowsStock float64         `json:"knowsStock"`
	Round      int             `json:"round"`
	Holes      []simRecordHole `json:"holes"`
}

// simRecordHole is one analysed hole: whether the player knew the stock
// on it, whether it was analysed with the escalation's deeper setting,
// and its informative segments (the others have the factor 1 whatever
// the combination).
type simRecordHole struct {
	Knew bool `json:"knew"`
	Deep bool `json:"deep,omitempty"`
	// Play names the deal and the moves played on it (the first 8 bytes
	// of a SHA-256 of both, in hex), so that `fairplay compare` can tell
	// that two records' holes are the same play.
	Play     string             `json:"play,omitempty"`
	Segments []fairplay.Segment `json:"segments"`
}

func recordHole(d *golf.Deal, moves []golf.Move, h fairplay.Hole, deep bool) simRecordHole {
	r := simRecordHole{Deep: deep, Play: playName(d, moves), Segments: []fairplay.Segment{}}
	for _, g := range h.Segments {
		if g.Informative() {
			r.Segments = append(r.Segments, g)
		}
	}
	return r
}

// playName is simRecordHole.Play of the moves on the deal.
func playName(d *golf.Deal, moves []golf.Move) string {
	hs := sha256.New()
	hs.Write(d.Seed[:])
	for _, m := range moves {
		hs.Write([]byte{byte(m.Action), m.Pile})
	}
	return hex.EncodeToString(hs.Sum(nil)[:8])
}

// simRecorder appends rounds to the record file; the zero value (no
// file) writes nothing.
type simRecorder struct {
	f   *os.File
	w   *bufio.Writer
	err error
}

func openSimRecord(path string) (*simRecorder, error) {
	if path == "" {
		return &simRecorder{}, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("fairplay simulate: --record: %w", err)
	}
	return &simRecorder{f: f, w: bufio.NewWriter(f)}, nil
}

// write appends one round's line and flushes it, so a run stopped
// midway keeps every round it finished.
func (r *simRecorder) write(p sim.Player, round int, holes []simRecordHole) {
	if r.f == nil || r.err != nil {
		return
	}
	b, err := json.Marshal(simRecord{Bot: p.Name(), KnowsStock: p.KnowsStock, Round: round, Holes: holes})
	if err == nil {
		b = append(b, '\n')
		_, err = r.w.Write(b)
	}
	if err == nil {
		err = r.w.Flush()
	}
	r.err = err
}

func (r *simRecorder) close() error {
	if r.f == nil {
		return nil
	}
	if err := r.f.Close(); r.err == nil {
		r.err = err
	}
	if r.err != nil {
		return fmt.Errorf("fairplay simulate: --record: %w", r.err)
	}
	return nil
}
