package testrun

import (
	"flag"
	"runtime"
	"strconv"
	"testing"
)

const want = 64

// given is whether the command line set -parallel, read before TestMain
// raised it.
var given bool

func TestMain(m *testing.M) {
	given = parallelGiven()
	AtLeastParallel(want)
	Main(m)
}

// TestAtLeastParallel: TestMain raised -parallel to want, unless the
// command line gave one or the machine has that many cores; a -parallel
// given is kept.
func TestAtLeastParallel(t *testing.T) {
	got := flag.Lookup("test.parallel").Value.String()
	switch {
	case given:
		if got == strconv.Itoa(want) {
			t.Errorf("-parallel was given, and was raised to %s", got)
		}
	case runtime.GOMAXPROCS(0) >= want:
		t.Skipf("%d cores: -parallel stays %s", runtime.GOMAXPROCS(0), got)
	case got != strconv.Itoa(want):
		t.Errorf("-parallel is %s, want %d", got, want)
	}
}
