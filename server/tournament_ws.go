package server

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

// serveTournamentWS is GET /ws/tournament?id=&page=&size=: the
// tournament's view and a leaderboard page, pushed whenever it changes, at
// most twice a second. The client's first message is a hello, with the
// entrant's or host's token if it has one (never in the URL, which
// proxies log); then it only reads (and may send pings).
func (s *Server) serveTournamentWS(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id := normalizeTournamentID(q.Get("id"))
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.opts.AllowedOrigins})
	if err != nil {
		return
	}
	ws.SetReadLimit(protocol.MaxMessage)
	tw := &twatcher{ws: ws, out: newSender(ws, s.opts.SendBuffer, s.opts.WriteTimeout, s.metrics.slowClosed.Inc), entrant: -1}
	tw.page, _ = strconv.Atoi(q.Get("page"))
	tw.size, _ = strconv.Atoi(q.Get("size"))
	if tw.size == 0 {
		tw.size = 20
	}
	s.serveSocket(r.Context(), tw.out, func(ctx context.Context) { s.watchTournament(ctx, tw, id, q.Has("token")) })
}

// watchTournament runs a tournament's watcher: hello, then pushes until
// the socket closes.
func (s *Server) watchTournament(ctx context.Context, tw *twatcher, id string, tokenInURL bool) {
	fail := func(err error) {
		code, _ := errorCode(err)
		tw.enqueue(protocol.TournamentMessage{Type: protocol.TypeError, Code: code, Message: errorMessage(err)}.Marshal())
		tw.out.close(websocket.StatusPolicyViolation, "refused")
	}
	if tokenInURL {
		fail(fmt.Errorf("%w: send the token in the hello message, never in the URL", match.ErrInvalid))
		return
	}
	if id == "" {
		fail(errTournamentNotFound)
		return
	}
	hctx, hcancel := context.WithTimeout(ctx, s.opts.HelloTimeout)
	_, data, err := tw.ws.Read(hctx)
	hcancel()
	if err != nil {
		return
	}
	var hello protocol.ClientMessage
	if json.Unmarshal(data, &hello) != nil || hello.Type != protocol.TypeHello {
		tw.enqueue(protocol.TournamentMessage{Type: protocol.TypeError, Code: protocol.ErrCodeHelloFirst,
			Message: `the first message must be {"type":"hello"}, with "token" for an entrant or the host`}.Marshal())
		tw.out.close(websocket.StatusPolicyViolation, "hello first")
		return
	}
	h, err := s.tours.acquire(ctx, id)
	if err != nil {
		fail(err)
		return
	}
	defer s.tours.reg.Release(h)
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
		_, data, err := tw.ws.Read(ctx)
		if err != nil {
			return
		}
		if string(data) == `{"type":"ping"}` {
			tw.enqueue([]byte(`{"type":"pong"}`))
		}
	}
}
