package load

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/golf"
	"golfsolitaire/internal/proccpu"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
)

// Config describes a run. Zero fields take the documented defaults.
type Config struct {
	// URL is the server's base URL, e.g. "http://127.0.0.1:8080". Required.
	URL string
	// Rooms is how many matches are played at once; default 1.
	Rooms int
	// Players per room; default 2. Two players play match play, more play
	// stroke play.
	Players int
	// Holes per round; default 9.
	Holes int
	// Duration is how long moves are measured, after setup; default 10s.
	Duration time.Duration
	// Think is the mean pause before each move of each player (before
	// its first move in a room, a random part of it, later between half
	// and one and a half times it: thinkPause); default none.
	Think time.Duration
	// Rate caps moves a second over all players; 0 for no cap.
	Rate float64
	// PlayerRate caps each connection's messages a second, so that a
	// server's flood limit is not hit; 0 for no cap.
	PlayerRate float64
	// Idle is how many extra spectator connections to hold open, in rooms
	// of their own where nothing happens.
	Idle int
	// Memory, when set, is read before and after the idle connections
	// open, and as the window ends (Result.ServerMemory).
	Memory func(ctx context.Context) (Memory, error)
	// SetupTimeout bounds creating the rooms and opening the connections;
	// default one minute plus 20ms a connection.
	SetupTimeout time.Duration
	// Concurrency is how many rooms (or idle connections) are set up at
	// once; default 32.
	Concurrency int
	// HTTPClient is used for the API; default a client that keeps enough
	// idle connections for Concurrency.
	HTTPClient *http.Client
	// Seed makes the moves repeatable; 0 for random.
	Seed uint64
	// Settle, after the window, waits for this process to go quiet and
	// counts the CPU it used meanwhile (Result.SettleCPUSeconds). Leave
	// it off when something else keeps the process busy (an attack).
	Settle bool
	// ClientHeader, when set, is the header every simulated client (each
	// seat of each room, each idle spectator) puts an address of its own
	// in (10.64.x.y, ...), as a trusted proxy would; a server that trusts
	// it (--trusted-proxy-header) applies its per-client limits to each.
	// Empty: every client has the load generator's address.
	ClientHeader string
	// ServerCPU, when set, reads the CPU time the server's process has
	// used (load --serve runs the server as a child process and reads
	// /proc): it is read as the window opens and once the server has gone
	// quiet after it (Settle), and the difference is Result.ServerCPUSeconds.
	ServerCPU func() (time.Duration, error)
	// QuietStart, with ServerCPU, opens the window only once the server
	// has gone quiet after setup (settleCPU): the best scores of the
	// rooms' first holes, all dealt at once, are solved before the first
	// move, as when rooms start one by one.
	QuietStart bool
	// Warming, when set, reads how many deals the server still has to
	// solve ahead (its golf_best_warm_queue): with QuietStart the window
	// opens only once that is 0 (for at most warmMax), then once the
	// server has gone quiet. A moment's quiet alone could open it while
	// the warming, which runs within a share of the CPU, has thousands of
	// deals to go.
	Warming func(ctx context.Context) (int, error)
	// Timeline, if not 0, also reports the acks of each slice of the
	// window this long (Result.AckTimeline): when the tail happened.
	Timeline time.Duration
	// ServerWait, when set, reads how long the server process's threads
	// have waited for a CPU while ready to run: read as the window opens
	// and as it closes (Result.ServerWaitSeconds).
	ServerWait func() (time.Duration, error)
	// StoreCPU is the same for the store's process (a redis-server), when
	// it can be read: Result.Store.
	StoreCPU func() (time.Duration, error)
	// CollectorLimit, if not 0, keeps this process's collector off for
	// the window unless its memory nears this many bytes (a soft limit:
	// debug.SetMemoryLimit), after one collection as the window opens;
	// both are set back as the run ends (quietCollector: they are the
	// process's, left alone where the collector is off already). The
	// load generator is the instrument: with 10,000 connections each of
	// its collections (one every 5 s, or 20 s with GOGC=400; 50-260 ms
	// of the marking done by its goroutines as they allocated, on its
	// one CPU) put its own pause into the acks it was measuring. The
	// heap the window is expected to allocate is warmed before it opens
	// (warmHeap), so that its allocations do not fault in new pages.
	CollectorLimit int64
}

// Memory is a server's memory use.
type Memory struct {
	// RSS is the process's resident set size.
	RSS uint64 `json:"rssBytes"`
	// Go is the Go heap in use plus goroutine stacks.
	Go uint64 `json:"goBytes"`
}

// Result is what a run measured.
type Result struct {
	URL     string `json:"url"`
	Rooms   int    `json:"rooms"`
	Players int    `json:"players"`
	// Seconds is the measured window (moves made during setup do not
	// count; there are none).
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the CPU time this process used during the window:
	// the load generator's, and the server's too when it runs in the same
	// process. MovesPerCPUSec is the ratio, which other processes sharing
	// the machine do not skew.
	CPUSeconds     float64 `json:"cpuSeconds"`
	MovesPerCPUSec float64 `json:"movesPerCpuSec"`
	// SettleCPUSeconds, counted in CPUSeconds, is the CPU time this
	// process used after the window until it went quiet: work the moves
	// queued and the server did later (with --serve, best scores its
	// solver had not reached when the moves stopped).
	SettleCPUSeconds float64 `json:"settleCpuSeconds"`
	Moves            int64   `json:"moves"`
	MovesPerSec      float64 `json:"movesPerSec"`
	// Ack is from sending a move to its ack; Update from sending a move to
	// an opponent's connection receiving the event of that version.
	Ack    Latency `json:"ack"`
	Update Latency `json:"update"`
	// AckRead is Ack up to the connection's reader reading the ack off
	// the socket, before the player's goroutine is woken with it: the
	// load generator's own scheduling of that goroutine left out.
	AckRead Latency `json:"ackRead"`
	// AckTimeline (Config.Timeline) summarises the acks of the moves sent
	// in each slice of the window, in order.
	AckTimeline []Slice `json:"ackTimeline,omitempty"`
	// SchedLatency is how long this process's goroutines (the load
	// generator's) waited to run once ready during the window
	// (runtime/metrics /sched/latencies, each figure a bucket's upper
	// bound): the part of Ack that is the load generator's own cores
	// being busy (its collector, its scheduling).
	SchedLatency Latency `json:"schedLatency"`
	Errors       int64   `json:"errors"`
	// ErrorSamples are the first few errors.
	ErrorSamples []string `json:"errorSamples,omitempty"`
	// Connections is how many connections were open when play began
	// (players and idle spectators); Dials counts every connection opened.
	Connections int   `json:"connections"`
	Dials       int64 `json:"dials"`
	// RoundsFinished counts rounds played to the end (each is followed by
	// a new room).
	RoundsFinished int64       `json:"roundsFinished"`
	Idle           *IdleResult `json:"idle,omitempty"`
	// Bytes is the size of every frame the players' connections received
	// during the window (payloads: events, snapshots, acks, errors,
	// pongs; not the WebSocket framing), counted from the window's start
	// for the rooms set up before it and from the dial for rooms made
	// during it. BytesPerMovePerRecipient is Bytes / Moves / Players: every
	// connection of a room receives every move's event, so Players is the
	// number of recipients of each move.
	Bytes                    int64   `json:"bytes"`
	BytesPerMovePerRecipient float64 `json:"bytesPerMovePerRecipient"`
	// ServerCPUSeconds is the CPU time of the server's own process
	// (Config.ServerCPU) from the window's start until it went quiet
	// after it, so the work the window's moves queued (best scores,
	// fair-play analyses) counts; CPUMicrosPerMove is that over Moves,
	// and CPUMicrosPerMovePerRecipient that over Players too. Zero when
	// the server's CPU cannot be read (--url).
	ServerCPUSeconds float64 `json:"serverCpuSeconds,omitempty"`
	// ServerWindowCPUSeconds is the server process's CPU time during the
	// window only: what it took while the moves were measured (rooms,
	// and whatever analyses ran meanwhile).
	ServerWindowCPUSeconds float64 `json:"serverWindowCpuSeconds,omitempty"`
	// ServerWaitSeconds is how long, during the window, the server's
	// threads were ready to run but waited for a CPU that other
	// processes had (Config.ServerWait; Linux): on a shared machine, the
	// part of the latencies that is not the server's.
	ServerWaitSeconds float64 `json:"serverWaitSeconds,omitempty"`
	// WaitSeconds is the same for this process (the load generator's
	// threads).
	WaitSeconds                  float64 `json:"waitSeconds,omitempty"`
	CPUMicrosPerMove             float64 `json:"cpuMicrosPerMove,omitempty"`
	CPUMicrosPerMovePerRecipient float64 `json:"cpuMicrosPerMovePerRecipient,omitempty"`
	// Store is the store process's CPU over the same span
	// (Config.StoreCPU), when it can be read.
	Store *ProcessCPU `json:"store,omitempty"`
	// ServerMemory is the server's memory as the window ended, every
	// connection still open (Config.Memory).
	ServerMemory *Memory `json:"serverMemory,omitempty"`
}

// ProcessCPU is a process's CPU time over a run, and per move.
type ProcessCPU struct {
	CPUSeconds                   float64 `json:"cpuSeconds"`
	CPUMicrosPerMove             float64 `json:"cpuMicrosPerMove"`
	CPUMicrosPerMovePerRecipient float64 `json:"cpuMicrosPerMovePerRecipient"`
}

// processCPU turns a CPU time into a ProcessCPU for moves moves seen by
// players recipients each.
func processCPU(cpu time.Duration, moves int64, players int) ProcessCPU {
	p := ProcessCPU{CPUSeconds: cpu.Seconds()}
	if moves > 0 {
		p.CPUMicrosPerMove = float64(cpu.Microseconds()) / float64(moves)
		p.CPUMicrosPerMovePerRecipient = p.CPUMicrosPerMove / float64(players)
	}
	return p
}

// IdleResult is the memory the idle connections cost the server.
type IdleResult struct {
	Conns      int     `json:"conns"`
	Before     Memory  `json:"before"`
	After      Memory  `json:"after"`
	RSSPerConn float64 `json:"rssPerConnBytes"`
	GoPerConn  float64 `json:"goPerConnBytes"`
}

// runner is one run's shared state.
type runner struct {
	cfg     Config
	api     *client.API
	addrs   *addrs
	global  *pacer
	started time.Time
	// open is closed as the window opens; ready counts the players of
	// the first rooms that have not yet reached it (player.gated).
	open  chan struct{}
	ready sync.WaitGroup

	moves  atomic.Int64
	bytes  atomic.Int64
	dials  atomic.Int64
	rounds atomic.Int64
	errs   atomic.Int64

	mu      sync.Mutex
	samples []string
	ack     []time.Duration
	ackRead []time.Duration
	ackAt   []time.Time
	update  []time.Duration
}

// Run sets up the rooms, plays for cfg.Duration and reports.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, api: &client.API{BaseURL: cfg.URL, HTTPClient: cfg.HTTPClient}, addrs: newAddrs(1), global: newPacer(cfg.Rate)}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	setup, scancel := context.WithTimeout(ctx, cfg.SetupTimeout)
	defer scancel()
	rooms := make([]*room, cfg.Rooms)
	err = forEach(setup, cfg.Rooms, cfg.Concurrency, func(ctx context.Context, i int) error {
		rm, err := r.newRoom(ctx)
		rooms[i] = rm
		return err
	})
	defer func() {
		for _, rm := range rooms {
			rm.close()
		}
	}()
	if err != nil {
		return nil, fmt.Errorf("load: setting up rooms: %w", err)
	}
	res := &Result{URL: cfg.URL, Rooms: cfg.Rooms, Players: cfg.Players, Connections: cfg.Rooms * cfg.Players}
	if cfg.Idle > 0 {
		idle, conns, err := r.openIdle(setup)
		defer func() {
			for _, c := range conns {
				if c != nil {
					c.CloseNow()
				}
			}
		}()
		if err != nil {
			return nil, fmt.Errorf("load: opening idle connections: %w", err)
		}
		res.Idle = idle
		res.Connections += cfg.Idle
	}
	// The players start before the window opens and wait at its gate
	// with their first move chosen: 10,000 of them reading their views
	// and choosing as the window opened took a second of this process's
	// one CPU, and the acks of the window's first seconds measured that
	// (a p50 of 24 ms and p99 of 451 ms in its first 3 s, 15-35 ms in
	// the seconds after).
	play, pcancel := context.WithCancel(ctx)
	defer pcancel()
	r.open = make(chan struct{})
	var wg sync.WaitGroup
	for _, rm := range rooms {
		for _, p := range rm.players {
			p.gated = true
			r.ready.Add(1)
		}
	}
	for i := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rooms[i] = r.roomLoop(play, rooms[i])
		}()
	}
	if err := waitGroup(setup, &r.ready); err != nil {
		pcancel()
		wg.Wait()
		return nil, fmt.Errorf("load: waiting for the players to be ready: %w", err)
	}
	scancel()
	if cfg.QuietStart && cfg.ServerCPU != nil {
		if cfg.Warming != nil {
			waitWarmed(ctx, cfg.Warming)
		}
		settleCPU(ctx, func() time.Duration { d, _ := readCPU(cfg.ServerCPU); return d })
	}

	for _, rm := range rooms {
		for _, p := range rm.players {
			p.bytes0 = p.c.BytesReceived()
		}
	}
	if cfg.CollectorLimit > 0 {
		defer quietCollector(cfg.CollectorLimit)()
		warmHeap(cfg.CollectorLimit, cfg.expectedMoves())
	}
	r.started = time.Now()
	cpu0 := proccpu.CPUTime()
	server0, serverOK := readCPU(cfg.ServerCPU)
	window0 := r.readWindow()
	schedBounds, sched0 := schedCounts()
	store0, storeOK := readCPU(cfg.StoreCPU)
	close(r.open)
	stop := time.AfterFunc(cfg.Duration, pcancel)
	defer stop.Stop()
	wg.Wait()
	elapsed := time.Since(r.started)
	_, sched1 := schedCounts()
	res.SchedLatency = schedLatency(schedBounds, sched0, sched1)
	fillWindow(res, window0, r.readWindow())
	if cfg.Memory != nil {
		if m, err := cfg.Memory(ctx); err == nil {
			res.ServerMemory = &m
		}
	}
	var settle time.Duration
	if cfg.Settle {
		settle = settleCPU(ctx, proccpu.CPUTime)
		if serverOK {
			// The server is a process of its own: wait for it too.
			settleCPU(ctx, func() time.Duration { d, _ := readCPU(cfg.ServerCPU); return d })
		}
	}
	cpu := proccpu.CPUTime() - cpu0
	server1, serverOK1 := readCPU(cfg.ServerCPU)
	store1, storeOK1 := readCPU(cfg.StoreCPU)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.SettleCPUSeconds = settle.Seconds()
	r.fill(res, elapsed, cpu, server1-server0, serverOK && serverOK1, store1-store0, storeOK && storeOK1)
	return res, nil
}

// withDefaults fills the zero fields of cfg with their defaults.
func (cfg Config) withDefaults() (Config, error) {
	if cfg.URL == "" {
		return cfg, errors.New("load: a URL is required")
	}
	if cfg.Rooms <= 0 {
		cfg.Rooms = 1
	}
	if cfg.Players <= 0 {
		cfg.Players = 2
	}
	if cfg.Players > match.MaxSeats {
		return cfg, fmt.Errorf("load: at most %d players a room", match.MaxSeats)
	}
	if cfg.Holes <= 0 {
		cfg.Holes = 9
	}
	if cfg.Duration <= 0 {
		cfg.Duration = 10 * time.Second
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 32
	}
	if cfg.SetupTimeout <= 0 {
		cfg.SetupTimeout = time.Minute + time.Duration(cfg.Rooms*cfg.Players+cfg.Idle)*20*time.Millisecond
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{
			Transport: &http.Transport{MaxIdleConnsPerHost: cfg.Concurrency, IdleConnTimeout: 30 * time.Second},
			Timeout:   30 * time.Second,
		}
	}
	return cfg, nil
}

// fill reports the measured run in res: the moves, their latencies and
// bytes, and the CPU time of this process (cpu), the server's and the
// store's (when read).
func (r *runner) fill(res *Result, elapsed, cpu, server time.Duration, serverOK bool, store time.Duration, storeOK bool) {
	res.Seconds = elapsed.Seconds()
	res.Moves = r.moves.Load()
	res.MovesPerSec = float64(res.Moves) / res.Seconds
	if res.CPUSeconds = cpu.Seconds(); res.CPUSeconds > 0 {
		res.MovesPerCPUSec = float64(res.Moves) / res.CPUSeconds
	}
	res.AckTimeline = timeline(r.ack, r.ackAt, r.started, r.cfg.Timeline)
	res.Ack = summarise(r.ack)
	res.AckRead = summarise(r.ackRead)
	res.Update = summarise(r.update)
	res.Errors = r.errs.Load()
	res.ErrorSamples = r.samples
	res.Dials = r.dials.Load()
	res.RoundsFinished = r.rounds.Load()
	res.Bytes = r.bytes.Load()
	if res.Moves > 0 {
		res.BytesPerMovePerRecipient = float64(res.Bytes) / float64(res.Moves) / float64(r.cfg.Players)
	}
	if serverOK {
		p := processCPU(server, res.Moves, r.cfg.Players)
		res.ServerCPUSeconds, res.CPUMicrosPerMove, res.CPUMicrosPerMovePerRecipient = p.CPUSeconds, p.CPUMicrosPerMove, p.CPUMicrosPerMovePerRecipient
	}
	if storeOK {
		p := processCPU(store, res.Moves, r.cfg.Players)
		res.Store = &p
	}
}

// readCPU reads a process's CPU time, if read is set and works.
func readCPU(read func() (time.Duration, error)) (time.Duration, bool) {
	if read == nil {
		return 0, false
	}
	d, err := read()
	return d, err == nil
}

// forEach runs f for 0..n-1, at most limit at once, and returns the first
// error (which cancels the rest).
func forEach(ctx context.Context, n, limit int, f func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := f(ctx, i); err != nil {
				cancel(err)
			}
		}()
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return nil
}

func (r *runner) fail(err error) {
	r.errs.Add(1)
	r.mu.Lock()
	if len(r.samples) < 10 {
		r.samples = append(r.samples, err.Error())
	}
	r.mu.Unlock()
}

// room is one match in play.
type room struct {
	code    string
	players []*player
	track   *tracker
}

// player is one seat's connection.
type player struct {
	c    *client.Conn
	seat int
	pace *pacer
	rng  *rand.Rand
	ack  []time.Duration
	// ackRead: to the reader's reading of the ack (Result.AckRead).
	ackRead []time.Duration
	// ackAt is when each move of ack was sent.
	ackAt []time.Time
	// bytes0 is what the connection had received when the window began
	// (0 for a room made during it).
	bytes0 int64
	// gated: the player is of the rooms set up before the window and has
	// not yet told runner.ready it is at the window's gate.
	gated bool
}

// quietCollector collects once, then turns the process's collector off
// but for a soft memory limit of limit bytes, and returns what sets both
// back. They are the process's: where the collector is off already
// (GOGC=off, or another run of this process holding it off) both are
// left as they are, so that runs that overlap never leave it off.
func quietCollector(limit int64) (restore func()) {
	runtime.GC()
	percent := debug.SetGCPercent(-1)
	if percent < 0 {
		return func() {}
	}
	old := debug.SetMemoryLimit(limit)
	return func() {
		debug.SetMemoryLimit(old)
		debug.SetGCPercent(percent)
	}
}

// warmBytesPerMove is what this process allocates a move of the
// window, measured at 10,000 connections with the collector off: 13 kB
// (a command written, its ack and two patched views read), rounded up.
const warmBytesPerMove = 16 << 10

// warmHeap, with the collector off (quietCollector), has the kernel back
// the heap the window is expected to allocate (moves of warmBytesPerMove,
// within three quarters of the limit) before the window opens, and
// frees it. With the collector off every allocation of the window took
// memory the process had never touched, and each new page of it was a
// page fault: 8,000-9,500 a second at 10,000 connections, some 10 µs of
// system time each on the virtual machine measured, in the middle of
// reading the acks being timed. Freed, the pages stay with the process
// (with the collector off the scavenger returns memory only near the
// limit), and the window's allocations reuse them.
func warmHeap(limit, moves int64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	n := min(moves*warmBytesPerMove, limit*3/4-int64(ms.HeapInuse))
	if n <= 0 {
		return
	}
	const chunk = 16 << 20
	var warm [][]byte
	for ; n > 0; n -= chunk {
		b := make([]byte, min(n, chunk))
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		warm = append(warm, b)
	}
	runtime.KeepAlive(warm)
	runtime.GC()
}

// expectedMoves is about how many moves the window will see: at a
// person's pace (Think) every player's moves, at a fixed Rate that
// rate's, and 0 when neither is set (as fast as they go).
func (cfg Config) expectedMoves() int64 {
	switch {
	case cfg.Think > 0:
		return int64(cfg.Rooms*cfg.Players) * int64(cfg.Duration/cfg.Think)
	case cfg.Rate > 0:
		return int64(cfg.Rate * cfg.Duration.Seconds())
	}
	return 0
}

// arrive tells the run that the player is at the window's gate (or will
// not reach it); only the first call counts.
func (r *runner) arrive(p *player) {
	if p.gated {
		p.gated = false
		r.ready.Done()
	}
}

// waitOpen waits for the window to open.
func (r *runner) waitOpen(ctx context.Context) error {
	select {
	case <-r.open:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// waitGroup waits for wg, or returns ctx's error when ctx ends first.
func waitGroup(ctx context.Context, wg *sync.WaitGroup) error {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *runner) settings() map[string]any {
	format := match.Matchplay
	if r.cfg.Players > 2 {
		format = match.Stroke
	}
	return map[string]any{"holes": r.cfg.Holes, "format": format, "seats": r.cfg.Players, "holeClock": 0}
}

// client is a new simulated client: the API as it, and the options of its
// sockets. With Config.ClientHeader each has an address of its own.
func (r *runner) client() (*client.API, client.Options) {
	if r.cfg.ClientHeader == "" {
		return r.api, client.Options{}
	}
	addr := r.addrs.next()
	return apiAs(r.cfg.URL, r.cfg.HTTPClient, r.cfg.ClientHeader, addr), client.Options{HTTPHeader: http.Header{r.cfg.ClientHeader: {addr}}}
}

// newRoom creates a room, seats and connects every player and says ready,
// which starts the round.
func (r *runner) newRoom(ctx context.Context) (*room, error) {
	api, opts := r.client()
	g, err := api.CreateRoom(ctx, r.settings(), "p0")
	if err != nil {
		return nil, fmt.Errorf("create: %w", err)
	}
	grants := []protocol.SeatGrant{g}
	dials := []client.Options{opts}
	for i := 1; i < r.cfg.Players; i++ {
		api, opts := r.client()
		g, err := api.Join(ctx, g.Code, fmt.Sprintf("p%d", i))
		if err != nil {
			return nil, fmt.Errorf("join: %w", err)
		}
		grants = append(grants, g)
		dials = append(dials, opts)
	}
	rm := &room{code: g.Code, track: newTracker(r.cfg.Players - 1)}
	for i, g := range grants {
		o := dials[i]
		o.Room, o.Token, o.LazyViews = g.Code, g.Token, true
		// The reader hands each update to the room's tracker itself: no
		// goroutine and buffer a connection to drain them.
		o.OnUpdate = func(c *client.Conn, m protocol.ServerMessage) { r.onUpdate(rm, c.Seat(), m) }
		c, err := client.Dial(ctx, r.cfg.URL, &o)
		if err != nil {
			rm.close()
			return nil, fmt.Errorf("dial: %w", err)
		}
		r.dials.Add(1)
		seed := r.cfg.Seed
		if seed == 0 {
			seed = rand.Uint64()
		}
		p := &player{c: c, seat: c.Seat(), pace: newPacer(r.cfg.PlayerRate), rng: rand.New(rand.NewPCG(seed, uint64(c.Seat())))}
		rm.players = append(rm.players, p)
	}
	for _, p := range rm.players {
		if err := p.pace.take(ctx); err != nil {
			rm.close()
			return nil, err
		}
		if err := p.c.Ready(ctx, true); err != nil {
			rm.close()
			return nil, fmt.Errorf("ready: %w", err)
		}
	}
	return rm, nil
}

// close drops the room's connections and waits for their readers.
func (rm *room) close() {
	if rm == nil {
		return
	}
	for _, p := range rm.players {
		p.c.CloseNow()
	}
	for _, p := range rm.players {
		<-p.c.Done() // no update is handed to the room after this
	}
}

// onUpdate is a player's update, handed over by its connection's reader:
// it times opponents' moves.
func (r *runner) onUpdate(rm *room, seat int, m protocol.ServerMessage) {
	switch {
	case m.Type == protocol.TypeEvent && m.Event != nil && m.Event.Kind == match.KindMove && m.Event.Seat != seat:
		rm.track.received(m.V, time.Now())
	case m.Type == protocol.TypeError:
		r.fail(&client.Error{Code: m.Code, Message: m.Message})
	}
}

// roomLoop plays rounds until ctx ends, each in a new room, and returns
// the room in play at the end.
func (r *runner) roomLoop(ctx context.Context, rm *room) *room {
	for {
		r.play(ctx, rm)
		rm.close()
		r.collect(rm)
		if ctx.Err() != nil {
			return nil
		}
		r.rounds.Add(1)
		var err error
		for rm = nil; rm == nil && ctx.Err() == nil; {
			if rm, err = r.newRoom(ctx); err != nil && ctx.Err() == nil {
				r.fail(err)
				sleep(ctx, 100*time.Millisecond)
			}
		}
		if rm == nil {
			return nil
		}
	}
}

// collect moves a finished room's latencies to the run's.
func (r *runner) collect(rm *room) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range rm.players {
		r.ack = append(r.ack, p.ack...)
		r.ackRead = append(r.ackRead, p.ackRead...)
		r.ackAt = append(r.ackAt, p.ackAt...)
		p.ack, p.ackRead, p.ackAt = nil, nil, nil
		r.bytes.Add(p.c.BytesReceived() - p.bytes0)
		p.bytes0 = p.c.BytesReceived()
	}
	r.update = append(r.update, rm.track.take()...)
}

// play runs every player of the room until the round is over or ctx ends.
func (r *runner) play(ctx context.Context, rm *room) {
	var wg sync.WaitGroup
	for _, p := range rm.players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.player(ctx, rm, p)
		}()
	}
	wg.Wait()
}

// player makes random legal moves on the player's own board, as the
// player's latest view shows it, until the round is over.
func (r *runner) player(ctx context.Context, rm *room, p *player) {
	defer r.arrive(p)
	for first := true; ctx.Err() == nil; {
		v, err := p.c.WaitView(ctx, func(v *match.View) bool { return v.Status != match.Waiting })
		if err != nil {
			if ctx.Err() == nil {
				r.fail(fmt.Errorf("room %s seat %d: %w", rm.code, p.seat, err))
			}
			return
		}
		if v.Status == match.Finished {
			return
		}
		move, ok := pick(v.Board, p.rng)
		if !ok {
			// Done with this hole: wait for the others.
			r.arrive(p)
			cur := p.c.Version()
			if _, err := p.c.WaitView(ctx, func(*match.View) bool { return p.c.Version() > cur }); err != nil {
				if ctx.Err() == nil {
					r.fail(fmt.Errorf("room %s seat %d: %w", rm.code, p.seat, err))
				}
				return
			}
			continue
		}
		if first {
			r.arrive(p)
			if r.waitOpen(ctx) != nil {
				return
			}
		}
		if sleep(ctx, thinkPause(r.cfg.Think, first)) != nil || r.global.take(ctx) != nil || p.pace.take(ctx) != nil {
			return
		}
		first = false
		sent := time.Now()
		ack, read, err := p.c.MoveRead(ctx, v.Hole, move)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			r.fail(fmt.Errorf("room %s seat %d move %s: %w", rm.code, p.seat, move, err))
			select {
			case <-p.c.Done():
				return
			default:
			}
			continue
		}
		p.ack = append(p.ack, time.Since(sent))
		p.ackRead = append(p.ackRead, read.Sub(sent))
		p.ackAt = append(p.ackAt, sent)
		rm.track.sent(ack.V, sent)
		r.moves.Add(1)
	}
}

// thinkPause is a player's pause before a move: before its first move
// of a room a random part of think, so that the players of rooms set up
// together do not all move in the same instant every think (with 2,000
// connections and a 4 s think, 2,000 moves arrived at once each time, and
// the acks measured the burst, not a person's pace); after that between
// half and one and a half times think, think on average, as a person's
// pauses vary. With every later pause exactly think, any moment the
// server or the load generator fell behind gathered the moves it delayed
// into one burst, and the burst came back every think for the rest of the
// run: moves waiting behind each other because of the load's lockstep,
// not a person's pace (at 10,000 connections the ack median was 2.2-8.2
// ms with it, 0.6-0.7 ms without).
func thinkPause(think time.Duration, first bool) time.Duration {
	if think <= 0 {
		return think
	}
	if first {
		return rand.N(think)
	}
	return think/2 + rand.N(think)
}

// pick chooses a legal move at random, or ok is false when the player has
// nothing to play.
func pick(b *match.Board, rng *rand.Rand) (move string, ok bool) {
	if b == nil || b.Done {
		return "", false
	}
	n := len(b.Playable)
	if b.CanTurn {
		n++
	}
	if b.CanRedeal {
		n++
	}
	if n == 0 {
		return "", false
	}
	i := rng.IntN(n)
	switch {
	case i < len(b.Playable):
		return golf.PlayPile(b.Playable[i]).String(), true
	case b.CanTurn && i == len(b.Playable):
		return golf.Move{Action: golf.Turn}.String(), true
	default:
		return golf.Move{Action: golf.Redeal}.String(), true
	}
}

// openIdle creates rooms where nothing happens and fills them with
// spectators, reading the server's memory before and after.
func (r *runner) openIdle(ctx context.Context) (*IdleResult, []*client.Conn, error) {
	const perRoom = 100
	n := r.cfg.Idle
	res := &IdleResult{Conns: n}
	if r.cfg.Memory != nil {
		m, err := r.cfg.Memory(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("memory: %w", err)
		}
		res.Before = m
	}
	codes := make([]string, (n+perRoom-1)/perRoom)
	err := forEach(ctx, len(codes), r.cfg.Concurrency, func(ctx context.Context, i int) error {
		api, _ := r.client()
		g, err := api.CreateRoom(ctx, r.settings(), "")
		codes[i] = g.Code
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	conns := make([]*client.Conn, n)
	err = forEach(ctx, n, r.cfg.Concurrency*2, func(ctx context.Context, i int) error {
		_, o := r.client()
		o.Room, o.Buffer = codes[i/perRoom], 8
		c, err := client.Dial(ctx, r.cfg.URL, &o)
		conns[i] = c
		if err == nil {
			r.dials.Add(1)
		}
		return err
	})
	if err != nil {
		return nil, conns, err
	}
	if r.cfg.Memory != nil {
		// Let the server's allocations settle (and its collector run).
		if err := sleep(ctx, 2*time.Second); err != nil {
			return nil, conns, err
		}
		m, err := r.cfg.Memory(ctx)
		if err != nil {
			return nil, conns, fmt.Errorf("memory: %w", err)
		}
		res.After = m
		res.RSSPerConn = (float64(m.RSS) - float64(res.Before.RSS)) / float64(n)
		res.GoPerConn = (float64(m.Go) - float64(res.Before.Go)) / float64(n)
	}
	return res, conns, nil
}

// tracker matches a room's moves (version and time sent, known from the
// ack) with the opponents receiving their events, whichever comes first.
type tracker struct {
	mu     sync.Mutex
	want   int
	moves  map[int64]*pending
	newest int64
	out    []time.Duration
}

type pending struct {
	sent time.Time
	recv []time.Time
	got  int
}

func newTracker(want int) *tracker {
	return &tracker{want: want, moves: map[int64]*pending{}}
}

func (t *tracker) entry(v int64) *pending {
	e := t.moves[v]
	if e == nil {
		e = &pending{}
		t.moves[v] = e
		if v > t.newest {
			t.newest = v
		}
		// Forget moves whose events never came (a closed connection).
		if len(t.moves) > 256 {
			for old := range t.moves {
				if old < t.newest-128 {
					delete(t.moves, old)
				}
			}
		}
	}
	return e
}

// sent records that the move of version v was sent at.
func (t *tracker) sent(v int64, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.entry(v)
	e.sent = at
	for _, r := range e.recv {
		t.out = append(t.out, r.Sub(at))
	}
	e.recv = nil
	if e.got >= t.want {
		delete(t.moves, v)
	}
}

// received records that an opponent received the event of version v.
func (t *tracker) received(v int64, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.entry(v)
	e.got++
	if e.sent.IsZero() {
		e.recv = append(e.recv, at)
		return
	}
	t.out = append(t.out, at.Sub(e.sent))
	if e.got >= t.want {
		delete(t.moves, v)
	}
}

func (t *tracker) take() []time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.out
	t.out = nil
	return out
}

// settleCPU waits, after the window, until this process goes quiet (less
// than a tenth of a core over settleEvery), for settleMax at most, and
// returns the CPU time it used meanwhile: work that the window's moves
// queued and that the server does later (best scores still queued when
// the moves stop); leaving it out would make the moves look cheaper than
// they are.
func settleCPU(ctx context.Context, cpu func() time.Duration) time.Duration {
	t := time.NewTicker(settleEvery)
	defer t.Stop()
	return settle(ctx, cpu, t.C, int(settleMax/settleEvery))
}

// settle is settleCPU with its clock given: cpu reads the CPU time used,
// tick fires every settleEvery, and at most ticks are waited for.
func settle(ctx context.Context, cpu func() time.Duration, tick <-chan time.Time, ticks int) time.Duration {
	start := cpu()
	last := start
	for range ticks {
		select {
		case <-ctx.Done():
			return cpu() - start
		case <-tick:
		}
		now := cpu()
		if now-last < settleEvery/10 {
			return now - start
		}
		last = now
	}
	return cpu() - start
}

// waitWarmed waits until warming reads 0 (or fails), for at most
// warmMax.
func waitWarmed(ctx context.Context, warming func(ctx context.Context) (int, error)) {
	t := time.NewTicker(settleEvery)
	defer t.Stop()
	for range int(warmMax / settleEvery) {
		if n, err := warming(ctx); err != nil || n == 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// warmMax is how long waitWarmed waits at most: 5,000 rooms' first deals,
// solved within a quarter of one core, take about two minutes.
const warmMax = 10 * time.Minute

// How settleCPU decides the process is quiet, and how long it waits.
const (
	settleEvery = 250 * time.Millisecond
	settleMax   = 2 * time.Minute
)
