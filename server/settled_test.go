package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/tourney"
)

// settledFramesChecked counts, over every oracle test, the frames checked
// against the oracle (reported by TestSettledOracle's log).
var settledFramesChecked atomic.Int64

// TestSettledOracle plays whole matches with every kind of viewer
// connected and recording every frame (the players, a player's own
// spectator socket, a spectator, a player and a spectator that reconnect
// with Since and get catch-up events), then rebuilds every seat's settled
// board from the room's event log on its own (oracle below: its own replay
// on the golf engine, not match's) and checks every board, progress row
// and event of every frame against it:
//   - a player's own board and row are its live game;
//   - every other seat's board and row show the settled board (P's moves
//     made while P had turned fewer than f stock cards, f the fewest turns
//     of any seat still playing), field by field; done and score are the
//     real game's;
//   - nobody else sees the move or card of a move that was not public at
//     the version of the event (the hole over for everyone).
func TestSettledOracle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		set     map[string]any
		weights []int // relative pace of each seat, in moves
		check   func(t *testing.T, o *oracle)
	}{
		{"stroke, three seats at different paces", stroke(3, 2, nil), []int{6, 3, 1}, nil},
		{"match play", map[string]any{"format": "match", "holes": 2, "autoStart": false}, []int{1, 3}, nil},
		{"a redeal", stroke(2, 1, map[string]any{"options": map[string]any{"redeals": 1}}), []int{3, 1}, func(t *testing.T, o *oracle) {
			if o.redeals == 0 {
				t.Error("nobody redealt")
			}
		}},
		{"jokers", stroke(2, 1, map[string]any{"options": map[string]any{"jokers": 2}}), []int{1, 4}, nil},
		{"tripeaks", stroke(2, 1, map[string]any{"game": "tripeaks"}), []int{4, 1}, nil},
		{"pyramid golf", stroke(2, 1, map[string]any{"game": "pyramid-golf"}), []int{4, 1}, nil},
		{"black hole", stroke(2, 2, map[string]any{"game": "black-hole"}), []int{4, 1}, nil},
	}
	var total atomic.Int64
	t.Cleanup(func() { t.Logf("frames checked against the oracle: %d", total.Load()) })
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			e := newRecordingEnv(t)
			o, watchers := playOracle(t, ctx, e, tc.set, tc.weights, uint64(i))
			n, problems := o.checkAll(watchers)
			for j, p := range problems {
				if j == 20 {
					t.Errorf("... and %d more", len(problems)-20)
					break
				}
				t.Error(p)
			}
			if n < 30 {
				t.Errorf("only %d frames checked", n)
			}
			if catchUp := countCatchUp(watchers); catchUp == 0 {
				t.Error("no catch-up event after a reconnect was checked")
			}
			if o.behind == 0 {
				t.Error("no frame showed a board behind its live game: the test did not exercise the rule")
			}
			if tc.check != nil {
				tc.check(t, o)
			}
			total.Add(int64(n))
			settledFramesChecked.Add(int64(n))
			t.Logf("%d frames checked, %d boards shown behind their live game", n, o.behind)
		})
	}
}

// playOracle plays a match to the end, seat by seat in a random order
// weighted by pace (no sleeps: one move at a time, each acknowledged), with
// recorders on every connection; then it loads the room's event log and
// records.
func playOracle(t *testing.T, ctx context.Context, e *env, set map[string]any, weights []int, seed uint64) (*oracle, []*frameWatcher) {
	t.Helper()
	seats := len(weights)
	names := []string{"Ana", "Bo", "Cy"}[:seats]
	g := e.create(t, ctx, set, names...)
	code := g[0].Code
	drain := func(c *client.Conn) {
		go func() {
			for range c.Updates() {
			}
		}()
	}
	var watchers []*frameWatcher
	conns := make([]*client.Conn, seats)
	for i := range seats {
		w := &frameWatcher{seat: i, recs: []*recorder{{name: names[i]}}}
		conns[i] = dialRec(t, ctx, e.ts, client.Options{Room: code, Token: g[i].Token}, w.recs[0])
		drain(conns[i])
		watchers = append(watchers, w)
	}
	// Ana's own spectator socket, and a spectator.
	own := &frameWatcher{seat: match.SpectatorSeat, recs: []*recorder{{name: "Ana's spectator socket"}}}
	drain(dialRec(t, ctx, e.ts, client.Options{Room: code}, own.recs[0]))
	spec := &frameWatcher{seat: match.SpectatorSeat, recs: []*recorder{{name: "spectator"}}}
	sc := dialRec(t, ctx, e.ts, client.Options{Room: code}, spec.recs[0])
	drain(sc)
	watchers = append(watchers, own, spec)

	for _, c := range conns[1:] {
		if err := c.Ready(ctx, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := conns[0].Start(ctx); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	last := seats - 1 // the seat that reconnects
	dropped, back := false, false
	var since, specSince int64
	moves, dropMoves := 0, 0
	for {
		v0, err := conns[0].WaitView(ctx, func(v *match.View) bool { return v.Status != match.Waiting })
		if err != nil {
			t.Fatal(err)
		}
		if v0.Status == match.Finished {
			break
		}
		// Pick a seat that still plays the hole, weighted by pace.
		var pick []int
		for i := range seats {
			if dropped && !back && i == last {
				continue
			}
			if v := conns[i].View(); v != nil && v.Board != nil && !v.Board.Done && v.Status == match.Playing {
				for range weights[i] {
					pick = append(pick, i)
				}
			}
		}
		if len(pick) == 0 {
			if dropped && !back {
				back = true
				conns[last] = redial(t, ctx, e, code, g[last].Token, since, names[last]+" again", watchers[last])
				drain(conns[last])
				sc = redial(t, ctx, e, code, "", specSince, "spectator again", spec)
				drain(sc)
				continue
			}
			// A seat's view is behind Ana's (its board from before the
			// room's last event, done or not yet dealt): wait for it to
			// catch up and choose again. Waiting for the room instead
			// hung when that seat was the one to move (Black Hole, on a
			// loaded machine: until the test's three-minute deadline).
			if caughtUp(t, ctx, conns, v0.V, func(i int) bool { return dropped && !back && i == last }) {
				continue
			}
			// Everyone's last answer is not in yet: wait for the room.
			if _, err := conns[0].WaitView(ctx, func(v *match.View) bool { return v.V > v0.V }); err != nil {
				t.Fatal(err)
			}
			continue
		}
		i := pick[rng.IntN(len(pick))]
		v := conns[i].View()
		b := v.Board
		move := ""
		switch {
		case len(b.Playable) > 0 && (rng.IntN(3) > 0 || !b.CanTurn):
			move = itoa(b.Playable[rng.IntN(len(b.Playable))])
		case b.CanTurn:
			move = "s"
		case b.CanRedeal:
			move = "r"
		}
		var ack protocol.ServerMessage
		if move == "" {
			err = conns[i].Stand(ctx, b.Hole)
		} else {
			ack, err = conns[i].Move(ctx, b.Hole, move)
		}
		if client.IsCode(err, protocol.ErrCodeWrongHole) || client.IsCode(err, protocol.ErrCodeHoleDone) || client.IsCode(err, protocol.ErrCodeNotPlaying) {
			// The seat's view was behind the room (the hole had just
			// ended): wait for it to catch up.
			if _, err := conns[i].WaitView(ctx, func(w *match.View) bool { return w.V > v.V }); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s %q on hole %d: %v", names[i], move, b.Hole, err)
		}
		moves++
		// Wait until the mover's view has the move, so its next choice is
		// made on its new board.
		if _, err := conns[i].WaitView(ctx, func(w *match.View) bool { return w.V >= ack.V && w.V > v.V }); err != nil {
			t.Fatal(err)
		}
		// The last seat drops after its first move, while another seat
		// plays, and the spectator with it; both come back after some
		// moves of others. (Waiting for its second move could miss the
		// chance: in Black Hole random play often sticks the faster seat
		// before the slower one moves again, and then nobody else is
		// playing when it does.)
		if !dropped && i == last && othersPlaying(conns, last) {
			dropped, dropMoves = true, moves
			since = conns[last].Version()
			specSince = sc.Version()
			conns[last].CloseNow()
			<-conns[last].Done()
			sc.CloseNow()
			<-sc.Done()
		}
		// Not in the move that dropped them: they come back after moves
		// of the others, so there is something to catch up on.
		if dropped && !back && moves > dropMoves && moves%7 == 0 {
			back = true
			conns[last] = redial(t, ctx, e, code, g[last].Token, since, names[last]+" again", watchers[last])
			drain(conns[last])
			sc = redial(t, ctx, e, code, "", specSince, "spectator again", spec)
			drain(sc)
		}
	}
	// Every connection has the end.
	for _, c := range append(slices.Clone(conns), sc) {
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished }); err != nil {
			t.Fatal(err)
		}
	}
	var recs protocol.Records
	if _, err := e.api.Call(ctx, http.MethodGet, "/api/rooms/"+code+"/records", nil, &recs); err != nil {
		t.Fatal(err)
	}
	entries, err := e.st.Since(ctx, code, 0)
	if err != nil {
		t.Fatal(err)
	}
	o := newOracle(t, recs, seats)
	for _, en := range entries {
		var l match.Logged
		if err := json.Unmarshal(en.Data, &l); err != nil {
			t.Fatal(err)
		}
		o.apply(en.Version, l)
	}
	return o, watchers
}

func redial(t *testing.T, ctx context.Context, e *env, code, token string, since int64, name string, w *frameWatcher) *client.Conn {
	t.Helper()
	r := &recorder{name: name}
	w.recs = append(w.recs, r)
	return dialRec(t, ctx, e.ts, client.Options{Room: code, Token: token, Since: since}, r)
}

// oracle is the room rebuilt from its event log, version by version.
type oracle struct {
	seats   int
	solo    bool
	deals   map[int]*golf.Deal
	at      map[int64]*ostate // the state after each version
	last    int64             // the last version in the log
	cur     *ostate
	redeals int
	// public[v]: the move of event v was one everyone may see.
	public map[int64]bool
	behind int
}

type ostate struct {
	hole  int
	moves [][]golf.Move // of the hole in play, by seat
	done  []bool
	score []int
	end   []string
	over  bool // the hole in play is over for everyone
}

func (s *ostate) clone() *ostate {
	c := *s
	c.moves = make([][]golf.Move, len(s.moves))
	for i, m := range s.moves {
		c.moves[i] = slices.Clone(m)
	}
	c.done, c.score, c.end = slices.Clone(s.done), slices.Clone(s.score), slices.Clone(s.end)
	return &c
}

func newOracle(t *testing.T, recs protocol.Records, seats int) *oracle {
	t.Helper()
	o := &oracle{seats: seats, solo: seats == 1, deals: map[int]*golf.Deal{}, at: map[int64]*ostate{}, public: map[int64]bool{}, cur: &ostate{}}
	for _, h := range recs.Holes {
		d := golf.NewDeal(h.Records[0].Variant, h.Records[0].Seed)
		o.deals[h.Number] = &d
	}
	return o
}

func (o *oracle) apply(v int64, l match.Logged) {
	s := o.cur
	if l.Kind == match.KindMove && l.Hole == s.hole {
		m := l.Move
		if m.Action == golf.Undo {
			s.moves[l.Seat] = s.moves[l.Seat][:len(s.moves[l.Seat])-1]
		} else {
			s.moves[l.Seat] = append(s.moves[l.Seat], m)
		}
		if m.Action == golf.Redeal {
			o.redeals++
		}
	}
	for _, n := range l.Notices {
		switch n.Kind {
		case match.NoticeSeatDone:
			if n.Hole == s.hole {
				s.done[n.Seat], s.score[n.Seat], s.end[n.Seat] = true, n.Score, n.End
			}
		case "holeEnded":
			if n.Hole == s.hole {
				s.over = true
			}
		}
	}
	if l.Kind == match.KindMove {
		o.public[v] = s.over || o.solo
	}
	for _, n := range l.Notices {
		if n.Kind == "holeStarted" {
			o.cur = &ostate{hole: n.Hole, moves: make([][]golf.Move, o.seats), done: make([]bool, o.seats), score: make([]int, o.seats), end: make([]string, o.seats)}
		}
	}
	o.at[v] = o.cur.clone()
	o.last = max(o.last, v)
}

// settled returns seat p's moves that anyone else may see at state s:
// all of them once the hole is over (or in solo practice); else those p
// made while p had turned fewer than f stock cards, f the fewest turns of
// any seat still playing.
func (o *oracle) settled(s *ostate, p int) []golf.Move {
	if s.over || o.solo {
		return s.moves[p]
	}
	f := -1
	for i, ms := range s.moves {
		if s.done[i] {
			continue
		}
		n := 0
		for _, m := range ms {
			if m.Action == golf.Turn {
				n++
			}
		}
		if f < 0 || n < f {
			f = n
		}
	}
	if f < 0 {
		return s.moves[p]
	}
	turned := 0
	for k, m := range s.moves[p] {
		if turned >= f {
			return s.moves[p][:k]
		}
		if m.Action == golf.Turn {
			turned++
		}
	}
	return s.moves[p]
}

// want is the board the oracle expects from moves on the deal.
type wantBoard struct {
	piles                             [][]string
	waste                             []string
	playable                          []int
	canTurn, canRedeal, over, cleared bool
	stockLeft, cardsLeft, moves, run  int
	score, redealsLeft                int
}

func (o *oracle) board(d *golf.Deal, moves []golf.Move, finished bool) wantBoard {
	st := golf.NewState(d)
	for _, m := range moves {
		if err := st.Apply(m); err != nil {
			panic(err)
		}
	}
	w := wantBoard{
		stockLeft: st.StockLeft(), cardsLeft: st.CardsLeft(), moves: len(moves), score: st.Score(),
		redealsLeft: st.RedealsLeft(), over: st.Over(), cleared: st.Cleared(), playable: []int{},
	}
	for _, pile := range st.Piles() {
		var ps []string
		for _, c := range pile {
			if c == golf.NoCard {
				ps = append(ps, "")
			} else {
				ps = append(ps, c.String())
			}
		}
		w.piles = append(w.piles, ps)
	}
	for _, c := range st.Waste() {
		w.waste = append(w.waste, c.String())
	}
	if !finished {
		for _, m := range st.Legal() {
			switch m.Action {
			case golf.Play:
				w.playable = append(w.playable, int(m.Pile))
			case golf.Turn:
				w.canTurn = true
			case golf.Redeal:
				w.canRedeal = true
			}
		}
	}
	for k := len(moves) - 1; k >= 0 && moves[k].Action == golf.Play; k-- {
		w.run++
	}
	return w
}

func (w wantBoard) diff(b *match.Board) string {
	got := wantBoard{
		waste: b.Waste, playable: b.Playable, canTurn: b.CanTurn, canRedeal: b.CanRedeal, over: b.Over, cleared: b.Cleared,
		stockLeft: b.StockLeft, cardsLeft: b.CardsLeft, moves: b.Moves, run: b.Run, score: b.Score, redealsLeft: b.RedealsLeft,
	}
	for _, p := range b.Piles {
		got.piles = append(got.piles, slices.Clone(p))
	}
	if len(got.waste) == 0 {
		got.waste = nil
	}
	if fmt.Sprint(got) != fmt.Sprint(w) {
		return fmt.Sprintf("board of seat %d:\n got %+v\nwant %+v", b.Seat, got, w)
	}
	return ""
}

// checkAll checks every frame of every watcher; it returns how many frames
// it checked and what was wrong.
func (o *oracle) checkAll(watchers []*frameWatcher) (int, []string) {
	n := 0
	var problems []string
	for _, w := range watchers {
		for _, r := range w.recs {
			msgs, errs := decodeFrames(r.messages())
			for i, m := range msgs {
				if err := errs[i]; err != nil {
					problems = append(problems, fmt.Sprintf("%s frame %d: %v", r.name, i, err))
					continue
				}
				fail := func(format string, a ...any) {
					problems = append(problems, fmt.Sprintf("%s (seat %d) frame %d (v%d): %s", r.name, w.seat, i, m.V, fmt.Sprintf(format, a...)))
				}
				checked := false
				if m.Event != nil {
					checked = true
					ev := m.Event
					if ev.Kind == match.KindMove && ev.Seat != w.seat && (ev.Move != "" || ev.Card != "") && (ev.V > o.last || !o.public[ev.V]) {
						fail("shows move %q card %q of seat %d, not public at v%d", ev.Move, ev.Card, ev.Seat, ev.V)
					}
				}
				if m.View != nil && m.View.Hole > 0 {
					checked = true
					for _, p := range o.checkView(m.View, w.seat) {
						fail("%s", p)
					}
				}
				if checked {
					n++
				}
			}
		}
	}
	return n, problems
}

func (o *oracle) checkView(v *match.View, seat int) []string {
	s := o.at[v.V]
	if s == nil && v.V > o.last {
		// An event after the log was read (the solver's best score, a
		// departure): the round is over, no game changes any more.
		s = o.at[o.last]
	}
	if s == nil {
		return []string{fmt.Sprintf("no oracle state at v%d", v.V)}
	}
	if s.hole != v.Hole {
		return []string{fmt.Sprintf("view of hole %d, oracle at hole %d", v.Hole, s.hole)}
	}
	d := o.deals[s.hole]
	var out []string
	if len(v.Progress) != o.seats {
		return []string{fmt.Sprintf("%d progress rows", len(v.Progress))}
	}
	for p := range o.seats {
		moves := s.moves[p]
		if p != seat {
			moves = o.settled(s, p)
		}
		whole := len(moves) == len(s.moves[p])
		if !whole {
			o.behind++
		}
		want := o.board(d, moves, s.done[p] && whole)
		if s.done[p] {
			// The score of a finished seat is its real one
			// (docs/fairplay.md), whatever the board shown.
			want.score = s.score[p]
		}
		row := v.Progress[p]
		if row.Seat != p || row.Done != s.done[p] {
			out = append(out, fmt.Sprintf("progress of seat %d: %+v, want done %v", p, row, s.done[p]))
		}
		if s.done[p] != (row.Score != nil) || row.Score != nil && *row.Score != s.score[p] {
			out = append(out, fmt.Sprintf("score of seat %d: %v, done %v score %d", p, row.Score, s.done[p], s.score[p]))
		}
		var b *match.Board
		switch {
		case p == seat:
			b = v.Board
			if b == nil {
				out = append(out, "a player without its board")
				continue
			}
		default:
			for _, x := range v.Boards {
				if x.Seat == p {
					b = x
				}
			}
			if b == nil {
				out = append(out, fmt.Sprintf("no board of seat %d", p))
				continue
			}
		}
		if b.Hole != s.hole || b.Done != s.done[p] {
			out = append(out, fmt.Sprintf("board of seat %d: hole %d done %v, want %d %v", p, b.Hole, b.Done, s.hole, s.done[p]))
		}
		if p != seat && !whole && b.Wait == nil {
			out = append(out, fmt.Sprintf("board of seat %d waits without saying why", p))
		}
		if d := want.diff(b); d != "" {
			out = append(out, d)
		}
	}
	if seat < 0 && v.Board != nil {
		out = append(out, "a spectator with a board of its own")
	}
	if want := o.seats - min(max(seat+1, 0), 1); len(v.Boards) != want {
		out = append(out, fmt.Sprintf("%d boards, want %d", len(v.Boards), want))
	}
	return out
}

// countCatchUp counts the events without a view (catch-up after a
// reconnect with Since) that reconnected watchers received.
// othersPlaying reports whether a seat other than skip still plays its
// hole: dropping skip then leaves moves to catch up on.
func othersPlaying(conns []*client.Conn, skip int) bool {
	for j, c := range conns {
		if v := c.View(); j != skip && v != nil && v.Board != nil && !v.Board.Done && v.Status == match.Playing {
			return true
		}
	}
	return false
}

func countCatchUp(watchers []*frameWatcher) int {
	n := 0
	for _, w := range watchers {
		for _, r := range w.recs[1:] {
			for _, raw := range r.messages() {
				var m protocol.ServerMessage
				if json.Unmarshal(raw, &m) == nil && m.Type == protocol.TypeEvent && m.View == nil && m.Patch == nil {
					n++
				}
			}
		}
	}
	return n
}

// TestSettledTournament: a tournament hole is settled at f = 0 for anyone
// but its player until it is safe (every entrant still to play it has
// finished it), whole after. Ana plays hole 1 move by move; after each move
// the watcher's view of her (GET /api/tournaments/{id}/entrants/0), her
// replay and the records are fetched and checked against her room's
// stored game, rebuilt on the golf engine; the tournament socket's frames
// never carry a board or a move.
func TestSettledTournament(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e := newEnv(t)
	host, err := e.api.CreateTournament(ctx, map[string]any{"name": "Settled Open", "holes": 9}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	id := host.ID
	bo, err := e.api.JoinTournament(ctx, id, protocol.JoinTournamentRequest{Name: "Bo"})
	if err != nil {
		t.Fatal(err)
	}
	var log frameLog
	w, err := client.DialTournament(ctx, e.ts, id, "", 1, 10, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	log.record(w, "watcher")
	if err := e.api.HostTournament(ctx, id, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	checked := 0
	// watch checks what anyone sees of entrant 0 now; safe says whether
	// hole is safe by now.
	watch := func(room string, safe bool) {
		t.Helper()
		var ew protocol.EntrantWatch
		log.get(t, ctx, e.api, fmt.Sprint("/api/tournaments/", id, "/entrants/0"), &ew)
		checked++
		if ew.Progress == nil {
			return // between holes, or finished
		}
		r := e.room(t, room)
		h := r.Holes[len(r.Holes)-1]
		if ew.Hole != h.Number {
			t.Fatalf("watching hole %d, room at %d", ew.Hole, h.Number)
		}
		g := h.Games[0]
		d := golf.NewDeal(r.Settings.Variant, h.Seed)
		moves := []golf.Move{} // f = 0: nothing of hers
		if slices.Contains(ew.Safe, h.Number) {
			moves = g.Moves
		}
		st := golf.NewState(&d)
		for _, m := range moves {
			if err := st.Apply(m); err != nil {
				t.Fatal(err)
			}
		}
		p := ew.Progress
		if p.Moves != len(moves) || p.CardsLeft != st.CardsLeft() || p.StockLeft != st.StockLeft() || p.Done != g.Done || (p.Score != nil) != g.Done {
			t.Errorf("watching Ana on hole %d (%d moves, safe %v): %+v, want moves %d cards %d stock %d done %v",
				h.Number, len(g.Moves), ew.Safe, p, len(moves), st.CardsLeft(), st.StockLeft(), g.Done)
		}
		if (ew.Board != nil) != slices.Contains(ew.Safe, h.Number) {
			t.Errorf("a board of hole %d shown with safe holes %v", h.Number, ew.Safe)
		}
		if !safe && p.Wait == nil {
			t.Errorf("no reason given why Ana's hole %d waits", h.Number)
		}
		var rp match.Replay
		_, err := e.api.Call(ctx, http.MethodGet, fmt.Sprint("/api/tournaments/", id, "/entrants/0/holes/", h.Number, "/replay"), nil, &rp)
		if !safe && err == nil {
			t.Errorf("replay of hole %d before it is safe", h.Number)
		}
		var recs tourney.Records
		log.get(t, ctx, e.api, "/api/tournaments/"+id+"/records", &recs)
		for _, hr := range recs.Holes {
			if hr.Number == h.Number && !safe {
				t.Errorf("records of hole %d before it is safe", h.Number)
			}
		}
	}
	// Ana plays hole 1, move by move, watched after each.
	g, err := e.api.PlayTournament(ctx, id, host.Token)
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, ctx, e.ts, g.Room, host.Token)
	go func() {
		for range c.Updates() {
		}
	}()
	for {
		v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil })
		if err != nil {
			t.Fatal(err)
		}
		watch(g.Room, false)
		b := v.Board
		if b.Hole > 1 || b.Done {
			break
		}
		move := "s"
		if len(b.Playable) > 0 {
			move = itoa(b.Playable[0])
		} else if !b.CanTurn {
			break
		}
		if _, err := c.Move(ctx, 1, move); err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitView(ctx, func(w *match.View) bool { return w.V > v.V }); err != nil {
			t.Fatal(err)
		}
	}
	// Bo plays hole 1: it is safe, and Ana's hole 1 is whole for anyone.
	playEntrantHole(t, ctx, e.ts, e.api, id, bo.Token, 1)
	waitPush(t, ctx, w, "hole 1 safe", func(m protocol.TournamentMessage) bool { return m.View != nil && len(m.View.Safe) == 1 })
	var rp match.Replay
	if _, err := e.api.Call(ctx, http.MethodGet, fmt.Sprint("/api/tournaments/", id, "/entrants/0/holes/1/replay"), nil, &rp); err != nil {
		t.Fatal(err)
	}
	ana := e.room(t, g.Room).Holes[0].Games[0]
	if len(rp.Moves) != len(ana.Moves) || rp.Score != ana.Score {
		t.Errorf("replay %d moves score %d, want %d, %d", len(rp.Moves), rp.Score, len(ana.Moves), ana.Score)
	}
	// Ana is on hole 2, which Bo has not played: settled at 0 again.
	if _, err := c.Move(ctx, 2, "s"); err != nil {
		t.Fatal(err)
	}
	watch(g.Room, false)
	time.Sleep(pushEveryTest)
	for _, f := range log.all() {
		checked++
		s := string(f.data)
		if f.what == "watcher" && (strings.Contains(s, `"piles"`) || strings.Contains(s, `"move"`)) {
			t.Errorf("the tournament socket shows a board or a move: %.300s", s)
		}
	}
	settledFramesChecked.Add(int64(checked))
	t.Logf("%d tournament frames and answers checked", checked)
}

// caughtUp waits until the view of every seat but those skip leaves out
// has version v, and reports whether any had not.
func caughtUp(t *testing.T, ctx context.Context, conns []*client.Conn, v int64, skip func(int) bool) bool {
	t.Helper()
	behind := false
	for i, c := range conns {
		if skip(i) {
			continue
		}
		if w := c.View(); w != nil && w.V >= v {
			continue
		}
		behind = true
		if _, err := c.WaitView(ctx, func(w *match.View) bool { return w.V >= v }); err != nil {
			t.Fatalf("seat %d catching up with version %d: %v", i, v, err)
		}
	}
	return behind
}
