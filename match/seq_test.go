package match

import (
	"errors"
	"strings"
	"testing"

	"golfsolitaire/golf"
)

// TestSeq: a move's seq is new (applied), the very same move resent
// (ErrDuplicate, nothing changes) or stale (ErrStaleSeq, nothing changes):
// lower than the last applied and never applied, an applied seq reused
// for another move, or too old to be checked.
func TestSeq(t *testing.T) {
	t.Parallel()
	set := DefaultSettings()
	set.Format, set.Seats, set.Holes, set.AutoStart = Stroke, 2, 1, false
	r := newTestRoom(t, set, "Ana", "Bo")
	mustApply(t, r, Event{Kind: KindReady, At: t0, Seat: 1, Ready: true})
	mustApply(t, r, Event{Kind: KindStart, At: t0, Seat: 0, Seed: seedOf(3)})
	turn := golf.Move{Action: golf.Turn}
	move := func(seq int64, m golf.Move) error {
		_, err := r.Apply(Event{Kind: KindMove, At: t0, Seat: 0, Hole: 1, Move: m, Seq: seq})
		return err
	}
	if err := move(100, turn); err != nil {
		t.Fatal(err)
	}
	if err := move(102, turn); err != nil {
		t.Fatal(err)
	}
	other := golf.PlayPile(1)
	tests := []struct {
		name string
		seq  int64
		move golf.Move
		want error
	}{
		{"the same move again", 102, turn, ErrDuplicate},
		{"an earlier applied move again", 100, turn, ErrDuplicate},
		{"an applied seq, another move", 102, other, ErrStaleSeq},
		{"a lower seq never applied", 101, turn, ErrStaleSeq},
		{"far below", 1, turn, ErrStaleSeq},
	}
	for _, tc := range tests {
		before, _ := r.Encode()
		err := move(tc.seq, tc.move)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
		if after, _ := r.Encode(); string(after) != string(before) {
			t.Errorf("%s: the room changed", tc.name)
		}
	}
	// The window: after seqWindow more moves, seq 100 is too old to be
	// recognised, and is refused rather than acknowledged.
	seq := int64(200)
	for range seqWindow {
		st := r.CurrentHole().State(r.Settings.Variant, 0)
		legal := st.Legal()
		if len(legal) == 0 {
			break
		}
		seq++
		if err := move(seq, legal[0]); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(r.Seats[0].Recent); n > seqWindow {
		t.Errorf("%d seqs remembered", n)
	}
	if got := r.Seats[0].LastSeq; got != seq {
		t.Errorf("last seq %d, want %d", got, seq)
	}
	if len(r.Seats[0].Recent) == seqWindow {
		err := move(100, turn)
		if !errors.Is(err, ErrStaleSeq) {
			t.Errorf("a seq out of the window: %v", err)
		}
		// It may have been applied once: the words must not say it never was.
		if err != nil && (!strings.Contains(err.Error(), "too old to check") || strings.Contains(err.Error(), "never applied")) {
			t.Errorf("a seq out of the window is explained as %q", err)
		}
	}
	// A move without a seq is never a duplicate.
	if st := r.CurrentHole().State(r.Settings.Variant, 1); len(st.Legal()) > 0 {
		if _, err := r.Apply(Event{Kind: KindMove, At: t0, Seat: 1, Hole: 1, Move: st.Legal()[0]}); err != nil {
			t.Errorf("a move without a seq: %v", err)
		}
	}
}

// TestSeqTooOld: a seq below every move the seat remembers may have been
// applied long ago; it is refused as stale, and the words say it is too
// old to check rather than that it was never applied.
func TestSeqTooOld(t *testing.T) {
	t.Parallel()
	s := &Seat{}
	for i := range seqWindow + 5 {
		s.applied(Event{Seq: int64(1000 + 2*i), Hole: 1, Move: golf.Move{Action: golf.Turn}})
	}
	if len(s.Recent) != seqWindow {
		t.Fatalf("%d moves remembered, want %d", len(s.Recent), seqWindow)
	}
	tests := []struct {
		name    string
		seq     int64
		want    error
		words   string
		notSaid string
	}{
		{"below the window", 1000, ErrStaleSeq, "too old to check", "never applied"},
		{"far below", 3, ErrStaleSeq, "too old to check", "never applied"},
		{"a gap inside the window", s.Recent[1].Seq - 1, ErrStaleSeq, "never applied", "too old"},
		{"remembered, same move", s.Recent[0].Seq, ErrDuplicate, "", ""},
	}
	for _, tc := range tests {
		err := s.checkSeq(Event{Seq: tc.seq, Hole: 1, Move: golf.Move{Action: golf.Turn}})
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
			continue
		}
		if tc.words != "" && !strings.Contains(err.Error(), tc.words) {
			t.Errorf("%s: %q does not say %q", tc.name, err, tc.words)
		}
		if tc.notSaid != "" && strings.Contains(err.Error(), tc.notSaid) {
			t.Errorf("%s: %q says %q", tc.name, err, tc.notSaid)
		}
	}
}
