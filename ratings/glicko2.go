package ratings

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Glicko-2 constants (Glickman's paper, steps 1 and 2).
const (
	// scale converts between the Glicko and the Glicko-2 scales.
	scale = 173.7178
	// convergence is the tolerance of the volatility iteration (step 5).
	convergence = 0.000001
	// DefaultRating, DefaultRD and DefaultVolatility are an unrated
	// player's values, as the paper suggests.
	DefaultRating     = 1500.0
	DefaultRD         = 350.0
	DefaultVolatility = 0.06
	// DefaultTau constrains how fast volatility changes; the paper's
	// example uses 0.5 (reasonable values are 0.3 to 1.2).
	DefaultTau = 0.5
	// ProvisionalRD is the deviation above which a rating is provisional
	// and shown with a question mark.
	ProvisionalRD = 110.0
	// MinRD keeps a very active player's deviation from collapsing, so
	// their rating can still move.
	MinRD = 30.0
)

// Family names a game family: ratings in one family are comparable, in
// different families they are kept apart (a golf rating says nothing about
// TriPeaks). The server uses the game's name.
type Family string

// Rating is a player's Glicko-2 rating on the Glicko scale.
type Rating struct {
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

// New returns an unrated player's rating: 1500, RD 350, volatility 0.06.
func New() Rating {
	return Rating{Rating: DefaultRating, RD: DefaultRD, Volatility: DefaultVolatility}
}

// Provisional reports whether the rating is still uncertain (RD above 110).
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

// String shows the rating rounded, with "?" when it is provisional:
// "1500?" or "1632".
func (r Rating) String() string {
	s := strconv.Itoa(int(math.Round(r.Rating)))
	if r.Provisional() {
		s += "?"
	}
	return s
}

// Result is one game against one opponent: Score is 1 for a win, 0.5 for a
// draw and 0 for a loss; Opponent is their rating before the period.
type Result struct {
	Opponent Rating
	Score    float64
}

// ErrBadInput is returned for a rating, score or rank that is out of range.
var ErrBadInput = errors.New("ratings: bad input")

// Config holds the system constant τ. The zero value uses DefaultTau.
type Config struct {
	Tau float64
}

func (c Config) tau() float64 {
	if c.Tau > 0 {
		return c.Tau
	}
	return DefaultTau
}

func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

func expected(mu, muj, phij float64) float64 {
	return 1 / (1 + math.Exp(-g(phij)*(mu-muj)))
}

func check(r Rating) error {
	if math.IsNaN(r.Rating) || math.IsInf(r.Rating, 0) || !(r.RD > 0) || math.IsInf(r.RD, 0) || !(r.Volatility > 0) || math.IsInf(r.Volatility, 0) {
		return fmt.Errorf("%w: rating %v, RD %v and volatility %v (RD and volatility must be positive)", ErrBadInput, r.Rating, r.RD, r.Volatility)
	}
	return nil
}

// Update returns the player's rating after one rating period with the given
// results (steps 1-8 of the paper). With no results only the deviation
// grows, as the paper says for a player who did not compete. The result's
// RD is at least MinRD and at most DefaultRD.
func (c Config) Update(r Rating, results []Result) (Rating, error) {
	if err := check(r); err != nil {
		return Rating{}, err
	}
	for _, res := range results {
		if err := check(res.Opponent); err != nil {
			return Rating{}, err
		}
		if res.Score != 0 && res.Score != 0.5 && res.Score != 1 {
			return Rating{}, fmt.Errorf("%w: score %v (want 0, 0.5 or 1)", ErrBadInput, res.Score)
		}
	}
	mu := (r.Rating - DefaultRating) / scale
	phi := r.RD / scale
	sigma := r.Volatility
	if len(results) == 0 {
		phiStar := math.Sqrt(phi*phi + sigma*sigma)
		return clampRD(Rating{Rating: r.Rating, RD: phiStar * scale, Volatility: sigma}), nil
	}
	// Step 3: the estimated variance v; step 4: the improvement Δ.
	var vInv, sum float64
	for _, res := range results {
		muj := (res.Opponent.Rating - DefaultRating) / scale
		phij := res.Opponent.RD / scale
		gj := g(phij)
		e := expected(mu, muj, phij)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (res.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility (the Illinois algorithm).
	sigma = c.volatility(phi, v, delta, sigma)
	// Steps 6-8.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return clampRD(Rating{Rating: scale*muNew + DefaultRating, RD: scale * phiNew, Volatility: sigma}), nil
}

func clampRD(r Rating) Rating {
	r.RD = min(max(r.RD, MinRD), DefaultRD)
	return r
}

// volatility is step 5 of the paper.
func (c Config) volatility(phi, v, delta, sigma float64) float64 {
	tau := c.tau()
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > convergence && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
