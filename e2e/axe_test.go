package e2e_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axe-core, the accessibility checker: .ci/run installs a pinned version
// from the npm registry outside the repository and passes its axe.min.js
// in AXE_CORE.
var (
	axeOnce   sync.Once
	axeSource string
	axeErr    error
)

func loadAxe() (string, error) {
	axeOnce.Do(func() {
		path := os.Getenv("AXE_CORE")
		if path == "" {
			axeErr = os.ErrNotExist
			return
		}
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			path += "/axe.min.js"
		}
		b, err := os.ReadFile(path)
		axeSource, axeErr = string(b), err
	})
	return axeSource, axeErr
}

// needAxe skips the test, loudly, without axe-core; with CI set it fails.
func needAxe(t *testing.T) {
	t.Helper()
	if _, err := loadAxe(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("axe-core is required when CI is set (AXE_CORE=%q): %v", os.Getenv("AXE_CORE"), err)
		}
		t.Skipf("SKIPPED: no axe-core (set AXE_CORE to axe.min.js; .ci/run installs it): %v", err)
	}
}

// cspCheck fails if the page's Content-Security-Policy refused anything
// (an inline style or script): recordCSPViolations keeps what it refused.
func cspCheck(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	if csp := eval[[]string](t, ctx, `window.__csp || []`); len(csp) > 0 {
		t.Errorf("%s: the Content-Security-Policy refused: %v", page, csp)
	}
}

// axeCheck runs axe-core on the page as it is and fails on serious or
// critical violations (WCAG 2.1 A and AA and axe's best practices).
// Without axe-core it says so in the log (needAxe skips whole tests).
func axeCheck(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	cspCheck(t, ctx, page)
	src, err := loadAxe()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("axe-core is required when CI is set: %v", err)
		}
		t.Logf("SKIPPED accessibility check of %s: no axe-core (AXE_CORE)", page)
		return
	}
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`typeof window.axe === 'object'`)); err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	if ok, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`typeof window.axe === 'object'`)); !ok {
		if _, err := chromedp.Run(tctx, chromedp.Evaluate[chromedp.Void](src+";void 0")); err != nil {
			t.Fatalf("%s: injecting axe-core: %v", page, err)
		}
	}
	// Colours are measured once entrance animations (fades) are over.
	bad, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](`Promise.all(document.getAnimations()
		.filter(a => a.effect?.getTiming().iterations !== Infinity).map(a => a.finished.catch(() => null)))
	.then(() => axe.run(document, {
		runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']},
		resultTypes: ['violations'],
	}).then(r => r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
		.map(v => v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(', '))))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: running axe-core: %v", page, err)
	}
	if len(bad) > 0 {
		failShot(t, ctx, "axe-"+sanitize(page))
		t.Errorf("%s: accessibility violations:\n  %s", page, strings.Join(bad, "\n  "))
	}
}
