// Package e2e holds the end-to-end tests of the browser client: the real
// server with the web pages, driven in headless Chromium through chromedp.
// The tests skip when Chromium is missing, unless CI is set.
package e2e
