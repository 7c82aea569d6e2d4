package server_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"golfsolitaire/match"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
)

// lossyStore is a memory store whose subscriptions lose the entries drop
// names, as a pub/sub message can be lost on its way to one instance.
type lossyStore struct {
	*memstore.Store
	mu   sync.Mutex
	drop map[int64]bool // versions to lose, of every room
	lost atomic.Int64
}

func (s *lossyStore) Subscribe(ctx context.Context, code string) (store.Subscription, error) {
	sub, err := s.Store.Subscribe(ctx, code)
	if err != nil {
		return nil, err
	}
	l := &lossySub{sub: sub, c: make(chan store.Entry), stop: make(chan struct{}), done: make(chan struct{})}
	go l.run(s)
	return l, nil
}

// loses reports whether the store loses the entry of version v (a nil
// store loses none).
func (s *lossyStore) loses(v int64) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drop[v] {
		s.lost.Add(1)
		return true
	}
	return false
}

type lossySub struct {
	sub        store.Subscription
	c          chan store.Entry
	stop, done chan struct{}
	once       sync.Once
}

// run passes the entries on but those the store loses; the channel
// closes when the subscription's does (an outage) or on Close.
func (l *lossySub) run(s *lossyStore) {
	defer close(l.done)
	defer close(l.c)
	for {
		select {
		case e, ok := <-l.sub.C():
			if !ok {
				return
			}
			if s.loses(e.Version) {
				continue
			}
			select {
			case l.c <- e:
			case <-l.stop:
				return
			}
		case <-l.stop:
			return
		}
	}
}

func (l *lossySub) C() <-chan store.Entry { return l.c }

func (l *lossySub) Close() error {
	l.once.Do(func() { close(l.stop) })
	<-l.done
	return l.sub.Close()
}

// TestLostMessageFound: the spectator's instance loses the message of a
// player's move, and nothing comes after it for a while: its periodic
// check finds the move in the store and sends it on (the room's hub puts
// the check off only while entries come, and makes it ResyncEvery after
// the last one). Then a lost message followed by another is found at
// once, by the gap in versions.
func TestLostMessageFound(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	ls := &lossyStore{Store: st, drop: map[int64]bool{}}
	i1 := startInstance(t, st, false)
	i2 := startInstance(t, ls, false)
	ga, gb := matchRoom(t, ctx, i1, i1, map[string]any{"format": "stroke", "holes": 1, "seats": 2, "spectators": true})
	a := newSeatPlayer("Ana", dial(t, ctx, i1.url, ga.Code, ga.Token))
	b := newSeatPlayer("Bo", dial(t, ctx, i1.url, gb.Code, gb.Token))
	spec := dial(t, ctx, i2.url, ga.Code, "")
	readyAll(t, ctx, a, b)
	for _, lose := range []int{1, 2} { // the last message; one of two
		v := a.c.View().V
		ls.mu.Lock()
		ls.drop[v+1] = true
		ls.mu.Unlock()
		lost := ls.lost.Load()
		if _, err := a.play(ctx, 1, lose); err != nil {
			t.Fatal(err)
		}
		if _, err := spec.WaitView(ctx, func(w *match.View) bool { return w.V >= v+int64(lose) }); err != nil {
			t.Fatalf("the spectator never saw v%d (the message of v%d lost, %d after it): %v", v+int64(lose), v+1, lose-1, err)
		}
		if got := ls.lost.Load() - lost; got != 1 {
			t.Fatalf("the spectator's instance lost %d messages, want 1", got)
		}
	}
}
