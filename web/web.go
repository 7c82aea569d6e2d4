// Package web serves the browser client's pages and static assets. Its
// handlers choose the language and render templ components; they hold no
// game logic: the pages talk to the server's JSON API and WebSocket.
package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/a-h/templ"

	"golfsolitaire/roomcode"
	"golfsolitaire/static"
	"golfsolitaire/store"
	"golfsolitaire/templates"
)

// Options configure the pages. The zero value is ready to use.
type Options struct {
	// DefaultLang is used when neither ?lang=, the cookie nor
	// Accept-Language names a language of the catalogue; default "en".
	DefaultLang string
	// Assets replaces the embedded static files (for tests); default
	// static.FS.
	Assets fs.FS
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Exists, when set, reports whether a room code or tournament id is in
	// the store: /r/{code}, /watch/{code} and /t/{id} answer 404 (the
	// not-found page, which offers the lobby) when it reports false. When
	// it fails, the page is served as usual (its script reports a room
	// that is gone).
	Exists func(ctx context.Context, id string) (bool, error)
	// Players is the account store the profile pages read; nil: every
	// profile is a 404.
	Players Players
}

// LangCookie is the cookie that keeps the chosen language.
const LangCookie = "lang"

// asset is one static file with its content hash.
type asset struct {
	body  []byte
	hash  string
	ctype string
}

type handler struct {
	opts      Options
	assets    map[string]*asset
	importMap string
	csp       string // the pages' Content-Security-Policy
	started   time.Time
}

// New returns the handler of the browser client: GET / (lobby), /r/{code}
// (room), /watch/{code} (spectator), /how-to-play, /practice and
// /static/...; anything else is a 404 page.
func New(opts Options) http.Handler {
	if opts.DefaultLang == "" {
		opts.DefaultLang = templates.Languages[0]
	}
	if opts.Assets == nil {
		opts.Assets = static.FS
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	h := &handler{opts: opts, assets: map[string]*asset{}, started: time.Now()}
	h.load()
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		return templates.Home(p), http.StatusOK
	}, "home.title"))
	m.HandleFunc("GET /practice", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		return templates.Practice(p), http.StatusOK
	}, "practice.title"))
	m.HandleFunc("GET /how-to-play", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		return templates.HowTo(p), http.StatusOK
	}, "howto.title"))
	m.HandleFunc("GET /r/{code}", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		code, ok := roomCode(r.PathValue("code"))
		if !ok || !h.exists(r.Context(), code) {
			return templates.NotFound(p), http.StatusNotFound
		}
		return templates.Room(p, code, false), http.StatusOK
	}, "room.code"))
	m.HandleFunc("GET /watch/{code}", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		code, ok := roomCode(r.PathValue("code"))
		if !ok || !h.exists(r.Context(), code) {
			return templates.NotFound(p), http.StatusNotFound
		}
		return templates.Room(p, code, true), http.StatusOK
	}, "watch.boards"))
	h.tvPages(m) // tv.go
	h.tournamentPages(m)
	h.accountPages(m)
	m.HandleFunc("GET /static/{file}", h.static)
	m.HandleFunc("/", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		return templates.NotFound(p), http.StatusNotFound
	}, "notfound.title"))
	return m
}

// Loader is the part of store.Store that StoreExists needs.
type Loader interface {
	Load(ctx context.Context, room string) (store.Snapshot, error)
}

var _ Loader = store.Store(nil)

// StoreExists is an Options.Exists that asks the store: rooms and
// tournaments are both kept under their code or id.
func StoreExists(st Loader) func(ctx context.Context, id string) (bool, error) {
	return func(ctx context.Context, id string) (bool, error) {
		_, err := st.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return false, nil
		}
		return err == nil, err
	}
}

// exists asks Options.Exists; without it, or when it fails, every id
// exists.
func (h *handler) exists(ctx context.Context, id string) bool {
	if h.opts.Exists == nil {
		return true
	}
	ok, err := h.opts.Exists(ctx, id)
	if err != nil {
		h.opts.Logger.Warn("web: checking whether a room exists", "id", id, "err", err)
		return true
	}
	return ok
}

// roomCode reads a room code in a path as the server does (package
// roomcode); the store decides whether the room exists.
func roomCode(s string) (string, bool) {
	code := roomcode.Normalize(s)
	return code, code != ""
}

// load reads and hashes the assets and builds the import map, so modules
// imported by other modules get hashed URLs too.
func (h *handler) load() {
	imports := map[string]string{}
	fs.WalkDir(h.opts.Assets, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(name, ".go") {
			return err
		}
		b, err := fs.ReadFile(h.opts.Assets, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		ctype := mime.TypeByExtension(path.Ext(name))
		if path.Ext(name) == ".js" {
			ctype = "text/javascript; charset=utf-8"
		}
		a := &asset{body: b, hash: hex.EncodeToString(sum[:8]), ctype: ctype}
		h.assets[name] = a
		if path.Ext(name) == ".js" {
			imports["/static/"+name] = h.url(name)
		}
		return nil
	})
	b, _ := json.Marshal(map[string]any{"imports": imports})
	h.importMap = string(b)
	h.csp = contentSecurityPolicy(h.importMap)
}

// contentSecurityPolicy is the pages' policy: scripts, styles, images and
// connections from the site only; no inline script but the import map,
// allowed by its hash (the i18n catalogue is a JSON data block, which is
// never run); no framing; no inline style at all (neither <style> nor
// style="" attributes: the scripts set the board's custom properties
// through the CSSOM, which the policy does not restrict).
func contentSecurityPolicy(importMap string) string {
	// The import map as templates.importMap writes it.
	sum := sha256.Sum256([]byte(strings.ReplaceAll(importMap, "<", `\u003c`)))
	return "default-src 'self'; script-src 'self' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; " +
		"style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
		"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}

// url is an asset's content-addressed URL.
func (h *handler) url(name string) string {
	if a, ok := h.assets[name]; ok {
		return "/static/" + name + "?v=" + a.hash
	}
	return "/static/" + name
}

// static serves an asset with an ETag; a request for the current hash may
// be cached for a year.
func (h *handler) static(w http.ResponseWriter, r *http.Request) {
	a, ok := h.assets[r.PathValue("file")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	etag := `"` + a.hash + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.URL.Query().Get("v") == a.hash {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "public, no-cache")
	}
	if a.ctype != "" {
		w.Header().Set("Content-Type", a.ctype)
	}
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	http.ServeContent(w, r, r.PathValue("file"), h.started, bytes.NewReader(a.body))
}

// lang picks the page language: ?lang= (remembered in a cookie), then the
// cookie, then Accept-Language, then the default.
func (h *handler) lang(w http.ResponseWriter, r *http.Request) string {
	if l := r.URL.Query().Get("lang"); l != "" {
		if _, ok := templates.Catalog[l]; ok {
			http.SetCookie(w, &http.Cookie{Name: LangCookie, Value: l, Path: "/", MaxAge: 365 * 24 * 3600, SameSite: http.SameSiteLaxMode})
			return l
		}
	}
	if c, err := r.Cookie(LangCookie); err == nil {
		if _, ok := templates.Catalog[c.Value]; ok {
			return c.Value
		}
	}
	if l := templates.Match(r.Header.Get("Accept-Language")); l != "" {
		return l
	}
	return h.opts.DefaultLang
}

// page adapts a view function to a handler: it picks the language, builds
// the Page and renders the component.
func (h *handler) page(view func(templates.Page, *http.Request) (templ.Component, int), titleKey string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		lang := h.lang(w, r)
		p := templates.Page{Lang: lang, Path: r.URL.EscapedPath(), Asset: h.url, ImportMap: h.importMap}
		p.Title = p.T(titleKey)
		if code := r.PathValue("code"); code != "" {
			p.Title = p.T("room.title", "code", strings.ToUpper(code))
		}
		c, status := view(p, r)
		var buf bytes.Buffer
		if err := c.Render(context.WithoutCancel(r.Context()), &buf); err != nil {
			h.opts.Logger.Error("web: rendering a page", "path", r.URL.Path, "err", err)
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		hd := w.Header()
		hd.Set("Content-Type", "text/html; charset=utf-8")
		hd.Set("Content-Security-Policy", h.csp)
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Content-Language", lang)
		hd.Set("Vary", "Accept-Language, Cookie")
		hd.Set("Cache-Control", "no-cache")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		if status == http.StatusServiceUnavailable {
			hd.Set("Retry-After", "5") // the database did not answer: as the API's 503s
		}
		w.WriteHeader(status)
		w.Write(buf.Bytes())
	}
}
