// Package pgtest gives each test its own PostgreSQL database, dropped
// when the test ends. The server is DATABASE_URL, or
// postgres://postgres@127.0.0.1:5432/test; without one the test is skipped,
// unless CI is set, when it fails.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultURL is the machine's PostgreSQL (trust auth).
const DefaultURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// Database creates an empty database named after prefix and a random
// suffix, drops it (with FORCE) when t ends, and returns its URL.
func Database(t testing.TB, prefix string) string {
	t.Helper()
	base := os.Getenv("DATABASE_URL")
	if base == "" {
		base = DefaultURL
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL at %s: %v", base, err)
		}
		t.Skipf("no PostgreSQL at %s (%v); set DATABASE_URL", base, err)
	}
	defer admin.Close(context.Background())
	suffix := make([]byte, 6)
	rand.Read(suffix)
	name := prefix + "_" + hex.EncodeToString(suffix)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("drop database %s: %v", name, err)
			return
		}
		defer c.Close(context.Background())
		if _, err := c.Exec(ctx, "DROP DATABASE "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
