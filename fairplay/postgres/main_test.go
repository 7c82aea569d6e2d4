package postgres_test

import (
	"context"
	"testing"

	"golfsolitaire/accounts/postgres/pgtest"
	fpg "golfsolitaire/fairplay/postgres"
	"golfsolitaire/internal/testrun"
)

// migrated is the fair-play schema, migrated once for the package's tests
// (each copies it).
var migrated = pgtest.NewTemplate("fairplay", func(ctx context.Context, url string) error {
	s, err := fpg.Open(ctx, url, nil)
	if err != nil {
		return err
	}
	s.Close()
	return nil
})

// TestMain fails the package's tests if any goroutine is still running
// when they end, and spares the test binary the race runtime's second at
// exit (testrun.Main); then it drops the template. The tests mostly wait
// on PostgreSQL (creating and dropping a database takes half a second,
// mostly fsync), so eight run at once.
func TestMain(m *testing.M) {
	testrun.AtLeastParallel(8)
	testrun.MainThen(m, migrated.Drop)
}
