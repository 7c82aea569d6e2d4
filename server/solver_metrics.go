package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"golfsolitaire/solverpool"
)

// solverMetrics are the solver pool's and the seed pools' metrics.
type solverMetrics struct {
	refused    prometheus.Counter
	poolEmpty  prometheus.Counter
	poolPopped prometheus.Counter
	poolFilled prometheus.Counter
}

func newSolverMetrics(reg *prometheus.Registry, pool *solverpool.Pool) *solverMetrics {
	m := &solverMetrics{
		refused:    prometheus.NewCounter(prometheus.CounterOpts{Name: "golf_solver_refused_total", Help: "Solver jobs refused by the per-client quota (solver_busy)."}),
		poolEmpty:  prometheus.NewCounter(prometheus.CounterOpts{Name: "golf_seed_pool_empty_total", Help: "Rounds refused because their seed pool held too few deals (try_again)."}),
		poolPopped: prometheus.NewCounter(prometheus.CounterOpts{Name: "golf_seed_pool_popped_total", Help: "Deals taken from the seed pools."}),
		poolFilled: prometheus.NewCounter(prometheus.CounterOpts{Name: "golf_seed_pool_filled_total", Help: "Deals this instance added to the seed pools."}),
	}
	reg.MustRegister(m.refused, m.poolEmpty, m.poolPopped, m.poolFilled,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "golf_solver_busy", Help: "Solver workers running a job."},
			func() float64 { return float64(pool.Stats().Busy) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "golf_solver_workers", Help: "Solver workers."},
			func() float64 { return float64(pool.Workers()) }),
	)
	for _, pri := range solverpool.Priorities() {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "golf_solver_queued", Help: "Solver jobs waiting, by priority.", ConstLabels: prometheus.Labels{"priority": pri.String()},
		}, func() float64 { return float64(pool.Stats().Queued[pri]) }))
	}
	return m
}
