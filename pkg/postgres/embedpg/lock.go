package embedpg

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// dirLock is an exclusive flock on DataDir/lock. It makes the data directory
// single-owner: without it a second instance saw the first instance's socket
// answer its readiness probe and believed it had started its own server.
//
// flock locks belong to the open file description, so the lock is released by
// the kernel when the process dies, conflicts between two Servers in the same
// process too, and is not inherited by postgres (Go opens files close-on-exec).
type dirLock struct {
	f *os.File
}

func lockPath(dataDir string) string { return filepath.Join(dataDir, "lock") }

// acquireLock takes the lock without blocking and records our pid in the file
// so that a refused process can name the owner.
func acquireLock(dataDir string) (*dirLock, error) {
	f, err := os.OpenFile(lockPath(dataDir), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("embedpg: open lock file: %w", err)
	}
	locked, err := tryLockFile(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("embedpg: lock %s: %w", f.Name(), err)
	}
	if !locked {
		pid := readLockOwner(f)
		f.Close()
		return nil, lockedError(dataDir, pid)
	}
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	if err != nil {
		unlockFile(f)
		f.Close()
		return nil, fmt.Errorf("embedpg: record pid in lock file: %w", err)
	}
	return &dirLock{f: f}, nil
}

// lockHolder reports whether another open file description holds the lock,
// and the owner's pid when recorded. It takes and drops the lock to find out.
func lockHolder(dataDir string) (held bool, pid int, err error) {
	f, err := os.Open(lockPath(dataDir))
	if errors.Is(err, fs.ErrNotExist) {
		return false, 0, nil
	}
	if err != nil {
		return false, 0, fmt.Errorf("embedpg: open lock file: %w", err)
	}
	defer f.Close()
	locked, err := tryLockFile(f)
	if err != nil {
		return false, 0, fmt.Errorf("embedpg: lock %s: %w", f.Name(), err)
	}
	if locked {
		unlockFile(f)
		return false, 0, nil
	}
	return true, readLockOwner(f), nil
}

func readLockOwner(f *os.File) int {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

func lockedError(dataDir string, pid int) error {
	return &detailedError{sentinel: ErrLocked, msg: fmt.Sprintf(
		"embedded database: data directory %s is in use by another process%s; stop it, or use a different data directory",
		dataDir, pidSuffix(pid))}
}

// release clears the recorded pid and drops the lock. It is safe on nil.
func (l *dirLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	_ = l.f.Truncate(0)
	unlockFile(l.f)
	err := l.f.Close()
	l.f = nil
	if err != nil {
		return fmt.Errorf("embedpg: close lock file: %w", err)
	}
	return nil
}
