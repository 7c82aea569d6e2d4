package templates

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"golfsolitaire/match"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

func render(t *testing.T, c templ.Component) string {
	t.Helper()
	var b bytes.Buffer
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// testid returns the opening tags of elements with the data-testid.
func testid(html, id string) []string {
	re := regexp.MustCompile(`<[a-z]+[^>]*data-testid="` + regexp.QuoteMeta(id) + `"[^>]*>`)
	return re.FindAllString(html, -1)
}

// inner returns the text of the first element with the data-testid, up to
// its first closing tag.
func inner(html, id string) string {
	re := regexp.MustCompile(`data-testid="` + regexp.QuoteMeta(id) + `"[^>]*>([^<]*)<`)
	m := re.FindStringSubmatch(html)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1])
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden.html")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; run go test ./templates -update and review the diff", path)
	}
}

var page = Page{Lang: "en", Path: "/", Title: "Test"}

func TestBoardColumns(t *testing.T) {
	b := exampleBoard()
	html := render(t, Board(page, b, "Your board", true))
	golden(t, "board-columns", html)
	if n := len(testid(html, "pile-1")) + len(testid(html, "pile-2")) + len(testid(html, "pile-3")); n != 3 {
		t.Errorf("piles = %d, want 3", n)
	}
	for _, tc := range []struct {
		pile     string
		playable bool
		name     string
	}{
		{"play-1", true, "six of clubs, pile 1, playable"},
		{"play-2", false, "two of spades, pile 2"},
		{"play-3", true, "eight of diamonds, pile 3, playable"},
	} {
		tags := testid(html, tc.pile)
		if len(tags) != 1 {
			t.Fatalf("%s: %d elements", tc.pile, len(tags))
		}
		if got := strings.Contains(tags[0], "playable"); got != tc.playable {
			t.Errorf("%s playable = %v, want %v: %s", tc.pile, got, tc.playable, tags[0])
		}
		if !strings.Contains(tags[0], `aria-label="`+tc.name+`"`) {
			t.Errorf("%s: label missing %q: %s", tc.pile, tc.name, tags[0])
		}
	}
	if got := inner(html, "cards-left"); got != "8" {
		t.Errorf("cards left = %q, want 8", got)
	}
	if !strings.Contains(html, `aria-label="seven of hearts"`) {
		t.Error("the waste card has no name")
	}
	if len(testid(html, "turn")) != 1 {
		t.Error("no stock button")
	}
}

func TestBoardSpectatorIsNotInteractive(t *testing.T) {
	html := render(t, Board(page, exampleBoard(), "Ana", false))
	if strings.Contains(html, "<button") {
		t.Error("a spectator's board has buttons")
	}
}

func TestBoardPeaks(t *testing.T) {
	for _, shape := range []string{"tripeaks", "pyramid-golf"} {
		piles := make([][]string, 28)
		for i := range piles {
			piles[i] = []string{"5H"}
		}
		piles[0] = []string{""} // removed
		b := &match.Board{Layout: shape, Piles: piles, Waste: []string{"4C"}, Playable: []int{20}}
		html := render(t, Board(page, b, "b", true))
		if n := strings.Count(html, `class="peak"`); n != 27 {
			t.Errorf("%s: %d cards shown, want 27", shape, n)
		}
		golden(t, "board-"+shape, html)
	}
}

func TestPeakPositionsDoNotCollide(t *testing.T) {
	for _, shape := range []string{"tripeaks", "pyramid-golf"} {
		seen := map[[2]int]int{}
		for p := 0; p < 28; p++ {
			x, y, w := PeakPosition(shape, p)
			if x < 0 || x+2 > w {
				t.Errorf("%s %d: x=%d outside 0..%d", shape, p, x, w)
			}
			if q, ok := seen[[2]int{x, y}]; ok {
				t.Errorf("%s: positions %d and %d both at %d,%d", shape, q, p, x, y)
			}
			seen[[2]int{x, y}] = p
		}
	}
}

func TestScorecard(t *testing.T) {
	html := render(t, Scorecard(page, exampleStandings()))
	golden(t, "scorecard", html)
	if got := inner(html, "total-0"); got != "12" {
		t.Errorf("Ana's total = %q", got)
	}
	tags := testid(html, "topar-0")
	if len(tags) != 1 || !strings.Contains(tags[0], "under") {
		t.Errorf("Ana's to-par cell: %v", tags)
	}
	if got := inner(html, "topar-1"); got != "+1" {
		t.Errorf("Bo's to par = %q, want +1 (a sign, not colour only)", got)
	}
	if !strings.Contains(html, "−2") {
		t.Error("hole scores carry no to-par sign")
	}
}

// TestScorecardAgainstBest: a finished hole's strokes against the best
// possible score, with a sign.
func TestScorecardAgainstBest(t *testing.T) {
	st := exampleStandings()
	two := 2
	st.Rows[0].VsBest = make([]*int, len(st.Rows[0].Scores))
	st.Rows[0].VsBest[0] = &two
	html := render(t, Scorecard(page, st))
	if got := inner(html, "vsbest-0-1"); got != "★+2" {
		t.Errorf("Ana's hole 1 against the best = %q, want ★+2", got)
	}
	if len(testid(html, "vsbest-1-1")) != 0 {
		t.Error("Bo has no best shown, but the card shows one")
	}
}

func TestStandingsTable(t *testing.T) {
	st := exampleStandings()
	st.Rows[1].PlaceText = "T1"
	st.Match = &match.MatchStatus{Text: "Ana 2 UP thru 7"}
	html := render(t, StandingsTable(page, st))
	if got := inner(html, "match-status"); got != "Ana 2 UP thru 7" {
		t.Errorf("match status = %q", got)
	}
	if got := inner(html, "place-1"); got != "T1" {
		t.Errorf("place = %q, want T1", got)
	}
}

func TestCardNames(t *testing.T) {
	for _, tc := range []struct{ lang, code, want string }{
		{"en", "QS", "queen of spades"},
		{"en", "TD", "ten of diamonds"},
		{"en", "AH", "ace of hearts"},
		{"es", "QS", "dama de picas"},
		{"en", "JK", "joker"},
		{"en", "??", "face-down card"},
	} {
		if got := CardName(tc.lang, tc.code); got != tc.want {
			t.Errorf("CardName(%s, %s) = %q, want %q", tc.lang, tc.code, got, tc.want)
		}
	}
}

func TestCatalogComplete(t *testing.T) {
	for _, l := range Languages {
		for _, k := range Keys("en") {
			if Catalog[l][k] == "" {
				t.Errorf("%s lacks %q", l, k)
			}
		}
		for _, k := range Keys(l) {
			if _, ok := Catalog["en"][k]; !ok {
				t.Errorf("%s has %q that English lacks", l, k)
			}
		}
	}
}

// TestCatalogCoversScripts checks that every t('key') of the ES modules is
// in the catalogue.
func TestCatalogCoversScripts(t *testing.T) {
	files, _ := filepath.Glob("../static/*.js")
	re := regexp.MustCompile(`\bt\('([a-zA-Z.\-_]+)'`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			if strings.HasSuffix(m[1], ".") { // a prefix: t('game.' + name)
				if !hasPrefix(m[1]) {
					t.Errorf("%s uses keys %q*, none of which is in the catalogue", f, m[1])
				}
				continue
			}
			if _, ok := Catalog["en"][m[1]]; !ok {
				t.Errorf("%s uses %q, which is not in the catalogue", f, m[1])
			}
		}
	}
}

func TestMatchLanguage(t *testing.T) {
	for _, tc := range []struct{ header, want string }{
		{"es-ES,es;q=0.9,en;q=0.8", "es"},
		{"en-GB,en;q=0.9", "en"},
		{"fr-FR,fr;q=0.9,es;q=0.5,en;q=0.4", "es"},
		{"de", ""},
		{"", ""},
	} {
		if got := Match(tc.header); got != tc.want {
			t.Errorf("Match(%q) = %q, want %q", tc.header, got, tc.want)
		}
	}
}

func TestPages(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    templ.Component
		ids  []string
	}{
		{"home", Home(page), []string{"create-form", "join-form", "public-rooms", "quickmatch", "quickpractice", "set-game", "set-holes"}},
		{"room", Room(page, "ABC-DEF-GHJ", false), []string{"waiting", "big-code", "invite-link", "copy-link", "ready", "start", "play", "scores", "end", "verify", "download", "replay", "rematch", "bot-form", "bot-level", "hint", "hint-text", "room-difficulty", "replay-best", "best-summary", "back-tournament"}},
		{"watch", Room(page, "ABC-DEF-GHJ", true), []string{"boards", "scores"}},
		{"howto", HowTo(page), []string{"howto", "diagram-play", "tips", "odds", "opt-kings", "game-black-hole"}},
		{"practice", Practice(page), []string{"practice-form", "practice-submit", "set-winnable"}},
		{"create", Home(page), []string{"set-winnable"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			html := render(t, tc.c)
			for _, id := range tc.ids {
				if len(testid(html, id)) == 0 {
					t.Errorf("no data-testid=%q", id)
				}
			}
			if !strings.Contains(html, `id="live" class="sr-only" role="status" aria-live="polite"`) {
				t.Error("no polite live region")
			}
		})
	}
}

func TestSettingsFormOptionsFollowTheRules(t *testing.T) {
	html := render(t, SettingsForm(page, "f", false))
	for _, tc := range []struct{ option, games string }{
		{"kings", "golf double-golf tripeaks pyramid-golf"},
		{"columns", "golf"},
		{"freeStart", "golf double-golf"},
		{"negativeScore", "golf double-golf tripeaks pyramid-golf"},
	} {
		if !strings.Contains(html, `data-option="`+tc.option+`" data-games="`+tc.games+`"`) {
			t.Errorf("option %s should apply to %q", tc.option, tc.games)
		}
	}
	if strings.Contains(html, `name="undo"`) {
		t.Error("the competitive form offers undo")
	}
}

func TestRoomShowsCode(t *testing.T) {
	html := render(t, Room(Page{Lang: "es"}, "ABC-DEF-GHJ", false))
	if got := inner(html, "big-code"); got != "ABC-DEF-GHJ" {
		t.Errorf("big code = %q", got)
	}
	if !strings.Contains(html, "Sala ABC-DEF-GHJ") {
		t.Error("the room page is not in Spanish")
	}
}

func hasPrefix(prefix string) bool {
	for k := range Catalog["en"] {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}
