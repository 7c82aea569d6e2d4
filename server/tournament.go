package server

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

	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/tourney"
)

var (
	errTournamentNotFound = errors.New("server: no such tournament")
	negInf, posInf        = math.Inf(-1), math.Inf(1)
)

// tournamentErrorCode maps the tournament errors (errorCode asks it first).
func tournamentErrorCode(err error) (string, int, bool) {
	table := []struct {
		err    error
		code   string
		status int
	}{
		{errTournamentNotFound, protocol.ErrCodeTournamentNotFound, http.StatusNotFound},
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

// tournamentRoutes adds the tournament API to the mux.
func (s *Server) tournamentRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /api/tournaments", s.createTournament)
	m.HandleFunc("GET /api/tournaments", s.listTournaments)
	m.HandleFunc("GET /api/tournaments/{id}", s.getTournament)
	m.HandleFunc("POST /api/tournaments/{id}/join", s.joinTournament)
	m.HandleFunc("POST /api/tournaments/{id}/start", s.hostTournament(tourney.KindStart))
	m.HandleFunc("POST /api/tournaments/{id}/close", s.hostTournament(tourney.KindClose))
	m.HandleFunc("POST /api/tournaments/{id}/play", s.playTournament)
	m.HandleFunc("GET /api/tournaments/{id}/leaderboard", s.getLeaderboard)
	m.HandleFunc("GET /api/tournaments/{id}/leaders", s.getLeaders) // tournament_leaders.go
	m.HandleFunc("GET /api/tournaments/{id}/bracket", s.getBracket)
	m.HandleFunc("GET /api/tournaments/{id}/records", s.getTournamentRecords)
	m.HandleFunc("GET /api/tournaments/{id}/entrants/{n}", s.getEntrant)
	m.HandleFunc("GET /api/tournaments/{id}/entrants/{n}/holes/{hole}/replay", s.getEntrantReplay)
	m.HandleFunc("GET /ws/tournament", s.capSockets(s.serveTournamentWS))
}

// newTournamentID is "T" and nine characters of Crockford base32.
func newTournamentID() string { return "T" + strings.ReplaceAll(newRoomCode(), "-", "") }

// normalizeTournamentID accepts ids in any case.
func normalizeTournamentID(in string) string {
	in = strings.ToUpper(strings.TrimSpace(in))
	if len(in) != 10 || in[0] != 'T' {
		return ""
	}
	for _, c := range in[1:] {
		if !strings.ContainsRune(codeAlphabet, c) {
			return ""
		}
	}
	return in
}

func (s *Server) tournamentLink(r *http.Request, id string) string {
	return strings.TrimSuffix(s.link(r, ""), "/r/") + "/t/" + id
}

// withTournament runs f with the tournament's hub from the path.
func (s *Server) withTournament(w http.ResponseWriter, r *http.Request, f func(h *thub)) {
	id := normalizeTournamentID(r.PathValue("id"))
	if id == "" {
		s.fail(w, errTournamentNotFound)
		return
	}
	h, err := s.tours.acquire(r.Context(), id)
	if err != nil {
		s.fail(w, err)
		return
	}
	defer s.tours.reg.Release(h)
	s.tours.out.wait(r.Context(), id) // results this instance has yet to post
	f(h)
}

// requestToken is the caller's token: the X-Token header (never the URL,
// which proxies log).
func requestToken(r *http.Request) string {
	return r.Header.Get("X-Token")
}

func (s *Server) createTournament(w http.ResponseWriter, r *http.Request) {
	if !s.allow(w, r, limitTournaments) {
		return
	}
	var req protocol.CreateTournamentRequest
	if err := decodeBody(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	set := tourney.DefaultSettings()
	if len(req.Settings) > 0 {
		if err := json.Unmarshal(req.Settings, &set); err != nil {
			s.fail(w, err)
			return
		}
	}
	if set.Schedule != "" {
		s.fail(w, fmt.Errorf("%w: schedule is set by the server for the tournaments it creates on its schedule", tourney.ErrInvalid))
		return
	}
	if set.Accounts && req.Name != "" {
		// rated.go: a host who enters an accounts-only tournament enters
		// by their account's name.
		name, err := s.accountEntry(r, set)
		if err != nil {
			s.fail(w, err)
			return
		}
		req.Name = name
	}
	grant, err := s.newTournament(s.withSeatAccount(r), set, req.Name)
	if err != nil {
		s.fail(w, err)
		return
	}
	grant.Link = s.tournamentLink(r, grant.ID)
	writeJSON(w, http.StatusCreated, grant)
}

// newTournament draws the round seeds, stores the tournament and, with a
// name, enters the host.
func (s *Server) newTournament(ctx context.Context, set tourney.Settings, name string) (protocol.TournamentGrant, error) {
	host := newToken()
	grant := protocol.TournamentGrant{Entrant: -1, HostToken: host}
	ev := tourney.Event{Kind: tourney.KindCreate, At: s.now(), Settings: &set, Host: hashToken(host)}
	for range set.Rounds() {
		ev.Seeds = append(ev.Seeds, *newSeed())
	}
	if set.Invite {
		grant.Invite = newID()
		ev.Invite = hashToken(grant.Invite)
	}
	id, err := s.createKey(ctx, func(id string) ([]byte, []byte, error) {
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
	s.prepareTournamentDeals(id, set, ev.Seeds)
	if err := s.store.Expire(ctx, id, s.opts.TournamentTTL); err != nil {
		return grant, err
	}
	h, err := s.tours.acquire(ctx, id)
	if err != nil {
		return grant, err
	}
	defer s.tours.reg.Release(h)
	if name != "" {
		g, err := s.enter(ctx, h, protocol.JoinTournamentRequest{Name: name, Invite: grant.Invite})
		if err != nil {
			return grant, err
		}
		grant.Entrant, grant.Token = g.Entrant, g.Token
	}
	return grant, nil
}

func (s *Server) listTournaments(w http.ResponseWriter, r *http.Request) {
	ts, err := s.tournamentStore()
	if err != nil {
		s.fail(w, err)
		return
	}
	ls, err := ts.TournamentList(r.Context(), 500)
	if err != nil {
		s.fail(w, err)
		return
	}
	out := make([]json.RawMessage, 0, len(ls))
	for _, l := range ls { // newest first
		out = append(out, json.RawMessage(l.Data))
	}
	writeJSON(w, http.StatusOK, map[string]any{"tournaments": out})
}

// viewer reads who the token belongs to: an entrant (or -1) and whether
// it is the host's token.
func viewer(t *tourney.Tournament, token string) (int, bool) {
	if token == "" {
		return -1, false
	}
	th := hashToken(token)
	return t.EntrantOf(th), th == t.Host
}

func (s *Server) getTournament(w http.ResponseWriter, r *http.Request) {
	s.withTournament(w, r, func(h *thub) {
		token := requestToken(r)
		v, err := readT(r.Context(), h, func(t *tourney.Tournament) (tourney.View, error) {
			e, host := viewer(t, token)
			return t.View(e, host), nil
		})
		if err != nil {
			s.fail(w, err)
			return
		}
		if v.You != nil && v.You.Entrant >= 0 && v.You.Room != "" && (v.Settings.Format == tourney.Stroke || v.Phase == tourney.Qualifying) {
			s.reconcile(r.Context(), h, v.You.Room)
		}
		writeJSON(w, http.StatusOK, v)
	})
}

func (s *Server) joinTournament(w http.ResponseWriter, r *http.Request) {
	if !s.allow(w, r, limitEntries) {
		return
	}
	var req protocol.JoinTournamentRequest
	if err := decodeBody(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	s.withTournament(w, r, func(h *thub) {
		ts, err := readT(r.Context(), h, func(t *tourney.Tournament) (tourney.Settings, error) { return t.Settings, nil })
		if err != nil {
			s.fail(w, err)
			return
		}
		if ts.Accounts {
			name, err := s.accountEntry(r, ts) // rated.go
			if err != nil {
				s.fail(w, err)
				return
			}
			req.Name = name
		}
		g, err := s.enter(s.withSeatAccount(r), h, req)
		if err != nil {
			s.fail(w, err)
			return
		}
		g.Link = s.tournamentLink(r, h.id)
		writeJSON(w, http.StatusOK, g)
	})
}

// enter adds an entrant. A token given by the client is kept (so the same
// person entering again with it is refused); otherwise one is drawn. The
// account logged in (withSeatAccount) is the entrant's: an account holds
// one entry (a second is refused, whatever its name or token), and
// fair-play evidence and ratings key on it.
func (s *Server) enter(ctx context.Context, h *thub, req protocol.JoinTournamentRequest) (protocol.TournamentGrant, error) {
	token := req.Token
	if token == "" {
		token = newToken()
	} else if len(token) < 16 || len(token) > 64 {
		return protocol.TournamentGrant{}, fmt.Errorf("%w: a token is 16 to 64 characters", tourney.ErrInvalid)
	}
	invite := ""
	if req.Invite != "" {
		invite = hashToken(req.Invite)
	}
	res := h.change(ctx, func(t *tourney.Tournament) (tourney.Event, error) {
		if err := linkedEntry(ctx, t); err != nil { // linked.go
			return tourney.Event{}, err
		}
		return tourney.Event{Kind: tourney.KindJoin, Name: req.Name, Token: hashToken(token), Invite: invite, Account: seatAccount(ctx)}, nil
	})
	if res.err != nil {
		return protocol.TournamentGrant{}, res.err
	}
	type entered struct {
		entrant int
		name    string
	}
	e, err := readT(ctx, h, func(t *tourney.Tournament) (entered, error) {
		i := t.EntrantOf(hashToken(token))
		if i < 0 {
			return entered{entrant: i}, nil
		}
		return entered{i, t.Entrants[i].Name}, nil
	})
	if err != nil {
		return protocol.TournamentGrant{}, err
	}
	// held.go: an entrant who is held for review is marked so at once.
	s.syncEntrantsHeld(ctx, h.id, []string{e.name})
	return protocol.TournamentGrant{ID: h.id, Entrant: e.entrant, Token: token}, nil
}

func (s *Server) hostTournament(kind tourney.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req protocol.TokenRequest
		if err := decodeBody(r, &req); err != nil {
			s.fail(w, err)
			return
		}
		s.withTournament(w, r, func(h *thub) {
			res := h.change(r.Context(), func(t *tourney.Tournament) (tourney.Event, error) {
				return tourney.Event{Kind: kind, Token: hashToken(req.Token)}, nil
			})
			if res.err != nil {
				s.fail(w, res.err)
				return
			}
			writeJSON(w, http.StatusOK, map[string]any{"v": res.v})
		})
	}
}

// playTournament gives an entrant the room to play in: their stroke-play
// room (made and started on the tournament's round seed the first time)
// or their current knockout match.
func (s *Server) playTournament(w http.ResponseWriter, r *http.Request) {
	if !s.allow(w, r, limitEntries) {
		return
	}
	var req protocol.TokenRequest
	if err := decodeBody(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	s.withTournament(w, r, func(h *thub) {
		g, err := s.play(r.Context(), h, req.Token)
		if err != nil {
			s.fail(w, err)
			return
		}
		g.Link = s.link(r, g.Room)
		writeJSON(w, http.StatusOK, g)
	})
}

func (s *Server) play(ctx context.Context, h *thub, token string) (protocol.PlayGrant, error) {
	th := hashToken(token)
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
		s.reconcile(ctx, h, ps.View.You.Room)
		return protocol.PlayGrant{Room: ps.View.You.Room, Next: ps.View.You.Next}, nil
	}
	code, err := s.tournamentRoom(ctx, h.id, ps.Settings, ps.Seed, []string{ps.View.You.Name}, []string{th}, []int64{ps.Account})
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

func (s *Server) getLeaderboard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	page, _ := strconv.Atoi(q.Get("page"))
	size, _ := strconv.Atoi(q.Get("size"))
	if size == 0 {
		size = 20
	}
	token := requestToken(r)
	s.withTournament(w, r, func(h *thub) {
		data, err := readT(r.Context(), h, func(t *tourney.Tournament) (*protocol.Leaderboard, error) {
			e, _ := viewer(t, token)
			return leaderboardOf(r.Context(), h.board, t, page, size, e)
		})
		if err != nil {
			s.fail(w, err)
			return
		}
		writeJSON(w, http.StatusOK, data)
	})
}

func (s *Server) getBracket(w http.ResponseWriter, r *http.Request) {
	s.withTournament(w, r, func(h *thub) {
		bv, err := readT(r.Context(), h, func(t *tourney.Tournament) (*tourney.BracketView, error) { return t.View(-1, false).Bracket, nil })
		if err != nil {
			s.fail(w, err)
			return
		}
		if bv == nil {
			writeJSON(w, http.StatusOK, map[string]any{"bracket": nil})
			return
		}
		// Live matches: their standing from the room.
		for _, round := range bv.Rounds {
			for i := range round {
				m := &round[i]
				if m.Room == "" || m.Decided {
					continue
				}
				if room, err := s.loadRoom(r.Context(), m.Room); err == nil {
					if st := room.Standings(); st.Match != nil {
						m.Status, m.Live = st.Match.Text, st.Match
					}
				}
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"bracket": bv})
	})
}

func (s *Server) getTournamentRecords(w http.ResponseWriter, r *http.Request) {
	s.withTournament(w, r, func(h *thub) {
		src, err := readT(r.Context(), h, func(t *tourney.Tournament) (*tourney.RecordSources, error) {
			return t.RecordSources(), nil
		})
		if err != nil {
			s.fail(w, err)
			return
		}
		for _, rr := range src.Rooms() {
			room, err := s.loadRoom(r.Context(), rr.Code)
			if err != nil {
				continue
			}
			src.Add(rr, room)
		}
		out := src.Records()
		w.Header().Set("Content-Disposition", `inline; filename="golf-tournament-`+h.id+`.json"`)
		writeJSON(w, http.StatusOK, out)
	})
}

func (s *Server) getEntrant(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil {
		s.fail(w, fmt.Errorf("%w: entrant number", tourney.ErrInvalid))
		return
	}
	s.withTournament(w, r, func(h *thub) {
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
			s.fail(w, err)
			return
		}
		out := protocol.EntrantWatch{Row: in.row, Safe: in.safe}
		if in.room != "" {
			if room, err := s.loadRoom(r.Context(), in.room); err == nil && room.Status == match.Playing {
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
		writeJSON(w, http.StatusOK, out)
	})
}

// getEntrantReplay is GET /api/tournaments/{id}/entrants/{n}/holes/{hole}/replay?round=r:
// entrant n's game of a hole, board by board, as the room page's replay
// viewer shows it: only once the hole is safe (refused with not_finished
// before), and only a game whose result counts. round is the knockout
// round (0 the qualifying round); stroke play needs none.
func (s *Server) getEntrantReplay(w http.ResponseWriter, r *http.Request) {
	n, err1 := strconv.Atoi(r.PathValue("n"))
	hole, err2 := strconv.Atoi(r.PathValue("hole"))
	round, err3 := -1, error(nil)
	if q := r.URL.Query().Get("round"); q != "" {
		round, err3 = strconv.Atoi(q)
	}
	if err1 != nil || err2 != nil || err3 != nil {
		s.fail(w, fmt.Errorf("%w: want /api/tournaments/{id}/entrants/{n}/holes/{hole}/replay?round=r", tourney.ErrInvalid))
		return
	}
	s.withTournament(w, r, func(h *thub) {
		tg, err := readT(r.Context(), h, func(t *tourney.Tournament) (tourney.EntrantHole, error) {
			return t.EntrantHoleOf(n, round, hole)
		})
		if err != nil {
			s.fail(w, err)
			return
		}
		if !tg.Safe {
			writeError(w, http.StatusConflict, protocol.ErrCodeNotFinished, "that hole is not safe yet: its boards are shown once everyone still to play it has finished it")
			return
		}
		if tg.Room == "" || tg.Seat < 0 || !tg.Counts {
			writeError(w, http.StatusNotFound, protocol.ErrCodeNotFinished, "no counted game of that entrant on that hole")
			return
		}
		room, err := s.loadRoom(r.Context(), tg.Room)
		if err != nil {
			s.fail(w, err)
			return
		}
		for _, hl := range room.Holes {
			if hl.Number != hole || tg.Seat >= len(hl.Games) || !hl.Games[tg.Seat].Done {
				continue
			}
			// A safe hole is whole for anyone (match.Room.ReplayAt).
			if rp, ok := room.ReplayAt(hole, tg.Seat, match.Whole); ok {
				writeJSON(w, http.StatusOK, rp)
				return
			}
		}
		writeError(w, http.StatusNotFound, protocol.ErrCodeNotFinished, "no finished game of that entrant on that hole")
	})
}
