package memstore_test

import (
	"testing"

	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
	"golfsolitaire/store/storetest"
)

func TestInboxesContract(t *testing.T) {
	t.Parallel()
	storetest.RunInboxes(t, func(t *testing.T) (store.Inboxes, store.Inboxes) {
		in := memstore.NewInboxes(nil)
		return in, in
	})
}
