package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"

	"golfsolitaire/golf"
)

// dealFlags are the flags that choose a deal, shared by deal and solve.
type dealFlags struct {
	fs        *flag.FlagSet
	number    int
	seed      string
	round     string
	hole      int
	game      string
	kings     string
	jokers    int
	columns   int
	freeStart bool
	redeals   int
	negative  bool
}

func newDealFlags(fs *flag.FlagSet) *dealFlags {
	f := &dealFlags{fs: fs}
	fs.IntVar(&f.number, "number", 0, "numbered deal N (seed SHA-256(\"golf-deal:N\"))")
	fs.StringVar(&f.seed, "seed", "", "deal seed, 64 hex digits")
	fs.StringVar(&f.round, "round", "", "round seed, 64 hex digits (with --hole)")
	fs.IntVar(&f.hole, "hole", 0, "hole number 1-18 of the round (with --round)")
	fs.StringVar(&f.game, "game", "golf", "game: golf, double-golf, black-hole, all-in-a-row, tripeaks, pyramid-golf")
	fs.StringVar(&f.kings, "kings", "strict", "kings rule: strict, queen-on-king, wrap")
	fs.IntVar(&f.jokers, "jokers", 0, "jokers in the pack: 0-2")
	fs.IntVar(&f.columns, "columns", 7, "golf columns: 7 or 6")
	fs.BoolVar(&f.freeStart, "free-start", false, "start with an empty waste")
	fs.IntVar(&f.redeals, "redeals", 0, "redeals: 0 or 1")
	fs.BoolVar(&f.negative, "negative-score", true, "score a clear minus the stock left")
	return f
}

// variant returns the game and the options given on the command line; only
// flags actually set count as given, so a flag that does not apply to the
// game is an error rather than silently ignored.
func (f *dealFlags) variant() (golf.Variant, error) {
	given := map[string]any{}
	f.fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "kings":
			given[golf.OptKings] = f.kings
		case "jokers":
			given[golf.OptJokers] = f.jokers
		case "columns":
			given[golf.OptColumns] = f.columns
		case "free-start":
			given[golf.OptFreeStart] = f.freeStart
		case "redeals":
			given[golf.OptRedeals] = f.redeals
		case "negative-score":
			given[golf.OptNegativeScore] = f.negative
		}
	})
	return golf.NewVariant(f.game, given)
}

// dealSeed returns the seed chosen by --number, --seed or --round/--hole
// (numbered deal 1 when none is given).
func (f *dealFlags) dealSeed() (golf.Seed, error) {
	set := map[string]bool{}
	f.fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	n := 0
	for _, k := range []string{"number", "seed", "round"} {
		if set[k] {
			n++
		}
	}
	if n > 1 {
		return golf.Seed{}, fmt.Errorf("give only one of --number, --seed, --round")
	}
	if set["hole"] != set["round"] {
		return golf.Seed{}, fmt.Errorf("--round and --hole go together")
	}
	switch {
	case set["seed"]:
		return golf.ParseSeed(f.seed)
	case set["round"]:
		if f.hole < 1 || f.hole > 18 {
			return golf.Seed{}, fmt.Errorf("--hole must be 1 to 18, not %d", f.hole)
		}
		r, err := golf.ParseSeed(f.round)
		if err != nil {
			return golf.Seed{}, err
		}
		return r.HoleSeed(f.hole), nil
	case set["number"]:
		if f.number < 0 {
			return golf.Seed{}, fmt.Errorf("--number must not be negative")
		}
		return golf.NumberedSeed(f.number), nil
	}
	return golf.NumberedSeed(1), nil
}

func (f *dealFlags) deal() (golf.Deal, error) {
	v, err := f.variant()
	if err != nil {
		return golf.Deal{}, err
	}
	seed, err := f.dealSeed()
	if err != nil {
		return golf.Deal{}, err
	}
	return golf.NewDeal(v, seed), nil
}

func runDeal(args []string, e env) error {
	fs := flag.NewFlagSet("deal", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	f := newDealFlags(fs)
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		return usageError("deal: unexpected argument %s", strconv.Quote(fs.Arg(0)))
	}
	d, err := f.deal()
	if err != nil {
		return usageError("deal: %v", err)
	}
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	b, err = indentFlat(b)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s\n", b)
	return err
}

// indentFlat re-indents JSON so that every array or object holding no other
// array or object prints on one line, and the rest one member a line: a
// printed deal then shows each pile, the stock and the options on a line of
// their own. The output is the same JSON value.
func indentFlat(b []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	n, err := readNode(d)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	n.write(&out, "")
	return out.Bytes(), nil
}

// jsonNode is a parsed JSON value that keeps the order of object members.
type jsonNode struct {
	scalar []byte     // the encoded value, for a scalar
	open   byte       // '[' or '{' for a container
	keys   [][]byte   // encoded member names, for an object
	kids   []jsonNode // elements or member values
}

func readNode(d *json.Decoder) (jsonNode, error) {
	tok, err := d.Token()
	if err != nil {
		return jsonNode{}, err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		b, err := json.Marshal(tok)
		return jsonNode{scalar: b}, err
	}
	n := jsonNode{open: byte(delim)}
	for d.More() {
		if n.open == '{' {
			k, err := d.Token()
			if err != nil {
				return jsonNode{}, err
			}
			kb, err := json.Marshal(k)
			if err != nil {
				return jsonNode{}, err
			}
			n.keys = append(n.keys, kb)
		}
		kid, err := readNode(d)
		if err != nil {
			return jsonNode{}, err
		}
		n.kids = append(n.kids, kid)
	}
	_, err = d.Token() // the closing delimiter
	return n, err
}

func (n jsonNode) flat() bool {
	for _, k := range n.kids {
		if k.open != 0 {
			return false
		}
	}
	return true
}

func (n jsonNode) write(out *bytes.Buffer, indent string) {
	if n.open == 0 {
		out.Write(n.scalar)
		return
	}
	closing := byte(']')
	if n.open == '{' {
		closing = '}'
	}
	out.WriteByte(n.open)
	flat := n.flat()
	inner := indent + "  "
	for i, k := range n.kids {
		switch {
		case flat && i > 0:
			out.WriteString(", ")
		case !flat:
			if i > 0 {
				out.WriteByte(',')
			}
			out.WriteString("\n" + inner)
		}
		if n.open == '{' {
			out.Write(n.keys[i])
			out.WriteString(": ")
		}
		k.write(out, inner)
	}
	if !flat && len(n.kids) > 0 {
		out.WriteString("\n" + indent)
	}
	out.WriteByte(closing)
}
