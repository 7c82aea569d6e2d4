package cli

import (
	"os"
	"syscall"
)

// defaultSelfGCLimit is load's --self-gc-limit in MiB: a quarter of the
// machine's memory, at most 4 GiB (0 where it cannot be read).
func defaultSelfGCLimit() int64 {
	return min(machineMemory()/4>>20, 4<<10)
}

// machineMemory is the machine's memory in bytes (0 where it cannot be
// read).
func machineMemory() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}

// defaultMemoryLimitMiB is serve's --memory-limit: four fifths of the
// memory the process may use, its cgroup's limit where it has one, else
// the machine's (0 where neither can be read).
func defaultMemoryLimitMiB() int64 {
	return memoryLimitOf(readFile("/sys/fs/cgroup/memory.max"), readFile("/sys/fs/cgroup/memory/memory.limit_in_bytes"), machineMemory())
}

// readFile is the file's contents, or "" where it cannot be read.
func readFile(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	return string(b)
}
