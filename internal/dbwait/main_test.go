package dbwait_test

import (
	"testing"

	"golfsolitaire/internal/testrun"
)

func TestMain(m *testing.M) { testrun.Main(m) }
