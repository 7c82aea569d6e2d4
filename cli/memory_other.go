//go:build !linux

package cli

// defaultSelfGCLimit is load's --self-gc-limit in MiB: 0 (collect as
// usual) where the machine's memory is not read.
func defaultSelfGCLimit() int64 { return 0 }
