package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestFairplaySimulateRecord: --record writes one line a round with its
// holes, whether the player knew the stock on each, and the informative
// segments, as many as the run's own count; a second run appends.
func TestFairplaySimulateRecord(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rounds.jsonl")
	args := []string{"simulate", "--rounds", "2", "--holes", "2", "--bots", "random,clairvoyant", "--shares", "1",
		"--samples", "2", "--nodes", "300", "--workers", "2", "--json", "--record", path}
	segs := map[string]int{}
	for range 2 {
		out, err := runFairplayArgs(t, nil, args...)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Results []struct {
				Bot      string `json:"bot"`
				Segments int    `json:"segments"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		for _, r := range got.Results {
			segs[r.Bot] += r.Segments
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, recorded := map[string]int{}, map[string]int{}
	plays := map[string]map[string]int{} // each hole's play, by bot, round and hole: the same in both runs
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r simRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		lines[r.Bot]++
		if r.Round < 0 || r.Round > 1 || len(r.Holes) != 2 {
			t.Errorf("%s round %d has %d holes, want round 0 or 1 of 2 holes", r.Bot, r.Round, len(r.Holes))
		}
		for i, h := range r.Holes {
			if h.Knew != (r.Bot == "clairvoyant") {
				t.Errorf("%s round %d hole %d: knew %v", r.Bot, r.Round, i+1, h.Knew)
			}
			for _, g := range h.Segments {
				if !g.Informative() || len(g.Regrets) < 2 {
					t.Errorf("%s round %d hole %d: segment %+v is not informative with its orders' regrets", r.Bot, r.Round, i+1, g)
				}
			}
			recorded[r.Bot] += len(h.Segments)
			if len(h.Play) != 16 {
				t.Errorf("%s round %d hole %d: play %q, want 16 hex digits", r.Bot, r.Round, i+1, h.Play)
			}
			k := fmt.Sprintf("%s %d %d", r.Bot, r.Round, i)
			if plays[k] == nil {
				plays[k] = map[string]int{}
			}
			plays[k][h.Play]++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for k, p := range plays {
		if len(p) != 1 {
			t.Errorf("%s: plays %v in two runs of the same round, want one", k, p)
		}
	}
	if n := len(plays); n != 8 {
		t.Errorf("%d holes named, want 8 (two bots, two rounds, two holes)", n)
	}
	for _, bot := range []string{"random", "clairvoyant"} {
		if lines[bot] != 4 || recorded[bot] != segs[bot] {
			t.Errorf("%s: %d lines with %d segments, want 4 lines (two runs of two rounds) with the runs' %d", bot, lines[bot], recorded[bot], segs[bot])
		}
	}
}
