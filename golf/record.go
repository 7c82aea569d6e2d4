package golf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Record is a game record (deals.md): the game, its options, the seed the
// deal came from and the moves, enough for anyone to replay and score it.
type Record struct {
	Variant Variant
	Seed    Seed
	Moves   []Move
}

// ErrBadRecord is returned for a record that cannot be decoded.
var ErrBadRecord = errors.New("golf: bad record")

// ReplayError is the first illegal move of a replayed record.
type ReplayError struct {
	Index int // 0-based position of the move in the record
	Err   error
}

func (e *ReplayError) Error() string {
	var me *MoveError
	if errors.As(e.Err, &me) {
		return fmt.Sprintf("move %d (%s): %s", e.Index+1, me.Move, me.Reason())
	}
	return fmt.Sprintf("move %d: %v", e.Index+1, e.Err)
}

func (e *ReplayError) Unwrap() error { return e.Err }

type recordJSON struct {
	Game    Game           `json:"game"`
	Options orderedOptions `json:"options"`
	Seed    Seed           `json:"seed"`
	Moves   []Move         `json:"moves"`
}

// MarshalJSON writes the record in the deals.md form, with every option
// that applies to the game.
func (r Record) MarshalJSON() ([]byte, error) {
	moves := r.Moves
	if moves == nil {
		moves = []Move{}
	}
	return json.Marshal(recordJSON{r.Variant.Game, orderedOptions{r.Variant.Game, r.Variant.Options}, r.Seed, moves})
}

// UnmarshalJSON reads a record strictly: unknown fields, games, options and
// moves are errors; options left out take their defaults; the seed is
// required.
func (r *Record) UnmarshalJSON(b []byte) error {
	var raw struct {
		Game    *string           `json:"game"`
		Options map[string]any    `json:"options"`
		Seed    *string           `json:"seed"`
		Moves   []json.RawMessage `json:"moves"`
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	d.DisallowUnknownFields()
	if err := d.Decode(&raw); err != nil {
		return fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	if _, err := d.Token(); err != io.EOF {
		return fmt.Errorf("%w: trailing data after the record", ErrBadRecord)
	}
	if raw.Game == nil {
		return fmt.Errorf("%w: missing game", ErrBadRecord)
	}
	v, err := NewVariant(*raw.Game, raw.Options)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBadRecord, err)
	}
	if raw.Seed == nil {
		return fmt.Errorf("%w: missing seed", ErrBadRecord)
	}
	seed, err := ParseSeed(*raw.Seed)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBadRecord, err)
	}
	moves := make([]Move, 0, len(raw.Moves))
	for i, rm := range raw.Moves {
		var s string
		if err := json.Unmarshal(rm, &s); err != nil {
			// A bare number is accepted for a pile.
			var n json.Number
			if err2 := json.Unmarshal(rm, &n); err2 != nil {
				return fmt.Errorf("%w: move %d: %s is not a move", ErrBadRecord, i+1, rm)
			}
			s = n.String()
		}
		m, err := ParseMove(s)
		if err != nil {
			return fmt.Errorf("%w: move %d: %w", ErrBadRecord, i+1, err)
		}
		moves = append(moves, m)
	}
	*r = Record{Variant: v, Seed: seed, Moves: moves}
	return nil
}

// DecodeRecord parses a record (see Record.UnmarshalJSON).
func DecodeRecord(b []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		if !errors.Is(err, ErrBadRecord) {
			err = fmt.Errorf("%w: %v", ErrBadRecord, err)
		}
		return Record{}, err
	}
	return r, nil
}

// Replay deals the record's seed and applies its moves. It returns the
// state after the last move, or the state before the first illegal move
// and a *ReplayError naming it.
func (r Record) Replay() (*State, error) {
	d := NewDeal(r.Variant, r.Seed)
	s := NewState(&d)
	for i, m := range r.Moves {
		if err := s.Apply(m); err != nil {
			return s, &ReplayError{Index: i, Err: err}
		}
	}
	return s, nil
}

// Record returns the record of the game so far.
func (s *State) Record() Record {
	return Record{Variant: s.deal.Variant, Seed: s.deal.Seed, Moves: append([]Move(nil), s.moves...)}
}
