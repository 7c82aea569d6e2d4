package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
)

// conn is one WebSocket client.
type conn struct {
	s     *Server
	ws    *websocket.Conn
	out   *sender
	id    string
	token string
	// client is who opened the socket (limit.go), for per-client limits.
	client string
	// tokenHash is hashToken(token), set by the hub on attach.
	tokenHash string
	// cmdMu is held while a command runs; seatGone is set by the hub when
	// the connection's seat is gone (hub.reseat), and the connection is
	// closed once the command running then has its answer queued.
	cmdMu    sync.Mutex
	seatGone atomic.Bool
	// gen orders a spectator's attachment among the room's (hub.go).
	gen  uint64
	seat int // set by the hub on attach; read by the hub only
	// version is the protocol version chosen at hello.
	version int
	// preview: a spectator drawing a preview (hello's preview), not
	// counted among the room's watchers in what is on now.
	preview bool
	// tasks are the hints being solved for the connection.
	tasks sync.WaitGroup
	// reactions limits the connection's reactions (reactions.go).
	reactions *rate.Limiter
	// sent is the view the connection was sent last (set and read by the
	// hub's loop only): the base of the next event's patch. Connections
	// sent the same frames share it.
	sent *sentView
}

func newConn(s *Server, ws *websocket.Conn, client string) *conn {
	return &conn{s: s, ws: ws, id: newID(), client: client,
		out: newSender(ws, s.opts.SendBuffer, s.opts.WriteTimeout, s.metrics.slowClosed.Inc)}
}

// enqueue queues a message without ever blocking: a client whose buffer is
// full is too slow and is disconnected.
func (c *conn) enqueue(msg []byte) { c.out.enqueue(msg) }

// fail sends a last message and closes.
func (c *conn) fail(msg []byte, code websocket.StatusCode, reason string) {
	c.out.enqueue(msg)
	c.out.close(code, reason)
}

// leave closes a connection whose seat is gone, after the command running
// now (the one that gave the seat up, whose ack must come first).
func (c *conn) leave() {
	c.seatGone.Store(true)
	if c.cmdMu.TryLock() {
		c.closeIfGone()
		c.cmdMu.Unlock()
	}
	// Else the command's goroutine holds cmdMu and checks seatGone after.
}

func (c *conn) closeIfGone() {
	if c.seatGone.Load() {
		c.out.close(websocket.StatusNormalClosure, "seat given up")
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
	return protocol.ServerMessage{Type: protocol.TypeError, Seq: seq, Code: code, Message: errorMessage(err), RetryAfter: retryAfter(err)}.Marshal()
}

func codeMsg(seq int64, code, message string) []byte {
	return protocol.ServerMessage{Type: protocol.TypeError, Seq: seq, Code: code, Message: message}.Marshal()
}

// serve runs the connection: hello, then commands until it closes.
func (c *conn) serve(ctx context.Context) {
	c.s.serveSocket(ctx, c.out, func(ctx context.Context) {
		defer c.tasks.Wait()
		c.run(ctx)
	})
}

func (c *conn) run(ctx context.Context) {
	hello, err := c.readHello(ctx)
	if err != nil {
		return
	}
	h, err := c.s.rooms.Acquire(ctx, hello.room)
	if err != nil {
		if errors.Is(err, errRoomNotFound) || isNotFound(err) {
			err = errRoomNotFound
		}
		c.fail(c.errorMsg(0, err), websocket.StatusPolicyViolation, "no such room")
		return
	}
	defer c.s.rooms.Release(h)
	c.token, c.version, c.preview = hello.token, hello.version, hello.preview
	seat, err := h.attach(ctx, c, hello.since)
	if err != nil {
		c.fail(c.errorMsg(0, err), websocket.StatusPolicyViolation, "refused")
		return
	}
	defer func() {
		dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		defer dcancel()
		h.detach(dctx, c)
	}()

	limit := c.s.opts.PlayerRate
	if seat < 0 {
		limit = c.s.opts.SpectatorRate
	}
	b := bucket{tokens: limit.Burst, burst: limit.Burst, rate: limit.PerSecond, last: time.Now()}
	// ctx closes the socket once for the connection, as a read with ctx
	// would (coder/websocket registers that on every read it is given a
	// context that can end); the messages are read into one buffer.
	stop := context.AfterFunc(ctx, func() { c.ws.CloseNow() })
	defer stop()
	var buf bytes.Buffer
	for {
		typ, data, err := c.read(&buf)
		if err != nil {
			return
		}
		if !b.take(time.Now()) {
			c.s.metrics.flooded.Inc()
			c.fail(codeMsg(0, protocol.ErrCodeRateLimited, "too many messages"), websocket.StatusPolicyViolation, "rate limited")
			return
		}
		if typ != websocket.MessageText {
			c.enqueue(codeMsg(0, protocol.ErrCodeBadMessage, "messages are JSON text frames"))
			continue
		}
		c.cmdMu.Lock()
		c.command(ctx, h, seat, data)
		c.closeIfGone()
		c.cmdMu.Unlock()
	}
}

// read reads the next message into buf, which it returns (valid until
// the next read).
func (c *conn) read(buf *bytes.Buffer) (websocket.MessageType, []byte, error) {
	typ, r, err := c.ws.Reader(context.Background())
	if err != nil {
		return 0, nil, err
	}
	buf.Reset()
	if _, err := buf.ReadFrom(r); err != nil {
		return 0, nil, err
	}
	c.out.hear()
	if buf.Cap() > 64<<10 {
		// One big message does not keep its buffer.
		data := buf.Bytes()
		*buf = bytes.Buffer{}
		return typ, data, nil
	}
	return typ, buf.Bytes(), nil
}

type helloInfo struct {
	room, token string
	since       int64
	// version is the protocol version chosen (protocol.Negotiate).
	version int
	preview bool
}

func (c *conn) readHello(ctx context.Context) (helloInfo, error) {
	hctx, cancel := context.WithTimeout(ctx, c.s.opts.HelloTimeout)
	defer cancel()
	_, data, err := c.ws.Read(hctx)
	if err != nil {
		return helloInfo{}, err
	}
	m, err := protocol.ParseClientMessage(data)
	if err != nil {
		c.fail(codeMsg(0, protocol.ErrCodeBadMessage, err.Error()), websocket.StatusPolicyViolation, "bad hello")
		return helloInfo{}, err
	}
	fail := func(code, msg string) (helloInfo, error) {
		c.fail(codeMsg(0, code, msg), websocket.StatusPolicyViolation, "bad hello")
		return helloInfo{}, errors.New(msg)
	}
	if m.Type != protocol.TypeHello {
		return fail(protocol.ErrCodeHelloFirst, "the first message must be hello")
	}
	version, ok := protocol.Negotiate(m.Protocol)
	if !ok {
		msg := badVersionMessage(m.Protocol)
		c.fail(protocol.ServerMessage{Type: protocol.TypeError, Code: protocol.ErrCodeBadVersion, Message: msg, Versions: protocol.Versions}.Marshal(),
			websocket.StatusPolicyViolation, "bad version")
		return helloInfo{}, errors.New(msg)
	}
	code := normalizeCode(m.Room)
	if code == "" {
		return fail(protocol.ErrCodeRoomNotFound, "no such room")
	}
	if m.Since < 0 {
		return fail(protocol.ErrCodeBadMessage, "since must not be negative")
	}
	return helloInfo{room: code, token: m.Token, since: m.Since, version: version, preview: m.Preview && m.Token == ""}, nil
}

// badVersionMessage says in words why a hello's protocol is refused and
// which versions the server speaks.
func badVersionMessage(asked int) string {
	spoken := make([]string, len(protocol.Versions))
	for i, v := range protocol.Versions {
		spoken[i] = strconv.Itoa(v)
	}
	what := fmt.Sprintf("protocol version %d", asked)
	if asked <= 0 {
		what = "no protocol version (hello's protocol is the highest version the client speaks)"
	}
	return fmt.Sprintf("this server speaks protocol version %s, and the client says %s: update the client", strings.Join(spoken, ", "), what)
}

// command handles one message after hello: the message's event is built
// (eventFor), applied by the hub and answered (play).
func (c *conn) command(ctx context.Context, h *hub, seat int, data []byte) {
	m, err := protocol.ParseClientMessage(data)
	if err != nil {
		c.enqueue(codeMsg(0, protocol.ErrCodeBadMessage, err.Error()))
		return
	}
	if build := c.eventFor(ctx, h, seat, m); build != nil {
		c.play(ctx, h, seat, m, build)
	}
}

// eventFor returns what builds the event a message asks for, or nil when
// the message was answered already (a ping, a resync, a hint, a
// reaction, a refusal).
func (c *conn) eventFor(ctx context.Context, h *hub, seat int, m protocol.ClientMessage) func(r *match.Room) (match.Event, error) {
	var build func(r *match.Room) (match.Event, error)
	switch m.Type {
	case protocol.TypePing:
		c.enqueue(protocol.ServerMessage{Type: protocol.TypePong}.Marshal())
		return nil
	case protocol.TypeHello:
		c.enqueue(codeMsg(m.Seq, protocol.ErrCodeHelloFirst, "hello was already said"))
		return nil
	case protocol.TypeResync:
		// The client's view is not a patch's base: a snapshot, to
		// players and spectators alike.
		h.Do(ctx, func() {
			if _, ok := h.conns[c]; ok {
				h.sendSnapshot(c)
			}
		})
		return nil
	case protocol.TypeMove:
		mv, err := golf.ParseMove(m.Move)
		if err != nil {
			c.enqueue(c.errorMsg(m.Seq, err))
			return nil
		}
		build = func(r *match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindMove, Seat: c.seat, Hole: m.Hole, Move: mv, Seq: m.Seq}, nil
		}
	case protocol.TypeReady:
		ready := m.Ready == nil || *m.Ready
		build = c.s.roundBuild(ctx, func(r *match.Room) match.Event {
			return match.Event{Kind: match.KindReady, Seat: c.seat, Ready: ready, Seed: newSeed(), ReadyWithin: c.s.opts.ReadyWithin}
		})
	case protocol.TypeStart:
		if !c.allow(m.Seq, limitStarts) {
			return nil
		}
		build = c.s.roundBuild(ctx, func(r *match.Room) match.Event {
			return match.Event{Kind: match.KindStart, Seat: c.seat, Seed: newSeed()}
		})
	case protocol.TypeStand:
		build = func(r *match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindStand, Seat: c.seat, Hole: m.Hole}, nil
		}
	case protocol.TypeHint:
		c.hint(ctx, h, seat, m)
		return nil
	case protocol.TypeLeave:
		build = func(r *match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindLeave, Seat: c.seat}, nil
		}
	case protocol.TypeKick:
		if m.Seat == nil {
			c.enqueue(codeMsg(m.Seq, protocol.ErrCodeBadMessage, "kick needs the seat to remove"))
			return nil
		}
		target := *m.Seat
		build = func(r *match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindKick, Seat: c.seat, Target: target}, nil
		}
	case protocol.TypeReact:
		c.react(ctx, h, seat, m)
		return nil
	case protocol.TypeRematch:
		if !c.allow(m.Seq, limitStarts) {
			return nil
		}
		build = c.s.roundBuild(ctx, func(r *match.Room) match.Event {
			return match.Event{Kind: match.KindRematch, Seat: c.seat, Seed: newSeed()}
		})
	default:
		c.enqueue(codeMsg(m.Seq, protocol.ErrCodeUnknownType, "unknown message type "+jsonQuote(m.Type)))
		return nil
	}
	if seat < 0 {
		c.enqueue(c.errorMsg(m.Seq, errSpectator))
		return nil
	}
	return build
}

// hint answers a hint: a spectator is refused, and the solver runs beside
// the connection's reader, so moves sent meanwhile are not held up; the
// ack may come after theirs.
func (c *conn) hint(ctx context.Context, h *hub, seat int, m protocol.ClientMessage) {
	if seat < 0 {
		c.enqueue(c.errorMsg(m.Seq, errSpectator))
		return
	}
	if !c.allow(m.Seq, limitHints) {
		return
	}
	c.tasks.Go(func() {
		hctx, cancel := context.WithTimeout(ctx, c.s.opts.HintTimeout)
		defer cancel()
		move, v, err := c.s.hintFor(hctx, h, seat, m.Hole)
		if err != nil {
			c.enqueue(c.errorMsg(m.Seq, err))
			return
		}
		c.enqueue(protocol.ServerMessage{Type: protocol.TypeAck, Seq: m.Seq, V: v, Move: move}.Marshal())
	})
}

// play has the hub apply the event build makes and answers the message:
// its ack goes out with the mover's event frame, or alone (a duplicate,
// or no frame for this connection), or an error.
func (c *conn) play(ctx context.Context, h *hub, seat int, m protocol.ClientMessage, build func(r *match.Room) (match.Event, error)) {
	start := time.Now()
	a := &moveAck{c: c, seq: m.Seq}
	r := h.changeAcked(ctx, a, build)
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
		if !a.sent {
			c.enqueue(protocol.AckFrame(m.Seq, r.v))
		}
	}
}

// allow takes a token of the client's bucket, or answers the command with
// rate_limited (the socket stays open).
func (c *conn) allow(seq int64, l action) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	ok, retry := c.s.take(ctx, c.client, l)
	if !ok {
		c.enqueue(codeMsg(seq, protocol.ErrCodeRateLimited, fmt.Sprintf("too many %s from your address; try again in %s", l, roundUp(retry))))
	}
	return ok
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
