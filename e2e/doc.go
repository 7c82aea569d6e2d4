// Package e2e holds the end-to-end tests of the browser client: the real
// server with the web pages, driven in headless Chromium through chromedp.
// The tests skip when Chromium is missing, unless CI is set. The package
// starts one Chromium and shares it: every player is a tab in its own
// browser context (own cookies, storage and cache; the tab is emptied and
// reused by a later test), and every test runs its own server.
package e2e
