package templates

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/a-h/templ"
)

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

var page = Page{Lang: "en", Path: "/", Title: "Test"}

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
