package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golfsolitaire/golf"
)

// firstLegalGame plays the deal always taking the first legal move, for at
// most limit moves (0: to the end; negative: no move), and returns the
// state.
func firstLegalGame(t *testing.T, v golf.Variant, seed golf.Seed, limit int) *golf.State {
	t.Helper()
	d := golf.NewDeal(v, seed)
	s := golf.NewState(&d)
	for n := 0; !s.Over() && (limit == 0 || n < limit); n++ {
		if err := s.Apply(s.Legal()[0]); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func recordJSON(t *testing.T, s *golf.State) string {
	t.Helper()
	b, err := json.Marshal(s.Record())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// clearedGame finds the first numbered deal of wrap Golf that the
// first-legal-move policy clears.
func clearedGame(t *testing.T) *golf.State {
	t.Helper()
	v := variant(t, "golf", map[string]any{"kings": "wrap"})
	for n := 1; n < 5000; n++ {
		if s := firstLegalGame(t, v, golf.NumberedSeed(n), 0); s.Cleared() {
			return s
		}
	}
	t.Fatal("no cleared game found")
	return nil
}

func TestReplay(t *testing.T) {
	t.Parallel()
	deal1 := golf.NumberedSeed(1).String()
	partial := firstLegalGame(t, golf.DefaultVariant(), golf.NumberedSeed(1), 10)
	finished := firstLegalGame(t, golf.DefaultVariant(), golf.NumberedSeed(1), 0)
	cleared := clearedGame(t)
	overAndOn := strings.Replace(recordJSON(t, finished), `]}`, `,"s"]}`, 1)
	file := filepath.Join(t.TempDir(), "record.json")
	if err := os.WriteFile(file, []byte(recordJSON(t, finished)), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		stdin string
		code  int
		// want is the state a valid record must report (exit 0), or
		// the words the error must contain.
		want    *golf.State
		message []string
	}{
		{name: "partial-game", args: []string{"-"}, stdin: recordJSON(t, partial), want: partial},
		{name: "finished-game-from-a-file", args: []string{file}, want: finished},
		{name: "cleared-game", args: []string{"-"}, stdin: recordJSON(t, cleared), want: cleared},
		{name: "no-moves", args: []string{"-"}, stdin: `{"game":"tripeaks","seed":"` + deal1 + `"}`, want: firstLegalGame(t, variant(t, "tripeaks", nil), golf.NumberedSeed(1), -1)},
		{name: "not-adjacent-at-3", args: []string{"-"}, stdin: `{"game":"golf","seed":"` + deal1 + `","moves":["s","s","1"]}`, code: 1,
			message: []string{"position 3", `"1"`, "not one rank away", "6H onto TS"}},
		{name: "no-such-pile-at-1", args: []string{"-"}, stdin: `{"game":"golf","seed":"` + deal1 + `","moves":[8]}`, code: 1,
			message: []string{"position 1", "no such pile"}},
		{name: "move-after-the-end", args: []string{"-"}, stdin: overAndOn, code: 1,
			message: []string{"position " + itoa(len(finished.Moves())+1), "game over"}},
		{name: "undo-off", args: []string{"-"}, stdin: `{"game":"golf","seed":"` + deal1 + `","moves":["s","u"]}`, code: 1,
			message: []string{"position 2", "undo not allowed"}},
		{name: "not-json", args: []string{"-"}, stdin: `golf`, code: 2, message: []string{"bad record"}},
		{name: "empty", args: []string{"-"}, stdin: ``, code: 2, message: []string{"bad record"}},
		{name: "trailing-data", args: []string{"-"}, stdin: `{"game":"golf","seed":"` + deal1 + `"} {}`, code: 2, message: []string{"bad record"}},
		{name: "missing-seed", args: []string{"-"}, stdin: `{"game":"golf","moves":[]}`, code: 2, message: []string{"missing seed"}},
		{name: "bad-seed", args: []string{"-"}, stdin: `{"game":"golf","seed":"abc"}`, code: 2, message: []string{"bad seed"}},
		{name: "unknown-game", args: []string{"-"}, stdin: `{"game":"poker","seed":"` + deal1 + `"}`, code: 2, message: []string{"unknown game"}},
		{name: "option-not-applying", args: []string{"-"}, stdin: `{"game":"black-hole","options":{"jokers":1},"seed":"` + deal1 + `"}`, code: 2, message: []string{"jokers does not apply"}},
		{name: "bad-move", args: []string{"-"}, stdin: `{"game":"golf","seed":"` + deal1 + `","moves":["s","x"]}`, code: 2, message: []string{"move 2", "bad move"}},
		{name: "unknown-field", args: []string{"-"}, stdin: `{"game":"golf","seed":"` + deal1 + `","score":-3}`, code: 2, message: []string{"unknown field"}},
		{name: "too-large", args: []string{"-"}, stdin: `{"game":"golf","seed":"` + deal1 + `","moves":[` + strings.Repeat(`"s",`, maxRecordSize/4) + `"s"]}`, code: 2, message: []string{"larger than"}},
		{name: "no-argument", args: nil, code: 2},
		{name: "two-arguments", args: []string{"a", "b"}, code: 2},
		{name: "missing-file", args: []string{filepath.Join(t.TempDir(), "none.json")}, code: 2, message: []string{"no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runCmd(t, tt.stdin, append([]string{"replay"}, tt.args...)...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d: %+v", r.code, tt.code, r)
			}
			for _, w := range tt.message {
				if !strings.Contains(r.err, w) {
					t.Errorf("message %q does not contain %q", r.err, w)
				}
			}
			if tt.name != "finished-game-from-a-file" && tt.name != "missing-file" { // the path varies
				golden(t, "replay-"+tt.name, r)
			}
			if tt.code != 0 {
				if r.stdout != "" {
					t.Errorf("output on failure: %s", r.stdout)
				}
				return
			}
			var got replayResult
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				t.Fatal(err)
			}
			s := tt.want
			want := replayResult{Game: s.Variant().Game, Seed: s.Deal().Seed, Score: s.Score(), Over: s.Over(), Cleared: s.Cleared(),
				CardsLeft: s.CardsLeft(), StockLeft: s.StockLeft(), Moves: len(s.Moves())}
			if got != want {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
