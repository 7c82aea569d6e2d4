package fairplay_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"golfsolitaire/fairplay"
)

// asReal is the segment of regrets with order j in the real one's place
// (the last): what the analysis would report had order j been dealt.
func asReal(regrets []int, j int) fairplay.Segment {
	r := slices.Clone(regrets)
	k := len(r) - 1
	r[j], r[k] = r[k], r[j]
	lo, n := slices.Min(r), 0
	for _, x := range r {
		if x == lo {
			n++
		}
	}
	return fairplay.Segment{Regret: r[k], Least: r[k] == lo, P: float64(n) / float64(len(r)), Regrets: r}
}

// eMoments are a segment's E's mean and variance over which of its
// orders is the real one: under honest play (exchangeable orders) they
// are E's conditional mean and variance given the regrets.
func eMoments(s fairplay.Segment) (mean, variance float64) {
	n := float64(len(s.Regrets))
	for j := range s.Regrets {
		e := asReal(s.Regrets, j).E()
		mean += e / n
		variance += e * e / n
	}
	return mean, variance - mean*mean
}

// TestSegmentE: whatever the regrets, E's mean over which order is the
// real one is 1 (so its expectation under honest play is 1: the score is
// a test martingale); the best the real order can do is (1-Slip)(K+1)
// plus Slip; and a segment stored without its regrets keeps the earlier
// factor.
func TestSegmentE(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		r := make([]int, 2+rng.IntN(30))
		for i := range r {
			r[i] = rng.IntN(1 + rng.IntN(6))
		}
		if m, _ := eMoments(asReal(r, len(r)-1)); math.Abs(m-1) > 1e-12 {
			t.Fatalf("regrets %v: mean E over the real order's place %g, want 1", r, m)
		}
	}
	k := 8
	best := make([]int, k+1)
	for i := range k {
		best[i] = 30
	}
	if got, want := asReal(best, k).E(), (1-fairplay.Slip)*float64(k+1)+fairplay.Slip; math.Abs(got-want) > 1e-9 {
		t.Errorf("real order alone best by far: E %g, want %g", got, want)
	}
	if got := asReal([]int{1, 1, 1}, 2).E(); got != 1 {
		t.Errorf("every order alike: E %g, want 1", got)
	}
	old := fairplay.Segment{Least: true, P: 0.25}
	if got, want := old.E(), (1-fairplay.Slip)/0.25; math.Abs(got-want) > 1e-12 {
		t.Errorf("no regrets kept: E %g, want %g", got, want)
	}
}

// eCalibration is the honest check of E on analysed segments: the sum of
// E-1 over the informative segments against its standard deviation under
// honest play (each segment's conditional variance given its regrets),
// as a z score, and the number of segments.
func eCalibration(segs []fairplay.Segment) (z float64, n int) {
	var sum, variance float64
	for _, s := range segs {
		if !s.Informative() {
			continue
		}
		_, v := eMoments(s)
		sum += s.E() - 1
		variance += v
		n++
	}
	if variance == 0 {
		return 0, n
	}
	return sum / math.Sqrt(variance), n
}

// TestECalibration: on players who cannot see the stock (random lines)
// E averages 1 up to chance, as it must when the real order is scored
// exactly as the sampled ones; it would not if the analysis treated the
// real order otherwise (here: the same segments with the real order's
// regret one stroke worse, as a smaller budget for it could make it),
// and a player who knows the stock scores far above 1.
func TestECalibration(t *testing.T) {
	t.Parallel()
	propertyCheck(t)
	cfg := fairplay.Config{Samples: 12, OpeningSamples: 3, OpeningStock: 8, Nodes: 3000, MaxCards: 29}
	var honest, shifted, known []fairplay.Segment
	for _, hs := range calibrationDeals(t, cfg, 12) {
		for i, h := range hs {
			if i == 2 {
				known = append(known, h.Segments...)
				continue
			}
			honest = append(honest, h.Segments...)
			for _, s := range h.Segments {
				if len(s.Regrets) > 1 {
					r := slices.Clone(s.Regrets)
					r[len(r)-1]++
					shifted = append(shifted, asReal(r, len(r)-1))
				}
			}
		}
	}
	z, n := eCalibration(honest)
	if n < 100 {
		t.Fatalf("only %d informative stretches", n)
	}
	if math.Abs(z) > 4 {
		t.Errorf("honest: E averages off 1 by %.1f standard deviations over %d stretches", z, n)
	}
	if z, n := eCalibration(shifted); z > -4 {
		t.Errorf("the real order scored one stroke worse: z %.1f over %d stretches, want below -4", z, n)
	}
	logE := 0.0
	for _, s := range known {
		logE += math.Log(s.E())
	}
	if logE < 10 {
		t.Errorf("clairvoyant: log of the product of E over %d stretches %.1f, want at least 10", len(known), logE)
	}
	t.Logf("honest z %.2f over %d stretches; clairvoyant log E %.1f over %d", z, n, logE, len(known))
}

// TestHonestFlagRateE: players whose real order is any of the K+1 with
// equal chance (the honest model, whatever the regrets) are flagged at
// most Alpha of the time by the e-value's score, however long they play
// (Ville's inequality), and players whose real order alone loses the
// least are flagged.
func TestHonestFlagRateE(t *testing.T) {
	t.Parallel()
	propertyCheck(t)
	rng := rand.New(rand.NewPCG(5, 6))
	const players, holes = 20000, 30
	ks := []int{3, 8, 24}
	flagged, cheats := 0, 0
	for range players {
		var honest, cheat fairplay.Evidence
		hf, cf := false, false
		for range holes {
			var h, c fairplay.Hole
			for range 3 {
				r := make([]int, ks[rng.IntN(len(ks))]+1)
				for i := range r {
					r[i] = rng.IntN(4)
				}
				h.Segments = append(h.Segments, asReal(r, rng.IntN(len(r))))
				lo := slices.Min(r)
				for i := range r {
					r[i] = max(r[i], lo+1)
				}
				r[0] = lo
				c.Segments = append(c.Segments, asReal(r, 0))
			}
			honest.Add(h)
			cheat.Add(c)
			hf = hf || honest.Flagged()
			cf = cf || cheat.Flagged()
		}
		if hf {
			flagged++
		}
		if cf {
			cheats++
		}
	}
	if rate := float64(flagged) / players; rate > fairplay.Alpha {
		t.Errorf("honest flag rate %.5f > %g", rate, fairplay.Alpha)
	}
	if cheats != players {
		t.Errorf("%d of %d players always alone best flagged", cheats, players)
	}
	t.Logf("honest: %d of %d flagged", flagged, players)
}
