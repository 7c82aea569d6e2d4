// Package testrun holds what a test binary's TestMain sets up before its
// tests run. It is imported by tests only.
package testrun

import (
	"flag"
	"runtime"
	"strconv"
)

// AtLeastParallel raises go test's -parallel (by default GOMAXPROCS: two
// on a two-core machine) to n for a package whose parallel tests mostly
// wait (on sockets, timers, TTLs, other goroutines) rather than compute,
// unless -parallel was given on the command line. Call it in TestMain
// before m.Run.
func AtLeastParallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit && runtime.GOMAXPROCS(0) < n {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}
