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
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"golfsolitaire/accounts"
	"golfsolitaire/bot"
	"golfsolitaire/botrun"
	"golfsolitaire/internal/idle"
	"golfsolitaire/jobs"
	"golfsolitaire/limit"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/results"
	"golfsolitaire/seedpool"
	"golfsolitaire/server/internal/api"
	"golfsolitaire/server/internal/hubs"
	"golfsolitaire/solverpool"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// Options configure a Server. The zero value of each field means its
// documented default.
type Options struct {
	// Store keeps the rooms. Required.
	Store store.Store
	// Tournaments keeps the tournament list and due times, Leaderboards
	// the tournaments' leaderboards; default Store.
	Tournaments  store.Tournaments
	Leaderboards store.Leaderboards
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
	// HintTimeout bounds a hint's wait in the solver's queue and its
	// search; past it the hint is answered solver_busy. Default 5s.
	HintTimeout time.Duration
	// PlayerRate and SpectatorRate limit messages per connection; default
	// 10/s with bursts of 40 for players, 2/s with bursts of 10 for
	// spectators. Flooding closes the socket with 1008.
	PlayerRate, SpectatorRate limit.Rate
	// FinishedTTL is how long a finished room is kept; default 24h.
	FinishedTTL time.Duration
	// ReadyWithin is how long a player who joins a public room has to say
	// ready before the seat is released; default match.ReadyWithin.
	ReadyWithin time.Duration
	// TournamentTTL is how long a tournament, its rooms and its board are
	// kept after their last change (so after it closes); default 30 days.
	TournamentTTL time.Duration
	// ResyncEvery is how often a hub checks the store for events it may
	// have missed (a room's hub: that long after its latest event);
	// default 5s.
	ResyncEvery time.Duration
	// QuickMatchWait is how long POST /api/quickmatch waits for a partner
	// before answering 204; default 25s.
	QuickMatchWait time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
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
	// SolverWorkers is how many solver jobs run at once (best scores,
	// hints, search bots, seed pools: solverpool); default GOMAXPROCS-1,
	// at least 1.
	SolverWorkers int
	// SolverPerClient is how many solver jobs one client (a seat for
	// hints, a room for its best scores and its bots) may have queued or
	// running; past it the request is refused with solver_busy. Default 2.
	SolverPerClient int
	// SeedPools keeps the pools of pre-rated deals for winnableOnly and
	// difficulty rounds; default Store's (shared on Redis, in memory with
	// the memory store).
	SeedPools store.SeedPools
	// SeedPoolSize is how many deals the filler keeps in each pool a room
	// has asked for (at least one round's worth); default 36.
	SeedPoolSize int
	// SeedPoolRetry is the Retry-After of a round refused with try_again
	// because its pool was short; default 10s.
	SeedPoolRetry time.Duration
	// SeedPoolFillers is how many goroutines fill the seed pools (each
	// runs one low-priority solver job at a time); default the solver's
	// workers; negative: none (the pools are filled by other instances
	// sharing them, or by hand).
	SeedPoolFillers int
	// Solver is the solver pool to use (several servers in one process
	// may share one; the caller closes it); default a pool of its own
	// with SolverWorkers and SolverPerClient.
	Solver *solverpool.Pool
	// Analyzer runs and remembers the solver's answers; default
	// match.NewAnalyzer(SolveNodes, RateNodes).
	Analyzer *match.Analyzer
	// Accounts keeps accounts, ratings and the archive; default an
	// in-memory store (nothing kept across restarts).
	Accounts accounts.Store
	// Sessions keeps login sessions (scs); default in memory.
	Sessions scs.Store
	// PasswordParams are argon2id's costs; default accounts.RFC9106.
	PasswordParams accounts.Params
	// SecureCookies marks cookies Secure (sent over TLS only); also on
	// when BaseURL is https.
	SecureCookies bool
	// LoginRate limits failed logins per name and address; default 5 at
	// once, then one per 12 s. An address's failed logins over every name
	// get four times as many. A correct password from an address within
	// its budgets is never refused for others' failures.
	LoginRate limit.Rate
	// LoginNameRate is a name's budget of failed logins from every
	// address; past it a login for the name needs a proof of work
	// (ProofBits) or a passkey. Default 20 at once, then one per minute.
	LoginNameRate limit.Rate
	// ProofBits is the work of a login's proof of work (leading zero bits
	// of a SHA-256); default 16.
	ProofBits int
	// SignupRate limits sign-ups per address; default 3 a day.
	SignupRate limit.Rate
	// AllowLinkedAccounts lets accounts that share a recent address or
	// device (linked.go) take seats of one rated game; by default the
	// second is refused with linked_accounts.
	AllowLinkedAccounts bool
	// RatedProbation is how long a new account waits before rated play,
	// unless it has finished ProbationRounds casual rounds first (default
	// 3); 0 turns the probation off.
	RatedProbation  time.Duration
	ProbationRounds int
	// Fairplay turns on the background fair-play analysis of finished
	// holes and GET /api/fairplay/flags (fairplay.go); nil: off.
	Fairplay *Fairplay
	// Queue is the job queue that rated results and finished holes go to
	// (through the store's outbox and this server's relay: pipeline.go);
	// default an in-memory queue of its own (jobs.Memory), right for one
	// instance without a database. Several instances share a jobs.River.
	Queue jobs.Queue
	// NoQueueWork leaves the queue's jobs to other processes (`golf
	// worker`): this server only writes and relays them.
	NoQueueWork bool
	// FairplayWorkers is how many holes are analysed at once by this
	// server's fair-play pool; default GOMAXPROCS-1, at least 1.
	FairplayWorkers int
	// FairplayCPU is the share of GOMAXPROCS that this server's fair-play
	// analyses may take of what the process gets of its cores (their
	// threads' CPU time, jobs.Budget), more holes waiting in the queue
	// instead; 0: the default (a quarter of a core on one core,
	// GOMAXPROCS-1 cores on more), more than 1 is taken as 1.
	FairplayCPU float64

	// Limits are the per-client limits; zero fields mean their defaults
	// (DefaultLimits), NoLimits turns them off.
	Limits limit.Limits
	// Limiter keeps the token buckets; default: in memory, for this
	// instance only (a redisstore.Limiter makes them hold across instances).
	Limiter limit.Limiter
	// Sockets counts each client's open WebSockets for
	// Limits.SocketsPerClient; default: this instance's only (a
	// redisstore.Sockets makes the cap hold across instances).
	Sockets limit.SocketCounter
	// HTTP are the timeouts of the http.Server HTTPServer returns.
	HTTP HTTPTimeouts
	// PingEvery is how often a WebSocket is pinged; a socket whose pong
	// has not come PingEvery later is closed. Default 30s.
	PingEvery time.Duration
	// MetricsElsewhere leaves GET /metrics out of the routes: serve
	// MetricsHandler on its own listener instead (--metrics-addr).
	MetricsElsewhere bool
	// Schedule is the tournaments the server creates ahead of their start
	// (server/tournaments): tourney.ParseSchedule's; nil: none. Every instance
	// may run it; each slot is still created once.
	Schedule tourney.Schedule
	// MaxDelayed caps the messages a room holds back for its spectator
	// delay (hub.go); default 2,000.
	MaxDelayed int
}

// HTTPTimeouts are the http.Server's timeouts. WebSockets are not bound by
// them: net/http clears a connection's deadlines when it is hijacked, and
// the sockets have their own write timeout and pings.
type HTTPTimeouts struct {
	// ReadHeader bounds reading a request's headers (default 5s); Read the
	// whole request, body included (default 15s): a client sending its
	// body a byte at a time is cut off. Write bounds writing a response
	// (default 30s; quick match's long poll extends its own). Idle bounds
	// a keep-alive connection's wait for its next request (default 120s).
	ReadHeader, Read, Write, Idle time.Duration
}

// Server serves the API, the WebSocket endpoint and (through Pages) the
// browser client. It implements http.Handler.
type Server struct {
	opts    Options
	store   store.Store
	log     *slog.Logger
	outage  outage // the store's unavailability, logged once
	mux     *http.ServeMux
	handler http.Handler // mux behind the accounts middleware, compressed (compress.go)
	metrics *metrics

	// rooms and tours keep the live hubs (server/internal/hubs); hubLoops counts their
	// running loops (rooms and tournaments) and the goroutines beside them,
	// so Close can wait for them.
	rooms    *roomHubs
	tours    tournamentFeature // package tournaments (mount.go)
	hubLoops sync.WaitGroup
	// fans are the rooms' fan-outs' scratch (*fanScratch, hub.fanout).
	fans sync.Pool
	// tasks are the other goroutines the server starts (best scores,
	// warm-ups, knockout rooms, result outboxes): Close waits for them.
	tasks tasks
	acct  accountState // session.go

	// analyzer runs and remembers the solver for every room and
	// tournament; solver runs all of the server's solver work (solver.go);
	// seeds are the pools of pre-rated deals.
	analyzer *match.Analyzer
	// poller lets the background solves give way to the network too
	// (yieldToRooms; package idle).
	poller *idle.Poller
	// closing is set when Close starts: the background solves then stop
	// pausing for the rooms (yieldToRooms), since Close waits for the
	// ones running, and a solve that gives way on a busy machine could
	// hold it for seconds.
	closing atomic.Bool
	// reviews are the latest post-round analyses (review.go).
	reviews  reviewCache
	solver   *solverpool.Pool
	warm     *bestWarmer // warm.go
	seeds    *seedpool.Pools
	smetrics *solverMetrics

	// secret seeds hints (analysis.go); id names this instance as the
	// owner of bot leases.
	secret [32]byte
	id     string
	// limiter and localLimiter keep the per-client token buckets (limit.go);
	// socks counts open WebSockets.
	limiter, localLimiter limit.Limiter
	socks                 sockets
	// bots are the running bots and their sweep (package botrun; added
	// in bots.go).
	bots *botrun.Runner
	// botNet carries the bots' connections (botnet.go).
	botNet *botNet
	// fair is the fair-play analysis (fairplay.go); nil when off.
	fair *fairplayState
	// pipe relays outbox entries to the job queue and works it
	// (pipeline.go).
	pipe *results.Pipeline
	// live is the latest answer of GET /api/live (live.go).
	live liveCache
}

// New returns a server.
func New(opts Options) (*Server, error) {
	if opts.Store == nil {
		return nil, errors.New("server: a store is required")
	}
	if opts.Tournaments == nil {
		opts.Tournaments = opts.Store
	}
	if opts.Leaderboards == nil {
		opts.Leaderboards = opts.Store
	}
	if opts.SeedPools == nil {
		opts.SeedPools = opts.Store
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
	def(&opts.HintTimeout, 5*time.Second)
	def(&opts.FinishedTTL, 24*time.Hour)
	def(&opts.ReadyWithin, match.ReadyWithin)
	def(&opts.TournamentTTL, 30*24*time.Hour)
	def(&opts.ResyncEvery, 5*time.Second)
	def(&opts.QuickMatchWait, 25*time.Second)
	def(&opts.BotLease, 10*time.Second)
	def(&opts.BotSweepEvery, 2*time.Second)
	if opts.SendBuffer <= 0 {
		opts.SendBuffer = 64
	}
	if opts.PlayerRate.PerSecond <= 0 {
		opts.PlayerRate = limit.Rate{PerSecond: 10, Burst: 40}
	}
	if opts.SpectatorRate.PerSecond <= 0 {
		opts.SpectatorRate = limit.Rate{PerSecond: 2, Burst: 10}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	opts.Limits = opts.Limits.WithDefaults()
	def(&opts.HTTP.ReadHeader, 5*time.Second)
	def(&opts.HTTP.Read, 15*time.Second)
	def(&opts.HTTP.Write, 30*time.Second)
	def(&opts.HTTP.Idle, 120*time.Second)
	def(&opts.PingEvery, 30*time.Second)
	if opts.MaxDelayed <= 0 {
		opts.MaxDelayed = 2000
	}
	s := &Server{opts: opts, store: opts.Store, log: opts.Logger, metrics: newMetrics(),
		analyzer: opts.Analyzer, poller: idle.NewPoller()}
	s.rooms = newRoomHubs(s)
	s.tasks.init()
	if s.analyzer == nil {
		s.analyzer = match.NewAnalyzer(opts.SolveNodes, opts.RateNodes)
		s.analyzer.SetYield(s.yieldInPool)
	}
	if s.opts.SeedPoolSize <= 0 {
		s.opts.SeedPoolSize = 36
	}
	def(&s.opts.SeedPoolRetry, 10*time.Second)
	s.newSolverParts()
	crand.Read(s.secret[:])
	s.localLimiter = limit.NewMemoryLimiter(0)
	s.limiter = opts.Limiter
	if s.limiter == nil {
		s.limiter = s.localLimiter
	}
	s.id = newID()
	s.initSockets()
	if err := s.initAccounts(); err != nil {
		return nil, err
	}
	s.startBotNet()
	s.bots = botrun.New(botrun.Options{
		Store: s.store, Owner: s.id, Lease: s.opts.BotLease, SweepEvery: s.opts.BotSweepEvery, Think: s.opts.BotThink,
		URL: botURL, HTTPClient: s.botNet.client, Gate: func(room string) bot.Gate { return botGate{s: s, room: room} },
		Yield: s.poller.Poll,
		LoadRoom: func(ctx context.Context, code string) (*match.Room, error) {
			room, err := s.loadRoom(ctx, code)
			if errors.Is(err, errRoomNotFound) {
				return nil, fmt.Errorf("%w: %w", botrun.ErrNoRoom, err)
			}
			return room, err
		},
		HashToken: hashToken, Now: s.now, Logger: s.log,
		StoreFailed: func(msg string, err error) { s.outage.warn(s.log, msg, err) },
		StoreOK:     func() { s.outage.ok(s.log) },
	})
	s.startFairplay(opts.Fairplay)
	s.tours = s.newTournaments() // mount.go: its clock and schedule start
	s.startPipeline()
	s.routes()
	s.startLiveCounts() // tv_counts.go
	s.bots.Start()
	return s, nil
}

func (s *Server) now() time.Time { return s.opts.Now().UTC() }

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok\n") })
	m.HandleFunc("GET /readyz", s.readyz)
	if !s.opts.MetricsElsewhere {
		m.Handle("GET /metrics", s.guardMetrics(s.MetricsHandler())) // metrics.go
	}
	m.HandleFunc("GET /ws", s.capSockets(s.serveWS))
	m.HandleFunc("POST /api/rooms", s.createRoom)
	m.HandleFunc("GET /api/rooms", s.listRooms)
	m.HandleFunc("GET /api/rooms/{code}", s.getRoom)
	m.HandleFunc("POST /api/rooms/{code}/join", s.joinRoom)
	m.HandleFunc("GET /api/rooms/{code}/records", s.getRecords)
	m.HandleFunc("GET /api/rooms/{code}/holes/{hole}/replay", s.getReplay)
	m.HandleFunc("GET /api/rooms/{code}/holes/{hole}/best", s.getBestLine)
	m.HandleFunc("GET /api/rooms/{code}/holes/{hole}/analysis", s.getReview)
	m.HandleFunc("POST /api/rooms/{code}/bots", s.addBot)
	m.HandleFunc("POST /api/quickmatch", s.quickMatch)
	m.HandleFunc("GET /api/live", s.getLive)
	m.HandleFunc("GET /api/live/players/{name}", s.getLivePlayer) // tv_live.go
	s.fairplayRoutes(m)
	s.tours.Mount(m)
	s.accountRoutes(m)
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, protocol.ErrCodeBadMessage, "no such API endpoint")
	})
	if s.opts.Pages != nil {
		m.Handle("/", s.opts.Pages)
	}
	s.mux = m
	s.handler = compress(s.withAccounts(m))
}

// MetricsHandler serves the Prometheus metrics.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})
}

// HTTPServer returns an http.Server for the server with its timeouts
// (Options.HTTP); set its ErrorLog, then Serve.
func (s *Server) HTTPServer() *http.Server {
	t := s.opts.HTTP
	return &http.Server{Handler: s, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, WriteTimeout: t.Write, IdleTimeout: t.Idle}
}

// ServeHTTP implements http.Handler: security headers and the body limit
// for every request, then the routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	securityHeaders(w.Header())
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	}
	s.handler.ServeHTTP(w, r)
}

// Close stops every bot and every hub; call after the HTTP server has
// shut down.
func (s *Server) Close() {
	s.closing.Store(true)
	s.bots.Stop()
	s.stopBotNet()
	s.tours.Close()
	s.tasks.stop()
	for _, h := range s.rooms.All() {
		for c := range snapshotConns(h) {
			c.out.closeNow(websocket.StatusGoingAway, "server shutting down")
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
	s.stopSolver()
	s.poller.Close()
}

// snapshotConns reads a hub's connections on its loop.
func snapshotConns(h *hub) map[*conn]struct{} {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	m, _ := hubs.Read(ctx, &h.Core, func() map[*conn]struct{} {
		out := make(map[*conn]struct{}, len(h.conns))
		for c := range h.conns {
			out[c] = struct{}{}
		}
		return out
	})
	return m
}

// readyz answers whether the instance can serve: its store answers and,
// when the accounts are in a database (anything with a Ping), the
// database answers too, each within 2 s. ?without=database leaves the
// database out (docs/deploy.md: for balancers that drop every backend
// when all are unready).
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		// The detail (addresses, store errors) is for the log only.
		s.log.Warn("not ready", "err", err)
		writeError(w, http.StatusServiceUnavailable, protocol.ErrCodeUnavailable, "not ready")
		return
	}
	if db, ok := s.acct.store.(interface{ Ping(context.Context) error }); ok && r.URL.Query().Get("without") != "database" {
		dctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := db.Ping(dctx); err != nil {
			s.log.Warn("not ready: the database does not answer", "err", err)
			writeError(w, http.StatusServiceUnavailable, protocol.ErrCodeUnavailable, "not ready")
			return
		}
	}
	io.WriteString(w, "ready\n")
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	cw := &corkWriter{ResponseWriter: w}
	ws, err := websocket.Accept(cw, r, &websocket.AcceptOptions{OriginPatterns: s.opts.AllowedOrigins})
	if err != nil {
		return // Accept has written the HTTP error
	}
	ws.SetReadLimit(protocol.MaxMessage)
	c := newConn(s, ws, requestClient(r, s.opts.Limits.TrustedHeader))
	c.out.cork = cw.conn
	serveDetached(r, c.serve)
}

// writeJSON, writeError and decodeBody are package api's, shared with
// the feature packages (server/internal/api).
func writeJSON(w http.ResponseWriter, status int, v any) { api.WriteJSON(w, status, v) }

func writeError(w http.ResponseWriter, status int, code, msg string) {
	api.WriteError(w, status, code, msg)
}

func decodeBody(r *http.Request, v any) error { return api.DecodeBody(r, v) }

func (s *Server) fail(w http.ResponseWriter, err error) {
	code, status := errorCode(err)
	if status == http.StatusInternalServerError {
		s.log.Error("request failed", "err", err)
	}
	if after := retryAfter(err); after > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(after))
	}
	writeError(w, status, code, errorMessage(err))
}

// maxBody bounds API request bodies.
const maxBody = api.MaxBody

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
	if !s.allow(w, r, limitRooms) {
		return
	}
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
	if set.Rated {
		// rated.go: the host is seated by their account's name.
		var err error
		if name, err = s.ratedName(r); err != nil {
			s.fail(w, err)
			return
		}
	}
	grant, err := s.create(s.withSeatAccount(r), set, name)
	if err != nil {
		s.fail(w, err)
		return
	}
	grant.Link = s.link(r, grant.Code)
	writeJSON(w, http.StatusCreated, grant)
}

// create makes a room and, with a name, seats its host.
func (s *Server) create(ctx context.Context, set match.Settings, name string) (protocol.SeatGrant, error) {
	code, err := s.newRoomLog(ctx, set, "")
	if err != nil {
		return protocol.SeatGrant{}, err
	}
	s.metrics.created.Inc()
	if n := set.DealsNeeded(); n > 0 {
		// The round's deals come from a seed pool: fill it while the
		// players gather.
		s.seeds.Want(set, n)
	}
	grant := protocol.SeatGrant{Code: code, Seat: -1}
	if name != "" {
		return s.join(ctx, code, name, false)
	}
	// Make the room visible in the lobby at once.
	h, err := s.rooms.Acquire(ctx, code)
	if err == nil {
		h.Do(ctx, h.updateListing)
		s.rooms.Release(h)
	}
	return grant, nil
}

// join seats a player and returns the seat token.
func (s *Server) join(ctx context.Context, code, name string, bot bool) (protocol.SeatGrant, error) {
	return s.joinToken(ctx, code, name, newToken(), bot)
}

// joinToken seats a player with the token.
func (s *Server) joinToken(ctx context.Context, code, name, token string, bot bool) (protocol.SeatGrant, error) {
	h, err := s.rooms.Acquire(ctx, code)
	if err != nil {
		return protocol.SeatGrant{}, notFound(err)
	}
	defer s.rooms.Release(h)
	res := h.change(ctx, func(r *match.Room) (match.Event, error) {
		if err := linkedSeat(ctx, r); err != nil { // linked.go
			return match.Event{}, err
		}
		return match.Event{Kind: match.KindJoin, Name: name, Token: hashToken(token), Bot: bot, Account: seatAccount(ctx), ReadyWithin: s.opts.ReadyWithin}, nil
	})
	if res.err != nil {
		return protocol.SeatGrant{}, res.err
	}
	type joined struct {
		seat  int
		rated bool
	}
	j, err := hubs.Read(ctx, &h.Core, func() joined { return joined{h.room.SeatOf(hashToken(token)), h.room.Settings.Rated} })
	if err != nil {
		return protocol.SeatGrant{}, err
	}
	if j.rated {
		// held.go: a player whose results are held is marked so at once.
		s.syncRoomHeld(ctx, code)
	}
	return protocol.SeatGrant{Code: code, Seat: j.seat, Token: token}, nil
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

// pathRoom is the room the path's {code} names, or false once the failure
// is answered.
func (s *Server) pathRoom(w http.ResponseWriter, r *http.Request) (*match.Room, bool) {
	code, ok := s.roomCode(w, r)
	if !ok {
		return nil, false
	}
	room, err := s.loadRoom(r.Context(), code)
	if err != nil {
		s.fail(w, err)
		return nil, false
	}
	return room, true
}

func (s *Server) joinRoom(w http.ResponseWriter, r *http.Request) {
	code, ok := s.roomCode(w, r)
	if !ok || !s.allow(w, r, limitJoins) {
		return
	}
	var req protocol.JoinRequest
	if err := decodeBody(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	name, err := s.joinName(r, code, req.Name)
	if err != nil {
		s.fail(w, err)
		return
	}
	grant, err := s.join(s.withSeatAccount(r), code, name, false)
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

func (s *Server) getRoom(w http.ResponseWriter, r *http.Request) {
	room, ok := s.pathRoom(w, r)
	if !ok {
		return
	}
	// A view with no seat and no boards: public information only.
	v := room.View(match.NoSeat)
	writeJSON(w, http.StatusOK, protocol.RoomInfo{
		Code: v.Code, V: v.V, Settings: v.Settings, Status: v.Status, Round: v.Round, Hole: v.Hole,
		Seats: v.Seats, Standings: v.Standings, Commitment: v.Commitment, Seed: v.Seed,
	})
}

func (s *Server) getRecords(w http.ResponseWriter, r *http.Request) {
	room, ok := s.pathRoom(w, r)
	if !ok {
		return
	}
	code := room.Code
	v := room.View(match.NoSeat)
	out := protocol.Records{Code: code, Round: room.Round, Commitment: v.Commitment, Seed: v.Seed, Deals: v.Deals, Players: []string{}, Holes: []match.HoleRecords{}}
	for _, seat := range room.Seats {
		out.Players = append(out.Players, seat.Name)
	}
	out.Holes = append(out.Holes, room.FinishedHoles()...)
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
