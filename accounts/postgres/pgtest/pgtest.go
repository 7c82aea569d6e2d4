// Package pgtest gives each test its own PostgreSQL database, dropped
// when the test ends: an empty one (Database), or a copy of a database
// migrated once per test binary (Template). The server is DATABASE_URL,
// or postgres://postgres@127.0.0.1:5432/test; without one the test is
// skipped, unless CI is set, when it fails.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultURL is the machine's PostgreSQL (trust auth).
const DefaultURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// baseURL is DATABASE_URL, or DefaultURL.
func baseURL() string {
	if base := os.Getenv("DATABASE_URL"); base != "" {
		return base
	}
	return DefaultURL
}

// admin connects to the server, skipping t (failing it under CI) if
// nobody answers.
func admin(t testing.TB, ctx context.Context) *pgx.Conn {
	t.Helper()
	base := baseURL()
	c, err := pgx.Connect(ctx, base)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL at %s: %v", base, err)
		}
		t.Skipf("no PostgreSQL at %s (%v); set DATABASE_URL", base, err)
	}
	return c
}

// Database creates an empty database named after prefix and a random
// suffix, drops it (with FORCE) when t ends, and returns its URL.
func Database(t testing.TB, prefix string) string {
	t.Helper()
	return create(t, prefix, "")
}

// create creates a database named after prefix and a random suffix, a
// copy of template if not "" (else of PostgreSQL's template1: empty),
// drops it (with FORCE) when t ends, and returns its URL.
func create(t testing.TB, prefix, template string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := admin(t, ctx)
	defer c.Close(context.Background())
	name := randomName(prefix)
	q := "CREATE DATABASE " + pgx.Identifier{name}.Sanitize()
	if template != "" {
		q += " TEMPLATE " + pgx.Identifier{template}.Sanitize()
	}
	if _, err := c.Exec(ctx, q); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := drop(name); err != nil {
			t.Error(err)
		}
	})
	return urlOf(t, name)
}

// randomName is prefix, an underscore and twelve random hex digits.
func randomName(prefix string) string {
	suffix := make([]byte, 6)
	rand.Read(suffix)
	return prefix + "_" + hex.EncodeToString(suffix)
}

// urlOf is the URL of the database name on the server.
func urlOf(t testing.TB, name string) string {
	u, err := url.Parse(baseURL())
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// drop drops the database name WITH (FORCE) (closing its connections).
func drop(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, baseURL())
	if err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	defer c.Close(context.Background())
	if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	return nil
}

// Template is a database migrated once per test binary, on the first
// call of its Database: each call then copies it (CREATE DATABASE ...
// TEMPLATE, a file copy that takes a tenth of a second), rather than
// migrating an empty database of its own (a second each for the accounts'
// migrations on a two-core machine). Its name has a random suffix, so
// that test binaries running at once (other packages, other checkouts on
// the same server) each have their own; the package's TestMain drops it
// (Drop) once the tests have run. A test binary killed before then
// leaves it behind, as it leaves the databases of its tests that had not
// ended: their names start with "tpl_" and the prefix.
type Template struct {
	prefix  string
	migrate func(ctx context.Context, url string) error

	mu   sync.Mutex
	name string // once made
	err  error  // why making it failed
}

// NewTemplate is a template named after prefix (and a random suffix)
// whose schema migrate applies to the empty database at url, closing
// every connection it opened before it returns (PostgreSQL copies no
// database anyone is connected to).
func NewTemplate(prefix string, migrate func(ctx context.Context, url string) error) *Template {
	return &Template{prefix: prefix, migrate: migrate}
}

// Database creates a database named after prefix and a random suffix, a
// copy of the template (migrated first if this is the first call), drops
// it (with FORCE) when t ends, and returns its URL.
func (tp *Template) Database(t testing.TB, prefix string) string {
	t.Helper()
	name, err := tp.make(t)
	if err != nil {
		t.Fatalf("template %s: %v", tp.prefix, err)
	}
	return create(t, prefix, name)
}

// make makes the template database unless it is made (or failed),
// skipping t if no PostgreSQL answers, and returns its name.
func (tp *Template) make(t testing.TB) (string, error) {
	t.Helper()
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if tp.name != "" || tp.err != nil {
		return tp.name, tp.err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := admin(t, ctx)
	defer c.Close(context.Background())
	name := randomName("tpl_" + tp.prefix)
	if _, err := c.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		tp.err = err
		return "", err
	}
	tp.name = name // dropped by Drop even if its migration fails
	if err := tp.migrate(ctx, urlOf(t, name)); err != nil {
		tp.err = fmt.Errorf("migrate: %w", err)
	}
	return tp.name, tp.err
}

// Drop drops the template database, if it was made. The package's
// TestMain calls it once the tests have run (testrun.MainThen).
func (tp *Template) Drop() {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if tp.name == "" {
		return
	}
	if err := drop(tp.name); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", err)
	}
	tp.name, tp.err = "", nil
}
