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
	// Tournament is the id of the tournament the room belongs to, if any.
	Tournament string     `json:"tournament,omitempty"`
	You        int        `json:"you"` // your seat, -1 for a spectator
	Seats      []SeatView `json:"seats"`
	Board      *Board     `json:"board,omitempty"`  // your board of the hole in play
	Boards     []*Board   `json:"boards,omitempty"` // spectators: every board
	Progress   []Progress `json:"progress"`
	Standings  Standings  `json:"standings"`
	// Revealed lists the holes whose boards and moves everyone may now see.
	Revealed []int `json:"revealed"`
	// Best is the best possible score of each revealed hole of the round
	// (never of a hole in play; never in a tournament room).
	Best []HoleBest `json:"best,omitempty"`
	// Difficulty rates the deal in play, 1 (easy) to 5 (unclearable), in
	// solo practice only; DifficultyName is its name (golf.Difficulty).
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

// Progress is what opponents see of a game in progress.
type Progress struct {
	Seat      int    `json:"seat"`
	CardsLeft int    `json:"cardsLeft"`
	StockLeft int    `json:"stockLeft"`
	Moves     int    `json:"moves"`
	Done      bool   `json:"done"`
	Score     *int   `json:"score,omitempty"` // once done
	End       string `json:"end,omitempty"`
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
	Run       int    `json:"run"` // cards played since the last stock turn
}

// Hidden is how a card the viewer may not see is shown.
const Hidden = "??"

// View returns what the viewer (a seat, or SpectatorSeat) may see now.
func (r *Room) View(seat int) View {
	v := View{
		V: r.Version, Code: r.Code, Settings: r.Settings, Status: r.Status, Round: r.Round,
		You: seat, Standings: r.Standings(), Progress: []Progress{}, Revealed: []int{},
		Tournament: r.Tournament,
	}
	if r.Status != Waiting {
		v.Commitment = r.Seed.Commitment()
	}
	if r.Status == Finished && r.Tournament == "" {
		v.Seed = r.Seed.String()
	}
	h := r.CurrentHole()
	for i, s := range r.Seats {
		sv := SeatView{Name: s.Name, Ready: s.Ready, Bot: s.Bot, Away: s.Away, AwaySince: s.AwaySince}
		if h != nil {
			if d, ok := r.graceDeadline(h, i); ok {
				sv.GraceEnds = d
			}
		}
		v.Seats = append(v.Seats, sv)
	}
	if h == nil {
		return v
	}
	v.Hole = h.Number
	for _, x := range r.Holes {
		if x.Done {
			v.Revealed = append(v.Revealed, x.Number)
			if x.Best != nil && r.Tournament == "" {
				v.Best = append(v.Best, HoleBest{Hole: x.Number, Best: *x.Best, Exact: x.BestExact})
			}
		}
	}
	if h.Difficulty > 0 && r.Settings.Solo() && r.Tournament == "" {
		v.Difficulty, v.DifficultyName = int(h.Difficulty), h.Difficulty.String()
	}
	if r.Settings.HoleClock > 0 && r.Status == Playing {
		v.HoleClock = &Clock{Started: h.Started, Deadline: h.Started.Add(time.Duration(r.Settings.HoleClock) * time.Second)}
	}
	vr := r.Settings.Variant
	for i, g := range h.Games {
		st := h.State(vr, i)
		p := Progress{Seat: i, CardsLeft: st.CardsLeft(), StockLeft: st.StockLeft(), Moves: len(g.Moves), Done: g.Done, End: g.End}
		if g.Done {
			score := g.Score
			p.Score = &score
		}
		v.Progress = append(v.Progress, p)
	}
	switch {
	case seat >= 0 && seat < len(h.Games):
		v.Board = r.board(h, seat, -1)
	case seat == SpectatorSeat && r.Settings.Spectators:
		bound := r.safeStock(h)
		for i := range h.Games {
			v.Boards = append(v.Boards, r.board(h, i, bound))
		}
	}
	return v
}

// safeStock is how many stock cards (in turn order) every player still
// playing the hole has already turned: those may be shown to spectators.
// It is -1 (no limit) once everyone has finished.
func (r *Room) safeStock(h *Hole) int {
	bound := -1
	vr := r.Settings.Variant
	total := len(h.Deal(vr).Stock())
	for _, g := range h.Games {
		if g.Done {
			continue
		}
		seen := 0
		for _, m := range g.Moves {
			if m.Action == golf.Turn {
				seen++
			}
			if m.Action == golf.Redeal {
				seen = total
				break
			}
		}
		seen = min(seen, total)
		if bound < 0 || seen < bound {
			bound = seen
		}
	}
	return bound
}

// board shows seat i's game. With bound >= 0, stock cards at turn index
// bound or later are hidden (spectator view).
func (r *Room) board(h *Hole, i, bound int) *Board {
	vr := r.Settings.Variant
	g := h.Games[i]
	b := boardOf(h.Deal(vr), h.State(vr, i), g.Moves, bound, g.Done)
	b.Seat, b.Hole, b.End = i, h.Number, g.End
	return b
}

// boardOf draws a game from its state and moves. With bound >= 0, stock
// cards at turn index bound or later are hidden. A done game lists no
// playable piles.
func boardOf(d *golf.Deal, st *golf.State, moves []golf.Move, bound int, done bool) *Board {
	vr := d.Variant
	b := &Board{
		Layout: d.Layout().Shape, StockLeft: st.StockLeft(), RedealsLeft: st.RedealsLeft(),
		CardsLeft: st.CardsLeft(), Over: st.Over(), Cleared: st.Cleared(), Done: done,
		Score: st.Score(), Moves: len(moves), Playable: []int{},
	}
	for _, pile := range st.Piles() {
		ps := make([]string, len(pile))
		for j, c := range pile {
			if c != golf.NoCard {
				ps[j] = c.String()
			}
		}
		b.Piles = append(b.Piles, ps)
	}
	waste := st.Waste()
	origins := wasteOrigins(d, moves)
	b.Waste = make([]string, len(waste))
	for j, c := range waste {
		if bound >= 0 && j < len(origins) && origins[j] >= bound {
			b.Waste[j] = Hidden
		} else {
			b.Waste[j] = c.String()
		}
	}
	if !done {
		for _, m := range st.Legal() {
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
	return b
}

// wasteOrigins follows the moves and returns, for each waste card, its
// first-pass stock turn index, or -1 for a card that came from the tableau
// or started the waste (both seen by everyone).
func wasteOrigins(d *golf.Deal, moves []golf.Move) []int {
	var waste []int
	if d.Start() != golf.NoCard {
		waste = append(waste, -1)
	}
	stock := make([]int, len(d.Stock()))
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
	V       int64     `json:"v"`
	Kind    Kind      `json:"kind"`
	At      time.Time `json:"at"`
	Seat    int       `json:"seat"`
	Hole    int       `json:"hole,omitempty"`
	Move    string    `json:"move,omitempty"` // the mover's own moves, or once revealed
	Card    string    `json:"card,omitempty"` // the card the move put on the waste
	Name    string    `json:"name,omitempty"`
	Ready   bool      `json:"ready,omitempty"`
	Notices []Notice  `json:"notices,omitempty"`
}

// Logged is an event as it is stored: the event and what followed from it
// when it was applied, so history can be shown later exactly as it was.
type Logged struct {
	Event
	Notices []Notice `json:"notices,omitempty"`
	// Card is the card a move put on the waste; Origin is its first-pass
	// stock turn index, or -1 for a card everyone has seen.
	Card   golf.Card `json:"card,omitzero"`
	Origin int       `json:"origin"`
}

// Log returns the stored form of ev, which has just been applied.
func (r *Room) Log(ev Event, notices []Notice) Logged {
	l := Logged{Event: ev, Notices: notices, Origin: -1}
	if ev.Kind == KindMove && ev.Move.Action != golf.Undo {
		if h := r.holeNumber(ev.Hole); h != nil && ev.Seat < len(h.Games) {
			g := h.Games[ev.Seat]
			origins := wasteOrigins(h.Deal(r.Settings.Variant), g.Moves)
			if l.Card = h.State(r.Settings.Variant, ev.Seat).WasteTop(); len(origins) > 0 {
				l.Origin = origins[len(origins)-1]
			}
		}
	}
	return l
}

// EventView returns a logged event as the viewer may see it now. For a move
// by another player during the hole only the fact of the move is shown;
// spectators see the move, and the card if every player still playing has
// turned it; once the hole is over for everyone, everything is shown.
func (r *Room) EventView(l Logged, v int64, seat int) EventView {
	ev := l.Event
	out := EventView{V: v, Kind: ev.Kind, At: ev.At, Seat: ev.Seat, Hole: ev.Hole, Notices: l.Notices}
	switch ev.Kind {
	case KindJoin:
		out.Name = ev.Name
	case KindReady:
		out.Ready = ev.Ready
	case KindMove, KindStand:
		h := r.holeNumber(ev.Hole)
		if h == nil {
			break
		}
		visible := seat == ev.Seat || h.Done || r.Status == Finished
		safe := visible
		if !visible && seat == SpectatorSeat && r.Settings.Spectators {
			visible = true
			bound := r.safeStock(h)
			safe = bound < 0 || l.Origin < bound
		}
		if !visible {
			break
		}
		if ev.Kind == KindMove {
			out.Move = ev.Move.String()
		}
		if safe && l.Card != golf.NoCard {
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
// but only once the hole is over for everyone (before that it would show
// stock cards): ok is false otherwise.
func (r *Room) HoleRecords(n int) (recs []golf.Record, ok bool) {
	h := r.holeNumber(n)
	if h == nil || !h.Done || r.Tournament != "" {
		return nil, false
	}
	for i := range h.Games {
		recs = append(recs, h.Record(r.Settings.Variant, i))
	}
	return recs, true
}
