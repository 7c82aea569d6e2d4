package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
)

// TestHiddenInformation plays whole matches with every connection
// recording every frame it receives, then checks that no frame shows what
// its receiver may not know (see checkFrames).
func TestHiddenInformation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		set       map[string]any
		players   int
		reconnect bool
	}{
		{"stroke play, three seats", stroke(3, 3, nil), 3, true},
		{"match play", map[string]any{"format": "match", "holes": 3, "autoStart": false}, 2, false},
		{"golf with a redeal", stroke(2, 2, map[string]any{"options": map[string]any{"redeals": 1}}), 2, true},
		{"tripeaks", stroke(2, 2, map[string]any{"game": "tripeaks"}), 2, false},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Whole matches with random players: more than testCtx's 30 s
			// on a loaded machine.
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			e := newRecordingEnv(t)
			watchers, recs := playRecorded(t, ctx, e, tc.set, tc.players, tc.reconnect, uint64(i))
			problems, stats := checkFrames(recs, watchers)
			for _, p := range problems {
				t.Error(p)
			}
			if len(problems) > 0 {
				t.FailNow()
			}
			// Boards of others are settled boards: no card on them is
			// hidden any more ("??"), so only the cards are counted.
			t.Logf("%d frames, %d cards checked", stats.frames, stats.cards)
			if stats.cards == 0 {
				t.Errorf("the check saw no cards")
			}
			// The checker itself catches a leak: show player 0 a stock card
			// of hole 1 it never turned.
			forged := forgeLeak(t, recs, watchers[0])
			if p, _ := checkFrames(recs, []*frameWatcher{forged}); len(p) == 0 {
				t.Error("the checker missed a forged leak")
			}
		})
	}
}

// frameWatcher is one participant (a seat, or -1) and the recorders of its
// connections, in order.
type frameWatcher struct {
	seat int
	recs []*recorder
}

// playRecorded plays a match to the end with simple random players and a
// spectator connected from the start; with reconnect, player 1 drops in
// hole 2 and comes back with Since.
func playRecorded(t *testing.T, ctx context.Context, e *env, set map[string]any, players int, reconnect bool, seed uint64) ([]*frameWatcher, protocol.Records) {
	t.Helper()
	names := []string{"P0", "P1", "P2"}[:players]
	g := e.create(t, ctx, set, names...)
	spec := &frameWatcher{seat: -1, recs: []*recorder{{name: "spectator"}}}
	sc := dialRec(t, ctx, e.ts, client.Options{Room: g[0].Code}, spec.recs[0])
	watchers := []*frameWatcher{}
	conns := []*client.Conn{}
	for i, gr := range g {
		w := &frameWatcher{seat: i, recs: []*recorder{{name: fmt.Sprintf("P%d", i)}}}
		watchers = append(watchers, w)
		conns = append(conns, dialRec(t, ctx, e.ts, client.Options{Room: gr.Code, Token: gr.Token}, w.recs[0]))
	}
	watchers = append(watchers, spec)
	for _, c := range conns[1:] {
		if err := c.Ready(ctx, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := conns[0].Start(ctx); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, players)
	for i := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			drop := reconnect && i == 1
			c := conns[i]
			for {
				v, err := c.WaitView(ctx, func(v *match.View) bool {
					return v.Status == match.Finished || (v.Status == match.Playing && v.Board != nil && !v.Board.Done)
				})
				if err != nil {
					errs[i] = err
					return
				}
				if v.Status == match.Finished {
					return
				}
				b := v.Board
				if drop && b.Hole == 2 && b.Moves == 3 {
					drop = false
					since := c.Version()
					c.CloseNow()
					<-c.Done()
					time.Sleep(50 * time.Millisecond)
					r := &recorder{name: fmt.Sprintf("P%d again", i)}
					watchers[i].recs = append(watchers[i].recs, r)
					c = dialRec(t, ctx, e.ts, client.Options{Room: g[i].Code, Token: g[i].Token, Since: since}, r)
					continue
				}
				move := ""
				switch {
				case len(b.Playable) > 0 && (rng.IntN(4) > 0 || !b.CanTurn):
					move = itoa(b.Playable[rng.IntN(len(b.Playable))])
				case b.CanTurn:
					move = "s"
				case b.CanRedeal:
					move = "r"
				}
				if move == "" {
					err = c.Stand(ctx, b.Hole)
				} else {
					_, err = c.Move(ctx, b.Hole, move)
				}
				if err != nil && !client.IsCode(err, protocol.ErrCodeHoleDone) && !client.IsCode(err, protocol.ErrCodeWrongHole) && !client.IsCode(err, protocol.ErrCodeNotPlaying) {
					errs[i] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("player %d: %v", i, err)
		}
	}
	if _, err := sc.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished }); err != nil {
		t.Fatal(err)
	}
	var recs protocol.Records
	if _, err := e.api.Call(ctx, http.MethodGet, "/api/rooms/"+g[0].Code+"/records", nil, &recs); err != nil {
		t.Fatal(err)
	}
	if recs.Seed == "" || len(recs.Holes) < 2 {
		t.Fatalf("records: %+v", recs)
	}
	return watchers, recs
}

// holeTruth is what the records say about one hole: the cards everyone
// sees from the deal, and for each seat the cards ever on its waste after
// each number of moves.
type holeTruth struct {
	seed  string
	open  map[string]bool // tableau and the starting waste card
	stock []string
	ever  [][]map[string]bool // [seat][moves]
}

func truthOf(recs protocol.Records) map[int]*holeTruth {
	out := map[int]*holeTruth{}
	for _, h := range recs.Holes {
		ht := &holeTruth{seed: h.Records[0].Seed.String(), open: map[string]bool{}}
		d := golf.NewDeal(h.Records[0].Variant, h.Records[0].Seed)
		for _, pile := range d.Tableau() {
			for _, c := range pile {
				ht.open[c.String()] = true
			}
		}
		if d.Start() != golf.NoCard {
			ht.open[d.Start().String()] = true
		}
		for _, c := range d.Stock() {
			ht.stock = append(ht.stock, c.String())
		}
		for _, rec := range h.Records {
			st := golf.NewState(&d)
			seen := map[string]bool{}
			for _, c := range st.Waste() {
				seen[c.String()] = true
			}
			ever := []map[string]bool{seen}
			for _, m := range rec.Moves {
				if err := st.Apply(m); err != nil {
					panic(err)
				}
				next := map[string]bool{}
				for c := range seen {
					next[c] = true
				}
				next[st.WasteTop().String()] = true
				seen = next
				ever = append(ever, seen)
			}
			ht.ever = append(ht.ever, ever)
		}
		out[h.Number] = ht
	}
	return out
}

var cardCode = regexp.MustCompile(`^([A2-9TJQK][CDHS]|JK)$`)

type frameStats struct{ frames, cards, hidden int }

// checkFrames checks every frame every frameWatcher received against the
// records:
//   - a player never sees a stock card of a hole still in progress that
//     it has not turned, unless it has finished the hole and every player
//     still playing has turned it: every card code in a frame is a tableau
//     card, the starting waste card, or a card that has been on the
//     player's own waste or on the shown board of every player still
//     playing;
//   - a spectator never sees a stock card that some player still playing
//     the hole has not turned (hidden cards are "??");
//   - the round seed appears only once the round is over, a hole's seed
//     only once the hole is over;
//   - a player's view holds only the other seats' (settled) boards.
//
// A frame without a view (welcome, ack, replayed events) is judged by the
// next view the connection received, which is the state it was sent in.
func checkFrames(recs protocol.Records, watchers []*frameWatcher) ([]string, frameStats) {
	truth := truthOf(recs)
	var problems []string
	var stats frameStats
	for _, w := range watchers {
		for _, r := range w.recs {
			raw := r.messages()
			msgs, errs := decodeFrames(raw)
			for i, err := range errs {
				if err != nil {
					problems = append(problems, fmt.Sprintf("%s: frame %d is not a message: %v\n%s", r.name, i, err, raw[i]))
				}
			}
			for i, b := range raw {
				stats.frames++
				ctxView := msgs[i].View
				for j := i + 1; ctxView == nil && j < len(msgs); j++ {
					ctxView = msgs[j].View
				}
				for j := i - 1; ctxView == nil && j >= 0; j-- {
					ctxView = msgs[j].View
				}
				fail := func(format string, a ...any) {
					problems = append(problems, fmt.Sprintf("%s (seat %d), frame %d: %s\n%s", r.name, w.seat, i, fmt.Sprintf(format, a...), b))
				}
				if ctxView == nil {
					if bytesHasCard(b) {
						fail("cards with no view to judge them by")
					}
					continue
				}
				if strings.Contains(string(b), recs.Seed) && ctxView.Status != match.Finished {
					fail("the round seed before the round is over")
				}
				for n, ht := range truth {
					if strings.Contains(string(b), ht.seed) && !slices.Contains(ctxView.Revealed, n) {
						fail("the seed of hole %d before it is over", n)
					}
				}
				if v := msgs[i].View; v != nil && w.seat >= 0 {
					for _, b := range v.Boards {
						if b.Seat == w.seat {
							fail("a player's view holds its own board among the others' (settled) boards")
						}
					}
					if v.Board != nil && v.Board.Seat != w.seat {
						fail("a player's view holds seat %d's board", v.Board.Seat)
					}
				}
				var tree map[string]any
				json.Unmarshal(b, &tree)
				for key, sub := range tree {
					hole := ctxView.Hole
					if key == "event" && msgs[i].Event != nil && msgs[i].Event.Hole != 0 {
						hole = msgs[i].Event.Hole
					}
					allowed, all := allowedCards(truth[hole], hole, ctxView, w.seat)
					walkStrings(sub, func(s string) {
						if s == match.Hidden {
							stats.hidden++
						}
						if !cardCode.MatchString(s) {
							return
						}
						stats.cards++
						if !all && !allowed[s] {
							fail("card %s of hole %d is not the receiver's to see", s, hole)
						}
					})
				}
			}
		}
	}
	return problems, stats
}

// allowedCards returns the cards of hole n the viewer may see at the
// state of view v, or all=true once the hole is over.
func allowedCards(ht *holeTruth, n int, v *match.View, seat int) (allowed map[string]bool, all bool) {
	if n == 0 || slices.Contains(v.Revealed, n) {
		return nil, true
	}
	allowed = map[string]bool{}
	if ht == nil || n != v.Hole {
		return allowed, false // a hole neither in play nor over: nothing
	}
	for c := range ht.open {
		allowed[c] = true
	}
	if seat >= 0 {
		for c := range ht.ever[seat][min(boardMoves(v, seat), len(ht.ever[seat])-1)] {
			allowed[c] = true
		}
	}
	// Anyone (a spectator, or a player looking at the others' settled
	// boards): the stock cards every player still playing has seen.
	for _, c := range ht.stock {
		ok := true
		for _, p := range v.Progress {
			if !p.Done && !ht.ever[p.Seat][min(boardMoves(v, p.Seat), len(ht.ever[p.Seat])-1)][c] {
				ok = false
			}
		}
		if ok {
			allowed[c] = true
		}
	}
	return allowed, false
}

// boardMoves is how many moves seat's board in v shows (the player's own
// board, or a settled board): the view's progress rows do not repeat it.
func boardMoves(v *match.View, seat int) int {
	if v.Board != nil && v.Board.Seat == seat {
		return v.Board.Moves
	}
	for _, b := range v.Boards {
		if b.Seat == seat {
			return b.Moves
		}
	}
	return 0
}

func walkStrings(x any, f func(string)) {
	switch x := x.(type) {
	case string:
		f(x)
	case []any:
		for _, y := range x {
			walkStrings(y, f)
		}
	case map[string]any:
		for _, y := range x {
			walkStrings(y, f)
		}
	}
}

func bytesHasCard(b []byte) bool {
	var x any
	json.Unmarshal(b, &x)
	found := false
	walkStrings(x, func(s string) { found = found || cardCode.MatchString(s) })
	return found
}

// forgeLeak returns a copy of w whose first frame of hole 1 with a view
// also names a stock card of hole 1 that w's seat never turned.
func forgeLeak(t *testing.T, recs protocol.Records, w *frameWatcher) *frameWatcher {
	t.Helper()
	ht := truthOf(recs)[1]
	msgs, _ := decodeFrames(w.recs[0].messages())
	for i, m := range msgs {
		m.Patch, m.Base = nil, 0 // the forged frame carries its view whole
		if m.View == nil || m.View.Hole != 1 || m.Event == nil || slices.Contains(m.View.Revealed, 1) {
			continue
		}
		seen := ht.ever[w.seat][boardMoves(m.View, w.seat)]
		for _, c := range ht.stock {
			if !seen[c] {
				m.Event.Card = c
				forged := &recorder{name: "forged", msgs: w.recs[0].messages()}
				forged.msgs[i] = m.Marshal()
				return &frameWatcher{seat: w.seat, recs: []*recorder{forged}}
			}
		}
	}
	t.Fatal("no frame of hole 1 to forge")
	return nil
}
