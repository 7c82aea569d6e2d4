package golf

import (
	"encoding/json"
	"testing"
)

// TestMoveText: MarshalText is the record form for every move (a play of
// any pile, each other action, an unknown action), its shared bytes
// cannot be grown into, and a list of moves encodes as before.
func TestMoveText(t *testing.T) {
	t.Parallel()
	moves := []Move{TurnMove, RedealMove, UndoMove, {Action: 9}}
	for p := range 256 {
		moves = append(moves, PlayPile(p))
	}
	for _, m := range moves {
		b, err := m.MarshalText()
		if err != nil || string(b) != m.String() {
			t.Fatalf("%+v: %q, %v; want %q", m, b, err, m.String())
		}
		if m.textIndex() >= 0 && cap(b) != len(b) {
			t.Fatalf("%+v: capacity %d past length %d: an append would write into the shared bytes", m, cap(b), len(b))
		}
		_ = append(b, 'x')
		if again, _ := m.MarshalText(); string(again) != m.String() {
			t.Fatalf("%+v: %q after an append to its text", m, again)
		}
	}
	got, err := json.Marshal([]Move{PlayPile(3), TurnMove, PlayPile(12), RedealMove, UndoMove})
	if err != nil || string(got) != `["3","s","12","r","u"]` {
		t.Fatalf("moves encode as %s, %v", got, err)
	}
}
