//go:build !linux

package cli

import (
	"errors"
	"os/exec"
)

// startOnCPU is Linux only (sched_setaffinity).
func startOnCPU(cmd *exec.Cmd, cpu int) (restore func(), err error) {
	return nil, errors.New("load: --server-cpu works on Linux only; use taskset or the like")
}
