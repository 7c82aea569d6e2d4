package fairplay_test

import (
	"testing"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/fairplaytest"
)

func TestMemoryStoreContract(t *testing.T) {
	t.Parallel()
	fairplaytest.Run(t, func(t *testing.T) fairplaytest.Store { return fairplay.NewMemoryStore() })
}
