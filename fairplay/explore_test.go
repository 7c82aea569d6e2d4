package fairplay_test

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/sim"
	"golfsolitaire/golf"
)

// exploreHole is one line of TestExploreConfigs' output: one hole
// analysed with one configuration.
type exploreHole struct {
	Cfg  string  `json:"cfg"`
	Kind string  `json:"kind"` // "known" (the clairvoyant's line) or a bot level
	Deal int     `json:"deal"` // numbered deal 5000+Deal
	Ms   float64 `json:"ms"`   // the analysing thread's CPU ms
	// LogLR is the hole's log likelihood ratio; Segments its stretches
	// with every order's regret, so other statistics can be computed.
	LogLR    float64            `json:"logLR"`
	Segments []fairplay.Segment `json:"segments"`
}

// TestExploreConfigs screens configurations on the same holes: with
// FAIRPLAY_EXPLORE set to a JSON object of named fairplay.Configs it
// plays numbered deals 5000+FAIRPLAY_EXPLORE_FIRST on (FAIRPLAY_EXPLORE_N
// of them) with the clairvoyant's line and the search bot, analyses each
// hole with each configuration and prints one JSON line per analysis
// (exploreHole). Holes of known and of honest play, drawn at random,
// give a bootstrap estimate of the power for a share of known holes
// (docs/fairplay.md). Without FAIRPLAY_EXPLORE it is skipped.
func TestExploreConfigs(t *testing.T) {
	path := os.Getenv("FAIRPLAY_EXPLORE")
	if path == "" {
		t.Skip("FAIRPLAY_EXPLORE not set")
	}
	var first, n int
	fmt.Sscan(os.Getenv("FAIRPLAY_EXPLORE_FIRST"), &first)
	fmt.Sscan(os.Getenv("FAIRPLAY_EXPLORE_N"), &n)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cfgs map[string]fairplay.Config
	if err := json.Unmarshal(b, &cfgs); err != nil {
		t.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for i := first; i < first+n; i++ {
		d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(5000+i))
		for _, kind := range []string{"known", "search"} {
			p, knows := sim.Player{Kind: sim.Kind(kind)}, kind == "known"
			if knows {
				p.Kind = sim.Clairvoyant
			}
			moves, err := sim.PlayHole(p, &d, 1, knows, uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			for name, cfg := range cfgs {
				t0 := threadCPU()
				h, err := fairplay.AnalyseHole(&d, moves, cfg)
				ms := float64(threadCPU()-t0) / float64(time.Millisecond)
				if err != nil {
					t.Fatal(err)
				}
				line, _ := json.Marshal(exploreHole{Cfg: name, Kind: kind, Deal: i, Ms: ms, LogLR: h.LogLR(), Segments: h.Segments})
				fmt.Println(string(line))
			}
		}
	}
}

// threadCPU is the calling thread's CPU time (Linux; 0 elsewhere).
func threadCPU() time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestExploreRounds plays simulated rounds as `fairplay simulate` does
// (round r's deals, the same player) and analyses each hole with every
// configuration of FAIRPLAY_EXPLORE_ROUNDS (a JSON object of named
// fairplay.Configs), so the settings are compared on the same play: for
// rounds FAIRPLAY_EXPLORE_FIRST on (FAIRPLAY_EXPLORE_N of them), of
// FAIRPLAY_EXPLORE_HOLES holes, by a clairvoyant who knows the stock on
// a share FAIRPLAY_EXPLORE_SHARE of holes, it prints one JSON line per
// round and configuration: the hole it was flagged after (0: never), its
// peak and the CPU ms of its holes' analyses. Without
// FAIRPLAY_EXPLORE_ROUNDS it is skipped.
func TestExploreRounds(t *testing.T) {
	path := os.Getenv("FAIRPLAY_EXPLORE_ROUNDS")
	if path == "" {
		t.Skip("FAIRPLAY_EXPLORE_ROUNDS not set")
	}
	var first, n, holes int
	var share float64
	fmt.Sscan(os.Getenv("FAIRPLAY_EXPLORE_FIRST"), &first)
	fmt.Sscan(os.Getenv("FAIRPLAY_EXPLORE_N"), &n)
	fmt.Sscan(os.Getenv("FAIRPLAY_EXPLORE_HOLES"), &holes)
	fmt.Sscan(os.Getenv("FAIRPLAY_EXPLORE_SHARE"), &share)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cfgs map[string]fairplay.Config
	if err := json.Unmarshal(b, &cfgs); err != nil {
		t.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p := sim.Player{Kind: sim.Clairvoyant, KnowsStock: share}
	for r := first; r < first+n; r++ {
		seed := golf.Seed(sha256.Sum256(fmt.Appendf(nil, "golf-fairplay-sim:%d", r)))
		ev := map[string]*fairplay.Evidence{}
		out := map[string]*sim.Round{}
		ms := map[string]float64{}
		for name := range cfgs {
			ev[name], out[name] = &fairplay.Evidence{}, &sim.Round{Holes: holes}
		}
		hole := 0
		_, err := sim.PlayRound(p, golf.DefaultVariant(), seed, holes, func(d *golf.Deal, moves []golf.Move, _ fairplay.Evidence) (fairplay.Hole, error) {
			hole++
			for name, cfg := range cfgs {
				t0 := threadCPU()
				h, err := fairplay.AnalyseHole(d, moves, cfg)
				ms[name] += float64(threadCPU()-t0) / float64(time.Millisecond)
				if err != nil {
					return h, err
				}
				e, o := ev[name], out[name]
				e.Add(h)
				if e.Segments >= fairplay.DefaultRule.MinSegments {
					o.Peak = max(o.Peak, e.Score())
				}
				if o.FlaggedAt == 0 && e.Flagged() {
					o.FlaggedAt = hole
				}
			}
			return fairplay.Hole{}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for name, res := range out {
			line, _ := json.Marshal(map[string]any{"cfg": name, "round": r, "flaggedAt": res.FlaggedAt, "peak": res.Peak, "ms": ms[name] / float64(holes)})
			fmt.Println(string(line))
		}
	}
}
