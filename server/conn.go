package server

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
)

// conn is one WebSocket client.
type conn struct {
	s     *Server
	ws    *websocket.Conn
	id    string
	token string
	seat  int // set by the hub on attach; read by the hub only
	send  chan []byte
	// queued counts messages enqueued and not yet written (or dropped), so
	// closeAfterFlush also waits for the one the writer is sending.
	queued atomic.Int32

	closeOnce sync.Once
	closed    chan struct{}
}

// enqueue queues a message without ever blocking: a client whose buffer is
// full is too slow and is disconnected.
func (c *conn) enqueue(msg []byte) {
	c.queued.Add(1)
	select {
	case <-c.closed:
		c.queued.Add(-1)
	case c.send <- msg:
	default:
		c.queued.Add(-1)
		c.s.metrics.slowClosed.Inc()
		c.close(websocket.StatusPolicyViolation, "too slow to read updates")
	}
}

func (c *conn) close(code websocket.StatusCode, reason string) {
	c.closeOnce.Do(func() {
		close(c.closed)
		go c.ws.Close(code, reason)
	})
}

// writer sends queued messages, each with its own timeout.
func (c *conn) writer(ctx context.Context) {
	for {
		select {
		case <-c.closed:
			return
		case <-ctx.Done():
			return
		case msg := <-c.send:
			wctx, cancel := context.WithTimeout(ctx, c.s.opts.WriteTimeout)
			err := c.ws.Write(wctx, websocket.MessageText, msg)
			cancel()
			c.queued.Add(-1)
			if err != nil {
				c.close(websocket.StatusGoingAway, "write failed")
				return
			}
		}
	}
}

// bucket is a token bucket for flood control.
type bucket struct {
	tokens, burst, rate float64
	last                time.Time
}

func (b *bucket) take(now time.Time) bool {
	b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

func (c *conn) errorMsg(seq int64, err error) []byte {
	code, _ := errorCode(err)
	return protocol.ServerMessage{Type: protocol.TypeError, Seq: seq, Code: code, Message: errorMessage(err)}.Marshal()
}

func codeMsg(seq int64, code, message string) []byte {
	return protocol.ServerMessage{Type: protocol.TypeError, Seq: seq, Code: code, Message: message}.Marshal()
}

// serve runs the connection: hello, then commands until it closes.
func (c *conn) serve(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go c.writer(ctx)
	defer c.close(websocket.StatusNormalClosure, "")

	hello, err := c.readHello(ctx)
	if err != nil {
		return
	}
	h, err := c.s.acquire(ctx, hello.room)
	if err != nil {
		if errors.Is(err, errRoomNotFound) || isNotFound(err) {
			err = errRoomNotFound
		}
		c.enqueue(c.errorMsg(0, err))
		c.closeAfterFlush(websocket.StatusPolicyViolation, "no such room")
		return
	}
	defer c.s.release(h)
	c.token = hello.token
	r := h.do(ctx, &command{attach: c, since: hello.since})
	if r.err != nil {
		c.enqueue(c.errorMsg(0, r.err))
		c.closeAfterFlush(websocket.StatusPolicyViolation, "refused")
		return
	}
	seat := r.data.(int)
	defer func() {
		dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		defer dcancel()
		h.do(dctx, &command{detach: c})
	}()

	limit := c.s.opts.PlayerRate
	if seat < 0 {
		limit = c.s.opts.SpectatorRate
	}
	b := bucket{tokens: limit.Burst, burst: limit.Burst, rate: limit.PerSecond, last: time.Now()}
	for {
		typ, data, err := c.ws.Read(ctx)
		if err != nil {
			return
		}
		if !b.take(time.Now()) {
			c.s.metrics.flooded.Inc()
			c.enqueue(codeMsg(0, protocol.ErrCodeRateLimited, "too many messages"))
			c.closeAfterFlush(websocket.StatusPolicyViolation, "rate limited")
			return
		}
		if typ != websocket.MessageText {
			c.enqueue(codeMsg(0, protocol.ErrCodeBadMessage, "messages are JSON text frames"))
			continue
		}
		c.command(ctx, h, seat, data)
	}
}

// closeAfterFlush gives the writer a moment to send what is queued, then
// closes. It waits for the message being written too: closing while the
// writer is still sending the last one (the error saying why) would lose
// it.
func (c *conn) closeAfterFlush(code websocket.StatusCode, reason string) {
	deadline := time.Now().Add(time.Second)
	for c.queued.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	c.close(code, reason)
}

type helloInfo struct {
	room, token string
	since       int64
}

func (c *conn) readHello(ctx context.Context) (helloInfo, error) {
	hctx, cancel := context.WithTimeout(ctx, c.s.opts.HelloTimeout)
	defer cancel()
	_, data, err := c.ws.Read(hctx)
	if err != nil {
		return helloInfo{}, err
	}
	var m protocol.ClientMessage
	if err := json.Unmarshal(data, &m); err != nil {
		c.enqueue(codeMsg(0, protocol.ErrCodeBadMessage, "not a JSON message: "+err.Error()))
		c.closeAfterFlush(websocket.StatusPolicyViolation, "bad hello")
		return helloInfo{}, err
	}
	fail := func(code, msg string) (helloInfo, error) {
		c.enqueue(codeMsg(0, code, msg))
		c.closeAfterFlush(websocket.StatusPolicyViolation, "bad hello")
		return helloInfo{}, errors.New(msg)
	}
	if m.Type != protocol.TypeHello {
		return fail(protocol.ErrCodeHelloFirst, "the first message must be hello")
	}
	if m.Protocol != protocol.Version {
		return fail(protocol.ErrCodeBadVersion, "this server speaks protocol version 1")
	}
	code := normalizeCode(m.Room)
	if code == "" {
		return fail(protocol.ErrCodeRoomNotFound, "no such room")
	}
	if m.Since < 0 {
		return fail(protocol.ErrCodeBadMessage, "since must not be negative")
	}
	return helloInfo{room: code, token: m.Token, since: m.Since}, nil
}

// command handles one message after hello.
func (c *conn) command(ctx context.Context, h *hub, seat int, data []byte) {
	var m protocol.ClientMessage
	if err := json.Unmarshal(data, &m); err != nil {
		c.enqueue(codeMsg(0, protocol.ErrCodeBadMessage, "not a JSON message: "+err.Error()))
		return
	}
	var build func(r *match.Room) (match.Event, error)
	switch m.Type {
	case protocol.TypePing:
		c.enqueue(protocol.ServerMessage{Type: protocol.TypePong}.Marshal())
		return
	case protocol.TypeHello:
		c.enqueue(codeMsg(m.Seq, protocol.ErrCodeHelloFirst, "hello was already said"))
		return
	case protocol.TypeMove:
		mv, err := golf.ParseMove(m.Move)
		if err != nil {
			c.enqueue(c.errorMsg(m.Seq, err))
			return
		}
		build = func(r *match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindMove, Seat: seat, Hole: m.Hole, Move: mv, Seq: m.Seq}, nil
		}
	case protocol.TypeReady:
		ready := m.Ready == nil || *m.Ready
		build = func(r *match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindReady, Seat: seat, Ready: ready, Seed: newSeed()}, nil
		}
	case protocol.TypeStart:
		build = func(r *match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindStart, Seat: seat, Seed: newSeed()}, nil
		}
	case protocol.TypeStand:
		build = func(r *match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindStand, Seat: seat, Hole: m.Hole}, nil
		}
	case protocol.TypeHint:
		if seat < 0 {
			c.enqueue(c.errorMsg(m.Seq, errSpectator))
			return
		}
		// The solver runs beside the connection's reader, so moves sent
		// meanwhile are not held up; the ack may come after theirs.
		go func() {
			hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			move, v, err := c.s.hintFor(hctx, h, seat, m.Hole)
			if err != nil {
				c.enqueue(c.errorMsg(m.Seq, err))
				return
			}
			c.enqueue(protocol.ServerMessage{Type: protocol.TypeAck, Seq: m.Seq, V: v, Move: move}.Marshal())
		}()
		return
	case protocol.TypeRematch:
		build = func(r *match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindRematch, Seat: seat, Seed: newSeed()}, nil
		}
	default:
		c.enqueue(codeMsg(m.Seq, protocol.ErrCodeUnknownType, "unknown message type "+jsonQuote(m.Type)))
		return
	}
	if seat < 0 {
		c.enqueue(c.errorMsg(m.Seq, errSpectator))
		return
	}
	start := time.Now()
	r := h.do(ctx, &command{build: build})
	switch {
	case errors.Is(r.err, match.ErrDuplicate):
		c.enqueue(protocol.ServerMessage{Type: protocol.TypeAck, Seq: m.Seq, V: r.v, Duplicate: true}.Marshal())
	case r.err != nil:
		c.enqueue(c.errorMsg(m.Seq, r.err))
	default:
		if m.Type == protocol.TypeMove {
			c.s.metrics.moves.Inc()
			c.s.metrics.moveLatency.Observe(time.Since(start).Seconds())
		}
		c.enqueue(protocol.ServerMessage{Type: protocol.TypeAck, Seq: m.Seq, V: r.v}.Marshal())
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
