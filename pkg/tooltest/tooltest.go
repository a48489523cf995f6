// Package tooltest serves the test helpers that start a real external tool (mailpit for
// e-mail, versitygw for S3): finding or building its binary from tools/<name>, a free
// loopback port, and starting it until it answers, with its output kept for failure
// messages. Test helper packages import it; nothing else.
package tooltest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

var buildMu sync.Mutex

// Binary returns the binary of tool: the path in the environment variable env when set,
// else <repo>/bin/<name>, built when missing with `go build pkg` in tools/<name> (a module
// of its own pinning the tool's version).
func Binary(env, name, pkg string) (string, error) {
	if p := os.Getenv(env); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", env, p, err)
		}
		return p, nil
	}
	root, err := repoRoot(env)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(root, "bin", name)
	buildMu.Lock()
	defer buildMu.Unlock()
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", err
	}
	// Build next to the target and rename, so test packages building at once (go test
	// runs packages in parallel) never execute a half-written file.
	tmp := fmt.Sprintf("%s.%d.tmp", bin, os.Getpid())
	cmd := exec.Command("go", "build", "-o", tmp, pkg)
	cmd.Dir = filepath.Join(root, "tools", name)
	if out, err := cmd.CombinedOutput(); err != nil {
		_ = os.Remove(tmp)
		return "", fmt.Errorf("build %s in tools/%s: %w\n%s", name, name, err, out)
	}
	return bin, os.Rename(tmp, bin)
}

// repoRoot walks up from the working directory (a package directory under go test) to
// the directory of the service's go.mod.
func repoRoot(env string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(b, []byte("module github.com/assay-dev/assay\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod of github.com/assay-dev/assay above the working directory; set %s", env)
		}
		dir = parent
	}
}

// FreePort returns a TCP port free on loopback at the time of the call (0 if none).
func FreePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// SyncBuffer collects a tool's output, written from its process's goroutines, for
// failure messages.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Process is an external tool started by Start.
type Process struct {
	out    *SyncBuffer
	kill   func() error
	exited chan struct{}
}

// Start starts cmd, the tool name, and waits up to 30 s until ready reports that it
// answers. A tool that exits or does not answer in time is stopped, and the error carries
// its output.
func Start(name string, cmd *exec.Cmd, ready func() bool) (*Process, error) {
	out := &SyncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	p := &Process{out: out, kill: cmd.Process.Kill, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.exited) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-p.exited:
			return nil, fmt.Errorf("%s exited during start-up: %s", name, out.String())
		default:
		}
		if ready() {
			return p, nil
		}
		if time.Now().After(deadline) {
			p.Stop()
			return nil, fmt.Errorf("%s did not answer within 30 s: %s", name, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop kills the tool and waits until it has exited.
func (p *Process) Stop() {
	_ = p.kill()
	<-p.exited
}

// Output is what the tool has written so far, for failure messages.
func (p *Process) Output() string { return p.out.String() }
