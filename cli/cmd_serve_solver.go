package cli

import (
	"flag"
	"strconv"

	"golfsolitaire/server"
	"golfsolitaire/solverpool"
)

// solverConfig is the solver pool's and the seed pools' part of the
// server's configuration (docs/deploy.md "Solver").
type solverConfig struct {
	workers, perClient    int
	poolSize, poolFillers int
}

func envInt(e env, key string, def int) int {
	if v := e.getenv(key); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}

// solverFlags declares the solver's flags on fs.
func solverFlags(fs *flag.FlagSet, e env) *solverConfig {
	c := &solverConfig{}
	fs.IntVar(&c.workers, "solver-workers", envInt(e, "GOLF_SOLVER_WORKERS", solverpool.DefaultWorkers()), "solver jobs run at once: best scores, hints, search bots, seed pools (env GOLF_SOLVER_WORKERS; default GOMAXPROCS-1, at least 1)")
	fs.IntVar(&c.perClient, "solver-per-client", envInt(e, "GOLF_SOLVER_PER_CLIENT", 2), "solver jobs one client (a seat's hints, a room's bots) may have in flight; more are refused with solver_busy (env GOLF_SOLVER_PER_CLIENT)")
	fs.IntVar(&c.poolSize, "seed-pool-size", envInt(e, "GOLF_SEED_POOL_SIZE", 36), "pre-rated deals kept in each seed pool a winnable-only or difficulty room asked for (env GOLF_SEED_POOL_SIZE)")
	fs.IntVar(&c.poolFillers, "seed-pool-fillers", envInt(e, "GOLF_SEED_POOL_FILLERS", 0), "goroutines filling the seed pools at low priority; 0: one a solver worker; -1: none (other instances fill shared pools) (env GOLF_SEED_POOL_FILLERS)")
	return c
}

// apply sets the server's options from the flags.
func (c *solverConfig) apply(o *server.Options) {
	o.SolverWorkers, o.SolverPerClient = c.workers, c.perClient
	o.SeedPoolSize, o.SeedPoolFillers = c.poolSize, c.poolFillers
}
