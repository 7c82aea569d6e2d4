package inmem_test

import (
	"testing"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/accountstest"
	"golfsolitaire/accounts/inmem"
)

func TestContract(t *testing.T) {
	accountstest.Run(t, func(*testing.T) accounts.Store { return inmem.New() })
}
