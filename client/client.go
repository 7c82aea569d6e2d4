// Package client is a Go client for the Golf server's WebSocket protocol
// and HTTP API. Tests, bots and the load generator use it.
//
// Its API follows coder/websocket's manner: Dial(ctx, url, *Options)
// returns a Conn; every call takes a context.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/protocol/patch"
)

// Options configure Dial. A nil *Options means all defaults.
type Options struct {
	// Room is the room code. Required.
	Room string
	// Token is the seat token; empty to spectate.
	Token string
	// Since is the last room version seen (after a reconnect); 0 asks for
	// a snapshot only.
	Since int64
	// HTTPHeader is sent with the WebSocket handshake (an Origin, say).
	HTTPHeader http.Header
	// HTTPClient is used for the handshake; default http.DefaultClient.
	HTTPClient *http.Client
	// Buffer is how many server messages Updates holds; default 1024. When
	// it is full the reader stops reading, and a server eventually drops a
	// client that does not keep up.
	Buffer int
	// FirstSeq is the first command sequence number; default the current
	// time in microseconds, so numbers keep increasing across reconnects.
	FirstSeq int64
	// LazyViews has an event's patch applied to the view as sent at once
	// but the view decoded only when View or WaitView asks for it (once
	// for any number of events), and Updates deliver events with View
	// nil. For a client that reads its view now and then rather than at
	// every event: the load generator's players, which read it once a
	// move while every move of the room patches it.
	LazyViews bool
	// OnUpdate, when set, is given every message Updates would deliver,
	// on the connection's reader goroutine (which waits for it: it must
	// return quickly and not call the connection's blocking methods), and
	// Updates then delivers nothing (it is closed when the connection
	// ends). For a program with thousands of connections (the load
	// generator), which saves a goroutine, a buffer and a goroutine's
	// wake-up a message on each.
	OnUpdate func(c *Conn, m protocol.ServerMessage)
}

// Error is an error message from the server.
type Error struct {
	Code    string
	Message string
	// RetryAfter is the wait in seconds the server asked for (try_again,
	// solver_busy), 0 if none.
	RetryAfter int
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// IsCode reports whether err is a server error with the code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// Conn is a connection to a room.
type Conn struct {
	ws   *websocket.Conn
	seat int
	// features are the server's, from its welcome.
	features []string
	seq      atomic.Int64
	// received counts the bytes of the frames read (payloads).
	received atomic.Int64
	updates  chan protocol.ServerMessage
	onUpdate func(*Conn, protocol.ServerMessage)

	mu      sync.Mutex
	pending map[int64]chan reply
	view    *match.View
	// raw is the view as the server sent it (or as its patches made it),
	// rawV its V: the base of the next patch. resyncing is set once a
	// snapshot has been asked for, until a whole view comes.
	raw  []byte
	rawV int64
	// spare is the buffer of the view before raw, which the next patch
	// is applied into (a view is some kilobytes, and a move brings one).
	spare     []byte
	views     match.ViewDecoder // used by the reader only (and Dial before it starts)
	resyncing bool
	// lazy: Options.LazyViews. stale: raw is newer than view, and is
	// decoded (with lazyViews, under mu) when the view is asked for.
	lazy, stale bool
	lazyViews   match.ViewDecoder
	resyncs     atomic.Int64
	version     int64
	changed     chan struct{}
	err         error
	done        chan struct{}
}

// Dial connects to the WebSocket endpoint (e.g. "ws://localhost:8080/ws";
// an http(s) base URL is turned into it) and says hello.
func Dial(ctx context.Context, url string, opts *Options) (*Conn, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Buffer <= 0 {
		o.Buffer = 1024
	}
	if o.OnUpdate != nil {
		o.Buffer = 0 // Updates is never fed
	}
	if o.FirstSeq <= 0 {
		o.FirstSeq = time.Now().UnixMicro()
	}
	ws, _, err := websocket.Dial(ctx, wsURL(url), &websocket.DialOptions{HTTPHeader: o.HTTPHeader, HTTPClient: o.HTTPClient})
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(4 << 20)
	c := &Conn{
		ws: ws, updates: make(chan protocol.ServerMessage, o.Buffer), pending: map[int64]chan reply{},
		changed: make(chan struct{}), done: make(chan struct{}), lazy: o.LazyViews, onUpdate: o.OnUpdate,
	}
	c.seq.Store(o.FirstSeq - 1)
	hello := protocol.ClientMessage{Type: protocol.TypeHello, Protocol: protocol.Version, Room: o.Room, Token: o.Token, Since: o.Since}
	if err := c.write(ctx, hello); err != nil {
		ws.CloseNow()
		return nil, err
	}
	m, _, err := c.read(ctx)
	if err != nil {
		ws.CloseNow()
		return nil, err
	}
	if m.Type == protocol.TypeError {
		ws.CloseNow()
		return nil, &Error{Code: m.Code, Message: m.Message}
	}
	if m.Type != protocol.TypeWelcome || m.Seat == nil {
		ws.CloseNow()
		return nil, fmt.Errorf("client: expected welcome, got %q", m.Type)
	}
	if m.Protocol != protocol.Version {
		ws.CloseNow()
		return nil, fmt.Errorf("client: the server chose protocol version %d; this client speaks %d", m.Protocol, protocol.Version)
	}
	c.features = m.Features
	c.seat = *m.Seat
	// Continue above the seat's last applied seq: a counter that went
	// backwards (another device, a restart) would be refused as stale_seq.
	if m.LastSeq >= c.seq.Load() {
		c.seq.Store(m.LastSeq)
	}
	go c.reader()
	return c, nil
}

func wsURL(u string) string {
	switch {
	case strings.HasPrefix(u, "http://"):
		u = "ws://" + strings.TrimPrefix(u, "http://")
	case strings.HasPrefix(u, "https://"):
		u = "wss://" + strings.TrimPrefix(u, "https://")
	}
	if !strings.HasSuffix(u, "/ws") {
		u = strings.TrimRight(u, "/") + "/ws"
	}
	return u
}

// Seat is the player's seat, or -1 for a spectator.
func (c *Conn) Seat() int { return c.seat }

// Features returns the features the server's welcome listed
// (protocol.Features).
func (c *Conn) Features() []string { return c.features }

// Updates delivers every message the server sends except acks and errors
// that answer a command: events, snapshots, pongs and unsolicited errors.
// An event's View is filled in from its patch (the patch is applied to the
// view held; when it does not fit, View stays nil and the client asks the
// server for a snapshot). It is closed when the connection ends.
func (c *Conn) Updates() <-chan protocol.ServerMessage { return c.updates }

// View returns the latest view received (nil before the first).
func (c *Conn) View() *match.View {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.current()
}

// Version is the latest room version seen.
func (c *Conn) Version() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// Err is why the connection ended, once Updates is closed.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// BytesReceived is the total size of the frames received so far (their
// payloads, as the server wrote them: no WebSocket framing).
func (c *Conn) BytesReceived() int64 { return c.received.Load() }

// Done is closed when the connection ends.
func (c *Conn) Done() <-chan struct{} { return c.done }

func (c *Conn) write(ctx context.Context, m protocol.ClientMessage) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return c.WriteRaw(ctx, b)
}

// WriteRaw sends a frame as it is (tests use it for malformed input).
func (c *Conn) WriteRaw(ctx context.Context, b []byte) error {
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// frame is a server message with its view kept as sent: the base of the
// patches that follow it.
type frame struct {
	protocol.ServerMessage
	View json.RawMessage `json:"view,omitempty"`
}

// read reads a message and returns it with its view decoded, and the view
// as sent (nil when the message has none).
func (c *Conn) read(ctx context.Context) (protocol.ServerMessage, []byte, error) {
	_, b, err := c.ws.Read(ctx)
	if err != nil {
		return protocol.ServerMessage{}, nil, err
	}
	c.received.Add(int64(len(b)))
	var f frame
	if err := json.Unmarshal(b, &f); err != nil {
		return f.ServerMessage, nil, fmt.Errorf("client: bad message from server: %w", err)
	}
	m := f.ServerMessage
	if m.Event != nil {
		m.Event.V = m.V // the frame's version: not repeated in the event
	}
	if len(f.View) > 0 && !bytes.Equal(f.View, []byte("null")) {
		var v match.View
		if err := c.views.Decode(f.View, &v); err != nil {
			return m, nil, fmt.Errorf("client: bad view from server: %w", err)
		}
		m.View = &v
		return m, f.View, nil
	}
	return m, nil, nil
}

// patched fills in m.View from m.Patch when it applies to the view held;
// it reports false when it does not (a frame missed: ask for a snapshot).
// Both are valid JSON (encoding/json read the frames they came in, and
// Apply made the view held from such), so patch.AppendValid does not
// check their syntax again. c.mu is held.
func (c *Conn) patched(m *protocol.ServerMessage) bool {
	if c.raw == nil || m.PatchBase() != c.rawV {
		return false
	}
	b, err := patch.AppendValid(c.spare[:0], c.raw, m.Patch)
	if err != nil {
		return false
	}
	if v, ok := viewV(b); ok && c.lazy {
		c.spare, c.raw, c.rawV, c.stale = c.raw, b, v, true
		return true
	}
	var v match.View
	if err := c.views.Decode(b, &v); err != nil {
		return false
	}
	m.View, c.spare, c.raw, c.rawV = &v, c.raw, b, v.V
	return true
}

// viewV reads the v of a view as the server writes it and as patches keep
// it (its first member); ok is false for anything else.
func viewV(b []byte) (v int64, ok bool) {
	const prefix = `{"v":`
	if !bytes.HasPrefix(b, []byte(prefix)) {
		return 0, false
	}
	i := len(prefix)
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if i-len(prefix) >= 18 {
			return 0, false
		}
		v = v*10 + int64(b[i]-'0')
	}
	if i == len(prefix) || i >= len(b) || (b[i] != ',' && b[i] != '}') {
		return 0, false
	}
	return v, true
}

// current returns the view, decoding the view as patched when it is
// newer (LazyViews). A view that does not decode is dropped, so that the
// next patch does not fit and a snapshot is asked for. c.mu is held.
func (c *Conn) current() *match.View {
	if c.stale {
		c.stale = false
		var v match.View
		if err := c.lazyViews.Decode(c.raw, &v); err != nil {
			c.raw = nil
			return c.view
		}
		c.view = &v
	}
	return c.view
}

// Resyncs is how many times the client asked for a snapshot because an
// event's patch did not fit its view.
func (c *Conn) Resyncs() int64 { return c.resyncs.Load() }

func (c *Conn) reader() {
	defer close(c.done)
	defer close(c.updates)
	for {
		m, raw, err := c.read(context.Background())
		read := time.Now()
		if err != nil {
			c.mu.Lock()
			c.err = err
			for _, ch := range c.pending {
				close(ch)
			}
			c.pending = map[int64]chan reply{}
			c.mu.Unlock()
			return
		}
		c.mu.Lock()
		resync, applied := false, false
		switch {
		case raw != nil:
			c.raw, c.rawV, c.resyncing = raw, m.View.V, false
		case m.Patch != nil:
			if applied = c.patched(&m); !applied {
				// A frame was missed or broken: drop the patch and ask for
				// a snapshot, once (later patches have bases we lack too).
				resync, c.resyncing = !c.resyncing, true
			}
		}
		switch {
		case m.View != nil && m.V >= c.version:
			c.view, c.version, c.stale = m.View, m.V, false
			close(c.changed)
			c.changed = make(chan struct{})
		case applied && m.View == nil && m.V >= c.version:
			// LazyViews: the view is decoded when asked for.
			c.version = m.V
			close(c.changed)
			c.changed = make(chan struct{})
		case m.V > c.version:
			c.version = m.V
		}
		var waiter chan reply
		if (m.Type == protocol.TypeAck || m.Type == protocol.TypeError) && m.Seq != 0 {
			waiter = c.pending[m.Seq]
			delete(c.pending, m.Seq)
		}
		c.mu.Unlock()
		if resync {
			c.resyncs.Add(1)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			c.write(ctx, protocol.ClientMessage{Type: protocol.TypeResync})
			cancel()
		}
		if waiter != nil {
			waiter <- reply{m: m, read: read}
			continue
		}
		if c.onUpdate != nil {
			c.onUpdate(c, m)
			continue
		}
		c.updates <- m
	}
}

// Do sends a command with the next sequence number and waits for its ack
// (returned) or error (returned as *Error).
func (c *Conn) Do(ctx context.Context, m protocol.ClientMessage) (protocol.ServerMessage, error) {
	if m.Seq == 0 {
		m.Seq = c.seq.Add(1)
	}
	return c.DoSeq(ctx, m)
}

// reply is a command's answer and when the reader read it.
type reply struct {
	m    protocol.ServerMessage
	read time.Time
}

// DoSeq is Do with the sequence number the message carries (to resend a
// command after a reconnect).
func (c *Conn) DoSeq(ctx context.Context, m protocol.ClientMessage) (protocol.ServerMessage, error) {
	r, _, err := c.doSeq(ctx, m)
	return r, err
}

// MoveRead is Move, and the time the connection's reader read the ack
// off the socket (before the caller's goroutine was woken with it: a
// program with thousands of connections, the load generator, times the
// server's answer with it rather than its own scheduling).
func (c *Conn) MoveRead(ctx context.Context, hole int, move string) (protocol.ServerMessage, time.Time, error) {
	return c.doSeq(ctx, protocol.ClientMessage{Type: protocol.TypeMove, Hole: hole, Move: move, Seq: c.seq.Add(1)})
}

func (c *Conn) doSeq(ctx context.Context, m protocol.ClientMessage) (protocol.ServerMessage, time.Time, error) {
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return protocol.ServerMessage{}, time.Time{}, c.err
	}
	c.pending[m.Seq] = ch
	c.mu.Unlock()
	if err := c.write(ctx, m); err != nil {
		c.mu.Lock()
		delete(c.pending, m.Seq)
		c.mu.Unlock()
		return protocol.ServerMessage{}, time.Time{}, err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return r.m, time.Time{}, fmt.Errorf("client: connection closed: %w", c.Err())
		}
		if r.m.Type == protocol.TypeError {
			return r.m, r.read, &Error{Code: r.m.Code, Message: r.m.Message, RetryAfter: r.m.RetryAfter}
		}
		return r.m, r.read, nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, m.Seq)
		c.mu.Unlock()
		return protocol.ServerMessage{}, time.Time{}, ctx.Err()
	}
}

// NextSeq reserves a sequence number (for DoSeq).
func (c *Conn) NextSeq() int64 { return c.seq.Add(1) }

// Move plays a move ("3", "s", "r", "u") on the hole.
func (c *Conn) Move(ctx context.Context, hole int, move string) (protocol.ServerMessage, error) {
	ack, _, err := c.MoveRead(ctx, hole, move)
	return ack, err
}

// Ready says whether the player is ready to start.
func (c *Conn) Ready(ctx context.Context, ready bool) error {
	_, err := c.Do(ctx, protocol.ClientMessage{Type: protocol.TypeReady, Ready: &ready})
	return err
}

// Start starts the round (host only).
func (c *Conn) Start(ctx context.Context) error {
	_, err := c.Do(ctx, protocol.ClientMessage{Type: protocol.TypeStart})
	return err
}

// Stand ends the player's hole as it stands.
func (c *Conn) Stand(ctx context.Context, hole int) error {
	_, err := c.Do(ctx, protocol.ClientMessage{Type: protocol.TypeStand, Hole: hole})
	return err
}

// Rematch asks for a new round with the same players and settings.
func (c *Conn) Rematch(ctx context.Context) error {
	_, err := c.Do(ctx, protocol.ClientMessage{Type: protocol.TypeRematch})
	return err
}

// Ping sends a ping; the pong arrives on Updates.
func (c *Conn) Ping(ctx context.Context) error {
	return c.write(ctx, protocol.ClientMessage{Type: protocol.TypePing})
}

// WaitView waits until the latest view satisfies ok and returns it.
func (c *Conn) WaitView(ctx context.Context, ok func(*match.View) bool) (*match.View, error) {
	for {
		c.mu.Lock()
		v, changed, err := c.current(), c.changed, c.err
		c.mu.Unlock()
		if v != nil && ok(v) {
			return v, nil
		}
		if err != nil {
			return v, err
		}
		select {
		case <-changed:
		case <-c.done:
		case <-ctx.Done():
			return v, ctx.Err()
		}
	}
}

// Close closes the connection normally.
func (c *Conn) Close() error {
	return c.ws.Close(websocket.StatusNormalClosure, "")
}

// CloseNow drops the connection without a closing handshake (as a lost
// network would).
func (c *Conn) CloseNow() error { return c.ws.CloseNow() }

// API calls the server's HTTP API.
type API struct {
	// BaseURL is the server, e.g. "http://localhost:8080".
	BaseURL string
	// HTTPClient defaults to http.DefaultClient.
	HTTPClient *http.Client
}

func (a *API) client() *http.Client {
	if a.HTTPClient != nil {
		return a.HTTPClient
	}
	return http.DefaultClient
}

// Call sends a request with a JSON body (nil for none) and decodes the JSON
// answer into out (nil to discard). An error answer becomes *Error.
func (a *API) Call(ctx context.Context, method, path string, body, out any) (int, error) {
	return a.CallToken(ctx, method, path, "", body, out)
}

// CallToken is Call with a token in the X-Token header (tokens never go in
// URLs); an empty token sends none.
func (a *API) CallToken(ctx context.Context, method, path, token string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(a.BaseURL, "/")+path, rd)
	if err != nil {
		return 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("X-Token", token)
	}
	resp, err := a.client().Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode >= 400 {
		var e protocol.APIError
		if json.Unmarshal(b, &e) == nil && e.Code != "" {
			return resp.StatusCode, &Error{Code: e.Code, Message: e.Message}
		}
		return resp.StatusCode, fmt.Errorf("client: %s %s: %s", method, path, resp.Status)
	}
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			return resp.StatusCode, err
		}
	}
	return resp.StatusCode, nil
}

// CreateRoom creates a room with the settings (any JSON-encodable value;
// nil for the defaults) and, with a name, seats its host.
func (a *API) CreateRoom(ctx context.Context, settings any, name string) (protocol.SeatGrant, error) {
	req := map[string]any{}
	if settings != nil {
		req["settings"] = settings
	}
	if name != "" {
		req["name"] = name
	}
	var g protocol.SeatGrant
	_, err := a.Call(ctx, http.MethodPost, "/api/rooms", req, &g)
	return g, err
}

// Join takes a seat in the room.
func (a *API) Join(ctx context.Context, code, name string) (protocol.SeatGrant, error) {
	var g protocol.SeatGrant
	_, err := a.Call(ctx, http.MethodPost, "/api/rooms/"+code+"/join", protocol.JoinRequest{Name: name}, &g)
	return g, err
}

// QuickMatch waits to be paired; ok is false when nobody came in time.
func (a *API) QuickMatch(ctx context.Context, name string, settings any) (g protocol.SeatGrant, ok bool, err error) {
	req := map[string]any{"name": name}
	if settings != nil {
		req["settings"] = settings
	}
	status, err := a.Call(ctx, http.MethodPost, "/api/quickmatch", req, &g)
	return g, err == nil && status == http.StatusOK, err
}

// Hint asks for a suggested move on the hole (solo practice only; elsewhere
// the server answers no_hints). It returns "" when the game is over.
func (c *Conn) Hint(ctx context.Context, hole int) (string, error) {
	ack, err := c.Do(ctx, protocol.ClientMessage{Type: protocol.TypeHint, Hole: hole})
	return ack.Move, err
}

// AddBot asks the server to seat a bot of the level ("random", "greedy",
// "search") in the waiting room; hostToken is seat 0's token.
func (a *API) AddBot(ctx context.Context, code, hostToken, level string) (seat int, name string, err error) {
	var out struct {
		Seat int    `json:"seat"`
		Name string `json:"name"`
	}
	_, err = a.Call(ctx, http.MethodPost, "/api/rooms/"+code+"/bots", map[string]string{"token": hostToken, "level": level}, &out)
	return out.Seat, out.Name, err
}
