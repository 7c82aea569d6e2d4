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
	if !parallelGiven() && runtime.GOMAXPROCS(0) < n {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}

// parallelGiven reports whether -parallel was set, parsing the command
// line first if nobody has.
func parallelGiven() bool {
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	return given
}
