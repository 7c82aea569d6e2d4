package server

import (
	"fmt"
	"testing"
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
