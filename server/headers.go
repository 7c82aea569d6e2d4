package server

import "net/http"

// securityHeaders are set on every response. The Content-Security-Policy
// here is the strictest (nothing may load); the pages (package web) set
// their own, which allows the site's scripts, styles and images and
// nothing inline but the import map's hash.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
}
