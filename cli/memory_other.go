//go:build !linux

package cli

// defaultSelfGCLimit is load's --self-gc-limit in MiB: 0 (collect as
// usual) where the machine's memory is not read.
func defaultSelfGCLimit() int64 { return 0 }

// defaultMemoryLimitMiB is serve's --memory-limit: 0 (Go's own) where
// the machine's memory is not read.
func defaultMemoryLimitMiB() int64 { return memoryLimitOf("", "", 0) }
