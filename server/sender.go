package server

import (
	"context"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// sender is the outgoing side of every socket (a room's connections and a
// tournament's watchers), after the subscriber of coder/websocket's chat
// example: messages wait in a buffered queue that one goroutine writes,
// each write with its own timeout; a client whose queue is full is too
// slow and is dropped. Closing hands the writer the close code and, for
// close, whatever is still queued (a last error saying why): the writer
// sends it and then closes the socket, so nobody sleeps or polls.
type sender struct {
	ws *websocket.Conn
	// queue holds the messages waiting, oldest at head, at most limit of
	// them; wake tells the writer there are some. A slice grown as
	// messages come rather than a channel of limit places: most sockets
	// have nothing waiting nearly all the time, and a channel's places,
	// empty or not, are memory the collector reads on every cycle (some
	// 3 kB a socket).
	mu      sync.Mutex
	queue   []outMsg
	head    int
	limit   int
	wake    chan struct{}
	timeout time.Duration
	// slow is called when a client is dropped for being too slow: its
	// queue is full, or a write to it timed out; once a connection
	// (slowOnce), whoever started the closing.
	slow     func()
	slowOnce sync.Once

	closeOnce sync.Once
	// closed is closed when the socket starts closing: nothing more is
	// queued. code, reason and flush are set before.
	closed chan struct{}
	code   websocket.StatusCode
	reason string
	flush  bool
	// dead: the peer is gone (no pong, a write that timed out), so the
	// connection is dropped without the close handshake, which would wait
	// seconds for a close frame that never comes.
	dead bool
	// done is closed once the writer has stopped and the socket is closed.
	done chan struct{}
	// cork, when set, is the socket's connection: the writer corks it
	// while it writes a message and the ack queued with it, so that both
	// go in one write.
	cork *corkConn
	// heard is when the socket's reader last read a message
	// (time.Time.UnixNano): a peer heard within a ping interval is not
	// pinged (run).
	heard atomic.Int64
}

// hear notes that the socket's reader read a message from the peer.
func (s *sender) hear() { s.heard.Store(time.Now().UnixNano()) }

// quietFor is how long until the peer will have sent nothing for d: 0
// when it has already (or never sent).
func (s *sender) quietFor(d time.Duration) time.Duration {
	since := time.Since(time.Unix(0, s.heard.Load()))
	if since < 0 || since >= d {
		return 0
	}
	return d - since
}

// outMsg is a queued message, and the ack to send right after it in the
// same write (enqueueAcked), if any: the pair takes one place in the
// queue.
type outMsg struct {
	msg, ack []byte
}

func newSender(ws *websocket.Conn, buffer int, timeout time.Duration, slow func()) *sender {
	return &sender{ws: ws, limit: max(buffer, 1), wake: make(chan struct{}, 1), timeout: timeout, slow: slow,
		closed: make(chan struct{}), done: make(chan struct{})}
}

// enqueue queues a message without ever blocking.
func (s *sender) enqueue(msg []byte) { s.enqueueOut(outMsg{msg: msg}) }

// enqueueAcked queues an event frame and the ack of the command that made
// it, which the writer sends together (one write on the socket).
func (s *sender) enqueueAcked(msg, ack []byte) { s.enqueueOut(outMsg{msg: msg, ack: ack}) }

func (s *sender) enqueueOut(msg outMsg) {
	if s.isClosed() {
		return
	}
	if !s.push(msg) {
		s.countSlow()
		s.closeNow(websocket.StatusPolicyViolation, "too slow to read updates")
		return
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// keepQueue is the most places a queue that has emptied keeps for the
// next messages; a larger one (a burst) is let go.
const keepQueue = 4

// push queues msg, or reports that the queue is full.
func (s *sender) push(msg outMsg) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.queue) - s.head
	if n >= s.limit {
		return false
	}
	if len(s.queue) == cap(s.queue) && s.head > 0 {
		// Move what waits to the front rather than grow past the places
		// already taken.
		copy(s.queue, s.queue[s.head:])
		clear(s.queue[n:])
		s.queue, s.head = s.queue[:n], 0
	}
	s.queue = append(s.queue, msg)
	return true
}

// pop takes the oldest message waiting, if any.
func (s *sender) pop() (outMsg, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.head == len(s.queue) {
		return outMsg{}, false
	}
	m := s.queue[s.head]
	s.queue[s.head] = outMsg{}
	s.head++
	if s.head == len(s.queue) {
		s.queue, s.head = s.queue[:0], 0
		if cap(s.queue) > keepQueue {
			s.queue = nil
		}
	}
	return m, true
}

// isClosed reports whether the socket has started closing.
func (s *sender) isClosed() bool {
	select {
	case <-s.closed:
		return true
	default:
		return false
	}
}

// countSlow counts the connection as too slow, once.
func (s *sender) countSlow() {
	if s.slow != nil {
		s.slowOnce.Do(s.slow)
	}
}

// close sends what is queued (within one write timeout), then closes.
func (s *sender) close(code websocket.StatusCode, reason string) { s.shut(code, reason, true, false) }

// closeNow closes without sending what is queued.
func (s *sender) closeNow(code websocket.StatusCode, reason string) {
	s.shut(code, reason, false, false)
}

// drop drops the connection of a peer that is gone, without a close
// handshake.
func (s *sender) drop() { s.shut(websocket.StatusGoingAway, "", false, true) }

// shut reports whether it started the closing (false: it had started).
func (s *sender) shut(code websocket.StatusCode, reason string, flush, dead bool) bool {
	first := false
	s.closeOnce.Do(func() {
		first = true
		s.code, s.reason, s.flush, s.dead = code, reason, flush, dead
		close(s.closed)
	})
	return first
}

// run writes queued messages until the socket closes; then it sends what
// is left when asked to, and closes the socket. Every pingEvery (none if
// 0) it pings the socket (see ping), or, when the peer sent a message
// within that time (a browser's own ping every 15 s, a player's moves),
// waits until pingEvery after that message: a peer that sends is there,
// and the ping's write, goroutine and pong would be spent on every socket
// for nothing. A peer that goes silent is pinged pingEvery after its last
// message and dropped an interval later, as before. The pinger is this
// goroutine's timer, not a goroutine of its own waiting out the interval
// beside every socket's reader and writer.
func (s *sender) run(ctx context.Context, pingEvery time.Duration, gone func()) {
	defer close(s.done)
	var pings sync.WaitGroup
	defer pings.Wait()
	var tick <-chan time.Time
	var timer *time.Timer
	if pingEvery > 0 {
		timer = time.NewTimer(pingEvery)
		defer timer.Stop()
		tick = timer.C
	}
	var pinging atomic.Bool
	for {
		select {
		case <-tick:
			wait := s.quietFor(pingEvery)
			if wait == 0 {
				wait = pingEvery
				if pinging.CompareAndSwap(false, true) {
					pings.Go(func() {
						defer pinging.Store(false)
						s.ping(ctx, pingEvery, gone)
					})
				}
			}
			timer.Reset(wait)
		case <-s.wake:
			s.writeQueued()
		case <-s.closed:
			if s.dead {
				s.ws.CloseNow()
				return
			}
			if s.flush {
				deadline := time.Now().Add(s.timeout)
				for m, ok := s.pop(); ok; m, ok = s.pop() {
					if ok, _ := s.writeOut(m, time.Until(deadline)); !ok {
						break
					}
				}
			}
			s.ws.Close(s.code, s.reason)
			return
		}
	}
}

// writeQueued writes what is queued, oldest first, until the queue is
// empty or the socket starts closing (the closing then sends what is
// left, or not).
func (s *sender) writeQueued() {
	for !s.isClosed() {
		m, ok := s.pop()
		if !ok {
			return
		}
		if ok, timedOut := s.writeOut(m, s.timeout); !ok {
			// A write that timed out: the client does not read (fast
			// enough), and is counted as slow, once, even when the
			// connection's reader saw the socket the timeout closed and
			// started the closing first.
			s.shut(websocket.StatusGoingAway, "", false, true)
			if timedOut {
				s.countSlow()
			}
			return
		}
	}
}

// writeOut writes a queued message and its ack, corked into one write
// when the socket can be; timedOut reports a write that failed because the
// timeout passed. On a corkable socket the timeout is the connection's
// write deadline, set once for the pair: a context with a timeout for
// each message cost a timer, a cancel context and a callback registered
// with it, every frame.
func (s *sender) writeOut(m outMsg, timeout time.Duration) (ok, timedOut bool) {
	if s.cork == nil {
		if ok, timedOut = s.write(m.msg, timeout); ok && m.ack != nil {
			ok, timedOut = s.write(m.ack, timeout)
		}
		return ok, timedOut
	}
	c := s.cork
	c.SetWriteDeadline(time.Now().Add(timeout))
	defer c.SetWriteDeadline(time.Time{})
	if m.ack == nil {
		return s.writeBare(m.msg)
	}
	c.cork()
	if ok, timedOut = s.writeBare(m.msg); ok {
		ok, timedOut = s.writeBare(m.ack)
	}
	if err := c.uncork(); err != nil && ok {
		ok, timedOut = false, errors.Is(err, os.ErrDeadlineExceeded)
	}
	return ok, timedOut
}

// writeBare writes one message under the connection's write deadline.
func (s *sender) writeBare(msg []byte) (ok, timedOut bool) {
	if err := s.ws.Write(context.Background(), websocket.MessageText, msg); err != nil {
		return false, errors.Is(err, os.ErrDeadlineExceeded)
	}
	return true, false
}

// write writes one message within timeout; timedOut reports a write that
// failed because the timeout passed.
func (s *sender) write(msg []byte, timeout time.Duration) (ok, timedOut bool) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := s.ws.Write(ctx, websocket.MessageText, msg); err != nil {
		return false, errors.Is(ctx.Err(), context.DeadlineExceeded)
	}
	return true, false
}

// ping pings the socket and waits for its pong, at most timeout (the
// interval between pings): when none has come by then, the peer is gone
// (or not reading) and the socket is dropped, gone counting it. The pong
// is read by the socket's reader, which always runs; this goroutine lives
// for the ping's round trip only.
func (s *sender) ping(ctx context.Context, timeout time.Duration, gone func()) {
	pctx, cancel := context.WithTimeout(ctx, timeout)
	err := s.ws.Ping(pctx)
	cancel()
	if err != nil && ctx.Err() == nil {
		select {
		case <-s.closed: // closing already: the ping failed for that
			return
		default:
		}
		if gone != nil {
			gone()
		}
		s.drop()
	}
}

// serveSocket runs a socket's writer (which pings it too) while f reads
// it, and returns once both have stopped and the socket is closed: f's
// return closes the socket (after what is queued) unless it was closed
// already.
func (s *Server) serveSocket(ctx context.Context, out *sender, f func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { out.run(ctx, s.opts.PingEvery, s.metrics.pingClosed.Inc) })
	defer wg.Wait()
	defer cancel()
	defer out.close(websocket.StatusNormalClosure, "")
	f(ctx)
}
