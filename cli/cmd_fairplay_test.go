package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/fairplay"
	"golfsolitaire/golf"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
)

func runFairplayArgs(t *testing.T, getenv func(string) string, args ...string) (string, error) {
	t.Helper()
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var out, errb bytes.Buffer
	err := run(context.Background(), append([]string{"fairplay"}, args...), env{stdout: &out, stderr: &errb, getenv: getenv})
	return out.String(), err
}

// TestFairplaySimulateJSON: the simulator's JSON has one result per
// player, in the documented shape, from tiny rounds.
func TestFairplaySimulateJSON(t *testing.T) {
	t.Parallel()
	out, err := runFairplayArgs(t, nil, "simulate", "--rounds", "2", "--holes", "1", "--bots", "random,greedy,clairvoyant",
		"--shares", "1,0.5", "--samples", "2", "--nodes", "300", "--workers", "2", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Results    []map[string]any    `json:"results"`
		Escalation fairplay.Escalation `json:"escalation"`
		Cost       map[string]any      `json:"cost"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// One hole a round: no evidence before it, so none escalated; the
	// escalation run is the servers' default.
	if got.Cost["escalated"] != 0.0 || got.Escalation.Level != fairplay.DefaultEscalation.Level || got.Escalation.Deep.Samples != fairplay.DeepConfig.Samples {
		t.Errorf("escalation %+v, %v holes escalated; want the default, none", got.Escalation, got.Cost["escalated"])
	}
	want := []struct {
		bot   string
		knows float64
	}{{"random", 0}, {"greedy", 0}, {"clairvoyant", 1}, {"clairvoyant", 0.5}}
	if len(got.Results) != len(want) {
		t.Fatalf("%d results, want %d:\n%s", len(got.Results), len(want), out)
	}
	for i, r := range got.Results {
		for _, k := range []string{"bot", "knowsStock", "rounds", "flagged", "flagRate", "medianHolesToFlag"} {
			if _, ok := r[k]; !ok {
				t.Errorf("result %d lacks %q: %v", i, k, r)
			}
		}
		if r["bot"] != want[i].bot || r["knowsStock"] != want[i].knows || r["rounds"] != 2.0 {
			t.Errorf("result %d = %v, want bot %s knowsStock %g over 2 rounds", i, r, want[i].bot, want[i].knows)
		}
		if f, rate := r["flagged"].(float64), r["flagRate"].(float64); rate != f/2 {
			t.Errorf("result %d: flagRate %g for %g flagged of 2", i, rate, f)
		}
		// One peak a round, and as many at the default rule's bar as
		// rounds flagged (rounds this small are never flagged, so this
		// holds at zero here: TestPlayRoundPeak checks a flagged round).
		peaks, _ := r["peaks"].([]any)
		if len(peaks) != 2 {
			t.Errorf("result %d: peaks %v, want one a round", i, r["peaks"])
		}
		over := 0.0
		for _, p := range peaks {
			if p.(float64) >= -mathLog(fairplay.DefaultRule.Alpha)-0.005 {
				over++
			}
		}
		if over != r["flagged"].(float64) {
			t.Errorf("result %d: %g peaks at the bar, %v flagged", i, over, r["flagged"])
		}
	}
}

func TestFairplayUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{},
		{"nope"},
		{"simulate", "--rounds", "0"},
		{"simulate", "--game", "tennis"},
		{"simulate", "--bots", "cheater"},
		{"simulate", "--shares", "1.5"},
		{"simulate", "--opening-samples", "-1"},
		{"simulate", "--escalation", "sometimes"},
		{"review"}, // no token
	} {
		_, err := runFairplayArgs(t, nil, args...)
		var ee *exitError
		if !errorsAs(err, &ee) || ee.code != 2 {
			t.Errorf("%v: %v, want a usage error (exit 2)", args, err)
		}
	}
}

// TestFairplayReview: the review command lists a server's flags with
// their evidence: a flag made from a clairvoyant player's real analysed
// holes (the solver's line played with the stock known).
func TestFairplayReview(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fp := fairplay.NewMemoryStore()
	rule := fairplay.Rule{Alpha: 0.5, MinSegments: 1}
	cfg := fairplay.Config{Samples: 6, Nodes: 2000}
	var ev fairplay.Evidence
	for n := 1; ev.Score() < -mathLog(rule.Alpha) || ev.Discriminating == 0; n++ {
		if n > 30 {
			t.Fatalf("no flag after 30 clairvoyant holes: %+v", ev)
		}
		d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(n))
		sol := golf.Solve(&d, &golf.SolveOptions{MaxNodes: 200_000})
		a, err := fairplay.AnalyseHole(&d, sol.Moves, cfg)
		if err != nil {
			t.Fatal(err)
		}
		rep := fairplay.HoleReport{Player: "seat:ABCD:Cleo", Name: "Cleo", Room: "ABCD", Round: 1, Hole: n,
			Replay: "/api/rooms/ABCD/holes/" + strconv.Itoa(n) + "/replay", Analysis: a, LogLR: a.LogLR()}
		if ev, err = fp.AddHole(ctx, rep); err != nil {
			t.Fatal(err)
		}
	}
	if !ev.FlaggedBy(rule) {
		t.Fatalf("evidence %+v not flagged", ev)
	}
	_, reps, _ := fp.Player(ctx, "seat:ABCD:Cleo")
	if err := fp.SetFlag(ctx, fairplay.Flag{Player: "seat:ABCD:Cleo", Name: "Cleo", FlaggedAt: time.Now(), Score: ev.Score(),
		Threshold: -mathLog(rule.Alpha), Evidence: ev, Holes: reps, Held: true}); err != nil {
		t.Fatal(err)
	}
	st := memstore.New(memstore.Options{})
	defer st.Close()
	srv, err := server.New(server.Options{Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Fairplay: &server.Fairplay{Store: fp, ModeratorToken: "mod"},
		// argon2id's cheapest costs: the dummy hash at 64 MiB takes seconds under -race.
		PasswordParams: accounts.Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer func() { srv.Close(); ts.Close() }()

	out, err := runFairplayArgs(t, func(k string) string {
		if k == "GOLF_MODERATOR_TOKEN" {
			return "mod"
		}
		return ""
	}, "review", "--url", ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Cleo (seat:ABCD:Cleo)", ", held, results held for review", ts.URL + "/api/rooms/ABCD/holes/", "visible-best", "(clairvoyant)"} {
		if !strings.Contains(out, want) {
			t.Errorf("review output lacks %q:\n%s", want, out)
		}
	}
	js, err := runFairplayArgs(t, nil, "review", "--url", ts.URL, "--moderator-token", "mod", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js, `"held": true`) || !strings.Contains(js, `"discriminating"`) {
		t.Errorf("review --json:\n%s", js)
	}
	if _, err := runFairplayArgs(t, nil, "review", "--url", ts.URL, "--moderator-token", "wrong"); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a wrong token: %v, want the server's 401", err)
	}
}

func mathLog(x float64) float64 { return math.Log(x) }

func errorsAs(err error, target any) bool { return errors.As(err, target) }
