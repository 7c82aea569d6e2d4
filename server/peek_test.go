package server_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/match"
)

// TestPeekingSecondSocket is the second-socket attack as a test: a seated
// player opens a second socket to its own room as a spectator and, before
// each of its stock turns, predicts the rank of its own next stock card
// from what that socket shows of a faster opponent's board (a hidden card
// with the tableau card played onto it, or the piles playable onto a
// hidden top card). Over at least 500 turns its hit rate must be no
// better than chance (a uniform guess among 13 ranks): the one-sided
// binomial test must not reject chance at p < 0.0001. (At p < 0.01 an
// honest server failed the test in one run of a hundred, as it once did
// in CI with no turn informed at all; a leak is far louder: one that
// told the attacker one stock card in ten would add some 50 hits to the
// 42 chance gives, p about 1e-12.)
func TestPeekingSecondSocket(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	e := newEnv(t)
	const rooms = 2 // of seven holes of Double Golf: 39 stock turns a hole
	var mu sync.Mutex
	var turns, hits, informed int
	var wg sync.WaitGroup
	for r := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, h, inf := peekRoom(t, ctx, e, uint64(r))
			mu.Lock()
			turns, hits, informed = turns+n, hits+h, informed+inf
			mu.Unlock()
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	const chance = 1.0 / 13
	p := binomialTail(turns, hits, chance)
	t.Logf("peeking client: %d hits in %d turns (%.1f%%; chance %.1f%%, expected %.1f hits); %d turns with a hint from the second socket; one-sided binomial p = %.3g",
		hits, turns, 100*float64(hits)/float64(turns), 100*chance, chance*float64(turns), informed, p)
	if turns < 500 {
		t.Fatalf("only %d turns", turns)
	}
	if p < 0.0001 {
		t.Errorf("the second socket predicts the player's next stock card better than chance: %d of %d (p = %.3g)", hits, turns, p)
	}
}

// peekRoom plays a room of peekHoles holes: in each hole the opponent (seat 1)
// plays its whole hole first, preferring plays; then the attacker (seat 0)
// turns its stock card by card, predicting each from its spectator socket.
func peekRoom(t *testing.T, ctx context.Context, e *env, seed uint64) (turns, hits, informed int) {
	g := e.create(t, ctx, stroke(2, peekHoles, map[string]any{"game": "double-golf"}), "Eve", "Bo")
	cs := e.startRoom(t, ctx, g)
	spy, err := client.Dial(ctx, e.ts, &client.Options{Room: g[0].Code})
	if err != nil {
		t.Error(err)
		return
	}
	defer spy.CloseNow()
	for _, c := range append(cs, spy) {
		go func() {
			for range c.Updates() {
			}
		}()
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	eve, bo := cs[0], cs[1]
	for hole := 1; hole <= peekHoles; hole++ {
		// Bo plays the hole to its end.
		for {
			v, err := bo.WaitView(ctx, func(v *match.View) bool { return v.Board != nil && v.Board.Hole >= hole })
			if err != nil {
				t.Error(err)
				return
			}
			b := v.Board
			if b.Hole > hole || b.Done {
				break
			}
			move := "s"
			switch {
			case len(b.Playable) > 0:
				move = itoa(b.Playable[rng.IntN(len(b.Playable))])
			case b.CanTurn:
			default:
				if err := bo.Stand(ctx, hole); err != nil {
					t.Error(err)
					return
				}
				continue
			}
			ack, err := bo.Move(ctx, hole, move)
			if err != nil {
				t.Error(err)
				return
			}
			if _, err := bo.WaitView(ctx, func(w *match.View) bool { return w.V >= ack.V }); err != nil {
				t.Error(err)
				return
			}
		}
		// Eve turns, peeking before each turn.
		for {
			v, err := eve.WaitView(ctx, func(v *match.View) bool { return v.Board != nil && v.Board.Hole >= hole })
			if err != nil {
				t.Error(err)
				return
			}
			b := v.Board
			if b.Hole > hole || b.Done || v.Status != match.Playing {
				break
			}
			if !b.CanTurn {
				if err := eve.Stand(ctx, hole); err != nil {
					t.Error(err)
					return
				}
				if _, err := eve.WaitView(ctx, func(w *match.View) bool { return w.V > v.V }); err != nil {
					t.Error(err)
					return
				}
				continue
			}
			sv, err := spy.WaitView(ctx, func(w *match.View) bool { return w.V >= v.V })
			if err != nil {
				t.Error(err)
				return
			}
			guess, hint := predictRank(sv, rng)
			if hint {
				informed++
			}
			ack, err := eve.Move(ctx, hole, "s")
			if err != nil {
				t.Error(err)
				return
			}
			after, err := eve.WaitView(ctx, func(w *match.View) bool { return w.V >= ack.V })
			if err != nil {
				t.Error(err)
				return
			}
			w := after.Board.Waste
			turns++
			if rankOf(w[len(w)-1]) == guess {
				hits++
			}
		}
	}
	return turns, hits, informed
}

const (
	ranks     = "A23456789TJQK"
	peekHoles = 7
)

func rankOf(card string) int { return strings.IndexByte(ranks, card[0]) }

// predictRank guesses the rank of seat 0's next stock card from a
// spectator's view of seat 1's board: the first hidden waste card is that
// card (seat 1 has turned it, seat 0 has not); a tableau card played onto
// it is one rank away, and so are the piles playable onto it when it is on
// top. Without a hint the guess is uniform.
func predictRank(v *match.View, rng *rand.Rand) (int, bool) {
	for _, b := range v.Boards {
		if b.Seat != 1 {
			continue
		}
		for j, c := range b.Waste {
			if c != match.Hidden {
				continue
			}
			var near []int
			if j+1 < len(b.Waste) && b.Waste[j+1] != match.Hidden && rankOf(b.Waste[j+1]) >= 0 {
				near = append(near, rankOf(b.Waste[j+1]))
			} else if j == len(b.Waste)-1 {
				for _, p := range b.Playable {
					pile := b.Piles[p-1]
					if top := pile[len(pile)-1]; top != "" && rankOf(top) >= 0 {
						near = append(near, rankOf(top))
					}
				}
			}
			if len(near) > 0 {
				r := near[rng.IntN(len(near))]
				return (r + 13 + []int{-1, 1}[rng.IntN(2)]) % 13, true
			}
			break
		}
	}
	return rng.IntN(13), false
}

// binomialTail is P(X >= k) for X ~ Binomial(n, p).
func binomialTail(n, k int, p float64) float64 {
	sum := 0.0
	for i := k; i <= n; i++ {
		lg1, _ := math.Lgamma(float64(n + 1))
		lg2, _ := math.Lgamma(float64(i + 1))
		lg3, _ := math.Lgamma(float64(n - i + 1))
		sum += math.Exp(lg1 - lg2 - lg3 + float64(i)*math.Log(p) + float64(n-i)*math.Log(1-p))
	}
	return math.Min(1, sum)
}
