package memstore_test

import (
	"testing"

	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
	"golfsolitaire/store/storetest"
)

func TestTournamentContract(t *testing.T) {
	t.Parallel()
	storetest.RunTournaments(t, storetest.Backend{
		New: func(t *testing.T, c storetest.Config) store.Store {
			return memstore.New(memstore.Options{Now: c.Now})
		},
	})
}
