package server_test

import (
	"context"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"golfsolitaire/fairplay"
	"golfsolitaire/server"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
)

// deafStore is a memory store whose Listen can fail, as a store that is
// down does, and whose subscriptions to topics can be ended, as a store
// may end them; it counts the listens that worked, by topic.
type deafStore struct {
	*memstore.Store
	mu    sync.Mutex
	fail  map[string]int // topic prefix: listens left to refuse
	heard map[string]int // topic: listens that worked
	subs  []*lossySub    // (losing nothing)
}

func (s *deafStore) Listen(ctx context.Context, topic string) (store.Subscription, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for prefix, n := range s.fail {
		if n > 0 && strings.HasPrefix(topic, prefix) {
			s.fail[prefix]--
			return nil, store.ErrUnavailable
		}
	}
	sub, err := s.Store.Listen(ctx, topic)
	if err != nil {
		return nil, err
	}
	l := &lossySub{sub: sub, c: make(chan store.Entry), stop: make(chan struct{}), done: make(chan struct{})}
	go l.run(nil)
	s.heard[topic]++
	s.subs = append(s.subs, l)
	return l, nil
}

// listens returns the listens to topics that worked, by topic.
func (s *deafStore) listens() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.heard)
}

// endAll ends every subscription to a topic made so far.
func (s *deafStore) endAll() {
	s.mu.Lock()
	subs := s.subs
	s.subs = nil
	s.mu.Unlock()
	for _, l := range subs {
		l.Close()
	}
}

// TestListenersComeBack: an instance whose store cannot listen at first,
// or later ends every subscription to topics, listens again to every
// topic it listens to (the other instances' counts, the held marks of
// `golf worker` processes). Before, the held marks' listener gave up at
// its first failure, for the rest of the process's life.
func TestListenersComeBack(t *testing.T) {
	t.Parallel()
	topics := []string{"live:counts", server.HeldMarksTopic}
	for _, tc := range []struct {
		name string
		fail int  // listens to each topic refused at first
		end  bool // every subscription to a topic ended once made
	}{
		{name: "listen fails", fail: 2},
		{name: "subscription ends", end: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			st := memstore.New(memstore.Options{})
			t.Cleanup(func() { st.Close() })
			ds := &deafStore{Store: st, fail: map[string]int{}, heard: map[string]int{}}
			for _, tp := range topics {
				ds.fail[tp] = tc.fail
			}
			startInstance(t, ds, false, func(o *server.Options) { o.Fairplay = &server.Fairplay{Store: fairplay.NewMemoryStore()} })
			// waitFor waits until every topic has been listened to more
			// than n times.
			waitFor := func(n map[string]int, what string) {
				t.Helper()
				for {
					now, all := ds.listens(), true
					for _, tp := range topics {
						all = all && now[tp] > n[tp]
					}
					if all {
						return
					}
					select {
					case <-ctx.Done():
						t.Fatalf("%s: listens %v", what, now)
					case <-time.After(10 * time.Millisecond):
					}
				}
			}
			waitFor(nil, "the instance never listened to every topic")
			if tc.end {
				before := ds.listens()
				ds.endAll()
				waitFor(before, "the instance never listened to every topic again")
			}
		})
	}
}
