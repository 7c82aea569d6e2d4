package match

import (
	"errors"
	"fmt"

	"golfsolitaire/golf"
)

// ErrStaleSeq refuses a move whose seq cannot be a resend of one already
// applied: lower than the seat's last applied seq without having been
// applied, or an applied seq reused for a different move. It is never
// acknowledged: a client whose counter went backwards (cleared storage, a
// second device) must learn that its move did not go through, and continue
// above the lastSeq its welcome carries.
var ErrStaleSeq = errors.New("match: stale seq")

// seqWindow is how many of a seat's last applied moves (seq and command)
// the room remembers, so a resend of the very same move is recognised as a
// duplicate.
const seqWindow = 32

// Applied is one applied move of a seat, by seq.
type Applied struct {
	Seq  int64     `json:"seq"`
	Hole int       `json:"hole"`
	Move golf.Move `json:"move"`
}

// checkSeq says whether a move with ev's seq is new (nil), the very same
// move resent (ErrDuplicate), or neither (ErrStaleSeq).
func (s *Seat) checkSeq(ev Event) error {
	if ev.Seq == 0 || ev.Seq > s.LastSeq {
		return nil
	}
	for _, a := range s.Recent {
		if a.Seq != ev.Seq {
			continue
		}
		if a.Hole == ev.Hole && a.Move == ev.Move {
			return ErrDuplicate
		}
		return fmt.Errorf("%w: seq %d was already used for another move (%s on hole %d); send new moves above %d", ErrStaleSeq, ev.Seq, a.Move, a.Hole, s.LastSeq)
	}
	if len(s.Recent) == 0 && ev.Seq == s.LastSeq {
		// A room stored before seats remembered their moves: the last seq
		// is taken for a resend, as it always was.
		return ErrDuplicate
	}
	if len(s.Recent) >= seqWindow && ev.Seq < s.Recent[0].Seq {
		// Older than every remembered move: whether it was applied once
		// cannot be told, only that it is not applied now.
		return fmt.Errorf("%w: seq %d is older than the last %d moves the room remembers, so it is too old to check and was not applied now; send new moves above %d", ErrStaleSeq, ev.Seq, seqWindow, s.LastSeq)
	}
	return fmt.Errorf("%w: seq %d is not above %d, the last one applied, and was never applied; send new moves above %d", ErrStaleSeq, ev.Seq, s.LastSeq, s.LastSeq)
}

// applied remembers an applied move's seq.
func (s *Seat) applied(ev Event) {
	if ev.Seq == 0 {
		return
	}
	s.LastSeq = ev.Seq
	// The window slides along its array, which append moves (copying
	// the window) only when it is full: one allocation every seqWindow
	// moves or so, not one a move. Nothing else holds a seat's Recent.
	s.Recent = append(s.Recent, Applied{Seq: ev.Seq, Hole: ev.Hole, Move: ev.Move})
	if len(s.Recent) > seqWindow {
		s.Recent = s.Recent[len(s.Recent)-seqWindow:]
	}
}
