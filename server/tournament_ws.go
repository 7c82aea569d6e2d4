package server

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/protocol"
	"golfsolitaire/tourney"
)

// serveTournamentWS is GET /ws/tournament?id=&token=&page=&size=: the
// tournament's view and a leaderboard page, pushed whenever it changes, at
// most twice a second. The client only reads (and may send pings).
func (s *Server) serveTournamentWS(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id := normalizeTournamentID(q.Get("id"))
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.opts.AllowedOrigins})
	if err != nil {
		return
	}
	ws.SetReadLimit(protocol.MaxMessage)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	tw := &twatcher{ws: ws, send: make(chan []byte, s.opts.SendBuffer), closed: make(chan struct{}), entrant: -1}
	tw.page, _ = strconv.Atoi(q.Get("page"))
	tw.size, _ = strconv.Atoi(q.Get("size"))
	if tw.size == 0 {
		tw.size = 20
	}
	go tw.writer(ctx, s.opts.WriteTimeout)
	defer tw.close(websocket.StatusNormalClosure, "")
	fail := func(err error) {
		code, _ := errorCode(err)
		tw.enqueue(protocol.TournamentMessage{Type: protocol.TypeError, Code: code, Message: errorMessage(err)}.Marshal())
		time.Sleep(100 * time.Millisecond)
		tw.close(websocket.StatusPolicyViolation, "refused")
	}
	if id == "" {
		fail(errTournamentNotFound)
		return
	}
	h, err := s.acquireTournament(ctx, id)
	if err != nil {
		fail(err)
		return
	}
	defer s.releaseTournament(h)
	if token := q.Get("token"); token != "" {
		res := h.do(ctx, &tcmd{read: func(t *tourney.Tournament) any {
			e, host := viewer(t, token)
			return [2]any{e, host}
		}})
		if v, ok := res.data.([2]any); ok {
			tw.entrant, tw.host = v[0].(int), v[1].(bool)
		}
	}
	if r := h.do(ctx, &tcmd{attach: tw}); r.err != nil {
		fail(r.err)
		return
	}
	defer func() {
		dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		defer dcancel()
		h.do(dctx, &tcmd{detach: tw})
	}()
	// Keep reading: pings are answered, anything else is ignored; a closed
	// socket ends the watch.
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return
		}
		if string(data) == `{"type":"ping"}` {
			tw.enqueue([]byte(`{"type":"pong"}`))
		}
	}
}

func (w *twatcher) writer(ctx context.Context, timeout time.Duration) {
	for {
		select {
		case <-w.closed:
			return
		case <-ctx.Done():
			return
		case msg := <-w.send:
			wctx, cancel := context.WithTimeout(ctx, timeout)
			err := w.ws.Write(wctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				w.close(websocket.StatusGoingAway, "write failed")
				return
			}
		}
	}
}
