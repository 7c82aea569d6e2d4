package redisstore_test

import (
	"testing"

	"golfsolitaire/store/redisstore/redistest"
	"golfsolitaire/store/storetest"
)

// TestTournamentContract runs the tournament contract on miniredis and,
// when REDIS_URL is set, on that Redis with a unique key prefix.
func TestTournamentContract(t *testing.T) {
	// The backends side by side, as in TestContract.
	t.Run("miniredis", func(t *testing.T) {
		t.Parallel()
		storetest.RunTournaments(t, miniredisBackend())
	})
	for _, tp := range redistest.All {
		t.Run(tp.Name, func(t *testing.T) {
			t.Parallel()
			storetest.RunTournaments(t, realBackend(t, tp))
		})
	}
}
