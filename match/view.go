package match

import (
	"time"

	"golfsolitaire/golf"
)

// SpectatorSeat is the viewer seat of a spectator.
const SpectatorSeat = -1

// View is what one participant may see of a room at a version. Players get
// their own board and the others' progress; spectators get every board of
// the hole in play with the stock cards that a player still playing has not
// yet turned hidden. Nobody gets the round seed before the round is over.
type View struct {
	V          int64    `json:"v"`
	Code       string   `json:"code"`
	Settings   Settings `json:"settings"`
	Status     Status   `json:"status"`
	Round      int      `json:"round"`
	Hole       int      `json:"hole"` // hole in play (or last played); 0 before play
	HoleClock  *Clock   `json:"clock,omitempty"`
	Commitment string   `json:"commitment,omitempty"`
	Seed       string   `json:"seed,omitempty"` // revealed when the round is over
	// Deals, revealed with Seed, are the round's chosen deals (Room.Deals)
	// in hole order, spare sudden-death deals included, so anyone can
	// check golf.PooledRoundSeed(Deals) against Seed.
	Deals []string `json:"deals,omitempty"`
	// Tournament is the id of the tournament the room belongs to, if any.
	Tournament string     `json:"tournament,omitempty"`
	You        int        `json:"you"` // your seat, -1 for a spectator
	Seats      []SeatView `json:"seats"`
	Board      *Board     `json:"board,omitempty"` // your board of the hole in play
	// Boards are the settled boards (Others) of the hole in play: every
	// seat's for a spectator, the other seats' for a player.
	Boards []*Board `json:"boards,omitempty"`
	// Progress has a row per seat: whether it has finished the hole in
	// play, and its score and end once it has. How far a seat has got
	// (its counts, and why a settled board waits) is on its board in
	// Board or Boards, which every socket view carries for every seat.
	Progress  []Finish  `json:"progress"`
	Standings Standings `json:"standings"`
	// Revealed lists the holes whose boards and moves everyone may now see.
	Revealed []int `json:"revealed"`
	// Best is the best possible score of each revealed hole of the round
	// (never of a hole in play; never in a tournament room).
	Best []HoleBest `json:"best,omitempty"`
	// Difficulty rates the current hole's deal, 1 (easy) to 5
	// (unclearable), in solo practice only, once that hole is over (the
	// rating is of the whole deal, stock included: during play it would
	// tell what the hidden stock holds); DifficultyName is its name
	// (golf.Difficulty). Best carries the rating of every finished hole.
	Difficulty     int    `json:"difficulty,omitempty"`
	DifficultyName string `json:"difficultyName,omitempty"`
}

// Clock is the hole clock.
type Clock struct {
	Started  time.Time `json:"started"`
	Deadline time.Time `json:"deadline"`
}

// SeatView is a seat as others see it (never the token).
type SeatView struct {
	Name      string    `json:"name"`
	Ready     bool      `json:"ready"`
	Bot       bool      `json:"bot,omitempty"`
	Away      bool      `json:"away,omitempty"`
	AwaySince time.Time `json:"awaySince,omitzero"`
	// GraceEnds is when an away player's hole will be scored as it stands.
	GraceEnds time.Time `json:"graceEnds,omitzero"`
}

// Finish is a seat's row of View.Progress: whether it has finished the
// hole (the real game, public race information), and its score and end
// once it has.
type Finish struct {
	Seat  int    `json:"seat"`
	Done  bool   `json:"done"`
	Score *int   `json:"score,omitempty"` // once done
	End   string `json:"end,omitempty"`
}

// Progress is a seat's progress as someone without its board sees it
// (the tournament's entrant API): the counts of its settled board for
// everyone but the seat itself (Others), why it waits, whether it has
// finished the hole, and its score and end once it has.
type Progress struct {
	Seat      int    `json:"seat"`
	CardsLeft int    `json:"cardsLeft"`
	StockLeft int    `json:"stockLeft"`
	Moves     int    `json:"moves"`
	Done      bool   `json:"done"`
	Score     *int   `json:"score,omitempty"` // once done
	End       string `json:"end,omitempty"`
	Wait      *Wait  `json:"wait,omitempty"`
}

// Board is one game as a viewer may see it. Hidden cards are "??".
type Board struct {
	Seat int `json:"seat"`
	Hole int `json:"hole"`
	// Layout is "columns" or the pyramid-like game's name.
	Layout string `json:"layout"`
	// Piles are the tableau, deepest card first; for pyramid layouts every
	// position keeps its place and a removed card is "".
	Piles       [][]string `json:"piles"`
	Waste       []string   `json:"waste"` // bottom to top
	StockLeft   int        `json:"stockLeft"`
	RedealsLeft int        `json:"redealsLeft"`
	CardsLeft   int        `json:"cardsLeft"`
	// Playable lists the piles (1-based) whose card may be played now.
	Playable  []int  `json:"playable"`
	CanTurn   bool   `json:"canTurn"`
	CanRedeal bool   `json:"canRedeal"`
	CanUndo   bool   `json:"canUndo"`
	Over      bool   `json:"over"`
	Cleared   bool   `json:"cleared"`
	Done      bool   `json:"done"`
	End       string `json:"end,omitempty"`
	Score     int    `json:"score"`
	Moves     int    `json:"moves"`
	// Run is how many cards were played in a row since the last stock turn
	// (or since the deal): the length of the current run of plays.
	Run int `json:"run"`
	// Wait, on a board of someone else's hole, says why it is not the
	// whole game: whose stock turn it waits for (see Settle).
	Wait *Wait `json:"wait,omitempty"`
	// names is the array Piles and Waste are slices of (boardCards).
	names []string
}

// Hidden is how a card the viewer may not see is shown.
const Hidden = "??"

// NoSeat is the viewer seat of someone who is neither a player of the room
// nor a spectator on its socket: HTTP APIs, listings, tournament watchers.
const NoSeat = -2

// View returns what the viewer (a seat, SpectatorSeat or NoSeat) may see
// now. A player's own board and own progress row are live; everything of
// any other seat's hole comes from Others (the settled board).
func (r *Room) View(seat int) View {
	v := r.sharedView(r.Standings())
	v.You = seat
	h := r.CurrentHole()
	if h == nil {
		return v
	}
	own := seat >= 0 && seat < len(h.Games)
	if !own && !(seat == SpectatorSeat && r.Settings.Spectators) {
		return v
	}
	for i := range h.Games {
		if own && i == seat {
			v.Board = r.board(h, i)
			continue
		}
		v.Boards = append(v.Boards, r.Others(h, i, seat).Board)
	}
	return v
}

// sharedView is what every viewer's view holds alike: all but You, Board
// and Boards. Progress rows are alike too: a row holds only whether the
// seat has finished the hole, and its score and end once it has (the real
// game's, public race information), for its own player as for anyone else.
func (r *Room) sharedView(st Standings) View {
	var v View
	r.sharedViewInto(&v, st)
	return v
}

// sharedViewInto is sharedView into v, reusing the arrays of v's lists
// (ViewCache builds one a version, encodes it and lets it go).
func (r *Room) sharedViewInto(v *View, st Standings) {
	seats, progress, revealed, best := v.Seats[:0], v.Progress[:0], v.Revealed[:0], v.Best[:0]
	if progress == nil {
		progress = []Finish{}
	}
	if revealed == nil {
		revealed = []int{}
	}
	*v = View{
		V: r.Version, Code: r.Code, Settings: r.Settings, Status: r.Status, Round: r.Round,
		Standings: st, Progress: progress, Revealed: revealed,
		Tournament: r.Tournament,
	}
	if r.Status != Waiting {
		v.Commitment = r.commitment()
	}
	if r.Status == Finished && r.Tournament == "" {
		v.Seed = r.Seed.String()
		for _, d := range r.Deals {
			v.Deals = append(v.Deals, d.String())
		}
	}
	h := r.CurrentHole()
	for i, s := range r.Seats {
		sv := SeatView{Name: s.Name, Ready: s.Ready, Bot: s.Bot, Away: s.Away, AwaySince: s.AwaySince}
		if h != nil {
			if d, ok := r.graceDeadline(h, i); ok {
				sv.GraceEnds = d
			}
		}
		seats = append(seats, sv)
	}
	if len(seats) > 0 {
		v.Seats = seats
	}
	if h == nil {
		return
	}
	v.Hole = h.Number
	for _, x := range r.Holes {
		if x.Done {
			v.Revealed = append(v.Revealed, x.Number)
			if x.Best != nil && r.Tournament == "" {
				hb := HoleBest{Hole: x.Number, Best: *x.Best, Exact: x.BestExact}
				if x.Difficulty > 0 && r.RatesDeals() {
					hb.Difficulty, hb.DifficultyName = int(x.Difficulty), x.Difficulty.String()
				}
				best = append(best, hb)
			}
		}
	}
	if len(best) > 0 {
		v.Best = best
	}
	if h.Done && h.Difficulty > 0 && r.RatesDeals() {
		v.Difficulty, v.DifficultyName = int(h.Difficulty), h.Difficulty.String()
	}
	if r.Settings.HoleClock > 0 && r.Status == Playing {
		v.HoleClock = &Clock{Started: h.Started, Deadline: h.Started.Add(time.Duration(r.Settings.HoleClock) * time.Second)}
	}
	for i, g := range h.Games {
		f := Finish{Seat: i, Done: g.Done}
		if g.Done {
			score := g.Score
			f.Score, f.End = &score, g.End
		}
		v.Progress = append(v.Progress, f)
	}
}

// board shows seat i's own game to seat i: live.
func (r *Room) board(h *Hole, i int) *Board { return r.boardInto(new(Board), h, i) }

// boardInto draws seat i's game of hole h into b (see Board.draw).
func (r *Room) boardInto(b *Board, h *Hole, i int) *Board {
	vr := r.Settings.Variant
	g := h.Games[i]
	b.draw(h.Deal(vr), h.State(vr, i), g.Moves, g.Done)
	b.Seat, b.Hole, b.End = i, h.Number, g.End
	return b
}

// BoardOf draws a game from its state and moves. A done game lists no
// playable piles.
func BoardOf(d *golf.Deal, st *golf.State, moves []golf.Move, done bool) *Board {
	b := new(Board)
	b.draw(d, st, moves, done)
	return b
}

// draw draws a game into b, in the arrays of b's cards and playable
// piles from its drawing before, if any: a board drawn again is a
// scratch board (a player's own, encoded and then dropped), of which
// nothing else keeps a part.
func (b *Board) draw(d *golf.Deal, st *golf.State, moves []golf.Move, done bool) {
	vr := d.Variant
	names, piles, playable := b.names, b.Piles, b.Playable
	if playable == nil {
		playable = []int{}
	}
	*b = Board{
		Layout: d.Layout().Shape, StockLeft: st.StockLeft(), RedealsLeft: st.RedealsLeft(),
		CardsLeft: st.CardsLeft(), Over: st.Over(), Cleared: st.Cleared(), Done: done,
		Score: st.Score(), Moves: len(moves), Playable: playable[:0],
	}
	b.names, b.Piles, b.Waste = boardCards(d, st, names, piles)
	if !done {
		var legal [8]golf.Move
		for _, m := range st.AppendLegal(legal[:0]) {
			switch m.Action {
			case golf.Play:
				b.Playable = append(b.Playable, int(m.Pile))
			case golf.Turn:
				b.CanTurn = true
			case golf.Redeal:
				b.CanRedeal = true
			}
		}
		b.CanUndo = vr.Options.Undo && len(moves) > 0
	}
	for j := len(moves) - 1; j >= 0 && moves[j].Action == golf.Play; j-- {
		b.Run++
	}
}

// boardCards names the cards of a board's piles (State.Piles, a removed
// card of a one-row layout "") and waste, all in one backing array
// (names): a board is drawn for every move of its seat. The arrays of
// names and piles given are reused when large enough.
func boardCards(d *golf.Deal, st *golf.State, names []string, piles [][]string) ([]string, [][]string, []string) {
	l := d.Layout()
	n, one := 0, l.Rows == 1
	for p := 0; p < l.Positions; p++ {
		if one || st.Present(p) {
			n++
		}
	}
	nw := st.WasteLen()
	if cap(names) < n+nw {
		names = make([]string, n+nw)
	}
	names = names[:n+nw]
	// Count each pile's cards, then fill the piles in position order
	// (deepest card first, as State.Piles).
	if cap(piles) < l.Piles() {
		piles = make([][]string, l.Piles())
	}
	piles = piles[:l.Piles()]
	var counts [64]int
	for p := 0; p < l.Positions; p++ {
		if one || st.Present(p) {
			counts[l.PileOf(p)]++
		}
	}
	at := 0
	for i := range piles {
		piles[i] = names[at : at : at+counts[i]]
		at += counts[i]
	}
	for p := 0; p < l.Positions; p++ {
		i := l.PileOf(p)
		switch {
		case st.Present(p):
			piles[i] = append(piles[i], d.At(p).String())
		case one:
			piles[i] = append(piles[i], "")
		}
	}
	waste := names[n : n : n+nw]
	for j := range nw {
		waste = append(waste, st.WasteAt(j).String())
	}
	return names, piles, waste
}

// lastWasteOrigin is the last of wasteOrigins(d, moves), -1 if there is
// none, without the slices in a game without redeals (every move's event
// asks for it).
func lastWasteOrigin(d *golf.Deal, moves []golf.Move) int {
	last, next, n := -1, 0, d.StockLen()
	for _, m := range moves {
		switch m.Action {
		case golf.Play:
			last = -1
		case golf.Turn:
			if next < n {
				last = next
				next++
			}
		case golf.Redeal:
			if o := wasteOrigins(d, moves); len(o) > 0 {
				return o[len(o)-1]
			}
			return -1
		}
	}
	return last
}

// wasteOrigins follows the moves and returns, for each waste card, its
// first-pass stock turn index, or -1 for a card that came from the tableau
// or started the waste (both seen by everyone).
func wasteOrigins(d *golf.Deal, moves []golf.Move) []int {
	var waste []int
	if d.Start() != golf.NoCard {
		waste = append(waste, -1)
	}
	stock := make([]int, d.StockLen())
	for i := range stock {
		stock[i] = i
	}
	next := 0
	for _, m := range moves {
		switch m.Action {
		case golf.Play:
			waste = append(waste, -1)
		case golf.Turn:
			if next < len(stock) {
				waste = append(waste, stock[next])
				next++
			}
		case golf.Redeal:
			stock = append([]int(nil), waste...)
			waste = []int{stock[0]}
			next = 1
		}
	}
	return waste
}

// EventView is an event as one participant may see it.
type EventView struct {
	// V is the event's version: the v of the frame that carries it, which
	// is not repeated inside the event (the Go client fills it in).
	V    int64 `json:"-"`
	Kind Kind  `json:"kind"`
	// At is when the event happened, in milliseconds since the Unix epoch
	// (Time turns it back into a time). Frames that carry a patch leave
	// it out (zero): a live client has the event as it happens.
	At      int64    `json:"at,omitempty"`
	Seat    int      `json:"seat"`
	Hole    int      `json:"hole,omitempty"`
	Move    string   `json:"move,omitempty"` // the mover's own moves, or once public
	Card    string   `json:"card,omitempty"` // the card the move put on the waste
	Name    string   `json:"name,omitempty"`
	Ready   bool     `json:"ready,omitempty"`
	Notices []Notice `json:"notices,omitempty"`
}

// Time is when the event happened (to the millisecond).
func (e EventView) Time() time.Time { return time.UnixMilli(e.At) }

// Logged is an event as it is stored: the event and what followed from it
// when it was applied, so history can be shown later exactly as it was.
type Logged struct {
	Event
	Notices []Notice `json:"notices,omitempty"`
	// Card is the card a move put on the waste; Origin is its first-pass
	// stock turn index, or -1 for a card everyone has seen.
	Card   golf.Card `json:"card,omitzero"`
	Origin int       `json:"origin"`
	// Public is set when, at the version of the event, the move was one
	// everyone in the room may see (Settle was Whole for a spectator): its
	// hole was over for everyone, or the room is single-seat practice.
	Public bool `json:"public,omitempty"`
}

// Log returns the stored form of ev, which has just been applied.
func (r *Room) Log(ev Event, notices []Notice) Logged {
	l := Logged{Event: ev, Notices: notices, Origin: -1}
	if ev.Kind == KindMove && ev.Move.Action != golf.Undo {
		if h := r.holeNumber(ev.Hole); h != nil && ev.Seat < len(h.Games) {
			g := h.Games[ev.Seat]
			l.Card = h.State(r.Settings.Variant, ev.Seat).WasteTop()
			l.Origin = lastWasteOrigin(h.Deal(r.Settings.Variant), g.Moves)
		}
	}
	if ev.Kind == KindMove || ev.Kind == KindStand {
		if h := r.holeNumber(ev.Hole); h != nil {
			f, _, _ := r.settle(h, SpectatorSeat)
			l.Public = f == Whole
		}
	}
	return l
}

// EventView returns a logged event as the viewer may see it. The move and
// its card are shown to the mover, and to anyone else only when they were
// public at the version of the event (Logged.Public): an event is redacted
// as of the version it describes, whenever it is sent (live, or to catch a
// client up after a reconnect). Others learn that the seat moved; what its
// board looks like comes from the view (Others).
func (r *Room) EventView(l Logged, v int64, seat int) EventView {
	ev := l.Event
	out := EventView{V: v, Kind: ev.Kind, At: ev.At.UnixMilli(), Seat: ev.Seat, Hole: ev.Hole, Notices: l.Notices}
	switch ev.Kind {
	case KindJoin:
		out.Name = ev.Name
	case KindReady:
		out.Ready = ev.Ready
	case KindMove:
		if seat != ev.Seat && !l.Public {
			break
		}
		out.Move = ev.Move.String()
		if l.Card != golf.NoCard {
			out.Card = l.Card.String()
		}
	}
	return out
}

func (r *Room) holeNumber(n int) *Hole {
	for _, h := range r.Holes {
		if h.Number == n {
			return h
		}
	}
	return nil
}

// HoleRecords returns every seat's record of hole n of the current round,
// but only once the hole is whole for anyone (Settle; before that it would
// show stock cards): ok is false otherwise.
func (r *Room) HoleRecords(n int) (recs []golf.Record, ok bool) {
	h := r.holeNumber(n)
	if h == nil || !h.Done {
		// A record names the hole's seed: never while anyone plays it.
		return nil, false
	}
	f, _, _ := r.settle(h, NoSeat)
	for i := range h.Games {
		rec, ok := r.RecordAt(h, i, f)
		if !ok {
			return nil, false
		}
		recs = append(recs, rec)
	}
	return recs, true
}
