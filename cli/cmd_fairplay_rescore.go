package cli

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"text/tabwriter"

	"golfsolitaire/fairplay"
)

// rescoreFlags are the flags of `fairplay rescore`.
type rescoreFlags struct {
	comb   fairplay.Combination
	rule   fairplay.Rule
	asJSON bool
	files  []string
}

// parseRescoreFlags reads and checks the flags of `fairplay rescore`.
func parseRescoreFlags(args []string, e env) (rescoreFlags, error) {
	fs := flag.NewFlagSet("fairplay rescore", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	def := fairplay.DefaultCombination()
	lambda := fs.Float64("lambda", def.Lambda, "how steeply a segment's e-value falls with an order's strokes above the least (fairplay.Lambda)")
	slip := fs.Float64("slip", def.Slip, "the floor of a segment's e-value (fairplay.Slip)")
	shares := fs.String("shares", joinFloats(def.Shares), "comma-separated fixed shares of holes bet on, one bettor each (none: no fixed bettor)")
	grid := fs.String("grid", joinFloats(def.Grid), "comma-separated shares an adaptive bettor chooses from, by the holes before each (none: no adaptive bettor)")
	start := fs.Float64("start", fairplay.AdaptiveStart, "the adaptive bettor's share while no grid share leads")
	alpha := fs.Float64("alpha", fairplay.DefaultRule.Alpha, "flag at a score of log(1/alpha)")
	minSegs := fs.Int("min-segments", fairplay.DefaultRule.MinSegments, "fewest informative segments before a flag")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return rescoreFlags{}, &exitError{code: 2}
	}
	if fs.NArg() == 0 {
		return rescoreFlags{}, usageError("fairplay rescore: want one or more files that fairplay simulate --record wrote")
	}
	c := fairplay.Combination{Lambda: *lambda, Slip: *slip, Start: *start}
	var err error
	if c.Shares, err = parseFloats(*shares); err != nil {
		return rescoreFlags{}, usageError("fairplay rescore: --shares: %v", err)
	}
	if c.Grid, err = parseFloats(*grid); err != nil {
		return rescoreFlags{}, usageError("fairplay rescore: --grid: %v", err)
	}
	if err := c.Check(); err != nil {
		return rescoreFlags{}, usageError("fairplay rescore: %v", err)
	}
	if !(*alpha > 0 && *alpha < 1) || *minSegs < 0 {
		return rescoreFlags{}, usageError("fairplay rescore: --alpha must be in (0, 1) and --min-segments not negative")
	}
	return rescoreFlags{comb: c, rule: fairplay.Rule{Alpha: *alpha, MinSegments: *minSegs}, asJSON: *asJSON, files: fs.Args()}, nil
}

// parseFloats reads a comma-separated list of numbers; "none" or "" is
// the empty list.
func parseFloats(s string) ([]float64, error) {
	if s == "none" {
		return nil, nil
	}
	var out []float64
	for _, f := range splitComma(s) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		out = append(out, x)
	}
	return out, nil
}

func joinFloats(xs []float64) string {
	if len(xs) == 0 {
		return "none"
	}
	var b []byte
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, x, 'g', -1, 64)
	}
	return string(b)
}

// rescoreOutput is what `fairplay rescore` prints: the combination and
// rule, and per bot and share of holes known, the results as `fairplay
// simulate` reports them.
type rescoreOutput struct {
	Combination fairplay.Combination `json:"combination"`
	Rule        fairplay.Rule        `json:"rule"`
	Results     []simResult          `json:"results"`
}

// runFairplayRescore is `fairplay rescore`: the rounds recorded by
// `fairplay simulate --record` scored again with another combination.
func runFairplayRescore(args []string, e env) error {
	f, err := parseRescoreFlags(args, e)
	if err != nil {
		return err
	}
	t := rescoreTally{comb: f.comb, rule: f.rule, index: map[rescoreKey]int{}}
	for _, path := range f.files {
		if err := t.file(path, e); err != nil {
			return err
		}
	}
	out := rescoreOutput{Combination: f.comb, Rule: f.rule, Results: t.results()}
	if f.asJSON {
		return writeJSON(e, out)
	}
	return printRescore(e, out)
}

type rescoreKey struct {
	bot   string
	knows float64
}

// rescoreTally adds up the rescored rounds per bot and share known, in
// the order first seen.
type rescoreTally struct {
	comb      fairplay.Combination
	rule      fairplay.Rule
	index     map[rescoreKey]int
	keys      []rescoreKey
	rounds    [][]fairplay.RoundScore
	flaggedAt [][]int
}

// file rescores every round of a record file.
func (t *rescoreTally) file(path string, e env) error {
	return readRecords("fairplay rescore", path, e, t.add)
}

// readRecords hands each round of a record file (`fairplay simulate
// --record`) to add, for the command what. A last line without its
// newline (a run still writing) is left out, with a note.
func readRecords(what, path string, e env, add func(simRecord)) error {
	fh, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer fh.Close()
	r := bufio.NewReaderSize(fh, 1<<20)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			if len(bytes.TrimSpace(line)) > 0 {
				fmt.Fprintf(e.stderr, "%s: %s: line %d has no end (a run still writing?); left out\n", what, path, n)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %s: %w", what, path, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rec simRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return fmt.Errorf("%s: %s line %d is not a recorded round: %v", what, path, n, err)
		}
		add(rec)
	}
}

// add scores one recorded round.
func (t *rescoreTally) add(rec simRecord) {
	k := rescoreKey{rec.Bot, rec.KnowsStock}
	i, ok := t.index[k]
	if !ok {
		i = len(t.keys)
		t.index[k] = i
		t.keys = append(t.keys, k)
		t.rounds, t.flaggedAt = append(t.rounds, nil), append(t.flaggedAt, nil)
	}
	holes := make([][]fairplay.Segment, len(rec.Holes))
	for j, h := range rec.Holes {
		holes[j] = h.Segments
	}
	s := t.comb.ScoreHoles(holes, t.rule)
	t.rounds[i] = append(t.rounds[i], s)
	if s.FlaggedAt > 0 {
		t.flaggedAt[i] = append(t.flaggedAt[i], s.FlaggedAt)
	}
}

// results are the tally as `fairplay simulate` reports it (without the
// calibration's least and expected, which a record does not keep whole).
func (t *rescoreTally) results() []simResult {
	out := []simResult{}
	for i, k := range t.keys {
		r := simResult{Bot: k.bot, KnowsStock: k.knows, Rounds: len(t.rounds[i]), Flagged: len(t.flaggedAt[i]), Peaks: []float64{}}
		for _, s := range t.rounds[i] {
			r.Segments += s.Segments
			r.Peaks = append(r.Peaks, math.Round(s.Peak*100)/100)
		}
		if r.Rounds > 0 {
			r.FlagRate = float64(r.Flagged) / float64(r.Rounds)
		}
		if len(t.flaggedAt[i]) > 0 {
			m := median(t.flaggedAt[i])
			r.MedianHolesToFlag = &m
		}
		out = append(out, r)
	}
	return out
}

// printRescore prints the rescored table: per bot and share known, the
// rounds flagged, the median hole flagged at, and the highest peaks.
func printRescore(e env, out rescoreOutput) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	c := out.Combination
	fmt.Fprintf(tw, "lambda %g, slip %g, shares %s, grid %s from %g; flag at %.2f nats with %d segments\n",
		c.Lambda, c.Slip, joinFloats(c.Shares), joinFloats(c.Grid), c.Start, -math.Log(out.Rule.Alpha), out.Rule.MinSegments)
	fmt.Fprintln(tw, "bot\tknowsStock\trounds\tflagged\tflagRate\tmedianHolesToFlag\tsegments\thighest peaks")
	for _, r := range out.Results {
		m := "-"
		if r.MedianHolesToFlag != nil {
			m = strconv.FormatFloat(*r.MedianHolesToFlag, 'f', 1, 64)
		}
		top := slices.Clone(r.Peaks)
		slices.SortFunc(top, func(a, b float64) int { return cmp.Compare(b, a) })
		fmt.Fprintf(tw, "%s\t%g\t%d\t%d\t%.4f\t%s\t%d\t%v\n", r.Bot, r.KnowsStock, r.Rounds, r.Flagged, r.FlagRate, m, r.Segments, top[:min(3, len(top))])
	}
	return tw.Flush()
}
