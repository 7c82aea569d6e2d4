package load

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
)

// Baseline is the yardstick: a bare coder/websocket broadcast server with
// no game, no store and no views to compute. It speaks just enough of the
// protocol for the same client code to drive it: the API hands out seats,
// a hello gets a welcome and a snapshot, and every move frame gets what the
// real server sends, with the same sizes: the event (with the recipient's
// view, pre-rendered from a real room in play) to every connection of the
// room, the mover's included, then an ack to the mover. Other commands get
// an ack. It implements http.Handler.
type Baseline struct {
	views [][]byte // canned view JSON by seat
	hole  int
	mux   *http.ServeMux

	mu    sync.Mutex
	rooms map[string]*baseRoom
	next  int
}

type baseRoom struct {
	mu     sync.Mutex
	v      int64
	tokens []string
	conns  map[*websocket.Conn]int // seat of each connection
}

// NewBaseline returns a baseline for rooms of players seats, with views of
// a hole of the holes-hole round a few moves in.
func NewBaseline(players, holes int) (*Baseline, error) {
	views, hole, err := cannedViews(players, holes)
	if err != nil {
		return nil, err
	}
	b := &Baseline{views: views, hole: hole, rooms: map[string]*baseRoom{}}
	m := http.NewServeMux()
	m.HandleFunc("POST /api/rooms", b.create)
	m.HandleFunc("POST /api/rooms/{code}/join", b.join)
	m.HandleFunc("GET /ws", b.serveWS)
	b.mux = m
	return b, nil
}

// ServeHTTP implements http.Handler.
func (b *Baseline) ServeHTTP(w http.ResponseWriter, r *http.Request) { b.mux.ServeHTTP(w, r) }

// cannedViews plays a few moves of every seat in a real room and returns
// each seat's view, as JSON.
func cannedViews(players, holes int) ([][]byte, int, error) {
	set := match.DefaultSettings()
	set.Holes, set.Seats = holes, players
	if players > 2 {
		set.Format = match.Stroke
	}
	at := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	for n := 1; n <= 50; n++ {
		room, err := match.NewRoom(match.Event{Kind: match.KindCreate, At: at, Code: "BAS-ELI-NE0", Settings: &set})
		if err != nil {
			return nil, 0, err
		}
		seed := golf.NumberedSeed(n)
		for i := 0; i < players; i++ {
			if _, err := room.Apply(match.Event{Kind: match.KindJoin, At: at, Name: fmt.Sprintf("p%d", i), Token: fmt.Sprintf("%064x", i+1)}); err != nil {
				return nil, 0, err
			}
		}
		for i := 0; i < players; i++ {
			if _, err := room.Apply(match.Event{Kind: match.KindReady, At: at, Seat: i, Ready: true, Seed: &seed}); err != nil {
				return nil, 0, err
			}
		}
		ok := room.Status == match.Playing
		for i := 0; i < players && ok; i++ {
			for k := 0; k < 6 && ok; k++ {
				move, can := first(room.View(i).Board)
				if !can {
					ok = false
					break
				}
				mv, _ := golf.ParseMove(move)
				if _, err := room.Apply(match.Event{Kind: match.KindMove, At: at, Seat: i, Hole: room.CurrentHole().Number, Move: mv}); err != nil {
					return nil, 0, err
				}
			}
			if b := room.View(i).Board; b == nil || b.Done {
				ok = false
			}
		}
		if !ok {
			continue
		}
		views := make([][]byte, players)
		for i := range views {
			if views[i], err = json.Marshal(room.View(i)); err != nil {
				return nil, 0, err
			}
		}
		return views, room.CurrentHole().Number, nil
	}
	return nil, 0, errors.New("load: no deal for the baseline's views")
}

// first is a legal move, plays first.
func first(b *match.Board) (string, bool) {
	switch {
	case b == nil || b.Done:
		return "", false
	case len(b.Playable) > 0:
		return golf.PlayPile(b.Playable[0]).String(), true
	case b.CanTurn:
		return golf.Move{Action: golf.Turn}.String(), true
	case b.CanRedeal:
		return golf.Move{Action: golf.Redeal}.String(), true
	}
	return "", false
}

func (b *Baseline) create(w http.ResponseWriter, r *http.Request) {
	var req protocol.CreateRoomRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	b.mu.Lock()
	b.next++
	code := fmt.Sprintf("B%08d", b.next)
	rm := &baseRoom{v: 1, conns: map[*websocket.Conn]int{}}
	b.rooms[code] = rm
	b.mu.Unlock()
	g := protocol.SeatGrant{Code: code, Seat: -1}
	if req.Name != "" {
		g.Seat, g.Token = rm.seat(code)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(g)
}

func (b *Baseline) join(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	b.mu.Lock()
	rm := b.rooms[code]
	b.mu.Unlock()
	if rm == nil {
		http.Error(w, "no such room", http.StatusNotFound)
		return
	}
	g := protocol.SeatGrant{Code: code}
	g.Seat, g.Token = rm.seat(code)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(g)
}

func (rm *baseRoom) seat(code string) (int, string) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	seat := len(rm.tokens)
	token := code + "-" + strconv.Itoa(seat)
	rm.tokens = append(rm.tokens, token)
	return seat, token
}

// writeTimeout bounds each write, as the real server's does.
const writeTimeout = 5 * time.Second

func write(ctx context.Context, c *websocket.Conn, msg []byte) error {
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	return c.Write(ctx, websocket.MessageText, msg)
}

func (b *Baseline) serveWS(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(protocol.MaxMessage)
	ctx := r.Context()
	hctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	_, data, err := c.Read(hctx)
	cancel()
	if err != nil {
		return
	}
	var hello protocol.ClientMessage
	if json.Unmarshal(data, &hello) != nil {
		return
	}
	b.mu.Lock()
	rm := b.rooms[hello.Room]
	b.mu.Unlock()
	if rm == nil {
		return
	}
	rm.mu.Lock()
	seat := -1
	for i, t := range rm.tokens {
		if t == hello.Token {
			seat = i
		}
	}
	rm.conns[c] = seat
	v := rm.v
	rm.mu.Unlock()
	defer func() {
		rm.mu.Lock()
		delete(rm.conns, c)
		rm.mu.Unlock()
	}()
	welcome := protocol.ServerMessage{Type: protocol.TypeWelcome, Protocol: protocol.Version, Seat: &seat, V: v}.Marshal()
	if write(ctx, c, welcome) != nil || write(ctx, c, b.message(protocol.TypeSnapshot, v, nil, seat)) != nil {
		return
	}
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		var m protocol.ClientMessage
		if json.Unmarshal(data, &m) != nil {
			return
		}
		switch m.Type {
		case protocol.TypePing:
			err = write(ctx, c, protocol.ServerMessage{Type: protocol.TypePong}.Marshal())
		case protocol.TypeMove:
			err = b.move(ctx, rm, c, seat, m)
		default:
			rm.mu.Lock()
			rm.v++
			v := rm.v
			rm.mu.Unlock()
			err = write(ctx, c, protocol.ServerMessage{Type: protocol.TypeAck, Seq: m.Seq, V: v}.Marshal())
		}
		if err != nil {
			return
		}
	}
}

// move sends the event to the room, then the ack.
func (b *Baseline) move(ctx context.Context, rm *baseRoom, from *websocket.Conn, seat int, m protocol.ClientMessage) error {
	rm.mu.Lock()
	rm.v++
	v := rm.v
	type target struct {
		c    *websocket.Conn
		seat int
	}
	targets := make([]target, 0, len(rm.conns))
	for c, s := range rm.conns {
		targets = append(targets, target{c, s})
	}
	rm.mu.Unlock()
	ev := match.EventView{V: v, Kind: match.KindMove, At: time.Now().UnixMilli(), Seat: seat, Hole: b.hole, Move: m.Move}
	for _, t := range targets {
		msg := b.message(protocol.TypeEvent, v, &ev, t.seat)
		if err := write(ctx, t.c, msg); err != nil && t.c == from {
			return err
		}
	}
	return write(ctx, from, protocol.ServerMessage{Type: protocol.TypeAck, Seq: m.Seq, V: v}.Marshal())
}

// message renders a snapshot or event around the seat's canned view.
func (b *Baseline) message(typ string, v int64, ev *match.EventView, seat int) []byte {
	view := b.views[0]
	if seat >= 0 && seat < len(b.views) {
		view = b.views[seat]
	}
	out := make([]byte, 0, len(view)+256)
	out = append(out, `{"type":"`...)
	out = append(out, typ...)
	out = append(out, `","v":`...)
	out = strconv.AppendInt(out, v, 10)
	if ev != nil {
		e, _ := json.Marshal(ev)
		out = append(out, `,"event":`...)
		out = append(out, e...)
	}
	out = append(out, `,"view":`...)
	out = append(out, view...)
	return append(out, '}')
}
