package server_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/client"
	"golfsolitaire/fold"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/protocol/patch"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
)

// env is a test server over a memory store the test can look into.
type env struct {
	ts  string // base URL
	api *client.API
	st  *memstore.Store
}

func newEnv(t *testing.T, mod ...func(*server.Options)) *env {
	t.Helper()
	// As the server runs (cli/cmd_serve.go): snapshots every 32 events, the
	// events after one folded on Load.
	st := memstore.New(memstore.Options{Replay: fold.Replay})
	t.Cleanup(func() { st.Close() })
	return newEnvStore(t, st, mod...)
}

// newRecordingEnv is newEnv for tests that play whole matches as fast as
// acks come back while every connection records every frame: on a busy
// machine (two cores, the race detector, other packages' tests) a
// connection's reader can fall further behind the players than the
// default send buffer of 64 frames, and the server would drop it as too
// slow to read updates, which is not what these tests are about.
func newRecordingEnv(t *testing.T) *env {
	t.Helper()
	return newEnv(t, func(o *server.Options) { o.SendBuffer = 1 << 14 })
}

func newEnvStore(t *testing.T, st *memstore.Store, mod ...func(*server.Options)) *env {
	t.Helper()
	ts, api := newTestServer(t, st, mod...)
	return &env{ts: ts.URL, api: api, st: st}
}

// snapshot returns the room's stored snapshot: equal bytes mean nothing
// changed.
func (e *env) snapshot(t *testing.T, code string) []byte {
	t.Helper()
	snap, err := e.st.Load(context.Background(), code)
	if err != nil {
		t.Fatalf("load %s: %v", code, err)
	}
	return snap.Data
}

// room decodes the room's stored state: the test's oracle for secrets the
// wire must not show.
func (e *env) room(t *testing.T, code string) *match.Room {
	t.Helper()
	r, err := match.DecodeRoom(e.snapshot(t, code))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// unchanged fails if the room moved on while f ran.
func (e *env) unchanged(t *testing.T, code string, f func()) {
	t.Helper()
	before := e.snapshot(t, code)
	f()
	if after := e.snapshot(t, code); !bytes.Equal(before, after) {
		t.Errorf("room changed:\nbefore %s\nafter  %s", before, after)
	}
}

// create creates a room with the settings, seating the named players;
// grants[i] is seat i.
func (e *env) create(t *testing.T, ctx context.Context, set map[string]any, names ...string) []protocol.SeatGrant {
	t.Helper()
	g, err := e.api.CreateRoom(ctx, set, names[0])
	if err != nil {
		t.Fatalf("create %v: %v", set, err)
	}
	grants := []protocol.SeatGrant{g}
	for _, n := range names[1:] {
		g2, err := e.api.Join(ctx, g.Code, n)
		if err != nil {
			t.Fatalf("join %s: %v", n, err)
		}
		grants = append(grants, g2)
	}
	return grants
}

// startRoom dials every seat and starts the round (host last).
func (e *env) startRoom(t *testing.T, ctx context.Context, grants []protocol.SeatGrant) []*client.Conn {
	t.Helper()
	var cs []*client.Conn
	for _, g := range grants {
		cs = append(cs, dial(t, ctx, e.ts, g.Code, g.Token))
	}
	for _, c := range cs[1:] {
		if err := c.Ready(ctx, true); err != nil {
			t.Fatalf("ready: %v", err)
		}
	}
	if err := cs[0].Start(ctx); err != nil {
		t.Fatalf("start: %v", err)
	}
	for _, c := range cs {
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Playing && v.Board != nil }); err != nil {
			t.Fatalf("waiting for play: %v", err)
		}
	}
	return cs
}

// stroke returns stroke-play settings for n seats and holes, with extra
// fields.
func stroke(seats, holes int, extra map[string]any) map[string]any {
	set := map[string]any{"format": "stroke", "seats": seats, "holes": holes, "autoStart": false}
	for k, v := range extra {
		set[k] = v
	}
	return set
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if !client.IsCode(err, code) {
		t.Fatalf("got error %v, want code %s", err, code)
	}
}

// nextError returns the next error message on Updates.
func nextError(t *testing.T, ctx context.Context, c *client.Conn) protocol.ServerMessage {
	t.Helper()
	for {
		select {
		case m, ok := <-c.Updates():
			if !ok {
				t.Fatalf("connection closed waiting for an error: %v", c.Err())
			}
			if m.Type == protocol.TypeError {
				return m
			}
		case <-ctx.Done():
			t.Fatal("no error message")
		}
	}
}

// pingPong checks the connection still works (and that every earlier
// frame has been handled).
func pingPong(t *testing.T, ctx context.Context, c *client.Conn) {
	t.Helper()
	if err := c.Ping(ctx); err != nil {
		t.Fatalf("ping: %v", err)
	}
	for {
		select {
		case m, ok := <-c.Updates():
			if !ok {
				t.Fatalf("connection closed waiting for pong: %v", c.Err())
			}
			if m.Type == protocol.TypePong {
				return
			}
		case <-ctx.Done():
			t.Fatal("no pong")
		}
	}
}

// closeStatus waits for the connection to end and returns its close status.
func closeStatus(t *testing.T, ctx context.Context, c *client.Conn) websocket.StatusCode {
	t.Helper()
	for {
		select {
		case _, ok := <-c.Updates():
			if !ok {
				return websocket.CloseStatus(c.Err())
			}
		case <-ctx.Done():
			t.Fatal("connection still open")
		}
	}
}

// rawHello opens a bare WebSocket and sends first as its first frame.
func rawDial(t *testing.T, ctx context.Context, base string, h http.Header) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(ctx, strings.Replace(base, "http://", "ws://", 1)+"/ws", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	return ws
}

func rawRead(t *testing.T, ctx context.Context, ws *websocket.Conn) protocol.ServerMessage {
	t.Helper()
	_, b, err := ws.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var m protocol.ServerMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("bad frame %q: %v", b, err)
	}
	return m
}

func helloMsg(room, token string) []byte {
	b, _ := json.Marshal(protocol.ClientMessage{Type: protocol.TypeHello, Protocol: protocol.Version, Room: room, Token: token})
	return b
}

// decodeFrames decodes a connection's frames as its client sees them: an
// event's patch, applied to the view the connection holds (the last
// snapshot's or event's), fills in the event's View. A frame that is not
// a message, or a patch whose base is not the view held or that does not
// apply, is an error (the server never sends one on a live connection).
func decodeFrames(raw [][]byte) ([]protocol.ServerMessage, []error) {
	msgs := make([]protocol.ServerMessage, len(raw))
	errs := make([]error, len(raw))
	var view []byte
	var viewV int64
	// The client's decoder: match's tests check that it reads every view
	// exactly as encoding/json does, in a fifth of the time.
	var dec match.ViewDecoder
	for i, b := range raw {
		var f struct {
			protocol.ServerMessage
			View json.RawMessage `json:"view,omitempty"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			errs[i] = err
			continue
		}
		msgs[i] = f.ServerMessage
		if ev := msgs[i].Event; ev != nil {
			ev.V = f.V // the frame's version, as the Go client fills it in
		}
		full := f.View
		if full == nil && f.Patch != nil {
			if view == nil || f.PatchBase() != viewV {
				errs[i] = fmt.Errorf("a patch of base v%d to a view of v%d", f.PatchBase(), viewV)
				continue
			}
			var err error
			if full, err = patch.Apply(view, f.Patch); err != nil {
				errs[i] = err
				continue
			}
		}
		if full != nil {
			var v match.View
			if err := dec.Decode(full, &v); err != nil {
				errs[i] = err
				continue
			}
			msgs[i].View, view, viewV = &v, full, v.V
		}
	}
	return msgs, errs
}

// metric reads one sample of the server's /metrics.
func (e *env) metric(t *testing.T, name string) string {
	t.Helper()
	resp, err := http.Get(e.ts + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == name {
			return f[1]
		}
	}
	return ""
}

// recorder keeps every WebSocket message a connection receives, as the raw
// bytes on the wire: it sits under the handshake's TCP connection and
// parses the server's (unmasked, uncompressed) frames.
type recorder struct {
	name string
	mu   sync.Mutex
	buf  []byte
	hdr  bool
	part []byte
	msgs [][]byte
}

// client returns an HTTP client whose connections record into r; rcvbuf,
// when positive, shrinks the socket's receive buffer.
func (r *recorder) client(rcvbuf int) *http.Client {
	d := net.Dialer{}
	if rcvbuf > 0 {
		// Before connecting, so the window offered is small from the start.
		d.Control = func(network, address string, rc syscall.RawConn) error {
			var serr error
			err := rc.Control(func(fd uintptr) {
				serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, rcvbuf)
			})
			return cmp.Or(err, serr)
		}
	}
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &recConn{Conn: c, r: r}, nil
	}}}
}

type recConn struct {
	net.Conn
	r *recorder
}

func (c *recConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.r.feed(p[:n])
	}
	return n, err
}

func (r *recorder) feed(p []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, p...)
	if !r.hdr {
		i := bytes.Index(r.buf, []byte("\r\n\r\n"))
		if i < 0 {
			return
		}
		r.buf, r.hdr = r.buf[i+4:], true
	}
	for len(r.buf) >= 2 {
		fin, op := r.buf[0]&0x80 != 0, r.buf[0]&0x0f
		n, h := uint64(r.buf[1]&0x7f), 2
		switch n {
		case 126:
			if len(r.buf) < 4 {
				return
			}
			n, h = uint64(binary.BigEndian.Uint16(r.buf[2:])), 4
		case 127:
			if len(r.buf) < 10 {
				return
			}
			n, h = binary.BigEndian.Uint64(r.buf[2:]), 10
		}
		if r.buf[1]&0x80 != 0 {
			h += 4 // a server never masks, but be safe
		}
		if uint64(len(r.buf)-h) < n {
			return
		}
		payload := append([]byte(nil), r.buf[h:h+int(n)]...)
		r.buf = r.buf[h+int(n):]
		if op >= 8 {
			continue // control frame
		}
		r.part = append(r.part, payload...)
		if fin {
			r.msgs, r.part = append(r.msgs, r.part), nil
		}
	}
}

// messages returns the messages received so far.
func (r *recorder) messages() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]byte(nil), r.msgs...)
}

// dialRec dials with a recorder under the connection.
func dialRec(t *testing.T, ctx context.Context, base string, opts client.Options, r *recorder) *client.Conn {
	t.Helper()
	opts.HTTPClient = r.client(0)
	c, err := client.Dial(ctx, base, &opts)
	if err != nil {
		t.Fatalf("dial %s: %v", r.name, err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ratedMatch is the settings of the rated room most tests play: one hole
// of match play between two seats, sudden death on a tie.
func ratedMatch() map[string]any {
	return map[string]any{"game": "golf", "holes": 1, "format": "match", "seats": 2, "suddenDeath": true, "rated": true}
}

// passwords are the test accounts' passwords, by name (signedUp).
var passwords = map[string]string{"Ana": "correct horse", "Bo": "battery staple", "Cy": "purple monkey"}

// signedUp returns a browser on the server at base for each name (Ana,
// Bo or Cy), each signed up under that name.
func signedUp(t *testing.T, base string, names ...string) []*browser {
	t.Helper()
	out := make([]*browser, len(names))
	for i, name := range names {
		out[i] = newBrowser(t, base)
		out[i].signup(name, passwords[name])
	}
	return out
}

// signedUpPair is signedUp for the usual two players, Ana and Bo.
func signedUpPair(t *testing.T, base string) (ana, bo *browser) {
	t.Helper()
	b := signedUp(t, base, "Ana", "Bo")
	return b[0], b[1]
}
