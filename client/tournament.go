package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/coder/websocket"

	"golfsolitaire/protocol"
)

// CreateTournament creates a tournament (settings: any JSON-encodable
// value, nil for the defaults) and, with a name, enters the host.
func (a *API) CreateTournament(ctx context.Context, settings any, name string) (protocol.TournamentGrant, error) {
	req := map[string]any{}
	if settings != nil {
		req["settings"] = settings
	}
	if name != "" {
		req["name"] = name
	}
	var g protocol.TournamentGrant
	_, err := a.Call(ctx, http.MethodPost, "/api/tournaments", req, &g)
	return g, err
}

// JoinTournament enters a tournament.
func (a *API) JoinTournament(ctx context.Context, id string, req protocol.JoinTournamentRequest) (protocol.TournamentGrant, error) {
	var g protocol.TournamentGrant
	_, err := a.Call(ctx, http.MethodPost, "/api/tournaments/"+id+"/join", req, &g)
	return g, err
}

// StartTournament starts (kind "start") or closes ("close") a tournament
// with the host's token.
func (a *API) HostTournament(ctx context.Context, id, kind, hostToken string) error {
	_, err := a.Call(ctx, http.MethodPost, "/api/tournaments/"+id+"/"+kind, protocol.TokenRequest{Token: hostToken}, nil)
	return err
}

// PlayTournament returns the room where the entrant plays next.
func (a *API) PlayTournament(ctx context.Context, id, token string) (protocol.PlayGrant, error) {
	var g protocol.PlayGrant
	_, err := a.Call(ctx, http.MethodPost, "/api/tournaments/"+id+"/play", protocol.TokenRequest{Token: token}, &g)
	return g, err
}

// Leaderboard returns a page of the leaderboard, and the rows around the
// entrant whose token is given (or none for "").
func (a *API) Leaderboard(ctx context.Context, id string, page, size int, token string) (protocol.Leaderboard, error) {
	q := url.Values{}
	q.Set("page", fmt.Sprint(page))
	q.Set("size", fmt.Sprint(size))
	var lb protocol.Leaderboard
	_, err := a.CallToken(ctx, http.MethodGet, "/api/tournaments/"+id+"/leaderboard?"+q.Encode(), token, nil, &lb)
	return lb, err
}

// Watcher receives a tournament's pushes.
type Watcher struct {
	ws *websocket.Conn
	C  <-chan protocol.TournamentMessage
	// Raw receives every frame as sent, when asked for with DialTournament's
	// raw argument (tests check what watchers are shown).
	Raw  <-chan []byte
	done chan struct{}
}

// DialTournament watches a tournament: base is the server's URL; token
// (optional) makes the pushes carry the entrant's own row. page and size
// choose the leaderboard page.
func DialTournament(ctx context.Context, base, id, token string, page, size int, raw bool) (*Watcher, error) {
	q := url.Values{}
	q.Set("id", id)
	q.Set("page", fmt.Sprint(page))
	q.Set("size", fmt.Sprint(size))
	u := strings.TrimSuffix(wsURL(base), "/ws") + "/ws/tournament?" + q.Encode()
	ws, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(8 << 20)
	// The token goes in the first message, never in the URL.
	hello, _ := json.Marshal(protocol.ClientMessage{Type: protocol.TypeHello, Token: token})
	if err := ws.Write(ctx, websocket.MessageText, hello); err != nil {
		ws.CloseNow()
		return nil, err
	}
	c := make(chan protocol.TournamentMessage, 256)
	var rc chan []byte
	if raw {
		rc = make(chan []byte, 4096)
	}
	w := &Watcher{ws: ws, C: c, Raw: rc, done: make(chan struct{})}
	go func() {
		defer close(c)
		if rc != nil {
			defer close(rc)
		}
		for {
			_, b, err := ws.Read(context.Background())
			if err != nil {
				return
			}
			if rc != nil {
				select {
				case rc <- b:
				default:
				}
			}
			var m protocol.TournamentMessage
			if json.Unmarshal(b, &m) == nil {
				select {
				case c <- m:
				default:
					// A reader that does not keep up misses pushes; the
					// next one has the whole state.
				}
			}
		}
	}()
	return w, nil
}

// Close ends the watch.
func (w *Watcher) Close() error { return w.ws.Close(websocket.StatusNormalClosure, "") }
