package cli

import "syscall"

// defaultSelfGCLimit is load's --self-gc-limit in MiB: a quarter of the
// machine's memory, at most 4 GiB (0 where it cannot be read).
func defaultSelfGCLimit() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	return min(int64(si.Totalram)*int64(si.Unit)/4>>20, 4<<10)
}
