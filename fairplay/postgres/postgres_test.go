package postgres_test

import (
	"context"
	"testing"

	"golfsolitaire/fairplay/fairplaytest"
	fpg "golfsolitaire/fairplay/postgres"
)

// TestContract runs the fair-play store contract on PostgreSQL, a fresh
// database per store.
func TestContract(t *testing.T) {
	t.Parallel()
	fairplaytest.Run(t, func(t *testing.T) fairplaytest.Store {
		s, err := fpg.Open(context.Background(), migrated.Database(t, "fairplay"), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	})
}
