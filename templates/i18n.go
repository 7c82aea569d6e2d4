package templates

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Languages lists the languages of the interface, the default first.
var Languages = []string{"en", "es"}

// LanguageNames names each language in itself, for the switcher.
var LanguageNames = map[string]string{"en": "English", "es": "Español"}

// Catalog holds every interface string by language and key. Templates use
// it through Page.T; the browser gets the whole language as JSON (Page.JSCatalog).
// Placeholders are written {name}.
var Catalog = map[string]map[string]string{
	"en": en,
	"es": es,
}

// T returns the string for key in lang, falling back to English and then to
// the key itself, with {name} placeholders replaced by the args, given as
// name, value pairs.
func T(lang, key string, args ...any) string {
	s, ok := Catalog[lang][key]
	if !ok {
		s, ok = Catalog["en"][key]
	}
	if !ok {
		s = key
	}
	for i := 0; i+1 < len(args); i += 2 {
		s = strings.ReplaceAll(s, "{"+fmt.Sprint(args[i])+"}", fmt.Sprint(args[i+1]))
	}
	return s
}

// Keys returns the keys of a language, sorted.
func Keys(lang string) []string {
	var keys []string
	for k := range Catalog[lang] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// CatalogJSON is a language's catalogue as JSON, for the browser.
func CatalogJSON(lang string) string {
	m := map[string]string{}
	for k, v := range Catalog["en"] {
		m[k] = v
	}
	for k, v := range Catalog[lang] {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// Match picks the best language of an Accept-Language header, or "".
func Match(accept string) string {
	best, bestQ := "", -1.0
	for _, part := range strings.Split(accept, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		tag, q := part, 1.0
		if i := strings.Index(part, ";"); i >= 0 {
			tag = strings.TrimSpace(part[:i])
			var f float64
			if _, err := fmt.Sscanf(strings.TrimSpace(part[i+1:]), "q=%g", &f); err == nil {
				q = f
			}
		}
		base := strings.ToLower(strings.SplitN(tag, "-", 2)[0])
		if _, ok := Catalog[base]; ok && q > bestQ {
			best, bestQ = base, q
		}
	}
	return best
}
