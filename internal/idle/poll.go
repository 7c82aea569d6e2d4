package idle

import (
	"os"
	"runtime"
	"time"
)

// Poller lets the runtime's network poller run from inside a long
// computation. Go's scheduler looks at the network (which sockets have
// data) only when a P has no goroutine to run, or from its monitor
// thread every 10 ms: a solve that gives way with runtime.Gosched
// puts itself back on the run queue, is chosen again at once, and with
// one P the rooms' sockets then wait up to 10 ms to be read. Measured
// at 800 moves a second on one core, the acks' p95 was about 10 ms with
// the detector off; a solve that gave way with Gosched every 0.5 ms
// held a loopback echo's round trip at 8 ms (median).
//
// Poll parks the calling goroutine on a pipe of the poller's own, which a
// goroutine it starts writes to: with nothing else to run, the P polls
// the network, finds the pipe ready, and with it every socket that has
// data, whose goroutines then run in turn.
type Poller struct {
	r, w *os.File
	one  []byte // what Poll writes (only read)
}

// NewPoller makes a poller; Close releases its pipe. If the pipe cannot
// be made (or is not pollable) Poll is runtime.Gosched.
func NewPoller() *Poller {
	r, w, err := os.Pipe()
	if err != nil {
		return &Poller{}
	}
	return &Poller{r: r, w: w, one: []byte{1}}
}

// Poll gives way to every goroutine ready to run and to those the
// network has data for (see Poller), then returns. It is safe for
// concurrent use: each call writes one byte and reads one. With more
// than one P it is
// runtime.Gosched: a P with nothing to run waits on the network, so the
// sockets are read while any P is free, and while none is, Waiting has
// the background sleep; the pipe's round trip would only wake another
// P's thread. (At 800 moves a second on two cores the acks were the same
// with it and without it, within the spread between runs.)
func (p *Poller) Poll() {
	if p == nil || p.r == nil || runtime.GOMAXPROCS(0) > 1 {
		runtime.Gosched()
		return
	}
	go p.w.Write(p.one) // on a closed pipe Read below fails too
	var b [1]byte
	p.r.Read(b[:])
	// The goroutines the poll made ready run before the caller goes on.
	runtime.Gosched()
}

// Close closes the poller's pipe; a Poll after it is runtime.Gosched.
func (p *Poller) Close() error {
	if p == nil || p.r == nil {
		return nil
	}
	p.w.Close()
	return p.r.Close()
}

// Yield gives way to the goroutines ready to run and to those the
// network has data for (Poll), then waits while others want the CPU
// (Waiting), in steps of Step and at most MaxWait in all. It returns how
// long it waited.
func (p *Poller) Yield() time.Duration { return yield(p.Poll, Waiting, time.Sleep) }
