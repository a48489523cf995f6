package embedpg

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// stopSignal names the signals we use, portably; sys_*.go maps them.
type stopSignal int

const (
	signalFast      stopSignal = iota // SIGINT: fast shutdown, with a checkpoint
	signalImmediate                   // SIGQUIT: immediate shutdown, crash recovery on next start
	signalKill                        // SIGKILL to the whole process group
)

// procState is what /proc says about a pid found in postmaster.pid.
type procState int

const (
	procGone procState = iota
	procRunning
	procZombie
)

// serverProcess is a started child and its eventual exit.
type serverProcess struct {
	pid     int
	done    chan struct{} // closed once the child has exited and been reaped
	waitErr error         // valid after done is closed
}

// startProcess starts cmd from a goroutine locked to its OS thread until the
// child exits. Linux sends Pdeathsig when the *thread* that forked the child
// exits, not the process; Go may retire a thread under us, and postgres
// would then be told to shut down while we are still running.
func startProcess(cmd *exec.Cmd) (*serverProcess, error) {
	p := &serverProcess{done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		p.pid = cmd.Process.Pid
		started <- nil
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return p, nil
}

func (p *serverProcess) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// waitExit waits up to d, or until ctx is done, for the child to exit.
func (p *serverProcess) waitExit(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-p.done:
		return true
	case <-timer.C:
		return false
	case <-ctx.Done():
		return p.exited()
	}
}

// shutdown stops the server: fast shutdown first, immediate shutdown after
// grace or when ctx ends, then SIGKILL to the process group as a last resort.
func (p *serverProcess) shutdown(ctx context.Context, grace time.Duration, logger *slog.Logger) error {
	if p.exited() {
		if p.waitErr != nil {
			return fmt.Errorf("embedpg: postgres had already exited: %w", p.waitErr)
		}
		return nil
	}
	if err := signalProcess(p.pid, signalFast); err != nil {
		return fmt.Errorf("embedpg: signal postgres: %w", err)
	}
	if p.waitExit(ctx, grace) {
		return nil
	}
	if err := signalProcess(p.pid, signalImmediate); err != nil {
		return fmt.Errorf("embedpg: signal postgres: %w", err)
	}
	logger.Warn("embedded postgres: fast shutdown did not finish in time; requested an immediate shutdown", "pid", p.pid)
	if p.waitExit(context.Background(), 5*time.Second) {
		return nil
	}
	logger.Error("embedded postgres: immediate shutdown did not finish; killing it", "pid", p.pid)
	if err := signalProcess(p.pid, signalKill); err != nil {
		return fmt.Errorf("embedpg: kill postgres: %w", err)
	}
	if !p.waitExit(context.Background(), 5*time.Second) {
		return fmt.Errorf("embedpg: postgres pid %d did not exit after SIGKILL", p.pid)
	}
	return fmt.Errorf("embedpg: postgres pid %d had to be killed", p.pid)
}

// earlyExitError is a server that exited before becoming ready.
type earlyExitError struct {
	waitErr error
	logTail string // new log lines of this attempt, for matching and display
}

func (e *earlyExitError) Error() string {
	return fmt.Sprintf("embedded database: postgres exited during start-up (%v)%s", e.waitErr, indentTail(e.logTail))
}

// readLogSince returns the log written after offset, at most the last n lines.
func readLogSince(path string, offset int64, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return ""
	}
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	return strings.Join(lines, "\n")
}

// formatLogTail renders the last 20 log lines since offset for an error, or
// the last 20 lines of the whole log when this attempt wrote none.
func formatLogTail(path string, offset int64) string {
	tail := readLogSince(path, offset, 20)
	if strings.TrimSpace(tail) == "" {
		// The log grows across runs; 64 KiB is plenty for 20 lines.
		from := int64(0)
		if fi, err := os.Stat(path); err == nil && fi.Size() > 64<<10 {
			from = fi.Size() - 64<<10
		}
		tail = readLogSince(path, from, 20)
	}
	return indentTail(tail) + "\n  (full log: " + path + ")"
}

func indentTail(tail string) string {
	if strings.TrimSpace(tail) == "" {
		return ""
	}
	return "\n  last lines of the server log:\n    " + strings.ReplaceAll(tail, "\n", "\n    ")
}

// errorsAsEarlyExit is errors.As for the common start-retry check.
func errorsAsEarlyExit(err error) (*earlyExitError, bool) {
	var e *earlyExitError
	ok := errors.As(err, &e)
	return e, ok
}
