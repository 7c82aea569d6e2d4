// Package templates holds the templ components of the browser client and
// its message catalogue. Components render views; they hold no game logic
// and know nothing of HTTP.
package templates

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/a-h/templ"

	"golfsolitaire/golf"
)

// Page is what every page needs to render: the language and the asset
// URLs.
type Page struct {
	Lang  string
	Path  string // request path as escaped (URL.EscapedPath), for the language switcher
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

// LangURL is the current page in another language: a path on this site
// whatever the request's path was. A link starting with "//" (or "/\",
// which browsers read the same) would name another host, so leading
// slashes are kept to one and backslashes escaped.
func (p Page) LangURL(lang string) string {
	path := strings.ReplaceAll(p.Path, `\`, "%5C")
	path = "/" + strings.TrimLeft(path, "/")
	return path + "?lang=" + url.QueryEscape(lang)
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

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func practiceHoles(practice bool) string {
	if practice {
		return "1"
	}
	return "9"
}

// importMap writes the import map script. Its JSON is built by package web
// from file names and hashes; "<" is escaped so it cannot end the script.
func importMap(js string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		_, err := io.WriteString(w, `<script type="importmap">`+strings.ReplaceAll(js, "<", `\u003c`)+`</script>`)
		return err
	})
}
