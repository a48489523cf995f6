//go:build linux

package embedpg

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// platformSupported gates Start: the manager relies on Pdeathsig, flock and
// /proc, which this file provides for Linux.
const platformSupported = true

// maxSocketPathLen is sizeof(sockaddr_un.sun_path) minus the terminating NUL;
// postgres refuses longer socket paths.
const maxSocketPathLen = 107

// childProcAttr runs a child in its own process group (so a Ctrl-C in the
// terminal reaches only us, and we decide how postgres stops), delivers
// deathSignal to it when we die, and drops it to owner when we are root.
// Go applies Pdeathsig after the credential switch, so it survives it.
func childProcAttr(owner *runAs, deathSignal stopSignal) *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: unixSignal(deathSignal)}
	if owner != nil {
		attr.Credential = &syscall.Credential{Uid: owner.uid, Gid: owner.gid, Groups: []uint32{}}
	}
	return attr
}

func unixSignal(s stopSignal) syscall.Signal {
	switch s {
	case signalFast:
		return syscall.SIGINT
	case signalImmediate:
		return syscall.SIGQUIT
	default:
		return syscall.SIGKILL
	}
}

// signalProcess sends s to pid; signalKill goes to the whole process group so
// that no backend survives its postmaster. A process already gone is not an error.
func signalProcess(pid int, s stopSignal) error {
	target := pid
	if s == signalKill {
		target = -pid
	}
	err := syscall.Kill(target, unixSignal(s))
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// tryLockFile takes an exclusive flock without blocking; false means another
// open file description holds it.
func tryLockFile(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

func unlockFile(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}

// processState reads /proc/<pid>/stat. A zombie still answers kill(pid, 0),
// which is why postgres itself refuses to reuse postmaster.pid while the
// killed postmaster waits to be reaped.
func processState(pid int) procState {
	if pid <= 0 {
		return procGone
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return procGone
		}
		if kerr := syscall.Kill(pid, 0); kerr == nil || errors.Is(kerr, syscall.EPERM) {
			return procRunning
		}
		return procGone
	}
	// The command name is in parentheses and may contain spaces or ')'.
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 || i+2 >= len(data) {
		return procRunning
	}
	switch data[i+2] {
	case 'Z':
		return procZombie
	case 'X':
		return procGone
	default:
		return procRunning
	}
}

// processCwd tells whether pid is a postmaster of our cluster: postgres
// chdirs into its data directory, so its cwd is that directory.
func processCwd(pid int) (string, error) {
	return os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
}

func fileOwner(fi fs.FileInfo) (uid, gid uint32, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return st.Uid, st.Gid, true
}
