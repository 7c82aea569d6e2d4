package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golfsolitaire/fairplay/review"
	"golfsolitaire/golf"
	"golfsolitaire/protocol"
)

// runFairplayReview lists the flags of a server (GET /api/fairplay/flags)
// with their evidence.
func runFairplayReview(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("fairplay review", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	url := fs.String("url", envOr(e, "GOLF_URL", "http://localhost:8080"), "the server's base URL (env GOLF_URL)")
	token := fs.String("moderator-token", e.getenv("GOLF_MODERATOR_TOKEN"), "the server's moderator token (env GOLF_MODERATOR_TOKEN)")
	asJSON := fs.Bool("json", false, "print the server's JSON as it is")
	timeout := fs.Duration("timeout", 10*time.Second, "how long to wait for the server")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		return usageError("fairplay review: unexpected argument %s", strconv.Quote(fs.Arg(0)))
	}
	if *token == "" {
		return usageError("fairplay review: a moderator token is required (--moderator-token or GOLF_MODERATOR_TOKEN)")
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	base := strings.TrimRight(*url, "/")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/fairplay/flags", nil)
	if err != nil {
		return usageError("fairplay review: --url: %v", err)
	}
	req.Header.Set("Authorization", "Bearer "+*token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("fairplay review: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("fairplay review: reading the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var pe protocol.APIError
		if json.Unmarshal(b, &pe) == nil && pe.Message != "" {
			return fmt.Errorf("fairplay review: the server answered %d: %s", resp.StatusCode, pe.Message)
		}
		return fmt.Errorf("fairplay review: the server answered %d", resp.StatusCode)
	}
	var body protocol.FairplayFlags
	if err := json.Unmarshal(b, &body); err != nil {
		return fmt.Errorf("fairplay review: the answer is not a list of flags: %w", err)
	}
	if *asJSON {
		return writeJSON(e, body)
	}
	w := e.stdout
	if len(body.Flags) == 0 {
		fmt.Fprintln(w, "no flags")
		return nil
	}
	for _, f := range body.Flags {
		held := ", " + string(f.Status)
		if !f.ReviewedAt.IsZero() {
			held += " " + f.ReviewedAt.Format(time.RFC3339)
		}
		if f.Held {
			held += ", results held for review"
		}
		ev := f.Evidence
		fmt.Fprintf(w, "%s (%s): flagged %s%s\n", f.Name, f.Player, f.FlaggedAt.Format(time.RFC3339), held)
		fmt.Fprintf(w, "  score %.2f (threshold %.2f) over %d holes, %d decisions\n", f.Score, f.Threshold, ev.Holes, ev.Decisions)
		fmt.Fprintf(w, "  stretches where the moves did best with the real stock: %d of %d (honest play expects %.1f)\n", ev.Least, ev.Segments, ev.Expected)
		fmt.Fprintf(w, "  discriminating decisions: %d (clairvoyant move %d, visible-best move %d)\n", ev.Discriminating, ev.Clairvoyant, ev.Visible)
		if note := body.NameNotes[f.Player]; note != "" {
			fmt.Fprintf(w, "  name kept from before the name rules: %s\n", note)
		}
		for _, l := range body.Links[f.Player] {
			fmt.Fprintf(w, "  linked account: %s (same %s, last seen together %s)\n", l.Name, l.Kind, l.At.Format(time.RFC3339))
		}
		if sc := body.Scouting[f.Player]; len(sc) > 0 {
			fmt.Fprintf(w, "  scouted holes: %d (%d flag an account), begun after a linked account had finished the same deal:\n", len(sc), review.ScoutedHolesToFlag)
			for _, h := range sc {
				fmt.Fprintf(w, "    room %s hole %d begun %s: %s had finished it in room %s hole %d at %s\n",
					h.Room, h.Hole, h.Begun.Format(time.RFC3339), h.By, h.ByRoom, h.ByHole, h.ByFinished.Format(time.RFC3339))
			}
		}
		for _, h := range f.Holes {
			if len(h.Analysis.Discriminating) == 0 {
				continue
			}
			fmt.Fprintf(w, "  room %s round %d hole %d (score %d, log LR %.2f): %s%s\n", h.Room, h.Round, h.Hole, h.Score, h.LogLR, base, h.Replay)
			for _, d := range h.Analysis.Discriminating {
				fmt.Fprintf(w, "    move %d: chose %s (%s); visible-best %s, best with the real stock %s; the visible-best loses %d with the real stock, the clairvoyant move %.2f in expectation\n",
					d.Move+1, d.Chosen, d.Pick, d.Visible, movesText(d.Clairvoyant), d.RealMargin, d.VisibleMargin)
			}
		}
	}
	return nil
}

func envOr(e env, key, def string) string {
	if v := e.getenv(key); v != "" {
		return v
	}
	return def
}

func movesText(ms []golf.Move) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.String()
	}
	return strings.Join(parts, " or ")
}
