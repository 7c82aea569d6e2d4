// Package templates holds the templ components of the browser client and
// its message catalogue. Components render views; they hold no game logic
// and know nothing of HTTP.
package templates

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/a-h/templ"

	"golfsolitaire/golf"
	"golfsolitaire/match"
)

// Page is what every page needs to render: the language and the asset
// URLs.
type Page struct {
	Lang  string
	Path  string // request path, for the language switcher
	Title string
	// Asset returns the URL of a static file (content-hashed); nil gives
	// /static/name.
	Asset func(name string) string
	// ImportMap is the JSON import map that maps module paths to their
	// hashed URLs; empty for none.
	ImportMap string
}

// T translates key in the page's language.
func (p Page) T(key string, args ...any) string { return T(p.Lang, key, args...) }

// URL returns the URL of a static asset.
func (p Page) URL(name string) string {
	if p.Asset == nil {
		return "/static/" + name
	}
	return p.Asset(name)
}

// LangURL is the current page in another language.
func (p Page) LangURL(lang string) string {
	path := p.Path
	if path == "" {
		path = "/"
	}
	return path + "?lang=" + lang
}

// GameOptions lists the rule options the room form offers, in order.
var GameOptions = []string{golf.OptKings, golf.OptFreeStart, golf.OptJokers, golf.OptColumns, golf.OptRedeals, golf.OptNegativeScore}

// gamesFor lists the games an option applies to, space separated.
func gamesFor(option string) string {
	var out []string
	for _, g := range golf.Games {
		if g.Applies(option) {
			out = append(out, string(g))
		}
	}
	return strings.Join(out, " ")
}

// gameDefaults are a game's default option values as data attributes.
func defaultKings(g golf.Game) string { return string(g.Defaults().Kings) }

func itoa(n int) string { return fmt.Sprint(n) }

// rankNames are the catalogue keys of the ranks, by rank character.
const rankChars = "A23456789TJQK"

// CardName is a card's name for screen readers: "queen of spades".
func CardName(lang, code string) string {
	switch code {
	case "":
		return T(lang, "play.empty")
	case "??":
		return T(lang, "play.hidden")
	case "JK":
		return T(lang, "card.JK")
	}
	if len(code) != 2 || !strings.ContainsRune(rankChars, rune(code[0])) || !strings.ContainsRune("CDHS", rune(code[1])) {
		return code
	}
	return T(lang, "card.of", "rank", T(lang, "card."+code[:1]), "suit", T(lang, "card."+code[1:]))
}

// CardRank is the rank as printed on the card: "10" for T.
func CardRank(code string) string {
	if code == "JK" {
		return "★"
	}
	if len(code) != 2 {
		return ""
	}
	if code[0] == 'T' {
		return "10"
	}
	return code[:1]
}

// CardSuit is the suit symbol of a card.
func CardSuit(code string) string {
	if len(code) != 2 {
		return ""
	}
	switch code[1] {
	case 'C':
		return "♣"
	case 'D':
		return "♦"
	case 'H':
		return "♥"
	case 'S':
		return "♠"
	}
	return ""
}

// cardClass is the card's CSS classes.
func cardClass(code string) string {
	switch {
	case code == "??":
		return "card back"
	case code == "JK":
		return "card joker"
	case len(code) == 2:
		return "card suit-" + strings.ToLower(code[1:])
	}
	return "card none"
}

// PeakPosition places position p of a pyramid-like layout: x in
// half-card widths, y in rows, and the total width in half cards.
func PeakPosition(shape string, p int) (x, y, width int) {
	if shape == string(golf.PyramidGolf) {
		r := 0
		for (r+1)*(r+2)/2 <= p {
			r++
		}
		i := p - r*(r+1)/2
		return 6 - r + 2*i, r, 14
	}
	switch {
	case p < 3: // tips
		return 6*p + 3, 0, 20
	case p < 9:
		q := p - 3
		return 2*(q+q/2) + 2, 1, 20
	case p < 18:
		return 2*(p-9) + 1, 2, 20
	}
	return 2 * (p - 18), 3, 20
}

func peakStyle(shape string, p int) string {
	x, y, _ := PeakPosition(shape, p)
	return fmt.Sprintf("--x:%d;--y:%d", x, y)
}

func peakWidth(shape string) int {
	_, _, w := PeakPosition(shape, 0)
	return w
}

func contains(xs []int, n int) bool {
	for _, x := range xs {
		if x == n {
			return true
		}
	}
	return false
}

// top returns the last card of a column, or "".
func top(pile []string) string {
	if len(pile) == 0 {
		return ""
	}
	return pile[len(pile)-1]
}

// jsonCatalog is the language's catalogue (English filling any gap).
func jsonCatalog(lang string) map[string]string {
	m := map[string]string{}
	for k, v := range Catalog["en"] {
		m[k] = v
	}
	for k, v := range Catalog[lang] {
		m[k] = v
	}
	return m
}

// parClass is the class of a score against par: under, even or over.
func parClass(toPar int) string {
	switch {
	case toPar < 0:
		return "under"
	case toPar > 0:
		return "over"
	}
	return "even"
}

// signed writes a difference with its sign: "+2", "E", "−1".
func signed(n int) string {
	switch {
	case n > 0:
		return fmt.Sprintf("+%d", n)
	case n < 0:
		return fmt.Sprintf("−%d", -n)
	}
	return "E"
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// cardLabel names a tableau card and says whether it may be played.
func cardLabel(p Page, code string, pile int, playable bool) string {
	s := CardName(p.Lang, code) + ", " + p.T("play.pile", "n", pile)
	if playable {
		s += ", " + p.T("play.playable")
	}
	return s
}

// outcomeKey is the message for a finished or stuck board.
func outcomeKey(b *match.Board) string {
	switch {
	case b.Cleared || b.End == match.EndCleared:
		return "play.holedOut"
	case b.End == match.EndClock:
		return "play.timeUp"
	case b.End == match.EndAway:
		return "play.awayEnd"
	}
	return "play.noMoves"
}

// cardHoles is the number of hole columns of a scorecard: the holes
// scheduled, or more after sudden death.
func cardHoles(st match.Standings) int {
	n := st.Holes
	for _, r := range st.Rows {
		n = max(n, len(r.Scores))
	}
	return n
}

// bySeat returns the rows in seat order (the scorecard's order).
func bySeat(rows []match.Row) []match.Row {
	out := append([]match.Row(nil), rows...)
	sort.Slice(out, func(i, j int) bool { return out[i].Seat < out[j].Seat })
	return out
}

func practiceHoles(practice bool) string {
	if practice {
		return "1"
	}
	return "9"
}

// columnsStyle lays out n piles: in one row up to ten, else in two rows.
func columnsStyle(n int) string {
	cols := n
	if n > 10 {
		cols = (n + 1) / 2
	}
	return fmt.Sprintf("--piles:%d;--cols:%d", n, cols)
}

// peaksStyle sizes a pyramid-like tableau: width in half cards, rows.
func peaksStyle(shape string) string {
	rows := 4
	if shape == string(golf.PyramidGolf) {
		rows = 7
	}
	return fmt.Sprintf("--w:%d;--rows:%d", peakWidth(shape), rows)
}

// importMap writes the import map script. Its JSON is built by package web
// from file names and hashes; "<" is escaped so it cannot end the script.
func importMap(js string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		_, err := io.WriteString(w, `<script type="importmap">`+strings.ReplaceAll(js, "<", `\u003c`)+`</script>`)
		return err
	})
}
