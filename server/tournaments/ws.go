package tournaments

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server/internal/hubs"
)

// serveWS is GET /ws/tournament?id=&page=&size=: the
// tournament's view and a leaderboard page, pushed whenever it changes, at
// most twice a second. The client's first message is a hello, with the
// entrant's or host's token if it has one (never in the URL, which
// proxies log); then it only reads (and may send pings).
func (ts *Tournaments) serveWS(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id := normalizeTournamentID(q.Get("id"))
	page, _ := strconv.Atoi(q.Get("page"))
	size, _ := strconv.Atoi(q.Get("size"))
	if size == 0 {
		size = 20
	}
	ts.o.Sockets.Serve(w, r, func(ctx context.Context, sock Socket) {
		ts.watch(ctx, &watcher{sock: sock, entrant: -1, page: page, size: size}, id, q.Has("token"))
	})
}

// watch runs a tournament's watcher: hello, then pushes until
// the socket closes.
func (ts *Tournaments) watch(ctx context.Context, tw *watcher, id string, tokenInURL bool) {
	fail := func(err error) {
		code, msg := ts.o.Answers.Describe(err)
		tw.enqueue(protocol.TournamentMessage{Type: protocol.TypeError, Code: code, Message: msg}.Marshal())
		tw.sock.Close(websocket.StatusPolicyViolation, "refused")
	}
	if tokenInURL {
		fail(fmt.Errorf("%w: send the token in the hello message, never in the URL", match.ErrInvalid))
		return
	}
	if id == "" {
		fail(ErrNotFound)
		return
	}
	hctx, hcancel := context.WithTimeout(ctx, ts.o.HelloTimeout)
	data, err := tw.sock.Read(hctx)
	hcancel()
	if err != nil {
		return
	}
	var hello protocol.ClientMessage
	if json.Unmarshal(data, &hello) != nil || hello.Type != protocol.TypeHello {
		tw.enqueue(protocol.TournamentMessage{Type: protocol.TypeError, Code: protocol.ErrCodeHelloFirst,
			Message: `the first message must be {"type":"hello"}, with "token" for an entrant or the host`}.Marshal())
		tw.sock.Close(websocket.StatusPolicyViolation, "hello first")
		return
	}
	h, err := ts.acquire(ctx, id)
	if err != nil {
		fail(err)
		return
	}
	defer ts.reg.Release(h)
	if token := hello.Token; token != "" {
		type who struct {
			entrant int
			host    bool
		}
		if v, err := hubs.Read(ctx, &h.Core, func() who {
			e, host := viewer(h.t, token)
			return who{e, host}
		}); err == nil {
			tw.entrant, tw.host = v.entrant, v.host
		}
	}
	if err := h.attach(ctx, tw); err != nil {
		fail(err)
		return
	}
	defer func() {
		dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		defer dcancel()
		h.detach(dctx, tw)
	}()
	// Keep reading: pings are answered, anything else is ignored; a closed
	// socket ends the watch.
	for {
		data, err := tw.sock.Read(ctx)
		if err != nil {
			return
		}
		if string(data) == `{"type":"ping"}` {
			tw.enqueue([]byte(`{"type":"pong"}`))
		}
	}
}
