// Package static holds the browser client's assets (styles, ES modules,
// icons), embedded so the binary is self-contained. There is no build step:
// the files are served as they are.
package static

import "embed"

// FS holds every asset at its top level.
//
//go:embed *.css *.js *.svg
var FS embed.FS
