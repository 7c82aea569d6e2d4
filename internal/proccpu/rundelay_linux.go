package proccpu

import (
	"encoding/binary"
	"io/fs"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// RunDelay is RunDelay, read with r's buffers: the task directory's
// entries through getdents(2) and each thread's schedstat into a buffer
// on the stack.
func (r *Reader) RunDelay(pid int) (time.Duration, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.path = strconv.AppendInt(append(r.path[:0], "/proc/"...), int64(pid), 10)
	r.path = append(r.path, "/task"...)
	dir, err := r.open(len(r.path), syscall.O_DIRECTORY)
	if err != nil {
		return 0, &fs.PathError{Op: "open", Path: string(r.path), Err: err}
	}
	defer syscall.Close(dir)
	if r.dirents == nil {
		r.dirents = make([]byte, 8192)
	}
	base := len(r.path)
	var sum time.Duration
	for {
		n, err := syscall.ReadDirent(dir, r.dirents)
		if err != nil {
			return 0, &fs.PathError{Op: "getdents", Path: string(r.path[:base]), Err: err}
		}
		if n <= 0 {
			return sum, nil
		}
		for b := r.dirents[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break
			}
			name := b[19:reclen]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			b = b[reclen:]
			if len(name) == 0 || name[0] == '.' {
				continue
			}
			wait, ok, err := r.threadWait(base, name)
			if err != nil {
				return 0, err
			}
			if ok {
				sum += wait
			}
		}
	}
}

// threadWait reads the schedstat of the thread named name in the task
// directory r.path[:base]; ok is false when it has ended.
func (r *Reader) threadWait(base int, name []byte) (time.Duration, bool, error) {
	r.path = append(append(append(r.path[:base], '/'), name...), "/schedstat"...)
	fd, err := r.open(len(r.path), 0)
	if err != nil {
		return 0, false, nil // a thread that has ended
	}
	var buf [128]byte
	n, err := syscall.Read(fd, buf[:])
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return 0, false, nil
	}
	wait, err := parseSchedstat(buf[:n])
	return wait, err == nil, err
}

// open opens r.path[:n] for reading.
func (r *Reader) open(n int, flags int) (int, error) {
	// The path is made a string without a copy: the system call copies
	// it (NUL-terminated) before r.path changes.
	return syscall.Open(unsafe.String(unsafe.SliceData(r.path), n), syscall.O_RDONLY|syscall.O_CLOEXEC|flags, 0)
}
