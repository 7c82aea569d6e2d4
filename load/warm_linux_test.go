package load

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// pageFaults is how many minor page faults this process has taken.
func pageFaults(t *testing.T) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return ru.Minflt
}

var warmSink [][]byte

// TestWarmHeap: with the collector off, what the window allocates after
// warmHeap reuses the pages it warmed instead of faulting in new ones.
// Each case runs in a process of its own (this test binary again), whose
// heap has not yet been used, the same allocation with warmHeap and
// without: 12,900 page faults without it and 340-410 with it here; under
// the race detector, whose shadow memory warmHeap does not warm,
// 37,300 and 13,200.
func TestWarmHeap(t *testing.T) {
	const size = 48 << 20
	if mode := os.Getenv("GOLF_WARM_HEAP"); mode != "" {
		defer quietCollector(1 << 30)()
		if mode == "warm" {
			warmHeap(1<<30, 2*size/warmBytesPerMove)
		}
		before := pageFaults(t)
		for i := 0; i < size/4096; i++ {
			b := make([]byte, 4096)
			b[0], b[2048] = 1, 1
			warmSink = append(warmSink, b)
		}
		fmt.Printf("page faults: %d\n", pageFaults(t)-before)
		return
	}
	t.Parallel()
	faults := func(mode string) int64 {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestWarmHeap$", "-test.v")
		cmd.Env = append(os.Environ(), "GOLF_WARM_HEAP="+mode)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, out)
		}
		var n int64
		i := bytes.Index(out, []byte("page faults: "))
		if i < 0 {
			t.Fatalf("%s: no count of page faults in\n%s", mode, out)
		}
		if _, err := fmt.Sscanf(string(out[i:]), "page faults: %d", &n); err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, out)
		}
		return n
	}
	cold, warm := faults("cold"), faults("warm")
	t.Logf("%d pages: %d page faults cold, %d after warmHeap", size/4096, cold, warm)
	if warm > cold/2 {
		t.Errorf("allocating %d pages took %d page faults after warmHeap, %d without it: want at most half", size/4096, warm, cold)
	}
}

// TestExpectedMoves: a person's pace, a fixed rate, neither.
func TestExpectedMoves(t *testing.T) {
	tests := []struct {
		cfg  Config
		want int64
	}{
		{Config{Rooms: 5000, Players: 2, Think: 4 * time.Second, Duration: time.Minute}, 150_000},
		{Config{Rooms: 200, Players: 2, Rate: 800, Duration: 20 * time.Second}, 16_000},
		{Config{Rooms: 200, Players: 2, Duration: 15 * time.Second}, 0},
	}
	for _, tt := range tests {
		if got := tt.cfg.expectedMoves(); got != tt.want {
			t.Errorf("%+v: expectedMoves %d, want %d", tt.cfg, got, tt.want)
		}
	}
}
