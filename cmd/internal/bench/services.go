package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// process is a child program serving HTTP on loopback.
type process struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:<port>
	log  string // its output
	done chan struct{}
}

// startServer runs the assay-server binary against dsn with every limit that would
// throttle the generator lifted, and waits until /api/health answers. The settings in
// extra (NAME=VALUE, from -server-env) come after the bench's own, so they win.
func startServer(ctx context.Context, bin, dsn, logPath string, extra []string) (*process, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"),
		"DATABASE_PROVIDER=postgres", "DATABASE_URL=" + dsn, "NODE_ENV=test",
		"RATE_LIMIT_PER_MINUTE=100000000", "LOG_LEVEL=error",
		"PORT=" + strconv.Itoa(port), "BIND_ADDRESS=127.0.0.1",
	}
	env = append(env, extra...)
	return startProcess(ctx, bin, nil, env, port, "/api/health", logPath)
}

// startHelloWorld re-runs this program as the hello-world ceiling server, a separate
// process so its CPU and memory are measured like the real server's.
func startHelloWorld(ctx context.Context, logPath string) (*process, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	args := []string{"-serve-hello-world", "127.0.0.1:" + strconv.Itoa(port)}
	return startProcess(ctx, self, args, os.Environ(), port, "/", logPath)
}

// serverVersion is the version /api/health reports (git describe of the build).
func serverVersion(ctx context.Context, base string) string {
	var h struct{ Version string }
	if _, err := newAPIClient(base).call(ctx, http.MethodGet, "/api/health", "", nil, http.StatusOK, &h); err != nil {
		return "unknown"
	}
	return h.Version
}

// serveHelloWorld is the ceiling: net/http answering a constant, nothing else.
func serveHelloWorld(addr string) error {
	hello := []byte("Hello, world!\n")
	return http.ListenAndServe(addr, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write(hello)
	}))
}

func startProcess(ctx context.Context, bin string, args, env []string, port int, healthPath, logPath string) (*process, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close() // the child holds its own descriptor
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	p := &process{cmd: cmd, base: fmt.Sprintf("http://127.0.0.1:%d", port), log: logPath, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	if err := p.waitHealthy(ctx, healthPath); err != nil {
		p.stop()
		return nil, fmt.Errorf("%s: %w\n%s", filepath.Base(bin), err, p.logTail())
	}
	return p, nil
}

func (p *process) pid() int { return p.cmd.Process.Pid }

func (p *process) waitHealthy(ctx context.Context, path string) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			return errors.New("exited during start-up")
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		res, err := client.Get(p.base + path)
		if err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return errors.New("not healthy after 90 s")
}

// stop asks the process to shut down and kills it if it has not within 15 s.
func (p *process) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// logTail is the end of the process's output, for error messages.
func (p *process) logTail() string {
	data, _ := os.ReadFile(p.log)
	if len(data) > 2000 {
		data = data[len(data)-2000:]
	}
	return string(data)
}

// freePort asks the kernel for an unused loopback port. Another program could take it
// before the child binds it; on this bench machine that does not happen.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
