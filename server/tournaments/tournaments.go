package tournaments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server/internal/api"
	"golfsolitaire/server/internal/codes"
	"golfsolitaire/server/internal/hubs"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

var (
	// ErrNotFound: no such tournament.
	ErrNotFound    = errors.New("server: no such tournament")
	negInf, posInf = math.Inf(-1), math.Inf(1)
)

// Tournaments are the live tournaments of this instance (their hubs),
// their clock (clock.go), the outbox of their rooms' results
// (results.go) and the schedule (schedule.go).
type Tournaments struct {
	o       Options
	reg     *hubs.Registry[*hub, change]
	clockMu sync.Mutex
	clock   *clock
	out     outbox
}

// New starts the tournaments: their clock, and the schedule's
// tournaments made ahead of their slot. Close stops the clock; the
// server's Close stops the rest (its tasks, the hubs' loops).
func New(o Options) *Tournaments {
	ts := &Tournaments{o: o}
	ts.reg = hubs.NewRegistry(o.Hubs, func(id string) *hub {
		return &hub{ts: ts, Core: hubs.NewCore[change](o.Hubs, "tournament", id), id: id, watchers: map[*watcher]struct{}{}}
	}, nil)
	ts.out.init(ts)
	ts.startClock()
	ts.startSchedule()
	return ts
}

// acquire returns the tournament's hub, starting it if needed. Call
// ts.reg.Release when done.
func (ts *Tournaments) acquire(ctx context.Context, id string) (*hub, error) {
	h, err := ts.reg.Acquire(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNotFound
	}
	return h, err
}

// ErrorCode maps the tournament errors to their wire codes and statuses
// (the server's table of codes asks it first).
func ErrorCode(err error) (string, int, bool) {
	table := []struct {
		err    error
		code   string
		status int
	}{
		{ErrNotFound, protocol.ErrCodeTournamentNotFound, http.StatusNotFound},
		{tourney.ErrNotOpen, protocol.ErrCodeEntryClosed, http.StatusConflict},
		{tourney.ErrFull, protocol.ErrCodeTournamentFull, http.StatusConflict},
		{tourney.ErrAlreadyEntered, protocol.ErrCodeAlreadyEntered, http.StatusConflict},
		{tourney.ErrAccountEntered, protocol.ErrCodeAlreadyEntered, http.StatusConflict},
		{tourney.ErrNameTaken, protocol.ErrCodeNameTaken, http.StatusConflict},
		{tourney.ErrBadInvite, protocol.ErrCodeBadInvite, http.StatusForbidden},
		{tourney.ErrNotHost, protocol.ErrCodeNotHost, http.StatusForbidden},
		{tourney.ErrNotStarted, protocol.ErrCodeNotStarted, http.StatusConflict},
		{tourney.ErrClosed, protocol.ErrCodeTournamentClosed, http.StatusConflict},
		{tourney.ErrNoEntrant, protocol.ErrCodeBadToken, http.StatusForbidden},
		{tourney.ErrNoChange, protocol.ErrCodeNoChange, http.StatusConflict},
		{tourney.ErrInvalid, protocol.ErrCodeInvalid, http.StatusBadRequest},
	}
	for _, t := range table {
		if errors.Is(err, t.err) {
			return t.code, t.status, true
		}
	}
	return "", 0, false
}

// Mount adds the tournament API and the watchers' WebSocket to the mux.
func (ts *Tournaments) Mount(m *http.ServeMux) {
	m.HandleFunc("POST /api/tournaments", ts.createTournament)
	m.HandleFunc("GET /api/tournaments", ts.listTournaments)
	m.HandleFunc("GET /api/tournaments/{id}", ts.getTournament)
	m.HandleFunc("POST /api/tournaments/{id}/join", ts.joinTournament)
	m.HandleFunc("POST /api/tournaments/{id}/start", ts.hostTournament(tourney.KindStart))
	m.HandleFunc("POST /api/tournaments/{id}/close", ts.hostTournament(tourney.KindClose))
	m.HandleFunc("POST /api/tournaments/{id}/play", ts.playTournament)
	m.HandleFunc("GET /api/tournaments/{id}/leaderboard", ts.getLeaderboard)
	m.HandleFunc("GET /api/tournaments/{id}/leaders", ts.getLeaders) // leaders.go
	m.HandleFunc("GET /api/tournaments/{id}/bracket", ts.getBracket)
	m.HandleFunc("GET /api/tournaments/{id}/records", ts.getTournamentRecords)
	m.HandleFunc("GET /api/tournaments/{id}/entrants/{n}", ts.getEntrant)
	m.HandleFunc("GET /api/tournaments/{id}/entrants/{n}/holes/{hole}/replay", ts.getEntrantReplay)
	m.HandleFunc("GET /ws/tournament", ts.serveWS) // ws.go
}

// newTournamentID is "T" and nine characters of Crockford base32.
func newTournamentID() string { return "T" + strings.ReplaceAll(codes.NewRoomCode(), "-", "") }

// normalizeTournamentID accepts ids in any case.
func normalizeTournamentID(in string) string {
	in = strings.ToUpper(strings.TrimSpace(in))
	if len(in) != 10 || in[0] != 'T' {
		return ""
	}
	for _, c := range in[1:] {
		if !strings.ContainsRune(codes.Alphabet, c) {
			return ""
		}
	}
	return in
}

// Link is the tournament's page, for the request.
func (ts *Tournaments) Link(r *http.Request, id string) string {
	return strings.TrimSuffix(ts.o.Rooms.RoomLink(r, ""), "/r/") + "/t/" + id
}

// withTournament runs f with the tournament's hub from the path.
func (ts *Tournaments) withTournament(w http.ResponseWriter, r *http.Request, f func(h *hub)) {
	id := normalizeTournamentID(r.PathValue("id"))
	if id == "" {
		ts.o.Answers.Fail(w, ErrNotFound)
		return
	}
	h, err := ts.acquire(r.Context(), id)
	if err != nil {
		ts.o.Answers.Fail(w, err)
		return
	}
	defer ts.reg.Release(h)
	ts.out.wait(r.Context(), id) // results this instance has yet to post
	f(h)
}

// requestToken is the caller's token: the X-Token header (never the URL,
// which proxies log).
func requestToken(r *http.Request) string {
	return r.Header.Get("X-Token")
}

func (ts *Tournaments) createTournament(w http.ResponseWriter, r *http.Request) {
	if !ts.o.Answers.Allow(w, r, Creates) {
		return
	}
	var req protocol.CreateTournamentRequest
	if err := api.DecodeBody(r, &req); err != nil {
		ts.o.Answers.Fail(w, err)
		return
	}
	set := tourney.DefaultSettings()
	if len(req.Settings) > 0 {
		if err := json.Unmarshal(req.Settings, &set); err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
	}
	if set.Schedule != "" {
		ts.o.Answers.Fail(w, fmt.Errorf("%w: schedule is set by the server for the tournaments it creates on its schedule", tourney.ErrInvalid))
		return
	}
	if set.Accounts && req.Name != "" {
		// A host who enters an accounts-only tournament enters by their
		// account's name.
		name, err := ts.o.Players.AccountEntry(r, set)
		if err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		req.Name = name
	}
	grant, err := ts.create(ts.o.Players.SeatContext(r), set, req.Name)
	if err != nil {
		ts.o.Answers.Fail(w, err)
		return
	}
	grant.Link = ts.Link(r, grant.ID)
	api.WriteJSON(w, http.StatusCreated, grant)
}

// Create makes a tournament of the settings with no host entrant (the
// daily challenge's).
func (ts *Tournaments) Create(ctx context.Context, set tourney.Settings) (protocol.TournamentGrant, error) {
	return ts.create(ctx, set, "")
}

// create draws the round seeds, stores the tournament and, with a
// name, enters the host.
func (ts *Tournaments) create(ctx context.Context, set tourney.Settings, name string) (protocol.TournamentGrant, error) {
	host := codes.NewToken()
	grant := protocol.TournamentGrant{Entrant: -1, HostToken: host}
	ev := tourney.Event{Kind: tourney.KindCreate, At: ts.o.Now(), Settings: &set, Host: codes.HashToken(host)}
	for range set.Rounds() {
		ev.Seeds = append(ev.Seeds, *codes.NewSeed())
	}
	if set.Invite {
		grant.Invite = codes.NewID()
		ev.Invite = codes.HashToken(grant.Invite)
	}
	id, err := hubs.CreateKey(ctx, ts.o.Store, func(id string) ([]byte, []byte, error) {
		ev.ID = id
		t, err := tourney.New(ev)
		if err != nil {
			return nil, nil, err
		}
		snap, err := t.Encode()
		data, _ := json.Marshal(ev)
		return snap, data, err
	}, newTournamentID)
	if err != nil {
		return grant, err
	}
	grant.ID = id
	ts.o.Results.PrepareDeals(id, set, ev.Seeds)
	if err := ts.o.Store.Expire(ctx, id, ts.o.TTL); err != nil {
		return grant, err
	}
	h, err := ts.acquire(ctx, id)
	if err != nil {
		return grant, err
	}
	defer ts.reg.Release(h)
	if name != "" {
		g, err := ts.enter(ctx, h, protocol.JoinTournamentRequest{Name: name, Invite: grant.Invite})
		if err != nil {
			return grant, err
		}
		grant.Entrant, grant.Token = g.Entrant, g.Token
	}
	return grant, nil
}

func (ts *Tournaments) listTournaments(w http.ResponseWriter, r *http.Request) {
	ls, err := ts.o.Tournaments.TournamentList(r.Context(), 500)
	if err != nil {
		ts.o.Answers.Fail(w, err)
		return
	}
	out := make([]json.RawMessage, 0, len(ls))
	for _, l := range ls { // newest first
		out = append(out, json.RawMessage(l.Data))
	}
	api.WriteJSON(w, http.StatusOK, map[string]any{"tournaments": out})
}

// viewer reads who the token belongs to: an entrant (or -1) and whether
// it is the host's token.
func viewer(t *tourney.Tournament, token string) (int, bool) {
	if token == "" {
		return -1, false
	}
	th := codes.HashToken(token)
	return t.EntrantOf(th), th == t.Host
}

func (ts *Tournaments) getTournament(w http.ResponseWriter, r *http.Request) {
	ts.withTournament(w, r, func(h *hub) {
		token := requestToken(r)
		v, err := readT(r.Context(), h, func(t *tourney.Tournament) (tourney.View, error) {
			e, host := viewer(t, token)
			return t.View(e, host), nil
		})
		if err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		if v.You != nil && v.You.Entrant >= 0 && v.You.Room != "" && (v.Settings.Format == tourney.Stroke || v.Phase == tourney.Qualifying) {
			ts.reconcile(r.Context(), h, v.You.Room)
		}
		api.WriteJSON(w, http.StatusOK, v)
	})
}

func (ts *Tournaments) joinTournament(w http.ResponseWriter, r *http.Request) {
	if !ts.o.Answers.Allow(w, r, Entries) {
		return
	}
	var req protocol.JoinTournamentRequest
	if err := api.DecodeBody(r, &req); err != nil {
		ts.o.Answers.Fail(w, err)
		return
	}
	ts.withTournament(w, r, func(h *hub) {
		set, err := readT(r.Context(), h, func(t *tourney.Tournament) (tourney.Settings, error) { return t.Settings, nil })
		if err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		if set.Accounts {
			name, err := ts.o.Players.AccountEntry(r, set)
			if err != nil {
				ts.o.Answers.Fail(w, err)
				return
			}
			req.Name = name
		}
		g, err := ts.enter(ts.o.Players.SeatContext(r), h, req)
		if err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		g.Link = ts.Link(r, h.id)
		api.WriteJSON(w, http.StatusOK, g)
	})
}

// enter adds an entrant. A token given by the client is kept (so the same
// person entering again with it is refused); otherwise one is drawn. The
// account logged in (withSeatAccount) is the entrant's: an account holds
// one entry (a second is refused, whatever its name or token), and
// fair-play evidence and ratings key on it.
func (ts *Tournaments) enter(ctx context.Context, h *hub, req protocol.JoinTournamentRequest) (protocol.TournamentGrant, error) {
	token := req.Token
	if token == "" {
		token = codes.NewToken()
	} else if len(token) < 16 || len(token) > 64 {
		return protocol.TournamentGrant{}, fmt.Errorf("%w: a token is 16 to 64 characters", tourney.ErrInvalid)
	}
	invite := ""
	if req.Invite != "" {
		invite = codes.HashToken(req.Invite)
	}
	res := h.change(ctx, func(t *tourney.Tournament) (tourney.Event, error) {
		if err := ts.o.Players.LinkedEntry(ctx, t); err != nil {
			return tourney.Event{}, err
		}
		return tourney.Event{Kind: tourney.KindJoin, Name: req.Name, Token: codes.HashToken(token), Invite: invite, Account: ts.o.Players.SeatAccount(ctx)}, nil
	})
	if res.err != nil {
		return protocol.TournamentGrant{}, res.err
	}
	type entered struct {
		entrant int
		name    string
	}
	e, err := readT(ctx, h, func(t *tourney.Tournament) (entered, error) {
		i := t.EntrantOf(codes.HashToken(token))
		if i < 0 {
			return entered{entrant: i}, nil
		}
		return entered{i, t.Entrants[i].Name}, nil
	})
	if err != nil {
		return protocol.TournamentGrant{}, err
	}
	// held.go: an entrant who is held for review is marked so at once.
	ts.SyncHeld(ctx, h.id, []string{e.name})
	return protocol.TournamentGrant{ID: h.id, Entrant: e.entrant, Token: token}, nil
}

func (ts *Tournaments) hostTournament(kind tourney.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req protocol.TokenRequest
		if err := api.DecodeBody(r, &req); err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		ts.withTournament(w, r, func(h *hub) {
			res := h.change(r.Context(), func(t *tourney.Tournament) (tourney.Event, error) {
				return tourney.Event{Kind: kind, Token: codes.HashToken(req.Token)}, nil
			})
			if res.err != nil {
				ts.o.Answers.Fail(w, res.err)
				return
			}
			api.WriteJSON(w, http.StatusOK, map[string]any{"v": res.v})
		})
	}
}

// playTournament gives an entrant the room to play in: their stroke-play
// room (made and started on the tournament's round seed the first time)
// or their current knockout match.
func (ts *Tournaments) playTournament(w http.ResponseWriter, r *http.Request) {
	if !ts.o.Answers.Allow(w, r, Entries) {
		return
	}
	var req protocol.TokenRequest
	if err := api.DecodeBody(r, &req); err != nil {
		ts.o.Answers.Fail(w, err)
		return
	}
	ts.withTournament(w, r, func(h *hub) {
		g, err := ts.play(r.Context(), h, req.Token)
		if err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		g.Link = ts.o.Rooms.RoomLink(r, g.Room)
		api.WriteJSON(w, http.StatusOK, g)
	})
}

func (ts *Tournaments) play(ctx context.Context, h *hub, token string) (protocol.PlayGrant, error) {
	th := codes.HashToken(token)
	ps, err := readT(ctx, h, func(t *tourney.Tournament) (tourney.Play, error) { return t.PlayOf(th) })
	if err != nil {
		return protocol.PlayGrant{}, err
	}
	if ps.Match {
		if ps.Seat < 0 {
			return protocol.PlayGrant{}, fmt.Errorf("%w: your next match is not ready", tourney.ErrNotStarted)
		}
		return protocol.PlayGrant{Room: ps.View.You.Room, Seat: ps.Seat}, nil
	}
	if ps.View.You.Room != "" {
		ts.reconcile(ctx, h, ps.View.You.Room)
		return protocol.PlayGrant{Room: ps.View.You.Room, Next: ps.View.You.Next}, nil
	}
	code, err := ts.o.Rooms.StartRoom(ctx, h.id, ps.Settings, ps.Seed, []Seat{{Name: ps.View.You.Name, Token: th, Account: ps.Account}})
	if err != nil {
		return protocol.PlayGrant{}, err
	}
	r := h.change(ctx, func(t *tourney.Tournament) (tourney.Event, error) {
		return tourney.Event{Kind: tourney.KindRoom, Entrant: ps.Entrant, Room: code}, nil
	})
	if errors.Is(r.err, tourney.ErrNoChange) {
		// Another request made the room first: use that one.
		if code, err = readT(ctx, h, func(t *tourney.Tournament) (string, error) { return t.Entrants[ps.Entrant].Room, nil }); err != nil {
			return protocol.PlayGrant{}, err
		}
	} else if r.err != nil {
		return protocol.PlayGrant{}, r.err
	}
	return protocol.PlayGrant{Room: code, Next: max(ps.View.You.Next, 1)}, nil
}

func (ts *Tournaments) getLeaderboard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	page, _ := strconv.Atoi(q.Get("page"))
	size, _ := strconv.Atoi(q.Get("size"))
	if size == 0 {
		size = 20
	}
	token := requestToken(r)
	ts.withTournament(w, r, func(h *hub) {
		data, err := readT(r.Context(), h, func(t *tourney.Tournament) (*protocol.Leaderboard, error) {
			e, _ := viewer(t, token)
			return leaderboardOf(r.Context(), h.board, t, page, size, e)
		})
		if err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		api.WriteJSON(w, http.StatusOK, data)
	})
}

func (ts *Tournaments) getBracket(w http.ResponseWriter, r *http.Request) {
	ts.withTournament(w, r, func(h *hub) {
		bv, err := readT(r.Context(), h, func(t *tourney.Tournament) (*tourney.BracketView, error) { return t.View(-1, false).Bracket, nil })
		if err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		if bv == nil {
			api.WriteJSON(w, http.StatusOK, map[string]any{"bracket": nil})
			return
		}
		// Live matches: their standing from the room.
		for _, round := range bv.Rounds {
			for i := range round {
				m := &round[i]
				if m.Room == "" || m.Decided {
					continue
				}
				if room, err := ts.o.Rooms.LoadRoom(r.Context(), m.Room); err == nil {
					if st := room.Standings(); st.Match != nil {
						m.Status, m.Live = st.Match.Text, st.Match
					}
				}
			}
		}
		api.WriteJSON(w, http.StatusOK, map[string]any{"bracket": bv})
	})
}

func (ts *Tournaments) getTournamentRecords(w http.ResponseWriter, r *http.Request) {
	ts.withTournament(w, r, func(h *hub) {
		src, err := readT(r.Context(), h, func(t *tourney.Tournament) (*tourney.RecordSources, error) {
			return t.RecordSources(), nil
		})
		if err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		for _, rr := range src.Rooms() {
			room, err := ts.o.Rooms.LoadRoom(r.Context(), rr.Code)
			if err != nil {
				continue
			}
			src.Add(rr, room)
		}
		out := src.Records()
		w.Header().Set("Content-Disposition", `inline; filename="golf-tournament-`+h.id+`.json"`)
		api.WriteJSON(w, http.StatusOK, out)
	})
}

func (ts *Tournaments) getEntrant(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil {
		ts.o.Answers.Fail(w, fmt.Errorf("%w: entrant number", tourney.ErrInvalid))
		return
	}
	ts.withTournament(w, r, func(h *hub) {
		type info struct {
			row  tourney.Row
			room string
			safe []int
		}
		in, err := readT(r.Context(), h, func(t *tourney.Tournament) (info, error) {
			if n < 0 || n >= len(t.Entrants) {
				return info{}, fmt.Errorf("%w: %d", tourney.ErrNoEntrant, n)
			}
			return info{t.Line(n), t.Entrants[n].Room, t.SafeHoles()}, nil
		})
		if err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		out := protocol.EntrantWatch{Row: in.row, Safe: in.safe}
		if in.room != "" {
			if room, err := ts.o.Rooms.LoadRoom(r.Context(), in.room); err == nil && room.Status == match.Playing {
				if hole := room.CurrentHole(); hole != nil && len(hole.Games) > 0 {
					f, wait := 0, match.TournamentWait()
					if slices.Contains(in.safe, hole.Number) {
						f, wait = match.Whole, nil
					}
					sh := room.Shown(hole, 0, f, wait)
					out.Hole, out.Progress = hole.Number, &sh.Progress
					if f == match.Whole {
						// Before then the board would be the deal itself,
						// which an entrant still to start the hole must
						// not see.
						out.Board = sh.Board
					}
				}
			}
		}
		api.WriteJSON(w, http.StatusOK, out)
	})
}

// getEntrantReplay is GET /api/tournaments/{id}/entrants/{n}/holes/{hole}/replay?round=r:
// entrant n's game of a hole, board by board, as the room page's replay
// viewer shows it: only once the hole is safe (refused with not_finished
// before), and only a game whose result counts. round is the knockout
// round (0 the qualifying round); stroke play needs none.
func (ts *Tournaments) getEntrantReplay(w http.ResponseWriter, r *http.Request) {
	n, err1 := strconv.Atoi(r.PathValue("n"))
	hole, err2 := strconv.Atoi(r.PathValue("hole"))
	round, err3 := -1, error(nil)
	if q := r.URL.Query().Get("round"); q != "" {
		round, err3 = strconv.Atoi(q)
	}
	if err1 != nil || err2 != nil || err3 != nil {
		ts.o.Answers.Fail(w, fmt.Errorf("%w: want /api/tournaments/{id}/entrants/{n}/holes/{hole}/replay?round=r", tourney.ErrInvalid))
		return
	}
	ts.withTournament(w, r, func(h *hub) {
		tg, err := readT(r.Context(), h, func(t *tourney.Tournament) (tourney.EntrantHole, error) {
			return t.EntrantHoleOf(n, round, hole)
		})
		if err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		if !tg.Safe {
			api.WriteError(w, http.StatusConflict, protocol.ErrCodeNotFinished, "that hole is not safe yet: its boards are shown once everyone still to play it has finished it")
			return
		}
		if tg.Room == "" || tg.Seat < 0 || !tg.Counts {
			api.WriteError(w, http.StatusNotFound, protocol.ErrCodeNotFinished, "no counted game of that entrant on that hole")
			return
		}
		room, err := ts.o.Rooms.LoadRoom(r.Context(), tg.Room)
		if err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		for _, hl := range room.Holes {
			if hl.Number != hole || tg.Seat >= len(hl.Games) || !hl.Games[tg.Seat].Done {
				continue
			}
			// A safe hole is whole for anyone (match.Room.ReplayAt).
			if rp, ok := room.ReplayAt(hole, tg.Seat, match.Whole); ok {
				api.WriteJSON(w, http.StatusOK, rp)
				return
			}
		}
		api.WriteError(w, http.StatusNotFound, protocol.ErrCodeNotFinished, "no finished game of that entrant on that hole")
	})
}
