package redisstore_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
	"golfsolitaire/store/redisstore"
	"golfsolitaire/store/redisstore/redistest"
)

// failoverBasePort is where TestFailover/Cluster's own cluster listens
// (30101-30106, bus ports 20101-20106): it kills a master, so it must not
// use the cluster CI shares between tests (30001-30006).
const failoverBasePort = 30101

// TestFailover runs the failover of each topology, Cluster and Sentinel,
// side by side: each on nodes of its own, and mostly waiting for its
// Redis to promote a replica. The test is not parallel, so neither runs
// beside another test of the package (their writers load the machine, and
// the contract suites' TTL checks have margins of a few hundred ms).
func TestFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("kills Redis nodes; not with -short")
	}
	t.Run("Cluster", func(t *testing.T) {
		t.Parallel()
		clusterFailover(t)
	})
	t.Run("Sentinel", func(t *testing.T) {
		t.Parallel()
		sentinelFailover(t)
	})
}

// clusterFailover kills the master of some rooms while every room is
// appended to as fast as it can, with WAIT on (one replica): appends on
// the dead master's rooms resume within seconds (the client reloads its
// slot map on connection errors and every second, not after go-redis's
// default minute), no acknowledged append is lost, no room is stuck, and
// the rooms' subscriptions (sharded pub/sub) follow the new master.
// The killed node is restarted once its replica took over (as a
// supervisor would), rejoins as a replica, and the cluster is whole again.
func clusterFailover(t *testing.T) {
	c := redistest.StartCluster(t, failoverBasePort)
	// One seed node is enough: the client must be a Cluster client.
	client := redistest.NewClient(t, redisstore.ClientConfig{Mode: redisstore.ModeCluster, Addrs: c.Addrs()[:1]})
	const prefix = "golftest:failover:"
	rooms := make([]string, 12)
	for i := range rooms {
		rooms[i] = fmt.Sprintf("FO%02d", i)
	}
	key := func(room string) string { return prefix + "{" + room + "}:snap" }
	victim := c.MasterPort(key(rooms[0]))
	var onVictim []string
	for _, r := range rooms {
		if c.MasterPort(key(r)) == victim {
			onVictim = append(onVictim, r)
		}
	}
	failover(t, failoverCase{
		client: client, prefix: prefix, rooms: rooms, onVictim: onVictim,
		what: fmt.Sprintf("Cluster master on port %d", victim),
		kill: func() { c.Kill(victim) },
		// A supervisor restarts the killed node once its replica has
		// taken over (before that, an empty node would come back as the
		// master of its slots): it rejoins as the new master's replica, so
		// that WAIT 1 can be answered again.
		promoted: func() bool { return c.MasterPort(key(onVictim[0])) != victim },
		restart:  func() { c.Start(victim) },
		healthy:  func() { c.WaitHealthy(30 * time.Second) },
	})
}

// sentinelBasePort is where TestFailover/Sentinel's own master (30111),
// replica (30112) and Sentinels (30121-30123) listen.
const sentinelBasePort = 30111

// sentinelFailover kills the Sentinel master under the same load: the
// Sentinels promote the replica and the client follows them.
func sentinelFailover(t *testing.T) {
	s := redistest.StartSentinels(t, sentinelBasePort)
	client := redistest.NewClient(t, redisstore.ClientConfig{Mode: redisstore.ModeSentinel, Addrs: s.Addrs(), MasterName: redistest.SentinelMaster})
	rooms := []string{"SE01", "SE02", "SE03", "SE04"}
	failover(t, failoverCase{
		client: client, prefix: "golftest:failover:", rooms: rooms, onVictim: rooms,
		what: fmt.Sprintf("Sentinel master on port %d", s.Master),
		kill: func() { s.Kill(s.Master) },
		// Every Sentinel, not only the first to answer: see Promoted.
		promoted: func() bool { return s.Promoted(s.Master) },
		// A supervisor restarts the old master as a replica of the new
		// one (the Sentinels would convert it too, but only after their
		// next INFO round, up to 10 s).
		restart: func() { s.StartNode(s.Master, s.MasterPort()) },
		healthy: func() { s.WaitSynced(30 * time.Second) },
		// Measured 7.2 to 18.8 s with WAIT 1 (the restarted node must be a
		// replica in sync before WAIT is answered).
		resumeWithin: 30 * time.Second,
	})
}

// failoverCase is a topology with a master to kill.
type failoverCase struct {
	client   redis.UniversalClient
	prefix   string
	rooms    []string
	onVictim []string // the rooms on the master that is killed
	what     string
	kill     func()
	promoted func() bool // a replica took over
	restart  func()      // the killed node, as a supervisor would
	healthy  func()      // every master has a replica in sync again
	// resumeWithin bounds the time from the kill to the first
	// acknowledged append on each of the killed master's rooms (20 s).
	resumeWithin time.Duration
}

// failover appends to every room as fast as it can with WAIT 1, kills the
// master, restarts it once a replica took over, and checks that play
// resumes within seconds, no room is stuck and nothing acknowledged is
// lost.
func failover(t *testing.T, fc failoverCase) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st := redisstore.New(fc.client, redisstore.Options{Prefix: fc.prefix, HistoryLen: 1 << 20, WaitReplicas: 1})
	t.Cleanup(func() { st.Close() })

	type room struct {
		code  string
		mu    sync.Mutex
		acked []int64     // versions acknowledged
		times []time.Time // when
	}
	rooms := make([]*room, len(fc.rooms))
	byCode := map[string]*room{}
	for i, code := range fc.rooms {
		r := &room{code: code}
		rooms[i], byCode[code] = r, r
		// As a client would: again while unavailable (a WAIT that timed
		// out on a loaded machine); a create that was written after all
		// says it exists.
		for try := 0; ; try++ {
			err := st.Create(ctx, r.code, []byte("snap-1"), []byte(r.code+"-1"))
			if err == nil || errors.Is(err, store.ErrExists) {
				break
			}
			if !errors.Is(err, store.ErrUnavailable) || try == 50 {
				t.Fatalf("create %s: %v", r.code, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	var onVictim []*room
	for _, code := range fc.onVictim {
		onVictim = append(onVictim, byCode[code])
	}
	// A subscriber of every room (on a Cluster, sharded subscriptions on
	// the master that is killed too).
	subs := map[*room]store.Subscription{}
	for _, r := range rooms {
		sub, err := st.Subscribe(ctx, r.code)
		if err != nil {
			t.Fatalf("subscribe %s: %v", r.code, err)
		}
		subs[r] = sub
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, r := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := int64(1)
			for {
				select {
				case <-stop:
					return
				default:
				}
				actx, acancel := context.WithTimeout(ctx, time.Second)
				next := v + 1
				got, err := st.Append(actx, r.code, v, fmt.Appendf(nil, "snap-%d", next), fmt.Appendf(nil, "%s-%d", r.code, next))
				acancel()
				switch {
				case err == nil:
					v = got
					r.mu.Lock()
					r.acked = append(r.acked, got)
					r.times = append(r.times, time.Now())
					r.mu.Unlock()
				case errors.Is(err, store.ErrConflict):
					// An append that failed (no WAIT answer) was written after
					// all: go on from the room's version.
					lctx, lcancel := context.WithTimeout(ctx, time.Second)
					if snap, err := st.Load(lctx, r.code); err == nil {
						v = snap.Version
					}
					lcancel()
				default:
					time.Sleep(10 * time.Millisecond)
				}
			}
		}()
	}
	defer func() {
		close(stop)
		wg.Wait()
	}()
	count := func(r *room) int {
		r.mu.Lock()
		defer r.mu.Unlock()
		return len(r.acked)
	}
	waitFor := func(what string, within time.Duration, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(within)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within %v", what, within)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	allAtLeast := func(n int) func() bool {
		return func() bool {
			for _, r := range rooms {
				if count(r) < n {
					return false
				}
			}
			return true
		}
	}
	waitFor("every room appended to", 30*time.Second, allAtLeast(5))

	killed := time.Now()
	fc.kill()
	base := make(map[*room]int)
	for _, r := range rooms {
		base[r] = count(r)
	}
	waitFor("a replica promoted", 20*time.Second, fc.promoted)
	promoted := time.Since(killed)
	fc.restart()
	// Play resumes on the dead master's rooms: the measurement
	// was 45-60 s with go-redis's defaults; the target is 5 s after the
	// kill. The bound here leaves room for a loaded CI machine.
	resumeWithin := cmp.Or(fc.resumeWithin, 20*time.Second)
	waitFor("appends resume on the killed master's rooms", resumeWithin, func() bool {
		for _, r := range onVictim {
			r.mu.Lock()
			n := len(r.times)
			last := time.Time{}
			if n > 0 {
				last = r.times[n-1]
			}
			r.mu.Unlock()
			if !last.After(killed.Add(100 * time.Millisecond)) {
				return false
			}
		}
		return true
	})
	var resumed time.Duration
	for _, r := range onVictim {
		r.mu.Lock()
		for _, at := range r.times {
			if at.After(killed.Add(100 * time.Millisecond)) {
				resumed = max(resumed, at.Sub(killed))
				break
			}
		}
		r.mu.Unlock()
	}
	t.Logf("%s killed (%d of %d rooms on it): replica promoted after %v, appends acknowledged (WAIT 1) again %v after the kill",
		fc.what, len(onVictim), len(rooms), promoted.Round(10*time.Millisecond), resumed.Round(10*time.Millisecond))

	// No room is stuck: each goes on past where it was.
	waitFor("every room appended to after the failover", 10*time.Second, func() bool {
		for _, r := range rooms {
			if count(r) < base[r]+3 {
				return false
			}
		}
		return true
	})

	// Subscriptions follow the failover: each gets entries newer than
	// those acknowledged by now.
	for _, r := range rooms {
		r.mu.Lock()
		target := r.acked[len(r.acked)-1]
		r.mu.Unlock()
		deadline := time.After(15 * time.Second)
		for got := false; !got; {
			select {
			case e, ok := <-subs[r].C():
				if !ok {
					t.Fatalf("room %s: the subscription ended", r.code)
				}
				got = e.Version > target
			case <-deadline:
				t.Fatalf("room %s: no entry past version %d through its subscription after the failover", r.code, target)
			}
		}
	}

	// The killed node is back (as a replica) and the setup is whole.
	fc.healthy()
	close(stop)
	wg.Wait()
	stop = make(chan struct{}) // for the deferred close

	// Nothing acknowledged was lost: each room's log holds every version
	// up to its last acknowledged one, with the data written for it.
	for _, r := range rooms {
		entries, err := st.Since(ctx, r.code, 0)
		if err != nil {
			t.Fatalf("since %s: %v", r.code, err)
		}
		last := r.acked[len(r.acked)-1]
		if int64(len(entries)) < last {
			t.Errorf("room %s: log has %d entries, %d were acknowledged", r.code, len(entries), last)
			continue
		}
		for i, e := range entries {
			want := fmt.Sprintf("%s-%d", r.code, i+1)
			if e.Version != int64(i+1) || string(e.Data) != want {
				t.Errorf("room %s: entry %d is version %d %q, want %q", r.code, i, e.Version, e.Data, want)
				break
			}
		}
		_ = st.Expire(ctx, r.code, 0)
	}
}
