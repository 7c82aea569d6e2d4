package server

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
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
		delayDropped: prometheus.NewCounter(prometheus.CounterOpts{Name: "golf_spectator_frames_dropped_total", Help: "Delayed spectator frames dropped past a room's queue cap (a later whole view replaced them)."}),
	}
	m.reg.MustRegister(m.delayDropped, m.pingClosed, m.rooms, m.conns, m.moves, m.moveLatency, m.slowClosed, m.flooded, m.created, m.refused,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}
