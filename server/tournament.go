package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

var (
	errTournamentNotFound = errors.New("server: no such tournament")
	negInf, posInf        = math.Inf(-1), math.Inf(1)
)

// tournamentTTL is how long a tournament and its rooms are kept after
// their last change.
const tournamentTTL = 30 * 24 * time.Hour

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
	m.HandleFunc("GET /api/tournaments/{id}/bracket", s.getBracket)
	m.HandleFunc("GET /api/tournaments/{id}/records", s.getTournamentRecords)
	m.HandleFunc("GET /api/tournaments/{id}/entrants/{n}", s.getEntrant)
	m.HandleFunc("GET /api/tournaments/{id}/entrants/{n}/holes/{hole}/replay", s.getEntrantReplay)
	m.HandleFunc("GET /ws/tournament", s.serveTournamentWS)
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
	h, err := s.acquireTournament(r.Context(), id)
	if err != nil {
		s.fail(w, err)
		return
	}
	defer s.releaseTournament(h)
	f(h)
}

// requestToken is the caller's token: the X-Token header or ?token=.
func requestToken(r *http.Request) string {
	if t := r.Header.Get("X-Token"); t != "" {
		return t
	}
	return r.URL.Query().Get("token")
}

func (s *Server) createTournament(w http.ResponseWriter, r *http.Request) {
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
	grant, err := s.newTournament(r.Context(), set, req.Name)
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
	for attempt := 0; ; attempt++ {
		ev.ID = newTournamentID()
		t, err := tourney.New(ev)
		if err != nil {
			return grant, err
		}
		snap, err := t.Encode()
		if err != nil {
			return grant, err
		}
		data, _ := json.Marshal(ev)
		err = s.store.Create(ctx, ev.ID, snap, data)
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrExists) || attempt > 5 {
			return grant, err
		}
	}
	grant.ID = ev.ID
	if err := s.store.Expire(ctx, ev.ID, tournamentTTL); err != nil {
		return grant, err
	}
	h, err := s.acquireTournament(ctx, ev.ID)
	if err != nil {
		return grant, err
	}
	defer s.releaseTournament(h)
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
	for i := len(ls) - 1; i >= 0; i-- { // newest first
		out = append(out, json.RawMessage(ls[i].Data))
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
		res := h.do(r.Context(), &tcmd{read: func(t *tourney.Tournament) any {
			e, host := viewer(t, token)
			return t.View(e, host)
		}})
		if res.err != nil {
			s.fail(w, res.err)
			return
		}
		v := res.data.(tourney.View)
		if v.You != nil && v.You.Entrant >= 0 && v.You.Room != "" && (v.Settings.Format == tourney.Stroke || v.Phase == tourney.Qualifying) {
			s.reconcile(r.Context(), h, v.You.Room)
		}
		writeJSON(w, http.StatusOK, v)
	})
}

func (s *Server) joinTournament(w http.ResponseWriter, r *http.Request) {
	var req protocol.JoinTournamentRequest
	if err := decodeBody(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	s.withTournament(w, r, func(h *thub) {
		g, err := s.enter(r.Context(), h, req)
		if err != nil {
			s.fail(w, err)
			return
		}
		g.Link = s.tournamentLink(r, h.id)
		writeJSON(w, http.StatusOK, g)
	})
}

// enter adds an entrant. A token given by the client is kept (so the same
// person entering again with it is refused); otherwise one is drawn.
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
	res := h.do(ctx, &tcmd{build: func(t *tourney.Tournament) (tourney.Event, error) {
		return tourney.Event{Kind: tourney.KindJoin, Name: req.Name, Token: hashToken(token), Invite: invite}, nil
	}})
	if res.err != nil {
		return protocol.TournamentGrant{}, res.err
	}
	e := h.do(ctx, &tcmd{read: func(t *tourney.Tournament) any { return t.EntrantOf(hashToken(token)) }})
	return protocol.TournamentGrant{ID: h.id, Entrant: e.data.(int), Token: token}, nil
}

func (s *Server) hostTournament(kind tourney.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req protocol.TokenRequest
		if err := decodeBody(r, &req); err != nil {
			s.fail(w, err)
			return
		}
		s.withTournament(w, r, func(h *thub) {
			res := h.do(r.Context(), &tcmd{build: func(t *tourney.Tournament) (tourney.Event, error) {
				return tourney.Event{Kind: kind, Token: hashToken(req.Token)}, nil
			}})
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

type playState struct {
	entrant int
	view    tourney.View
	seed    golf.Seed
	set     match.Settings
	token   string
	seat    int
	match   bool // a knockout match, not a stroke room
}

func (s *Server) play(ctx context.Context, h *thub, token string) (protocol.PlayGrant, error) {
	th := hashToken(token)
	data, err := h.read(ctx, func(t *tourney.Tournament) any {
		e := t.EntrantOf(th)
		if e < 0 {
			return tourney.ErrNoEntrant
		}
		switch t.Status {
		case tourney.Upcoming:
			return tourney.ErrNotStarted
		case tourney.Closed:
			return tourney.ErrClosed
		}
		ps := playState{entrant: e, view: t.View(e, false), seed: t.StrokeSeed(), set: t.Settings.StrokeRoomSettings(), token: th}
		if !t.StrokePlay() {
			ps.seat, ps.match = -1, true
			for _, round := range t.Bracket.Rounds {
				for _, m := range round {
					if !m.Decided && m.Room != "" && (m.A == e || m.B == e) {
						ps.seat = map[bool]int{true: 0, false: 1}[m.A == e]
						ps.view.You.Room = m.Room
					}
				}
			}
		}
		return ps
	})
	if err != nil {
		return protocol.PlayGrant{}, err
	}
	ps := data.(playState)
	if ps.match {
		if ps.seat < 0 {
			return protocol.PlayGrant{}, fmt.Errorf("%w: your next match is not ready", tourney.ErrNotStarted)
		}
		return protocol.PlayGrant{Room: ps.view.You.Room, Seat: ps.seat}, nil
	}
	if ps.view.You.Room != "" {
		s.reconcile(ctx, h, ps.view.You.Room)
		return protocol.PlayGrant{Room: ps.view.You.Room, Next: ps.view.You.Next}, nil
	}
	code, err := s.tournamentRoom(ctx, h.id, ps.set, ps.seed, []string{ps.view.You.Name}, []string{th})
	if err != nil {
		return protocol.PlayGrant{}, err
	}
	r := h.do(ctx, &tcmd{build: func(t *tourney.Tournament) (tourney.Event, error) {
		return tourney.Event{Kind: tourney.KindRoom, Entrant: ps.entrant, Room: code}, nil
	}})
	if errors.Is(r.err, tourney.ErrNoChange) {
		// Another request made the room first: use that one.
		got := h.do(ctx, &tcmd{read: func(t *tourney.Tournament) any { return t.Entrants[ps.entrant].Room }})
		code = got.data.(string)
	} else if r.err != nil {
		return protocol.PlayGrant{}, r.err
	}
	return protocol.PlayGrant{Room: code, Next: max(ps.view.You.Next, 1)}, nil
}

// tournamentRoom makes a tournament room with the players seated (by
// their token hashes) and starts it on the round seed.
func (s *Server) tournamentRoom(ctx context.Context, id string, set match.Settings, seed golf.Seed, names, tokens []string) (string, error) {
	var code string
	for attempt := 0; ; attempt++ {
		code = newRoomCode()
		ev := match.Event{Kind: match.KindCreate, At: s.now(), Code: code, Settings: &set, Tournament: id}
		room, err := match.NewRoom(ev)
		if err != nil {
			return "", err
		}
		snap, err := room.Encode()
		if err != nil {
			return "", err
		}
		data, _ := json.Marshal(room.Log(ev, nil))
		err = s.store.Create(ctx, code, snap, data)
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrExists) || attempt > 5 {
			return "", err
		}
	}
	if err := s.store.Expire(ctx, code, tournamentTTL); err != nil {
		return "", err
	}
	rh, err := s.acquire(ctx, code)
	if err != nil {
		return "", err
	}
	defer s.release(rh)
	for i := range names {
		res := rh.do(ctx, &command{build: func(*match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindJoin, Name: names[i], Token: tokens[i]}, nil
		}})
		if res.err != nil {
			return "", res.err
		}
	}
	for i := range names {
		res := rh.do(ctx, &command{build: func(*match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindReady, Seat: i, Ready: true, Seed: &seed}, nil
		}})
		if res.err != nil {
			return "", res.err
		}
	}
	return code, nil
}

// tournamentRoomChanged is called by a room's hub after it applied an
// event of a tournament room: results go to the tournament, once (the
// tournament refuses a second result for a hole).
func (s *Server) tournamentRoomChanged(room *match.Room, notices []match.Notice) {
	if room.Tournament == "" || len(notices) == 0 {
		return
	}
	var evs []tourney.Event
	status := ""
	for _, n := range notices {
		if n.Kind == "holeEnded" && room.Settings.Format == match.Matchplay {
			if st := room.Standings(); st.Match != nil {
				status = st.Match.Text
			}
		}
		if n.Kind == "roundEnded" {
			// The hub has just given the finished room the short time to
			// live of finished rooms; a tournament's records need it until
			// the tournament is long over.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			if err := s.store.Expire(ctx, room.Code, tournamentTTL); err != nil {
				s.log.Warn("tournament room expiry", "room", room.Code, "err", err)
			}
			cancel()
		}
		switch {
		case n.Kind == "seatDone" && room.Settings.Format == match.Stroke:
			evs = append(evs, tourney.Event{Kind: tourney.KindResult, Hole: n.Hole, Score: n.Score, End: n.End})
		case n.Kind == "roundEnded" && room.Settings.Format == match.Matchplay:
			st := room.Standings()
			if st.Match == nil {
				continue
			}
			evs = append(evs, tourney.Event{Kind: tourney.KindDecided, Entrant: st.Match.Winner, Result: st.Match.Result})
		}
	}
	if len(evs) == 0 && status == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h, err := s.acquireTournament(ctx, room.Tournament)
	if err != nil {
		s.log.Warn("tournament result not posted", "room", room.Code, "err", err)
		return
	}
	defer s.releaseTournament(h)
	if status != "" {
		h.do(ctx, &tcmd{status: map[string]string{room.Code: status}})
	}
	s.postResults(ctx, h, room.Code, evs)
}

// postResults posts a room's results (stroke results, or a match
// decided with its winner's seat in Entrant) to the tournament's hub.
func (s *Server) postResults(ctx context.Context, h *thub, code string, evs []tourney.Event) {
	for _, ev := range evs {
		winnerSeat := ev.Entrant
		res := h.do(ctx, &tcmd{build: func(t *tourney.Tournament) (tourney.Event, error) {
			if ev.Kind == tourney.KindDecided {
				m := t.MatchOfRoom(code)
				if m == nil {
					return ev, tourney.ErrNoEntrant
				}
				ev.Round, ev.Slot = m.Round, m.Slot
				switch winnerSeat {
				case 0:
					ev.Entrant = m.A
				case 1:
					ev.Entrant = m.B
				default:
					ev.Entrant = t.BetterSeed(m.A, m.B)
					ev.Result = "Halved: the better seed goes through"
				}
				return ev, nil
			}
			ev.Entrant = t.EntrantOfRoom(code)
			if ev.Entrant < 0 {
				return ev, tourney.ErrNoEntrant
			}
			return ev, nil
		}})
		if res.err != nil && !errors.Is(res.err, tourney.ErrNoChange) {
			s.log.Info("tournament result refused", "room", code, "kind", ev.Kind, "hole", ev.Hole, "err", res.err)
		}
	}
}

// roomResults are the results a tournament room holds: each finished hole
// of a stroke room, or a finished match's winner (its seat in Entrant).
func roomResults(room *match.Room) []tourney.Event {
	var evs []tourney.Event
	switch room.Settings.Format {
	case match.Stroke:
		for _, hole := range room.Holes {
			if len(hole.Games) > 0 && hole.Games[0].Done {
				g := hole.Games[0]
				evs = append(evs, tourney.Event{Kind: tourney.KindResult, Hole: hole.Number, Score: g.Score, End: g.End})
			}
		}
	case match.Matchplay:
		if st := room.Standings(); room.Status == match.Finished && st.Match != nil {
			evs = append(evs, tourney.Event{Kind: tourney.KindDecided, Entrant: st.Match.Winner, Result: st.Match.Result})
		}
	}
	return evs
}

// sweepTarget is a room whose results the tournament may lack: a stroke
// room (thru: the holes counted) or an undecided knockout match's room.
type sweepTarget struct {
	room string
	thru int
}

// sweepRooms is how many rooms one sweep looks at, at most: a large
// field is swept a slice at a time.
const sweepRooms = 200

// sweepTargets lists the rooms of the tournament whose results may be
// missing, from the cursor on (at most sweepRooms), and the next cursor.
func sweepTargets(t *tourney.Tournament, cursor int) ([]sweepTarget, int) {
	var all []sweepTarget
	if t.Status != tourney.Live {
		return nil, 0
	}
	if t.StrokePlay() {
		for i, e := range t.Entrants {
			if e.Room != "" && t.Thru(i) < t.Settings.Holes {
				all = append(all, sweepTarget{room: e.Room, thru: t.Thru(i)})
			}
		}
	} else if t.Bracket != nil {
		for _, round := range t.Bracket.Rounds {
			for _, m := range round {
				if m.Room != "" && !m.Decided {
					all = append(all, sweepTarget{room: m.Room, thru: -1})
				}
			}
		}
	}
	if cursor >= len(all) {
		cursor = 0
	}
	end := min(cursor+sweepRooms, len(all))
	next := end
	if next >= len(all) {
		next = 0
	}
	return all[cursor:end], next
}

// sweep re-posts results that were lost between a room's append and its
// post to the tournament (an instance stopping, a store error): each room
// of the tournament whose results may be missing is read, off the hub's
// loop, and what the tournament lacks is posted again; the tournament
// counts each result once. It also refreshes the live status of the
// knockout matches (played on any instance) that the bracket shows.
func (h *thub) sweep() {
	targets, next := sweepTargets(h.t, h.sweepCursor)
	h.sweepCursor = next
	if len(targets) == 0 || !h.sweeping.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer h.sweeping.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), max(h.s.opts.ResyncEvery, 5*time.Second))
		defer cancel()
		go func() {
			select {
			case <-h.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		status := map[string]string{}
		defer func() {
			if len(status) > 0 {
				h.do(ctx, &tcmd{status: status})
			}
		}()
		for _, tg := range targets {
			room, err := h.s.loadRoom(ctx, tg.room)
			if err != nil {
				continue
			}
			if st := room.Standings(); room.Settings.Format == match.Matchplay && st.Match != nil {
				// Matches played on other instances: their standing.
				status[tg.room] = st.Match.Text
			}
			evs := roomResults(room)
			if tg.thru >= 0 {
				if tg.thru >= len(evs) {
					continue
				}
				evs = evs[tg.thru:]
			}
			if len(evs) > 0 {
				h.log.Info("tournament sweep: posting results again", "room", tg.room, "results", len(evs))
				h.s.postResults(ctx, h, tg.room, evs)
			}
		}
	}()
}

// reconcile posts any result of the entrant's room that the tournament
// lacks (an instance that stopped between the room's append and the
// result's): the tournament applies each result once.
func (s *Server) reconcile(ctx context.Context, h *thub, code string) {
	room, err := s.loadRoom(ctx, code)
	if err != nil {
		return
	}
	var notices []match.Notice
	for _, hole := range room.Holes {
		if len(hole.Games) > 0 && hole.Games[0].Done {
			g := hole.Games[0]
			notices = append(notices, match.Notice{Kind: "seatDone", Hole: hole.Number, Score: g.Score, End: g.End})
		}
	}
	res := h.do(ctx, &tcmd{read: func(t *tourney.Tournament) any {
		e := t.EntrantOfRoom(code)
		if e < 0 {
			return 0
		}
		return t.Thru(e)
	}})
	if n, _ := res.data.(int); n < len(notices) && room.Settings.Format == match.Stroke {
		s.tournamentRoomChanged(room, notices[n:])
	}
}

// startMatches makes the rooms of the knockout matches that are ready.
func (s *Server) startMatches(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h, err := s.acquireTournament(ctx, id)
	if err != nil {
		return
	}
	defer s.releaseTournament(h)
	type ready struct {
		round, slot  int
		names, token []string
		seed         golf.Seed
		set          match.Settings
	}
	res := h.do(ctx, &tcmd{read: func(t *tourney.Tournament) any {
		var out []ready
		for _, m := range t.ReadyMatches() {
			a, b := t.Entrants[m.A], t.Entrants[m.B]
			out = append(out, ready{m.Round, m.Slot, []string{a.Name, b.Name}, []string{a.Token, b.Token}, t.Seed(m.Round), t.Settings.RoomSettings()})
		}
		return out
	}})
	rs, _ := res.data.([]ready)
	for _, m := range rs {
		code, err := s.tournamentRoom(ctx, id, m.set, m.seed, m.names, m.token)
		if err != nil {
			s.log.Warn("knockout match room", "err", err)
			continue
		}
		r := h.do(ctx, &tcmd{build: func(*tourney.Tournament) (tourney.Event, error) {
			return tourney.Event{Kind: tourney.KindMatch, Round: m.round, Slot: m.slot, Room: code}, nil
		}})
		if r.err != nil && !errors.Is(r.err, tourney.ErrNoChange) {
			s.log.Warn("knockout match room not recorded", "err", r.err)
		}
	}
}

// leaderboardOf builds a page of the leaderboard from the store's sorted
// set, with the rows filled from the tournament (names, thru, today). Call
// it on the tournament's hub loop.
func leaderboardOf(ctx context.Context, board store.Tournaments, t *tourney.Tournament, page, size, viewer int) (*protocol.Leaderboard, error) {
	page, size = max(page, 1), min(max(size, 1), 100)
	total, err := board.Count(ctx, t.ID, negInf, posInf)
	if err != nil {
		return nil, err
	}
	lb := &protocol.Leaderboard{V: t.Version, Total: total, Page: page, Size: size}
	start := int64((page - 1) * size)
	if lb.Rows, err = boardRows(ctx, board, t, start, int64(size)); err != nil {
		return nil, err
	}
	if viewer >= 0 && viewer < len(t.Entrants) {
		rank, _, err := board.Rank(ctx, t.ID, tourney.Member(viewer))
		switch {
		case errors.Is(err, store.ErrNotFound):
			you := t.Line(viewer)
			lb.You = &you
		case err != nil:
			return nil, err
		default:
			from := max(rank-2, 0)
			if lb.Around, err = boardRows(ctx, board, t, from, 5); err != nil {
				return nil, err
			}
			for i := range lb.Around {
				if lb.Around[i].Entrant == viewer {
					you := lb.Around[i]
					lb.You = &you
				}
			}
		}
	}
	return lb, nil
}

// boardRows returns n rows from rank start, with places as
// tourney.Leaderboard gives them: one more than the number of entrants
// placed strictly ahead (tourney.Better), counted by the store.
func boardRows(ctx context.Context, board store.Tournaments, t *tourney.Tournament, start, n int64) ([]tourney.Row, error) {
	ms, err := board.Range(ctx, t.ID, start, start+n-1)
	if err != nil {
		return nil, err
	}
	rows := []tourney.Row{}
	pl := placer{ctx: ctx, board: board, id: t.ID, memo: map[float64][2]int64{}}
	for _, m := range ms {
		e := tourney.ParseMember(m.Member)
		if e < 0 || e >= len(t.Entrants) {
			continue
		}
		row := t.Line(e)
		place, tied, err := pl.place(m.Score)
		if err != nil {
			return nil, err
		}
		row.Place = int(place)
		row.PlaceText = tourney.PlaceText(row.Place, tied)
		rows = append(rows, row)
	}
	return rows, nil
}

// placer counts places on a board, once per score.
type placer struct {
	ctx   context.Context
	board store.Tournaments
	id    string
	memo  map[float64][2]int64
}

func (p *placer) count(lo, hi float64) (int64, error) {
	if lo > hi {
		return 0, nil
	}
	return p.board.Count(p.ctx, p.id, lo, hi)
}

// place is the place of a key and whether another entrant shares it. An
// unfinished entrant (the level's own key) is placed after the better
// levels and ties with anyone else on their level; a finished one also
// after the finishers of their level with a better countback, and ties
// with those on their key, or with the unfinished when no finisher is
// ahead of them.
func (p *placer) place(k float64) (int64, bool, error) {
	if v, ok := p.memo[k]; ok {
		return v[0], v[1] == 1, nil
	}
	level := tourney.KeyLevel(k)
	below, err := p.count(negInf, level-1)
	if err != nil {
		return 0, false, err
	}
	var place int64
	var tied bool
	if k == level {
		others, err := p.count(level, level+tourney.LevelWidth-1)
		if err != nil {
			return 0, false, err
		}
		place, tied = below+1, others > 1
	} else {
		better, err := p.count(level+1, k-1)
		if err != nil {
			return 0, false, err
		}
		same, err := p.count(k, k)
		if err != nil {
			return 0, false, err
		}
		unfinished := int64(0)
		if better == 0 && same == 1 {
			if unfinished, err = p.count(level, level); err != nil {
				return 0, false, err
			}
		}
		place, tied = below+better+1, same > 1 || unfinished > 0
	}
	t := int64(0)
	if tied {
		t = 1
	}
	p.memo[k] = [2]int64{place, t}
	return place, tied, nil
}

func (s *Server) getLeaderboard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	page, _ := strconv.Atoi(q.Get("page"))
	size, _ := strconv.Atoi(q.Get("size"))
	if size == 0 {
		size = 20
	}
	token := requestToken(r)
	if token == "" {
		token = q.Get("around")
	}
	s.withTournament(w, r, func(h *thub) {
		data, err := h.read(r.Context(), func(t *tourney.Tournament) any {
			e, _ := viewer(t, token)
			lb, err := leaderboardOf(r.Context(), h.board, t, page, size, e)
			if err != nil {
				return err
			}
			return lb
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
		res := h.do(r.Context(), &tcmd{read: func(t *tourney.Tournament) any { return t.View(-1, false).Bracket }})
		bv, _ := res.data.(*tourney.BracketView)
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
						m.Status = st.Match.Text
					}
				}
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"bracket": bv})
	})
}

// TournamentRecords is GET /api/tournaments/{id}/records: the records of
// every safe hole, the commitments, and the seeds once closed.
type TournamentRecords struct {
	ID          string                  `json:"id"`
	Status      tourney.Status          `json:"status"`
	Commitments []string                `json:"commitments"`
	Seeds       []string                `json:"seeds,omitempty"`
	Players     []string                `json:"players"`
	Holes       []TournamentHoleRecords `json:"holes"`
}

// TournamentHoleRecords are the records of one safe hole (of one round in
// a knockout), by entrant.
type TournamentHoleRecords struct {
	Round   int           `json:"round"`
	Number  int           `json:"number"`
	Seed    string        `json:"seed"`
	Records []EntrantGame `json:"records"`
}

// EntrantGame is one entrant's game of a hole.
type EntrantGame struct {
	Entrant int         `json:"entrant"`
	Room    string      `json:"room"`
	Score   int         `json:"score"`
	Record  golf.Record `json:"record"`
}

func (s *Server) getTournamentRecords(w http.ResponseWriter, r *http.Request) {
	s.withTournament(w, r, func(h *thub) {
		type snap struct {
			view  tourney.View
			rooms map[string][]int // room -> entrants by seat
			names []string
			safe  func(round, hole int) bool
			// thru: the holes of each entrant's stroke room that count.
			thru map[int]int
		}
		res := h.do(r.Context(), &tcmd{read: func(t *tourney.Tournament) any {
			sn := snap{view: t.View(-1, false), rooms: map[string][]int{}, thru: map[int]int{}}
			for i, e := range t.Entrants {
				sn.names = append(sn.names, e.Name)
				sn.thru[i] = t.Thru(i)
				if e.Room != "" {
					sn.rooms[e.Room] = []int{i}
				}
			}
			rounds := map[string]int{}
			if t.Bracket != nil {
				for _, round := range t.Bracket.Rounds {
					for _, m := range round {
						if m.Room != "" {
							sn.rooms[m.Room] = []int{m.A, m.B}
							rounds[m.Room] = m.Round
						}
					}
				}
			}
			safe := map[[2]int]bool{}
			for r := 0; r <= len(t.Seeds); r++ {
				for n := 1; n <= 2*t.Settings.Holes; n++ {
					safe[[2]int{r, n}] = t.Safe(r, n)
				}
			}
			sn.safe = func(round, hole int) bool { return safe[[2]int{round, hole}] }
			rooms := sn.rooms
			sn.rooms = map[string][]int{}
			for code, es := range rooms {
				key := code
				switch rd, ok := rounds[code]; {
				case ok:
					key = fmt.Sprint(rd, ":", code)
				case t.Settings.Format == tourney.Knockout:
					key = "0:" + code // the qualifying round
				default:
					key = "1:" + code
				}
				sn.rooms[key] = es
			}
			return sn
		}})
		sn := res.data.(snap)
		out := TournamentRecords{ID: h.id, Status: sn.view.Status, Commitments: sn.view.Commitments, Seeds: sn.view.Seeds, Players: sn.names, Holes: []TournamentHoleRecords{}}
		byHole := map[[2]int]*TournamentHoleRecords{}
		for key, es := range sn.rooms {
			round, code, _ := strings.Cut(key, ":")
			rd, _ := strconv.Atoi(round)
			room, err := s.loadRoom(r.Context(), code)
			if err != nil {
				continue
			}
			for _, hole := range room.Holes {
				if !sn.safe(rd, hole.Number) {
					continue
				}
				k := [2]int{rd, hole.Number}
				hr := byHole[k]
				if hr == nil {
					hr = &TournamentHoleRecords{Round: rd, Number: hole.Number, Seed: hole.Seed.String()}
					byHole[k] = hr
				}
				for seat, g := range hole.Games {
					// Only games whose result counts: finished, and in stroke
					// play posted before the tournament closed.
					if !g.Done || (room.Settings.Format == match.Stroke && hole.Number > sn.thru[es[seat]]) {
						continue
					}
					hr.Records = append(hr.Records, EntrantGame{Entrant: es[seat], Room: code, Score: g.Score, Record: hole.Record(room.Settings.Variant, seat)})
				}
			}
		}
		for _, hr := range byHole {
			if len(hr.Records) > 0 {
				out.Holes = append(out.Holes, *hr)
			}
		}
		sortHoleRecords(out.Holes)
		w.Header().Set("Content-Disposition", `inline; filename="golf-tournament-`+h.id+`.json"`)
		writeJSON(w, http.StatusOK, out)
	})
}

func sortHoleRecords(hs []TournamentHoleRecords) {
	for i := 1; i < len(hs); i++ {
		for j := i; j > 0 && (hs[j].Round < hs[j-1].Round || hs[j].Round == hs[j-1].Round && hs[j].Number < hs[j-1].Number); j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
		}
	}
	for _, h := range hs {
		rs := h.Records
		for i := 1; i < len(rs); i++ {
			for j := i; j > 0 && rs[j].Entrant < rs[j-1].Entrant; j-- {
				rs[j], rs[j-1] = rs[j-1], rs[j]
			}
		}
	}
}

// EntrantWatch is GET /api/tournaments/{id}/entrants/{n}: watching one
// player. The hole in play shows progress only (no cards): it is never
// safe while the player is still on it.
type EntrantWatch struct {
	Row tourney.Row `json:"row"`
	// Hole is the hole in play (0 before the first, or when finished).
	Hole     int             `json:"hole"`
	Progress *match.Progress `json:"progress,omitempty"`
	Safe     []int           `json:"safe"`
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
		res := h.do(r.Context(), &tcmd{read: func(t *tourney.Tournament) any {
			if n < 0 || n >= len(t.Entrants) {
				return nil
			}
			return info{t.Line(n), t.Entrants[n].Room, t.SafeHoles()}
		}})
		in, ok := res.data.(info)
		if !ok {
			s.fail(w, fmt.Errorf("%w: %d", tourney.ErrNoEntrant, n))
			return
		}
		out := EntrantWatch{Row: in.row, Safe: in.safe}
		if in.room != "" {
			if room, err := s.loadRoom(r.Context(), in.room); err == nil && room.Status == match.Playing {
				v := room.View(-2)
				if len(v.Progress) > 0 {
					out.Hole, out.Progress = v.Hole, &v.Progress[0]
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
		type target struct {
			room   string
			seat   int
			safe   bool
			counts bool
		}
		data, err := h.read(r.Context(), func(t *tourney.Tournament) any {
			if n < 0 || n >= len(t.Entrants) {
				return tourney.ErrNoEntrant
			}
			rd := round
			if rd < 0 {
				rd = 1
				if t.Settings.Format == tourney.Knockout {
					rd = 0
				}
			}
			tg := target{seat: -1}
			if rd == 0 && t.Settings.Qualifying || rd == 1 && t.Settings.Format == tourney.Stroke {
				e := t.Entrants[n]
				tg.room, tg.seat, tg.counts = e.Room, 0, hole <= t.Thru(n)
			} else if t.Bracket != nil && rd >= 1 && rd <= len(t.Bracket.Rounds) {
				for _, m := range t.Bracket.Rounds[rd-1] {
					if m.Room != "" && (m.A == n || m.B == n) {
						tg.room, tg.counts = m.Room, m.Decided
						tg.seat = map[bool]int{true: 0, false: 1}[m.A == n]
					}
				}
			}
			tg.safe = t.Safe(rd, hole)
			return tg
		})
		if err != nil {
			s.fail(w, err)
			return
		}
		tg := data.(target)
		if !tg.safe {
			writeError(w, http.StatusConflict, protocol.ErrCodeNotFinished, "that hole is not safe yet: its boards are shown once everyone still to play it has finished it")
			return
		}
		if tg.room == "" || tg.seat < 0 || !tg.counts {
			writeError(w, http.StatusNotFound, protocol.ErrCodeNotFinished, "no counted game of that entrant on that hole")
			return
		}
		room, err := s.loadRoom(r.Context(), tg.room)
		if err != nil {
			s.fail(w, err)
			return
		}
		for _, hl := range room.Holes {
			if hl.Number != hole || tg.seat >= len(hl.Games) || !hl.Games[tg.seat].Done {
				continue
			}
			g := hl.Games[tg.seat]
			rp := match.ReplayLine(hl.Deal(room.Settings.Variant), g.Moves)
			rp.Hole, rp.Seat, rp.Name, rp.Score, rp.End = hole, tg.seat, room.Seats[tg.seat].Name, g.Score, g.End
			writeJSON(w, http.StatusOK, rp)
			return
		}
		writeError(w, http.StatusNotFound, protocol.ErrCodeNotFinished, "no finished game of that entrant on that hole")
	})
}
