package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/logging"
)

// EnvelopeListener wraps the listener the server accepts connections on, so that the few
// answers net/http writes itself, before any handler runs, are the JSON error envelope
// with a request id like every other answer instead of plain text: a request line it
// cannot parse (a path with a broken percent-escape, such as /api/v1/users/%ZZ), a
// malformed header, headers too large, an unsupported transfer encoding. net/http offers
// no hook for these; it writes them straight to the connection in one piece, in a shape
// no handler's answer has (Content-Type right after the status line, no Date), and that
// exact write is what the connection replaces.
func EnvelopeListener(ln net.Listener, log *slog.Logger) net.Listener {
	if log == nil {
		log = slog.Default()
	}
	return &envelopeListener{Listener: ln, log: log}
}

type envelopeListener struct {
	net.Listener
	log *slog.Logger
}

// Accept implements net.Listener.
func (l *envelopeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &envelopeConn{Conn: c, log: l.log}, nil
}

type envelopeConn struct {
	net.Conn
	log *slog.Logger
}

// Write implements net.Conn, replacing net/http's own plain-text error answers.
func (c *envelopeConn) Write(p []byte) (int, error) {
	status, text, ok := parseServerError(p)
	if !ok {
		return c.Conn.Write(p)
	}
	id := newRequestID()
	c.log.LogAttrs(logging.WithRequestID(context.Background(), id), slog.LevelInfo, "request refused by the HTTP server",
		slog.Int("status", status), slog.String("reason", text), slog.String("client_ip", remoteIP(c.RemoteAddr().String())))
	if _, err := c.Conn.Write(serverErrorResponse(status, text, id)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// serverErrorHeaders is what net/http puts between the status line and the body of the
// answers it writes itself.
const serverErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// parseServerError recognises one of net/http's own error answers ("HTTP/1.1 400 Bad
// Request: invalid header name" + serverErrorHeaders + a one-line body) and returns its
// status and the reason it gives, if any.
func parseServerError(p []byte) (status int, text string, ok bool) {
	rest, found := bytes.CutPrefix(p, []byte("HTTP/1.1 "))
	if !found || len(rest) < 4 || rest[3] != ' ' {
		return 0, "", false
	}
	line, body, found := bytes.Cut(rest, []byte(serverErrorHeaders))
	if !found || bytes.ContainsAny(line, "\r\n") || bytes.ContainsAny(body, "\r\n") {
		return 0, "", false
	}
	status, err := strconv.Atoi(string(line[:3]))
	if err != nil || status < 400 || status > 599 {
		return 0, "", false
	}
	if _, reason, found := bytes.Cut(line, []byte(": ")); found {
		text = string(reason)
	}
	return status, text, true
}

// serverErrorResponse is the envelope answer replacing one of net/http's own.
func serverErrorResponse(status int, text, requestID string) []byte {
	e := &Error{status: status, Code: assess.ECodeValidation, RequestID: requestID}
	switch {
	case status == http.StatusRequestHeaderFieldsTooLarge:
		e.Message = "The request headers are too large."
	case status == http.StatusNotImplemented:
		e.Message = "The request's transfer encoding is not supported; send the body with Content-Length or chunked."
	case text != "":
		e.Message = fmt.Sprintf("The request is malformed: %s.", text)
	default:
		e.Message = "The request is malformed and could not be read: check that the path and query are correctly " +
			"percent-encoded (a % must be followed by two hexadecimal digits)."
	}
	body, _ := json.Marshal(e)
	body = append(body, '\n')
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	h := http.Header{}
	h.Set("Content-Type", contentTypeJSON)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Connection", "close")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set(HeaderRequestID, requestID)
	setErrorHeaders(h.Set, e)
	_ = h.Write(&b)
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}
