//go:build !linux

package embedpg

import (
	"io/fs"
	"os"
	"syscall"
)

// platformSupported is false: the manager relies on Pdeathsig, flock and
// /proc, which exist only on Linux. Start and Attach return errUnsupported
// before calling anything below; the stubs keep the package compiling so
// binaries for other platforms can still use DATABASE_PROVIDER=postgres.
const platformSupported = false

// maxSocketPathLen is the strictest common sun_path limit (macOS: 104 bytes).
const maxSocketPathLen = 103

func childProcAttr(owner *runAs, deathSignal stopSignal) *syscall.SysProcAttr { return nil }

func signalProcess(pid int, s stopSignal) error { return errUnsupported }

func tryLockFile(f *os.File) (bool, error) { return false, errUnsupported }

func unlockFile(f *os.File) {}

func processState(pid int) procState { return procGone }

func processCwd(pid int) (string, error) { return "", errUnsupported }

func fileOwner(fi fs.FileInfo) (uid, gid uint32, ok bool) { return 0, 0, false }
