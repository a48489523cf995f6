package httpapi

import (
	"bufio"
	"compress/gzip"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// gzipMinBytes is the smallest JSON answer worth compressing: below it the gzip framing
// and the CPU cost outweigh the bytes saved.
const gzipMinBytes = 1024

var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// compressJSON gzips JSON answers of at least gzipMinBytes for clients that accept it
// (lists of fifty users are ~15 KB; compressed ~2 KB). Small answers, errors and anything
// that is not JSON (files, the SPA, which is precompressed) pass through unchanged.
func compressJSON(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead || !acceptsGzip(r) {
			next.ServeHTTP(w, r)
			return
		}
		gw := &gzipResponse{ResponseWriter: w}
		defer gw.close()
		next.ServeHTTP(gw, r)
	})
}

func acceptsGzip(r *http.Request) bool {
	return acceptsGzipValue(r.Header.Get("Accept-Encoding"))
}

// acceptsGzipValue tells whether an Accept-Encoding value accepts gzip.
func acceptsGzipValue(ae string) bool {
	for ae != "" {
		var part string
		part, ae, _ = strings.Cut(ae, ",")
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// gzipResponse holds back the start of the body until it knows whether to compress.
type gzipResponse struct {
	http.ResponseWriter
	status  int
	buf     []byte
	decided bool
	gz      *gzip.Writer
}

func (g *gzipResponse) WriteHeader(status int) {
	if g.status == 0 {
		g.status = status
	}
}

func (g *gzipResponse) Write(p []byte) (int, error) {
	if g.status == 0 {
		g.status = http.StatusOK
	}
	if g.decided {
		if g.gz != nil {
			return g.gz.Write(p)
		}
		return g.ResponseWriter.Write(p)
	}
	if len(g.buf)+len(p) < gzipMinBytes {
		g.buf = append(g.buf, p...)
		return len(p), nil
	}
	if err := g.decide(p); err != nil { // p is written, not copied: a large file passes through
		return 0, err
	}
	return len(p), nil
}

// decide starts the answer, compressed when it is JSON and large enough, with what is
// held back and then rest.
func (g *gzipResponse) decide(rest []byte) error {
	g.decided = true
	h := g.Header()
	compress := len(g.buf)+len(rest) >= gzipMinBytes && strings.HasPrefix(h.Get("Content-Type"), "application/json") &&
		h.Get("Content-Encoding") == "" && g.status != http.StatusNoContent
	if compress {
		h.Del("Content-Length")
		h.Set("Content-Encoding", "gzip")
		h.Add("Vary", "Accept-Encoding")
		g.gz = gzipWriters.Get().(*gzip.Writer)
		g.gz.Reset(g.ResponseWriter)
	}
	g.ResponseWriter.WriteHeader(g.status)
	var out io.Writer = g.ResponseWriter
	if g.gz != nil {
		out = g.gz
	}
	buf := g.buf
	g.buf = nil
	for _, b := range [][]byte{buf, rest} {
		if len(b) == 0 {
			continue
		}
		if _, err := out.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func (g *gzipResponse) close() {
	if !g.decided {
		if g.status == 0 { // nothing written: let the server answer as usual
			return
		}
		_ = g.decide(nil)
	}
	if g.gz != nil {
		_ = g.gz.Close()
		gzipWriters.Put(g.gz)
		g.gz = nil
	}
}

// Flush sends what is buffered (streamed answers decide early).
func (g *gzipResponse) Flush() {
	if !g.decided && g.status != 0 {
		_ = g.decide(nil)
	}
	if g.gz != nil {
		_ = g.gz.Flush()
	}
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack passes through for protocols that take over the connection.
func (g *gzipResponse) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(g.ResponseWriter).Hijack()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (g *gzipResponse) Unwrap() http.ResponseWriter { return g.ResponseWriter }
