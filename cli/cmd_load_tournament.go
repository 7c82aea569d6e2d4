package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"golfsolitaire/load"
)

// tournamentReport is the output of load --tournament (--json).
type tournamentReport struct {
	Store      string                 `json:"store"`
	Tournament *load.TournamentResult `json:"tournament"`
}

// runTournamentLoad is load --tournament N: N entrants play one
// stroke-play tournament while watchers follow the leaderboard.
func runTournamentLoad(ctx context.Context, c loadConfig, e env, storeName string, memory func(context.Context) (load.Memory, error)) error {
	cfg := load.TournamentConfig{
		URL: c.url, Entrants: c.tournament, Holes: c.holes, Watchers: c.watchers,
		Duration: c.duration, Think: c.think, Seed: c.seed, Memory: memory,
	}
	if cfg.Holes != 9 && cfg.Holes != 18 {
		cfg.Holes = 9
	}
	if !c.json {
		fmt.Fprintf(e.stderr, "load: a tournament of %d entrants, %d holes, against %s (%s store) for at most %s...\n", cfg.Entrants, cfg.Holes, c.url, storeName, c.duration)
	}
	res, err := load.RunTournament(ctx, cfg)
	if err != nil {
		return err
	}
	rep := tournamentReport{Store: storeName, Tournament: res}
	if c.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printTournamentLoad(e.stdout, rep)
	return nil
}

func printTournamentLoad(w io.Writer, rep tournamentReport) {
	r := rep.Tournament
	fmt.Fprintf(w, "tournament: %d entrants, %d holes, %s store\n", r.Entrants, r.Holes, rep.Store)
	fmt.Fprintf(w, "setup:       %.1f s (enter, start, open every room)\n", r.SetupSeconds)
	fmt.Fprintf(w, "play:        %.1f s, %d moves, %.0f moves/s, %d holes finished, %d entrants finished\n", r.Seconds, r.Moves, r.MovesPerSec, r.Results, r.Finished)
	fmt.Fprintf(w, "move->ack:   p50 %.1f ms  p95 %.1f ms  p99 %.1f ms  max %.1f ms\n", r.Move.P50, r.Move.P95, r.Move.P99, r.Move.Max)
	fmt.Fprintf(w, "leaderboard: p50 %.1f ms  p95 %.1f ms  p99 %.1f ms  max %.1f ms (%d results, %d pushes)\n", r.Leaderboard.P50, r.Leaderboard.P95, r.Leaderboard.P99, r.Leaderboard.Max, r.Leaderboard.N, r.Pushes)
	for _, m := range []struct {
		name string
		m    *load.Memory
	}{{"after setup", r.MemoryAfterSetup}, {"at the end", r.MemoryAtEnd}} {
		if m.m != nil {
			fmt.Fprintf(w, "memory %s: Go %.0f MiB, RSS %.0f MiB\n", m.name, float64(m.m.Go)/(1<<20), float64(m.m.RSS)/(1<<20))
		}
	}
	if r.Errors > 0 {
		fmt.Fprintf(w, "errors: %d (first: %s)\n", r.Errors, r.FirstError)
	}
}
