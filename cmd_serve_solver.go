package main

import (
	"flag"
	"runtime"
	"strconv"

	"golfsolitaire/server"
	"golfsolitaire/solverpool"
)

// solverConfig is the solver pool's and the seed pools' part of the
// server's configuration (docs/deploy.md "Solver").
type solverConfig struct {
	workers, perClient    int
	poolSize, poolFillers int
	nice                  int
}

// defaultSolverNice is the solver threads' niceness unless set: the
// lowest priority, so that solves (best scores, hints, bots, fair-play
// analysis, seed pools) run on the CPU that play leaves idle.
const defaultSolverNice = 19

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
	fs.IntVar(&c.nice, "solver-nice", envInt(e, "GOLF_SOLVER_NICE", defaultSolverNice), "niceness (0-19) of the solver workers' OS threads (Linux); each worker gets a P of its own beyond GOMAXPROCS, so a solve takes idle CPU rather than a core play is waiting for; 0: the workers run on GOMAXPROCS's Ps at normal priority (env GOLF_SOLVER_NICE)")
	return c
}

// apply sets the server's options from the flags.
func (c *solverConfig) apply(o *server.Options) {
	o.SolverWorkers, o.SolverPerClient = c.workers, c.perClient
	o.SeedPoolSize, o.SeedPoolFillers = c.poolSize, c.poolFillers
	o.SolverNice = c.nice
}

// check refuses a niceness out of range.
func (c *solverConfig) check() error {
	if c.nice < 0 || c.nice > 19 {
		return usageError("serve: --solver-nice must be 0 to 19, not %d", c.nice)
	}
	return nil
}

// procs gives each niced solver worker a P of its own beyond the
// default GOMAXPROCS (the cores, or the container's CPU limit): a solve
// running on a worker's thread then holds a P that play does not need,
// and the kernel, seeing one more runnable thread than cores, runs the
// niced one when a core is idle. Without it the niceness changes
// nothing: the worker would hold one of GOMAXPROCS's Ps, and its thread
// would be one of as many runnable threads as cores. Every call sets
// the same value (servers in one process share it).
func (c *solverConfig) procs() {
	if c.nice <= 0 || c.workers <= 0 {
		return
	}
	runtime.SetDefaultGOMAXPROCS()
	runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + c.workers)
}
