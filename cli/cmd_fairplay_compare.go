package cli

import (
	"cmp"
	"flag"
	"fmt"
	"math"
	"slices"
	"text/tabwriter"

	"golfsolitaire/fairplay"
)

// compareOutput is what `fairplay compare` prints: per bot and share of
// holes known, the holes both records analysed, each side's evidence and
// the paired differences.
type compareOutput struct {
	Combination fairplay.Combination `json:"combination"`
	// Share is the share of holes bet on in shareFactor and growth.
	Share  float64        `json:"share"`
	Groups []compareGroup `json:"groups"`
}

// compareGroup is one bot and share known. Holes is how many holes both
// records have (the same round and hole); OnlyA and OnlyB are the holes
// of one record alone, left out.
type compareGroup struct {
	Bot        string      `json:"bot"`
	KnowsStock float64     `json:"knowsStock"`
	Holes      int         `json:"holes"`
	OnlyA      int         `json:"onlyA"`
	OnlyB      int         `json:"onlyB"`
	Known      compareHole `json:"known"`
	Unknown    compareHole `json:"unknown"`
	// Growth is each record's mean over the holes of the log of the
	// share's factor (share*LR + 1-share): how fast a player's score
	// grows a hole, A then B.
	Growth [2]float64 `json:"growth"`
}

// compareHole sums up the holes on which the player knew the stock, or
// did not: the mean log LR of each record (A, B), the mean of the paired
// differences A-B and its standard error, the mean log of the share's
// factor, and the informative segments a hole.
type compareHole struct {
	Holes       int        `json:"holes"`
	LogLR       [2]float64 `json:"logLR"`
	Diff        float64    `json:"diff"`
	DiffSE      float64    `json:"diffSE"`
	ShareFactor [2]float64 `json:"shareFactor"`
	Segments    [2]float64 `json:"segments"`
	// ByOrders is where the evidence is: the informative stretches by how
	// many orders each was scored on (which tells the opening's from the
	// later ones and from those scored on every order of a short stock).
	ByOrders []compareOrders `json:"byOrders"`
}

// compareOrders is, for the stretches scored on Orders orders, each
// record's stretches a hole and their mean log e-value.
type compareOrders struct {
	Orders      int        `json:"orders"`
	PerHole     [2]float64 `json:"perHole"`
	MeanLogE    [2]float64 `json:"meanLogE"`
	sums, count [2]float64
}

// comparedHole is a hole of a record: whether the stock was known, its
// log LR and its informative segments.
type comparedHole struct {
	knew bool
	play string
	l    float64
	segs []fairplay.Segment
}

type compareKey struct {
	group        rescoreKey
	round, index int
}

// runFairplayCompare is `fairplay compare A B`: the same simulated holes
// analysed two ways (two builds or two settings; simulate plays the same
// deals the same way whatever the analysis), compared hole by hole.
func runFairplayCompare(args []string, e env) error {
	fs := flag.NewFlagSet("fairplay compare", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	def := fairplay.DefaultCombination()
	lambda := fs.Float64("lambda", def.Lambda, "how steeply a segment's e-value falls with an order's strokes above the least (fairplay.Lambda)")
	slip := fs.Float64("slip", def.Slip, "the floor of a segment's e-value (fairplay.Slip)")
	share := fs.Float64("share", def.Shares[0], "the share of holes bet on, for each hole's factor share*LR + 1-share")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() != 2 {
		return usageError("fairplay compare: want two files that fairplay simulate --record wrote, of the same rounds")
	}
	c := fairplay.Combination{Lambda: *lambda, Slip: *slip, Shares: []float64{*share}}
	if err := c.Check(); err != nil {
		return usageError("fairplay compare: %v", err)
	}
	var sides [2]map[compareKey]comparedHole
	var order []rescoreKey
	seen := map[rescoreKey]bool{}
	for i, path := range fs.Args() {
		sides[i] = map[compareKey]comparedHole{}
		err := readRecords("fairplay compare", path, e, func(rec simRecord) {
			g := rescoreKey{rec.Bot, rec.KnowsStock}
			if !seen[g] {
				seen[g] = true
				order = append(order, g)
			}
			for j, h := range rec.Holes {
				sides[i][compareKey{g, rec.Round, j}] = comparedHole{h.Knew, h.Play, c.LogLR(h.Segments), h.Segments}
			}
		})
		if err != nil {
			return err
		}
	}
	out := compareOutput{Combination: c, Share: *share, Groups: []compareGroup{}}
	for _, g := range order {
		cg, err := compareHoles(g, sides[0], sides[1], c)
		if err != nil {
			return err
		}
		out.Groups = append(out.Groups, cg)
	}
	if *asJSON {
		return writeJSON(e, out)
	}
	return printCompare(e, out)
}

// compareHoles pairs the holes of group g of the two records. A hole that
// was known in one and not in the other is not the same play: an error.
func compareHoles(g rescoreKey, a, b map[compareKey]comparedHole, c fairplay.Combination) (compareGroup, error) {
	out := compareGroup{Bot: g.bot, KnowsStock: g.knows}
	share := c.Shares[0]
	var sums [2]struct { // known holes, the others
		n    int    // holes in both records
		segs [2]int // informative stretches, A and B
		by   map[int]*compareOrders
	}
	type acc struct{ la, lb, fa, fb, d, dd float64 }
	var known, unknown acc
	for _, k := range groupKeys(g, a) {
		ha := a[k]
		hb, ok := b[k]
		if !ok {
			out.OnlyA++
			continue
		}
		if ha.knew != hb.knew || ha.play != "" && hb.play != "" && ha.play != hb.play {
			return out, fmt.Errorf("fairplay compare: %s round %d hole %d is not the same play in the two records (the stock known in one and not the other, or other moves): records of the same rounds, played by the same bots?", g.bot, k.round, k.index+1)
		}
		out.Holes++
		fa, fb := fairplay.LogMix(share, ha.l), fairplay.LogMix(share, hb.l)
		out.Growth[0] += fa
		out.Growth[1] += fb
		x, side := &unknown, 1
		if ha.knew {
			x, side = &known, 0
		}
		d := ha.l - hb.l
		x.la, x.lb, x.fa, x.fb, x.d, x.dd = x.la+ha.l, x.lb+hb.l, x.fa+fa, x.fb+fb, x.d+d, x.dd+d*d
		s := &sums[side]
		s.n++
		if s.by == nil {
			s.by = map[int]*compareOrders{}
		}
		for j, h := range []comparedHole{ha, hb} {
			s.segs[j] += len(h.segs)
			for _, seg := range h.segs {
				o := s.by[len(seg.Regrets)]
				if o == nil {
					o = &compareOrders{Orders: len(seg.Regrets)}
					s.by[o.Orders] = o
				}
				o.count[j]++
				o.sums[j] += math.Log(c.SegmentE(seg))
			}
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok && k.group == g {
			out.OnlyB++
		}
	}
	if out.Holes > 0 {
		out.Growth[0] /= float64(out.Holes)
		out.Growth[1] /= float64(out.Holes)
	}
	for i, x := range []acc{known, unknown} {
		s := sums[i]
		n := float64(s.n)
		h := compareHole{Holes: s.n}
		if n > 0 {
			h.LogLR = [2]float64{x.la / n, x.lb / n}
			h.ShareFactor = [2]float64{x.fa / n, x.fb / n}
			h.Segments = [2]float64{float64(s.segs[0]) / n, float64(s.segs[1]) / n}
			h.Diff = x.d / n
		}
		h.ByOrders = []compareOrders{}
		for _, o := range s.by {
			for j := range 2 {
				o.PerHole[j] = o.count[j] / n
				if o.count[j] > 0 {
					o.MeanLogE[j] = o.sums[j] / o.count[j]
				}
			}
			h.ByOrders = append(h.ByOrders, *o)
		}
		slices.SortFunc(h.ByOrders, func(x, y compareOrders) int { return cmp.Compare(x.Orders, y.Orders) })
		if n > 1 {
			v := (x.dd - n*h.Diff*h.Diff) / (n - 1)
			h.DiffSE = math.Sqrt(max(v, 0) / n)
		}
		if i == 0 {
			out.Known = h
		} else {
			out.Unknown = h
		}
	}
	return out, nil
}

// groupKeys are the keys of group g's holes in a, by round and hole: a
// fixed order, so that the sums and the hole an error names are the same
// from run to run.
func groupKeys(g rescoreKey, a map[compareKey]comparedHole) []compareKey {
	var keys []compareKey
	for k := range a {
		if k.group == g {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(x, y compareKey) int {
		return cmp.Or(cmp.Compare(x.round, y.round), cmp.Compare(x.index, y.index))
	})
	return keys
}

// printCompare prints the comparison, a block per bot and share known.
func printCompare(e env, out compareOutput) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	c := out.Combination
	fmt.Fprintf(tw, "lambda %g, slip %g; each hole's factor at a share of %g\n", c.Lambda, c.Slip, out.Share)
	for _, g := range out.Groups {
		fmt.Fprintf(tw, "\n%s, knows the stock on %g of holes: %d holes in both (%d in A alone, %d in B alone); growth a hole A %.4f, B %.4f\n",
			g.Bot, g.KnowsStock, g.Holes, g.OnlyA, g.OnlyB, g.Growth[0], g.Growth[1])
		fmt.Fprintln(tw, "holes\tn\tlog LR A\tlog LR B\tA-B\t± (s.e.)\tfactor A\tfactor B\tsegments A\tsegments B")
		for _, r := range []struct {
			name string
			h    compareHole
		}{{"known", g.Known}, {"unknown", g.Unknown}} {
			h := r.h
			fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%+.3f\t%.3f\t%.4f\t%.4f\t%.2f\t%.2f\n", r.name, h.Holes, h.LogLR[0], h.LogLR[1], h.Diff, h.DiffSE, h.ShareFactor[0], h.ShareFactor[1], h.Segments[0], h.Segments[1])
		}
		fmt.Fprintln(tw, "holes\tstretches on\ta hole A\tlog e-value A\ta hole B\tlog e-value B")
		for _, r := range []struct {
			name string
			h    compareHole
		}{{"known", g.Known}, {"unknown", g.Unknown}} {
			for _, o := range r.h.ByOrders {
				fmt.Fprintf(tw, "%s\t%d orders\t%.2f\t%.3f\t%.2f\t%.3f\n", r.name, o.Orders, o.PerHole[0], o.MeanLogE[0], o.PerHole[1], o.MeanLogE[1])
			}
		}
	}
	return tw.Flush()
}
