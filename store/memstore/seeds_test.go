package memstore_test

import (
	"testing"

	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
	"golfsolitaire/store/storetest"
)

func TestSeedPoolsContract(t *testing.T) {
	t.Parallel()
	storetest.RunSeedPools(t, func(t *testing.T) (store.SeedPools, store.SeedPools) {
		p := memstore.NewSeedPools()
		return p, p
	})
}
