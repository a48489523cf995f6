package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/config"
)

// BenchmarkAttachmentUpload50MiB uploads a 50 MiB file (the default UPLOAD_MAX_FILE_SIZE)
// to each storage provider through the real server and reports how far the process's
// resident memory rose above what it was before the upload (peak VmRSS, sampled every
// 5 ms; client and server share the process, the client streams from a generator). It
// also announces a 51 MiB upload and requires its 413 before a byte of the body is sent. Not a timed test: run it with `make bench-attachments` (docs/performance.md).
//
// Each provider runs twice: with Go's defaults, and with the soft memory limit the memory
// policy gives a 512 MiB container that also runs the embedded database (230 MiB), set
// through the server's environment.
func BenchmarkAttachmentUpload50MiB(b *testing.B) {
	container := config.MemoryPolicy(config.MemoryInputs{CgroupV2Max: strconv.Itoa(512 << 20), EmbeddedDatabase: true})
	memory := []struct {
		name string
		env  []string
	}{
		{"go-defaults", nil},
		{"512MiB-container", []string{"GOMEMLIMIT=" + strconv.FormatInt(container.Limit, 10)}},
	}
	for _, provider := range []string{assess.StorageDatabase, assess.StorageS3} {
		for _, mem := range memory {
			b.Run(provider+"/"+mem.name, func(b *testing.B) {
				// The server sets them for the whole process: put back what was there.
				limit, gc := debug.SetMemoryLimit(-1), debug.SetGCPercent(100)
				debug.SetGCPercent(gc)
				b.Cleanup(func() { debug.SetMemoryLimit(limit); debug.SetGCPercent(gc) })
				env := databaseStorage()
				if provider == assess.StorageS3 {
					env = s3Storage(b, assess.StorageS3)
				}
				env.env = append(env.env[:len(env.env):len(env.env)], "UPLOAD_MAX_FILE_SIZE=52428800", "LOG_LEVEL=warn")
				env.env = append(env.env, mem.env...)
				benchUpload(b, env)
			})
		}
	}
}

func benchUpload(b *testing.B, env storageEnv) {
	ts := startServer(b, env.env...)
	limit := debug.SetMemoryLimit(-1) // as the server set it
	fileRole := ts.newRole(b, string(assess.PermEvidenceView), string(assess.PermEvidenceCreate))
	author, c := ts.newUser(b, fileRole.Name)
	var peak uint64
	for i := 0; b.Loop(); i++ {
		ev := newEvidence(b, ts, author)
		runtime.GC()
		before := rssBytes(b)
		stop := sampleRSS(b, before)
		res, body := c.attach(b, ev, "large.pdf", "application/pdf", &generated{left: 50 << 20, seed: byte(i)}, false)
		grew := stop()
		require.Equal(b, http.StatusCreated, res.StatusCode, body)
		peak = max(peak, grew)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-growth-MiB")
	if limit != config.NoMemoryLimit {
		b.ReportMetric(float64(limit)/(1<<20), "soft-limit-MiB")
	}
	require.Less(b, peak, uint64(16<<20), "the server's memory must not grow with the file")

	refusedBeforeBody(b, ts, c)
}

// refusedBeforeBody announces a 51 MiB upload and sends none of its body: the server must
// answer 413 from the headers alone.
func refusedBeforeBody(b *testing.B, ts *testServer, c *apiClient) {
	b.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	require.NoError(b, err)
	defer conn.Close()
	var hdr strings.Builder
	fmt.Fprintf(&hdr, "POST /api/v1/evidence/ev_x/attachments HTTP/1.1\r\nHost: %s\r\n", strings.TrimPrefix(ts.url, "http://"))
	// A 51 MiB file and the multipart framing around it.
	fmt.Fprintf(&hdr, "Content-Type: multipart/form-data; boundary=xx\r\nContent-Length: %d\r\n", 51<<20+180)
	u, err := url.Parse(ts.url)
	require.NoError(b, err)
	for _, ck := range c.http.Jar.Cookies(u) {
		fmt.Fprintf(&hdr, "Cookie: %s\r\n", ck.String())
	}
	fmt.Fprintf(&hdr, "Origin: %s\r\n", c.origin)
	hdr.WriteString("\r\n")
	_, err = conn.Write([]byte(hdr.String()))
	require.NoError(b, err)
	require.NoError(b, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(b, err, "the server answers before a byte of the body is sent")
	defer res.Body.Close()
	require.Equal(b, http.StatusRequestEntityTooLarge, res.StatusCode)
}

// generated yields left bytes of a PDF-looking stream without holding them.
type generated struct {
	left int64
	seed byte
	off  int64
}

func (g *generated) Read(p []byte) (int, error) {
	if g.left == 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), g.left))
	for i := range n {
		p[i] = byte(g.off+int64(i)) ^ g.seed
	}
	if g.off == 0 && n >= 5 {
		copy(p, "%PDF-")
	}
	g.off += int64(n)
	g.left -= int64(n)
	return n, nil
}

// rssBytes is the process's resident set size.
func rssBytes(b testing.TB) uint64 {
	raw, err := os.ReadFile("/proc/self/status")
	require.NoError(b, err)
	for _, line := range bytes.Split(raw, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(string(v), "kB")), 10, 64)
			require.NoError(b, err)
			return kb << 10
		}
	}
	b.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// sampleRSS samples the resident set size until the returned function is called, which
// returns the peak rise above base.
func sampleRSS(b testing.TB, base uint64) func() uint64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if r := rssBytes(b); r > base && r-base > peak.Load() {
				peak.Store(r - base)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak.Load()
	}
}
