package cli

import (
	"flag"
	"fmt"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
)

// defaultGCPercent is the collector's GOGC for a server process unless
// GOGC is in its environment. A server with thousands of connections
// holds hundreds of megabytes of rooms and sockets, and every collection
// marks all of it: on one core each took about a second, during which
// the goroutines that allocate do much of the marking and the moves that
// arrive wait. At 10,000 connections on one core the default (100)
// collected every 18-20 s and each collection put 110-1,830 ms into the
// acks' p99 of the 10 s it fell in; 400 collects a quarter as often, at
// about twice the memory, and spends a sixth less CPU a move
// (docs/deploy.md, "Memory and the collector").
const defaultGCPercent = 400

// collectorConfig is how a server process sets Go's collector: serve's
// and load-server's --gc-percent and --memory-limit.
type collectorConfig struct {
	percent  int   // GOGC; 0: leave Go's (GOGC from the environment, else 100)
	limitMiB int64 // soft memory limit; 0: leave Go's (GOMEMLIMIT, else none)
	// goLimit: GOMEMLIMIT is in the environment (Go's own limit).
	goLimit bool
}

// collectorFlags declares --gc-percent and --memory-limit on fs. Their
// defaults stand aside for Go's own variables: with GOGC or GOMEMLIMIT in
// the environment, the runtime's reading of them is kept.
func collectorFlags(fs *flag.FlagSet, e env) *collectorConfig {
	c := &collectorConfig{goLimit: e.getenv("GOMEMLIMIT") != ""}
	percent := defaultGCPercent
	if e.getenv("GOGC") != "" {
		percent = 0
	}
	limit := defaultMemoryLimitMiB()
	if c.goLimit {
		limit = 0
	}
	fs.IntVar(&c.percent, "gc-percent", envInt(e, "GOLF_GC_PERCENT", percent), fmt.Sprintf("the collector's GOGC for this process: a collection each time the heap has grown this many percent since the last; -1: off (then only the memory limit collects); 0: Go's own (GOGC, else 100); default %d, or 0 when GOGC is set (env GOLF_GC_PERCENT)", defaultGCPercent))
	fs.Int64Var(&c.limitMiB, "memory-limit", int64(envInt(e, "GOLF_MEMORY_LIMIT", int(limit))), "MiB: a soft limit on the process's memory, past which the collector runs sooner (debug.SetMemoryLimit); 0: Go's own (GOMEMLIMIT, else none); default four fifths of the memory the process may use (its cgroup's limit, else the machine's), or 0 when GOMEMLIMIT is set (env GOLF_MEMORY_LIMIT)")
	return c
}

// validate checks the two flags.
func (c *collectorConfig) validate() error {
	if c.percent < -1 {
		return fmt.Errorf("--gc-percent must be -1 (off), 0 (Go's own) or a positive percentage, not %d", c.percent)
	}
	if c.limitMiB < 0 {
		return fmt.Errorf("--memory-limit must be 0 (Go's own) or a positive number of MiB, not %d", c.limitMiB)
	}
	if c.percent == -1 && c.limitMiB == 0 && !c.goLimit {
		return fmt.Errorf("--gc-percent -1 (the collector off) needs a --memory-limit (or GOMEMLIMIT), or the heap grows without bound")
	}
	return nil
}

// apply sets the process's collector (e.setGC: Main's is the runtime's;
// commands run in tests leave the test process's alone) and returns what
// it runs with: GOGC and the soft memory limit in MiB (as asked, where
// e.setGC is nil).
func (c *collectorConfig) apply(e env) (percent int, limitMiB int64) {
	percent, limit := c.percent, c.limitMiB<<20
	if e.setGC != nil {
		percent, limit = e.setGC(c.percent, limit)
	}
	return percent, limit >> 20
}

// setRuntimeGC is Main's env.setGC: it sets GOGC (unless percent is 0)
// and the soft memory limit (unless limit is 0), and returns what the
// process then runs with.
func setRuntimeGC(percent int, limit int64) (int, int64) {
	if percent != 0 {
		debug.SetGCPercent(percent)
	}
	if limit > 0 {
		debug.SetMemoryLimit(limit)
	}
	return runtimeGC()
}

// runtimeGC is the process's GOGC (-1: off) and soft memory limit (0:
// none).
func runtimeGC() (int, int64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	percent, limit := -1, int64(0)
	if s[0].Value.Kind() == metrics.KindUint64 {
		if v := s[0].Value.Uint64(); v > 0 {
			percent = int(v)
		}
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		if v := s[1].Value.Uint64(); v < math.MaxInt64 {
			limit = int64(v)
		}
	}
	return percent, limit
}

// memoryLimitOf is defaultMemoryLimitMiB from the cgroup v2 limit
// (memory.max: bytes, or "max"), the cgroup v1 limit (bytes; a huge
// number when there is none) and the machine's memory: four fifths of
// the least of those that set one, in MiB (0 where none does).
func memoryLimitOf(v2, v1 string, machine int64) int64 {
	have := machine
	for _, s := range []string{v2, v1} {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || n <= 0 {
			continue // "max", "" or unreadable: no limit there
		}
		if have <= 0 || n < have {
			have = n
		}
	}
	if have <= 0 {
		return 0
	}
	return have / 5 * 4 >> 20
}
