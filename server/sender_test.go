package server

import (
	"fmt"
	"testing"
	"time"
)

// TestSenderQueue: a socket's queue keeps its messages in order, takes
// at most its limit waiting, never grows past the places it needs
// however messages come and go, and lets a burst's places go once
// emptied.
func TestSenderQueue(t *testing.T) {
	t.Parallel()
	const limit = 8
	s := newSender(nil, limit, 0, nil)
	msg := func(i int) outMsg { return outMsg{msg: []byte(fmt.Sprint(i))} }
	next, want := 0, 0
	take := func() {
		t.Helper()
		m, ok := s.pop()
		if !ok || string(m.msg) != fmt.Sprint(want) {
			t.Fatalf("popped %q (%v), want %d", m.msg, ok, want)
		}
		want++
	}
	// A writer always a few behind (never emptying the queue): the places
	// stay within the limit.
	for range 2 {
		s.push(msg(next))
		next++
	}
	for range 1000 {
		for range 3 {
			if !s.push(msg(next)) {
				t.Fatalf("message %d refused with %d waiting", next, next-want)
			}
			next++
		}
		for range 3 {
			take()
		}
		if cap(s.queue) > limit {
			t.Fatalf("%d places for at most %d waiting", cap(s.queue), limit)
		}
	}
	// Full: the next is refused, and nothing waiting is lost.
	for next-want < limit {
		if !s.push(msg(next)) {
			t.Fatalf("message %d refused with %d waiting", next, next-want)
		}
		next++
	}
	if s.push(msg(next)) {
		t.Fatalf("a message past the limit of %d was queued", limit)
	}
	for want < next {
		take()
	}
	if _, ok := s.pop(); ok {
		t.Fatal("a message popped from an empty queue")
	}
	if s.queue != nil || cap(s.queue) > keepQueue {
		t.Fatalf("an emptied queue keeps %d places, want at most %d", cap(s.queue), keepQueue)
	}
}

// TestSenderQuietFor: a peer never heard, or heard an interval ago or
// more, is pinged now; one heard more recently, an interval after it.
func TestSenderQuietFor(t *testing.T) {
	t.Parallel()
	const every = 30 * time.Second
	for _, tt := range []struct {
		name  string
		heard time.Duration // ago; 0: never
		least time.Duration // the wait is in [least, most]
		most  time.Duration
	}{
		{"never heard", 0, 0, 0},
		{"heard an interval ago", every, 0, 0},
		{"heard an hour ago", time.Hour, 0, 0},
		{"heard 10 s ago", 10 * time.Second, 19 * time.Second, 20 * time.Second},
		{"heard just now", time.Millisecond, every - time.Second, every},
		{"heard in the future (a clock set back)", -time.Minute, 0, 0},
	} {
		s := newSender(nil, 1, 0, nil)
		if tt.heard != 0 {
			s.heard.Store(time.Now().Add(-tt.heard).UnixNano())
		}
		if got := s.quietFor(every); got < tt.least || got > tt.most {
			t.Errorf("%s: quietFor(%v) = %v, want %v to %v", tt.name, every, got, tt.least, tt.most)
		}
	}
}
