package proccpu

import (
	"runtime"
	"testing"
)

// TestSelf: the process's CPU time and its threads' waits only grow, and
// on Linux the CPU time of a busy loop shows.
func TestSelf(t *testing.T) {
	cpu0, wait0 := Self()
	x := 0
	for i := range 20_000_000 {
		x += i
	}
	cpu1, wait1 := Self()
	if cpu1 < cpu0 || wait1 < wait0 || wait0 < 0 {
		t.Fatalf("cpu %v then %v, wait %v then %v (%d)", cpu0, cpu1, wait0, wait1, x)
	}
	if runtime.GOOS == "linux" && cpu1 == cpu0 {
		t.Errorf("a busy loop took no CPU time (%v)", cpu1)
	}
}
