package server

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"golfsolitaire/protocol"
)

// metrics are the server's Prometheus metrics, on its own registry (no
// global state).
type metrics struct {
	reg         *prometheus.Registry
	rooms       prometheus.Gauge
	conns       prometheus.Gauge
	moves       prometheus.Counter
	moveLatency prometheus.Histogram
	slowClosed  prometheus.Counter
	flooded     prometheus.Counter
	created     prometheus.Counter
	refused     *prometheus.CounterVec
	pingClosed  prometheus.Counter
	// yielded is how long background solves waited for the rooms'
	// goroutines (idle.Poller.Yield).
	yielded prometheus.Counter
	// delayDropped counts spectator-delay frames dropped past the cap.
	delayDropped prometheus.Counter
}

func newMetrics() *metrics {
	m := &metrics{
		reg:   prometheus.NewRegistry(),
		rooms: prometheus.NewGauge(prometheus.GaugeOpts{Name: "golf_rooms_active", Help: "Rooms with a hub on this instance."}),
		conns: prometheus.NewGauge(prometheus.GaugeOpts{Name: "golf_connections", Help: "Open WebSocket connections attached to rooms."}),
		moves: prometheus.NewCounter(prometheus.CounterOpts{Name: "golf_moves_total", Help: "Moves accepted."}),
		moveLatency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "golf_move_seconds", Help: "Time from a move's arrival to its acknowledgement (stored).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}),
		slowClosed: prometheus.NewCounter(prometheus.CounterOpts{Name: "golf_slow_clients_closed_total", Help: "Connections closed for reading too slowly."}),
		flooded:    prometheus.NewCounter(prometheus.CounterOpts{Name: "golf_flood_closed_total", Help: "Connections closed by the rate limit."}),
		created:    prometheus.NewCounter(prometheus.CounterOpts{Name: "golf_rooms_created_total", Help: "Rooms created."}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "golf_limited_total",
			Help: "Requests and sockets refused by a per-client limit or a cap, by limit."}, []string{"limit"}),
		pingClosed:   prometheus.NewCounter(prometheus.CounterOpts{Name: "golf_ping_closed_total", Help: "WebSockets closed for not answering a ping."}),
		yielded:      prometheus.NewCounter(prometheus.CounterOpts{Name: "golf_background_yield_seconds_total", Help: "Time background solves (best scores, fair-play analyses) waited for the rooms' goroutines that were ready to run."}),
		delayDropped: prometheus.NewCounter(prometheus.CounterOpts{Name: "golf_spectator_frames_dropped_total", Help: "Delayed spectator frames dropped past a room's queue cap (a later whole view replaced them)."}),
	}
	m.reg.MustRegister(m.delayDropped, m.pingClosed, m.yielded, m.rooms, m.conns, m.moves, m.moveLatency, m.slowClosed, m.flooded, m.created, m.refused,
		// The scheduler's metrics besides the defaults: how long
		// goroutines waited to run (go_sched_latencies_seconds), the part
		// of a move's latency that is the process's cores being busy.
		collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(collectors.MetricsScheduler)),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// guardMetrics keeps /metrics on the main listener (no --metrics-addr)
// from the public: it is served to a request from this machine (a
// loopback peer, with no proxy header: `go run .`), or with the moderator
// token as "Authorization: Bearer" (limited like every moderator token,
// package moderation). Production serves them on their own listener
// (--metrics-addr).
func (s *Server) guardMetrics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && s.moderation().Enabled() {
			switch status, retry := s.moderation().Of(r); status {
			case 0:
				next.ServeHTTP(w, r)
			case http.StatusTooManyRequests:
				tooMany(w, retry, "too many wrong moderator tokens from your address; try again in "+roundUp(retry).String())
			default:
				writeError(w, http.StatusUnauthorized, protocol.ErrCodeBadToken, "that is not the moderator token")
			}
			return
		}
		if s.localRequest(r) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
		writeError(w, http.StatusUnauthorized, protocol.ErrCodeBadToken,
			"metrics are served to this machine, on --metrics-addr, or with the moderator token (Authorization: Bearer TOKEN)")
	})
}

// localRequest reports whether a request comes straight from this
// machine: a loopback peer, and no header a proxy adds.
func (s *Server) localRequest(r *http.Request) bool {
	for _, h := range []string{"X-Forwarded-For", "Forwarded", "X-Real-IP", s.opts.Limits.TrustedHeader} {
		if h != "" && r.Header.Get(h) != "" {
			return false
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}
