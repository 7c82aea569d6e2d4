package load

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
)

// AttackKinds are the attacks an attacker mix can run, each the request
// one client repeats as fast as the server answers:
//
//   - create: POST /api/rooms (public rooms, to fill the lobby)
//   - join: POST /api/rooms/CODE/join on rooms with free seats
//   - quickmatch: POST /api/quickmatch, four at once (they pair with
//     each other)
//   - tournaments: POST /api/tournaments
//   - bots: POST /api/rooms/CODE/bots, search bots, in its own rooms,
//     each started once full (the bots play)
//   - hints: the hint command on a practice room's socket (solver work),
//     four at once
//   - sockets: spectator WebSockets to one room, each held open
var AttackKinds = []string{"create", "join", "quickmatch", "tournaments", "bots", "hints", "sockets"}

// AttackConfig describes an attacker mix.
type AttackConfig struct {
	// URL is the server's base URL. Required.
	URL string
	// Attackers is how many attackers run each kind; default 1. Each is a
	// client of its own (an address of its own in ClientHeader).
	Attackers int
	// Kinds are the attacks to run; default AttackKinds.
	Kinds []string
	// ClientHeader, when set, is the header each attacker puts its own
	// address in (10.2.x.y), as a trusted proxy would; the server must
	// trust it (--trusted-proxy-header), or every attacker is one client
	// with the load generator's address.
	ClientHeader string
	// HTTPClient is used for the API; default one with enough idle
	// connections for the attackers.
	HTTPClient *http.Client
}

// AttackResult is what the attackers of one kind met.
type AttackResult struct {
	Kind      string `json:"kind"`
	Attackers int    `json:"attackers"`
	// Requests counts every request (or socket opened, or hint asked).
	Requests int64 `json:"requests"`
	// Accepted counts the requests that did what they asked.
	Accepted int64 `json:"accepted"`
	// Refused counts the refusals of a per-client limit: 429 rate_limited
	// (HTTP), rate_limited (a socket's command), 429 at a socket's
	// upgrade, and solver_busy (the solver's quota of a seat).
	Refused int64 `json:"refused"`
	// Codes counts every answer that was not accepted, by its error code
	// ("429" for a refused upgrade, whose body a WebSocket client does not
	// see; "error" for anything without a code).
	Codes map[string]int64 `json:"codes,omitempty"`
	// Samples are the first error of each code but the refusals (a few).
	Samples []string `json:"samples,omitempty"`
}

// Attack is an attacker mix running against a server.
type Attack struct {
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	kinds   []*attackKind
	setup   *addrs
	started time.Time
}

// attackKind counts one kind's outcomes.
type attackKind struct {
	name      string
	attackers int
	requests  atomic.Int64
	mu        sync.Mutex
	codes     map[string]int64
	samples   []string
}

// attacker is one attacking client.
type attacker struct {
	a    *Attack
	kind *attackKind
	cfg  AttackConfig
	api  *client.API // as the attacker
	addr string
}

// StartAttack starts the attackers; they run until Stop (or ctx ends).
func StartAttack(ctx context.Context, cfg AttackConfig) (*Attack, error) {
	if cfg.URL == "" {
		return nil, errors.New("load: a URL is required")
	}
	if cfg.Attackers <= 0 {
		cfg.Attackers = 1
	}
	if len(cfg.Kinds) == 0 {
		cfg.Kinds = AttackKinds
	}
	for _, k := range cfg.Kinds {
		if !slices.Contains(AttackKinds, k) {
			return nil, fmt.Errorf("load: unknown attack %q (want some of %s)", k, strings.Join(AttackKinds, ","))
		}
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{
			Transport: &http.Transport{MaxIdleConnsPerHost: 4 * cfg.Attackers * len(cfg.Kinds), IdleConnTimeout: 30 * time.Second},
			Timeout:   60 * time.Second,
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	a := &Attack{cancel: cancel, setup: newAddrs(3), started: time.Now()}
	own := newAddrs(2)
	for _, k := range cfg.Kinds {
		ak := &attackKind{name: k, attackers: cfg.Attackers, codes: map[string]int64{}}
		a.kinds = append(a.kinds, ak)
		for range cfg.Attackers {
			addr := own.next()
			at := &attacker{a: a, kind: ak, cfg: cfg, addr: addr, api: apiAs(cfg.URL, cfg.HTTPClient, cfg.ClientHeader, addr)}
			a.wg.Go(func() { at.run(ctx) })
		}
	}
	return a, nil
}

// Stop stops the attackers, waits for them and reports, kind by kind.
func (a *Attack) Stop() []AttackResult {
	a.cancel()
	a.wg.Wait()
	var out []AttackResult
	for _, k := range a.kinds {
		k.mu.Lock()
		r := AttackResult{Kind: k.name, Attackers: k.attackers, Requests: k.requests.Load(), Codes: k.codes, Samples: k.samples}
		k.mu.Unlock()
		for code, n := range r.Codes {
			switch code {
			case "ok":
				r.Accepted = n
			case protocol.ErrCodeRateLimited, "429", protocol.ErrCodeSolverBusy:
				r.Refused += n
			}
		}
		delete(r.Codes, "ok")
		out = append(out, r)
	}
	return out
}

// count records one request's outcome: nil is accepted.
func (k *attackKind) count(err error) {
	k.requests.Add(1)
	code := "ok"
	var ce *client.Error
	switch {
	case err == nil:
	case errors.As(err, &ce):
		code = ce.Code
	case strings.Contains(err.Error(), "429"):
		code = "429"
	default:
		code = "error"
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, seen := k.codes[code]; !seen && !slices.Contains([]string{"ok", protocol.ErrCodeRateLimited, "429", protocol.ErrCodeSolverBusy}, code) && len(k.samples) < 5 {
		k.samples = append(k.samples, err.Error())
	}
	k.codes[code]++
}

// run repeats the attacker's request until ctx ends. Setting up a target
// (a room to join, spectate or add bots to) is done from addresses of its
// own, so only the attack itself meets the attacker's limits.
func (at *attacker) run(ctx context.Context) {
	k := at.kind
	switch k.name {
	case "create":
		for ctx.Err() == nil {
			_, err := at.api.CreateRoom(ctx, map[string]any{"holes": 1, "seats": 2, "public": true}, "")
			at.record(ctx, err)
		}
	case "join":
		var code string
		for i := 0; ctx.Err() == nil; i++ {
			if code == "" {
				g, err := at.target(ctx, map[string]any{"format": "stroke", "holes": 1, "seats": match.MaxSeats}, "")
				if err != nil {
					continue
				}
				code = g.Code
			}
			_, err := at.api.Join(ctx, code, fmt.Sprintf("Joiner %d", i))
			if client.IsCode(err, protocol.ErrCodeRoomFull) {
				code = ""
			}
			at.record(ctx, err)
		}
	case "quickmatch":
		// A request waits to be paired: four at once, which pair with
		// each other.
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for ctx.Err() == nil {
					_, ok, err := at.api.QuickMatch(ctx, "Pair", map[string]any{"holes": 1})
					if err == nil && !ok {
						err = &client.Error{Code: "unpaired"}
					}
					at.record(ctx, err)
				}
			})
		}
		wg.Wait()
	case "tournaments":
		for ctx.Err() == nil {
			_, err := at.api.CreateTournament(ctx, map[string]any{"name": "Spam", "holes": 9}, "")
			at.record(ctx, err)
		}
	case "bots":
		at.bots(ctx)
	case "hints":
		at.hints(ctx)
	case "sockets":
		at.sockets(ctx)
	}
}

// record counts an outcome, unless the attack was stopping.
func (at *attacker) record(ctx context.Context, err error) {
	if ctx.Err() != nil {
		return
	}
	at.kind.count(err)
}

// target creates a room from a setup address (not the attacker's).
func (at *attacker) target(ctx context.Context, settings map[string]any, name string) (protocol.SeatGrant, error) {
	api := apiAs(at.cfg.URL, at.cfg.HTTPClient, at.cfg.ClientHeader, at.a.setup.next())
	g, err := api.CreateRoom(ctx, settings, name)
	if err != nil && ctx.Err() == nil {
		at.kind.count(fmt.Errorf("setting up a room: %w", err))
		sleep(ctx, 100*time.Millisecond)
	}
	return g, err
}

// dial opens a socket to the room as the attacker.
func (at *attacker) dial(ctx context.Context, code, token string) (*client.Conn, error) {
	o := &client.Options{Room: code, Token: token, Buffer: 64, HTTPClient: at.cfg.HTTPClient}
	if at.cfg.ClientHeader != "" {
		o.HTTPHeader = http.Header{at.cfg.ClientHeader: {at.addr}}
	}
	return client.Dial(ctx, at.cfg.URL, o)
}

// bots adds search bots to rooms of its own and, once a room is full,
// starts it (the bots play a nine-hole round) and holds its socket, at
// most four rooms at a time.
func (at *attacker) bots(ctx context.Context) {
	var held []*client.Conn
	defer func() {
		for _, c := range held {
			c.CloseNow()
		}
	}()
	var g protocol.SeatGrant
	for ctx.Err() == nil {
		if g.Code == "" {
			var err error
			if g, err = at.target(ctx, map[string]any{"format": "stroke", "holes": 9, "seats": match.MaxSeats}, "Host"); err != nil {
				continue
			}
		}
		_, _, err := at.api.AddBot(ctx, g.Code, g.Token, "search")
		at.record(ctx, err)
		if !client.IsCode(err, protocol.ErrCodeRoomFull) {
			continue
		}
		if c, err := at.dial(ctx, g.Code, g.Token); err == nil {
			if err := c.Start(ctx); err != nil {
				at.record(ctx, fmt.Errorf("starting a room of bots: %w", err))
			}
			if held = append(held, c); len(held) > 4 {
				held[0].CloseNow()
				held = held[1:]
			}
		}
		g = protocol.SeatGrant{}
	}
}

// hints asks for hints on a practice room's socket, one after another.
func (at *attacker) hints(ctx context.Context) {
	var c *client.Conn
	defer func() {
		if c != nil {
			c.CloseNow()
		}
	}()
	for ctx.Err() == nil {
		if c == nil {
			g, err := at.target(ctx, map[string]any{"format": "stroke", "holes": 9, "seats": 1}, "Solo")
			if err != nil {
				continue
			}
			if c, err = at.dial(ctx, g.Code, g.Token); err != nil {
				at.record(ctx, fmt.Errorf("setting up: %w", err))
				c = nil
				sleep(ctx, 100*time.Millisecond)
				continue
			}
			if err := c.Start(ctx); err != nil {
				at.record(ctx, fmt.Errorf("setting up: %w", err))
				c.CloseNow()
				c = nil
				sleep(ctx, 100*time.Millisecond)
				continue
			}
		}
		v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil || v.Status == match.Finished })
		if err != nil || v.Status == match.Finished {
			c.CloseNow()
			c = nil
			continue
		}
		// Four at once: past the solver's quota for a seat they are
		// refused with solver_busy.
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				_, err := c.Hint(ctx, v.Hole)
				at.record(ctx, err)
			})
		}
		wg.Wait()
		select {
		case <-c.Done():
			c = nil
		default:
		}
	}
}

// sockets opens spectator sockets to one room and holds them.
func (at *attacker) sockets(ctx context.Context) {
	var held []*client.Conn
	defer func() {
		for _, c := range held {
			c.CloseNow()
		}
	}()
	var code string
	for ctx.Err() == nil {
		if code == "" {
			g, err := at.target(ctx, map[string]any{"holes": 1, "seats": 2, "spectators": true}, "")
			if err != nil {
				continue
			}
			code = g.Code
		}
		c, err := at.dial(ctx, code, "")
		if err == nil {
			held = append(held, c)
		} else if client.IsCode(err, protocol.ErrCodeCrowded) {
			code = ""
		}
		at.record(ctx, err)
	}
}

// String summarises a result on one line.
func (r AttackResult) String() string {
	codes := make([]string, 0, len(r.Codes))
	for c := range r.Codes {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	var b strings.Builder
	for i, c := range codes {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", c, r.Codes[c])
	}
	return fmt.Sprintf("%-12s %d attackers: %d requests, %d accepted, %d refused by a limit (%s)",
		r.Kind, r.Attackers, r.Requests, r.Accepted, r.Refused, b.String())
}

// addrs hands out distinct IPv4 addresses in 10.(N*64).0.0/10.
type addrs struct {
	net byte
	n   atomic.Uint32
}

func newAddrs(net byte) *addrs { return &addrs{net: net} }

func (a *addrs) next() string {
	i := a.n.Add(1)
	return fmt.Sprintf("10.%d.%d.%d", a.net*64+byte(i>>16)%64, byte(i>>8), byte(i))
}

// apiAs is an API client whose requests carry addr in header (none when
// header is empty).
func apiAs(url string, hc *http.Client, header, addr string) *client.API {
	if header == "" {
		return &client.API{BaseURL: url, HTTPClient: hc}
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	return &client.API{BaseURL: url, HTTPClient: &http.Client{
		Transport: fromAddr{base: base, header: header, addr: addr}, Timeout: hc.Timeout,
	}}
}

// fromAddr sets a header on every request, as a trusted proxy would.
type fromAddr struct {
	base         http.RoundTripper
	header, addr string
}

func (t fromAddr) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(t.header, t.addr)
	return t.base.RoundTrip(r)
}
