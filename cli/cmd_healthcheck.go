package cli

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"time"
)

// runHealthcheck asks a running server whether it is healthy: exit 0 when
// GET URL answers 200, 1 otherwise. The container image's HEALTHCHECK uses
// it, so the image needs no shell or curl.
func runHealthcheck(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	url := fs.String("url", envDefault(e, "GOLF_HEALTHCHECK_URL", "http://127.0.0.1:8080/healthz"), "URL to check (env GOLF_HEALTHCHECK_URL)")
	timeout := fs.Duration("timeout", 3*time.Second, "how long to wait")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
	if err != nil {
		return usageError("healthcheck: %v", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return &exitError{code: 1, err: fmt.Errorf("healthcheck: %v", err)}
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &exitError{code: 1, err: fmt.Errorf("healthcheck: %s answered %s", *url, resp.Status)}
	}
	fmt.Fprintln(e.stdout, "healthy")
	return nil
}
