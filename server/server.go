package server

import (
	"context"
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/store"
)

// Rate is a token-bucket rate limit.
type Rate struct {
	PerSecond float64
	Burst     float64
}

// Options configure a Server. The zero value of each field means its
// documented default.
type Options struct {
	// Store keeps the rooms. Required.
	Store store.Store
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Pages serves every path the server does not (the browser client).
	Pages http.Handler
	// AllowedOrigins are host patterns (path.Match syntax, as in
	// websocket.AcceptOptions.OriginPatterns) allowed to open WebSockets
	// besides the server's own origin.
	AllowedOrigins []string
	// BaseURL is the public URL used in invite links; default: from the
	// request's Host.
	BaseURL string
	// SendBuffer is how many messages may wait for a slow client before it
	// is disconnected; default 64.
	SendBuffer int
	// WriteTimeout bounds each socket write; default 5s.
	WriteTimeout time.Duration
	// HelloTimeout bounds the wait for a client's hello; default 10s.
	HelloTimeout time.Duration
	// PlayerRate and SpectatorRate limit messages per connection; default
	// 10/s with bursts of 40 for players, 2/s with bursts of 10 for
	// spectators. Flooding closes the socket with 1008.
	PlayerRate, SpectatorRate Rate
	// FinishedTTL is how long a finished room is kept; default 24h.
	FinishedTTL time.Duration
	// ResyncEvery is how often a hub checks the store for events it may
	// have missed; default 5s.
	ResyncEvery time.Duration
	// QuickMatchWait is how long POST /api/quickmatch waits for a partner
	// before answering 204; default 25s.
	QuickMatchWait time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// SelfURL is this server's own base URL (http://127.0.0.1:8080), where
	// the bots a host adds connect; default: the local address of the
	// connection that added the bot (never its Host header; behind TLS
	// set SelfURL, since the certificate will not name that address).
	// Only a server with a SelfURL resumes the bots of instances that
	// stopped (bots.go).
	SelfURL string
	// BotThink is a bot's pause before each move; default 300ms.
	BotThink time.Duration
	// BotLease is how long an instance's lease on running a bot lasts
	// unless renewed (every third of it); once it lapses another instance
	// takes the bot over. Default 10s.
	BotLease time.Duration
	// BotSweepEvery is how often the server looks for bots that no
	// instance runs, to resume them; default 2s.
	BotSweepEvery time.Duration
	// SolveNodes and RateNodes are the solver's node budgets for the best
	// score of a hole, winnableOnly, difficulty and practice ratings;
	// default match.SolveNodes and match.RateNodes. Every instance serving
	// the same rooms must use the same budgets (they decide deals).
	SolveNodes, RateNodes int64
}

// Server serves the API, the WebSocket endpoint and (through Pages) the
// browser client. It implements http.Handler.
type Server struct {
	opts    Options
	store   store.Store
	log     *slog.Logger
	mux     *http.ServeMux
	metrics *metrics

	mu   sync.Mutex
	hubs map[string]*hub
	// hubLoops counts running room hub loops, so Close can wait for them.
	hubLoops sync.WaitGroup
	tour     tournamentHubs // tournament_hub.go

	// analyzer runs and remembers the solver for every room and tournament;
	// solverSlots bounds the solver work done besides rooms' own folds: half
	// the cores, so play keeps the rest however many holes end at once.
	analyzer    *match.Analyzer
	solverSlots chan struct{}

	// secret seeds hints (analysis.go); id names this instance as the
	// owner of bot leases; bots are the running bots and their sweep
	// (bots.go).
	secret [32]byte
	id     string
	bots   struct {
		mu      sync.Mutex
		ctx     context.Context
		cancel  context.CancelFunc
		wg      sync.WaitGroup
		running atomic.Int32
		closed  bool
		// runs holds the lease keys of the bots running here.
		runs                 map[string]bool
		kick                 chan struct{}
		sweepStop, sweepDone chan struct{}
	}
}

// New returns a server.
func New(opts Options) (*Server, error) {
	if opts.Store == nil {
		return nil, errors.New("server: a store is required")
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&opts.WriteTimeout, 5*time.Second)
	def(&opts.HelloTimeout, 10*time.Second)
	def(&opts.FinishedTTL, 24*time.Hour)
	def(&opts.ResyncEvery, 5*time.Second)
	def(&opts.QuickMatchWait, 25*time.Second)
	def(&opts.BotLease, 10*time.Second)
	def(&opts.BotSweepEvery, 2*time.Second)
	if opts.SendBuffer <= 0 {
		opts.SendBuffer = 64
	}
	if opts.PlayerRate.PerSecond <= 0 {
		opts.PlayerRate = Rate{PerSecond: 10, Burst: 40}
	}
	if opts.SpectatorRate.PerSecond <= 0 {
		opts.SpectatorRate = Rate{PerSecond: 2, Burst: 10}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Server{opts: opts, store: opts.Store, log: opts.Logger, hubs: map[string]*hub{}, metrics: newMetrics(),
		analyzer: match.NewAnalyzer(opts.SolveNodes, opts.RateNodes), solverSlots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))}
	crand.Read(s.secret[:])
	s.id = newID()
	s.bots.ctx, s.bots.cancel = context.WithCancel(context.Background())
	s.bots.runs = map[string]bool{}
	s.bots.kick = make(chan struct{}, 1)
	s.routes()
	s.startTournamentClock()
	s.startBotSweep()
	return s, nil
}

func (s *Server) now() time.Time { return s.opts.Now().UTC() }

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok\n") })
	m.HandleFunc("GET /readyz", s.readyz)
	m.Handle("GET /metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	m.HandleFunc("GET /ws", s.serveWS)
	m.HandleFunc("POST /api/rooms", s.createRoom)
	m.HandleFunc("GET /api/rooms", s.listRooms)
	m.HandleFunc("GET /api/rooms/{code}", s.getRoom)
	m.HandleFunc("POST /api/rooms/{code}/join", s.joinRoom)
	m.HandleFunc("GET /api/rooms/{code}/records", s.getRecords)
	m.HandleFunc("GET /api/rooms/{code}/holes/{hole}/replay", s.getReplay)
	m.HandleFunc("GET /api/rooms/{code}/holes/{hole}/best", s.getBestLine)
	m.HandleFunc("POST /api/rooms/{code}/bots", s.addBot)
	m.HandleFunc("POST /api/quickmatch", s.quickMatch)
	s.tournamentRoutes(m)
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, protocol.ErrCodeBadMessage, "no such API endpoint")
	})
	if s.opts.Pages != nil {
		m.Handle("/", s.opts.Pages)
	}
	s.mux = m
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close stops every bot and every hub; call after the HTTP server has
// shut down.
func (s *Server) Close() {
	s.stopBots()
	s.stopTournamentClock()
	s.mu.Lock()
	hubs := make([]*hub, 0, len(s.hubs))
	for _, h := range s.hubs {
		hubs = append(hubs, h)
	}
	s.mu.Unlock()
	for _, h := range hubs {
		for c := range snapshotConns(h) {
			c.close(websocket.StatusGoingAway, "server shutting down")
		}
	}
	// The hubs stop as their connections go; wait for them (a little), so
	// nothing of the server still runs, or logs, once Close returns.
	done := make(chan struct{})
	go func() {
		s.hubLoops.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.log.Warn("room hubs still running after close")
	}
}

// snapshotConns reads a hub's connections on its loop.
func snapshotConns(h *hub) map[*conn]struct{} {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	r := h.do(ctx, &command{read: func(*match.Room) any {
		out := make(map[*conn]struct{}, len(h.conns))
		for c := range h.conns {
			out[c] = struct{}{}
		}
		return out
	}})
	m, _ := r.data.(map[*conn]struct{})
	return m
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		writeError(w, http.StatusServiceUnavailable, protocol.ErrCodeUnavailable, "store not ready: "+err.Error())
		return
	}
	io.WriteString(w, "ready\n")
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.opts.AllowedOrigins})
	if err != nil {
		return // Accept has written the HTTP error
	}
	ws.SetReadLimit(protocol.MaxMessage)
	c := &conn{s: s, ws: ws, id: newID(), send: make(chan []byte, s.opts.SendBuffer), closed: make(chan struct{})}
	c.serve(r.Context())
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, protocol.APIError{Code: code, Message: msg})
}

func (s *Server) fail(w http.ResponseWriter, err error) {
	code, status := errorCode(err)
	if status == http.StatusInternalServerError {
		s.log.Error("request failed", "err", err)
	}
	writeError(w, status, code, errorMessage(err))
}

// maxBody bounds API request bodies.
const maxBody = 16 << 10

func decodeBody(r *http.Request, v any) error {
	d := json.NewDecoder(io.LimitReader(r.Body, maxBody))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%w: request body: %v", match.ErrInvalid, err)
	}
	return nil
}

func (s *Server) link(r *http.Request, code string) string {
	base := s.opts.BaseURL
	if base == "" {
		scheme := "http"
		if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	return strings.TrimRight(base, "/") + "/r/" + code
}

func (s *Server) createRoom(w http.ResponseWriter, r *http.Request) {
	var req protocol.CreateRoomRequest
	if err := decodeBody(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	set := match.DefaultSettings()
	if len(req.Settings) > 0 {
		if err := json.Unmarshal(req.Settings, &set); err != nil {
			s.fail(w, err)
			return
		}
	}
	var name string
	if req.Name != "" {
		var err error
		if name, err = match.CleanName(req.Name); err != nil {
			s.fail(w, err)
			return
		}
	}
	grant, err := s.create(r.Context(), set, name)
	if err != nil {
		s.fail(w, err)
		return
	}
	grant.Link = s.link(r, grant.Code)
	writeJSON(w, http.StatusCreated, grant)
}

// create makes a room and, with a name, seats its host.
func (s *Server) create(ctx context.Context, set match.Settings, name string) (protocol.SeatGrant, error) {
	var code string
	for attempt := 0; ; attempt++ {
		code = newRoomCode()
		ev := match.Event{Kind: match.KindCreate, At: s.now(), Code: code, Settings: &set}
		room, err := match.NewRoom(ev)
		if err != nil {
			return protocol.SeatGrant{}, err
		}
		snap, err := room.Encode()
		if err != nil {
			return protocol.SeatGrant{}, err
		}
		data, _ := json.Marshal(room.Log(ev, nil))
		err = s.store.Create(ctx, code, snap, data)
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrExists) || attempt > 5 {
			return protocol.SeatGrant{}, err
		}
	}
	s.metrics.created.Inc()
	grant := protocol.SeatGrant{Code: code, Seat: -1}
	if name != "" {
		return s.join(ctx, code, name, false)
	}
	// Make the room visible in the lobby at once.
	h, err := s.acquire(ctx, code)
	if err == nil {
		h.do(ctx, &command{read: func(*match.Room) any { h.updateListing(); return nil }})
		s.release(h)
	}
	return grant, nil
}

// join seats a player and returns the seat token.
func (s *Server) join(ctx context.Context, code, name string, bot bool) (protocol.SeatGrant, error) {
	return s.joinToken(ctx, code, name, newToken(), bot)
}

// joinToken seats a player with the token.
func (s *Server) joinToken(ctx context.Context, code, name, token string, bot bool) (protocol.SeatGrant, error) {
	h, err := s.acquire(ctx, code)
	if err != nil {
		return protocol.SeatGrant{}, notFound(err)
	}
	defer s.release(h)
	res := h.do(ctx, &command{build: func(r *match.Room) (match.Event, error) {
		return match.Event{Kind: match.KindJoin, Name: name, Token: hashToken(token), Bot: bot}, nil
	}})
	if res.err != nil {
		return protocol.SeatGrant{}, res.err
	}
	seat := h.do(ctx, &command{read: func(r *match.Room) any { return r.SeatOf(hashToken(token)) }})
	return protocol.SeatGrant{Code: code, Seat: seat.data.(int), Token: token}, nil
}

func notFound(err error) error {
	if isNotFound(err) {
		return errRoomNotFound
	}
	return err
}

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }

func (s *Server) roomCode(w http.ResponseWriter, r *http.Request) (string, bool) {
	code := normalizeCode(r.PathValue("code"))
	if code == "" {
		s.fail(w, errRoomNotFound)
		return "", false
	}
	return code, true
}

func (s *Server) joinRoom(w http.ResponseWriter, r *http.Request) {
	code, ok := s.roomCode(w, r)
	if !ok {
		return
	}
	var req protocol.JoinRequest
	if err := decodeBody(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	name, err := match.CleanName(req.Name)
	if err != nil {
		s.fail(w, err)
		return
	}
	grant, err := s.join(r.Context(), code, name, false)
	if err != nil {
		s.fail(w, err)
		return
	}
	grant.Link = s.link(r, code)
	writeJSON(w, http.StatusOK, grant)
}

// loadRoom reads the room from the store (no hub needed).
func (s *Server) loadRoom(ctx context.Context, code string) (*match.Room, error) {
	snap, err := s.store.Load(ctx, code)
	if err != nil {
		return nil, notFound(err)
	}
	room, err := match.DecodeRoom(snap.Data)
	if err != nil {
		return nil, err
	}
	room.SetAnalyzer(s.analyzer)
	return room, nil
}

// RoomInfo is GET /api/rooms/{code}: what anyone may know of a room.
type RoomInfo struct {
	Code       string           `json:"code"`
	V          int64            `json:"v"`
	Settings   match.Settings   `json:"settings"`
	Status     match.Status     `json:"status"`
	Round      int              `json:"round"`
	Hole       int              `json:"hole"`
	Seats      []match.SeatView `json:"seats"`
	Standings  match.Standings  `json:"standings"`
	Commitment string           `json:"commitment,omitempty"`
	Seed       string           `json:"seed,omitempty"`
}

func (s *Server) getRoom(w http.ResponseWriter, r *http.Request) {
	code, ok := s.roomCode(w, r)
	if !ok {
		return
	}
	room, err := s.loadRoom(r.Context(), code)
	if err != nil {
		s.fail(w, err)
		return
	}
	// A view with no seat and no boards: public information only.
	v := room.View(-2)
	writeJSON(w, http.StatusOK, RoomInfo{
		Code: v.Code, V: v.V, Settings: v.Settings, Status: v.Status, Round: v.Round, Hole: v.Hole,
		Seats: v.Seats, Standings: v.Standings, Commitment: v.Commitment, Seed: v.Seed,
	})
}

// Records is GET /api/rooms/{code}/records: every record of every hole
// that everyone has finished; the seed once the round is over.
type Records struct {
	Code       string        `json:"code"`
	Round      int           `json:"round"`
	Commitment string        `json:"commitment,omitempty"`
	Seed       string        `json:"seed,omitempty"`
	Players    []string      `json:"players"`
	Holes      []HoleRecords `json:"holes"`
}

// HoleRecords are the records of one hole, by seat.
type HoleRecords struct {
	Number  int           `json:"number"`
	Records []golf.Record `json:"records"`
	Scores  []int         `json:"scores"`
}

func (s *Server) getRecords(w http.ResponseWriter, r *http.Request) {
	code, ok := s.roomCode(w, r)
	if !ok {
		return
	}
	room, err := s.loadRoom(r.Context(), code)
	if err != nil {
		s.fail(w, err)
		return
	}
	v := room.View(-2)
	out := Records{Code: code, Round: room.Round, Commitment: v.Commitment, Seed: v.Seed, Players: []string{}, Holes: []HoleRecords{}}
	for _, seat := range room.Seats {
		out.Players = append(out.Players, seat.Name)
	}
	for _, h := range room.Holes {
		recs, ok := room.HoleRecords(h.Number)
		if !ok {
			continue
		}
		hr := HoleRecords{Number: h.Number, Records: recs}
		for _, g := range h.Games {
			hr.Scores = append(hr.Scores, g.Score)
		}
		out.Holes = append(out.Holes, hr)
	}
	w.Header().Set("Content-Disposition", `inline; filename="golf-`+code+`-round`+strconv.Itoa(room.Round)+`.json"`)
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) listRooms(w http.ResponseWriter, r *http.Request) {
	ls, err := s.store.Listings(r.Context(), 200)
	if err != nil {
		s.fail(w, err)
		return
	}
	rooms := make([]json.RawMessage, 0, len(ls))
	for _, l := range ls {
		rooms = append(rooms, json.RawMessage(l.Data))
	}
	writeJSON(w, http.StatusOK, map[string]any{"rooms": rooms})
}
