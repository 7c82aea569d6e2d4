package idle

import (
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestPollLetsNetworkIn: with one P, a computation that gives way with
// Poll between short slices lets a loopback echo's round trips go on, a
// couple of Polls each; with runtime.Gosched alone the sockets are
// looked at only by the runtime's monitor, every 10 ms, and the round
// trips all but stop. Counted in round trips a Poll, not timed. (Not
// parallel: it sets GOMAXPROCS.)
func TestPollLetsNetworkIn(t *testing.T) {
	var wg sync.WaitGroup
	defer wg.Wait() // after the sockets close (deferred below)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	wg.Go(func() { // the echo
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		b := make([]byte, 1)
		for {
			if _, err := c.Read(b); err != nil {
				return
			}
			if _, err := c.Write(b); err != nil {
				return
			}
		}
	})
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	var trips atomic.Int64
	wg.Go(func() { // the client: round trips until the socket closes
		b := make([]byte, 1)
		for {
			if _, err := c.Write(b); err != nil {
				return
			}
			if _, err := c.Read(b); err != nil {
				return
			}
			trips.Add(1)
		}
	})
	defer c.Close()
	for trips.Load() == 0 { // both ends running
		runtime.Gosched()
	}

	p := NewPoller()
	defer p.Close()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const polls = 400
	// The property is the scheduler's: when the machine's other work
	// takes this process's thread away at the wrong moment (about 1 run
	// in 150 with three CPU hogs on two cores) the trips of one try all
	// but stop. Three tries: with Gosched alone each try makes 0-2.
	var n int64
	for try := range 3 {
		before := trips.Load()
		sink := 0
		for range polls {
			for i := range 20000 { // a slice of computation
				sink += i
			}
			p.Poll()
		}
		n = trips.Load() - before
		t.Logf("try %d: %d round trips in %d polls (%d)", try, n, polls, sink%2)
		if n >= polls/10 {
			return
		}
	}
	t.Errorf("%d round trips in %d polls, want at least %d: the network waited for the runtime's monitor", n, polls, polls/10)
}

// TestPollConcurrentAndClosed: with one P (where Poll uses its pipe),
// Polls from many goroutines at once all return (each reads the byte one
// of them wrote), and so do Polls after Close and on a nil Poller. (Not
// parallel: it sets GOMAXPROCS.)
func TestPollConcurrentAndClosed(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	p := NewPoller()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				p.Poll()
			}
		})
	}
	wg.Wait()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	p.Poll()
	p.Yield()
	var none *Poller
	none.Poll()
	if err := none.Close(); err != nil {
		t.Fatal(err)
	}
}
