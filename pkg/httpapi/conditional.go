package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Conditional reads: answers tagged with a strong ETag derived from the database's
// revision of what they show (assess.Revision), If-None-Match answered 304 Not Modified
// without reading or encoding anything, and the encoded answers of published standards and
// of assessment workspaces kept in memory (answercache.go). The permission check (the
// authorize middleware) and the store's revision read (existence and, for assessments, the
// caller's visibility: 404) run on every request before anything kept is used.

// Conditional is the part of a read's input that conditional requests use.
type Conditional struct {
	IfNoneMatch string `header:"If-None-Match" maxLength:"2048" doc:"ETags of answers the client holds (the ETag header of an earlier answer); while the answer is unchanged it is 304 Not Modified, without a body. * matches any answer"`
	// AcceptEncoding picks the kept gzip copy of an answer (compressJSON does the rest).
	AcceptEncoding string `header:"Accept-Encoding" hidden:"true"`
}

// encodedAnswer is the output of a conditional read: JSON already encoded, or 304 Not
// Modified. Its body is written as it is (huma writes a []byte body untouched); onConditional
// describes it in the document as the JSON schema of what it encodes.
type encodedAnswer struct {
	ETag            string `header:"ETag" doc:"Strong validator of this answer: send it in If-None-Match to revalidate"`
	CacheControl    string `header:"Cache-Control" doc:"private, no-cache: the client may keep the answer and revalidates it (If-None-Match) before each use"`
	ContentType     string `header:"Content-Type" hidden:"true"`
	ContentEncoding string `header:"Content-Encoding" hidden:"true"`
	ContentLength   string `header:"Content-Length" hidden:"true"`
	Vary            string `header:"Vary" hidden:"true"`
	Status          int
	Body            []byte
}

// notModifiedDoc describes the 304 answer of conditional reads.
const notModifiedDoc = "Not Modified: the answer has not changed since the one whose ETag If-None-Match names"

// conditionalCacheControl lets browsers keep the answer but revalidate it before each use
// (private: it is only for callers who passed the permission check).
const conditionalCacheControl = "private, no-cache"

// onConditional declares a conditional read. Its handler answers encodedAnswer; the document
// shows T as the schema of its 200 answer, as on would for a body of T, with the ETag
// header, the If-None-Match parameter and the 304 answer.
func onConditional[T, I any](method, path string, perm assess.Perm, handler func(context.Context, *I) (*encodedAnswer, error), doc huma.Operation) route {
	r := on(method, path, perm, handler, doc)
	r.register = func(s *Server, op Op) {
		schema := s.API.OpenAPI().Components.Schemas.Schema(reflect.TypeFor[T](), true, op.OperationID+"Response")
		if op.Responses == nil {
			op.Responses = map[string]*huma.Response{}
		}
		op.Responses["200"] = &huma.Response{Description: http.StatusText(http.StatusOK),
			Content: map[string]*huma.MediaType{"application/json": {Schema: schema}}}
		op.Responses["304"] = &huma.Response{Description: notModifiedDoc}
		register(s, op, handler)
	}
	return r
}

// answer serves a read under its revision: 304 when If-None-Match names the answer's ETag
// (or is *, once the read has found something to answer); otherwise the answer kept for
// this key and revision, or read, encoded and (when the revision says it is worth it)
// kept. key names what is read: the operation, its ids and every parameter that changes
// the answer.
func (s *Server) answer(ctx context.Context, c Conditional, key string, rev assess.Revision, read func(context.Context) (any, error)) (*encodedAnswer, error) {
	out := &encodedAnswer{ETag: s.etag(key, rev.Tag), CacheControl: conditionalCacheControl}
	anyAnswer := strings.TrimSpace(c.IfNoneMatch) == "*" // matches only once the answer is known to exist
	if !anyAnswer && etagListMatches(c.IfNoneMatch, out.ETag) {
		out.Status = http.StatusNotModified
		return out, nil
	}
	e, err := s.encoded(ctx, key+"\x00"+rev.Tag, rev.Keep, read)
	if err != nil {
		return nil, err
	}
	if anyAnswer {
		out.Status = http.StatusNotModified
		return out, nil
	}
	out.Status, out.ContentType, out.Body = http.StatusOK, contentTypeJSON, e.json
	if e.gzip != nil { // kept: served compressed here, since compressJSON passes encoded answers through
		out.Vary = "Accept-Encoding"
		if acceptsGzipValue(c.AcceptEncoding) {
			out.Body, out.ContentEncoding = e.gzip, "gzip"
		}
	}
	out.ContentLength = strconv.Itoa(len(out.Body))
	return out, nil
}

// encoded returns the encoded answer of read under cacheKey: the one kept, or read (once
// for concurrent requests) and kept, when keep; read and not kept otherwise.
func (s *Server) encoded(ctx context.Context, cacheKey string, keep bool, read func(context.Context) (any, error)) (*encodedJSON, error) {
	keep = keep && s.answers.limit > 0
	encode := func(ctx context.Context) (*encodedJSON, error) {
		v, err := read(ctx)
		if err != nil {
			return nil, err
		}
		data, err := encodeJSON(v)
		e := &encodedJSON{key: cacheKey, json: data}
		if keep && s.answers.fits(len(data)) {
			e.gzip = compressed(data)
		}
		return e, err
	}
	if !keep {
		return encode(ctx)
	}
	if e, ok := s.answers.get(cacheKey); ok {
		return e, nil
	}
	return s.answers.fill(ctx, cacheKey, encode)
}

// etag is the strong ETag of the answer to key under revision tag. The build version is
// part of it: an upgrade may change the encoding of the same data.
func (s *Server) etag(key, tag string) string {
	h := sha256.New()
	for _, part := range []string{s.cfg.Version, key, tag} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
}

// encodeJSON encodes v as huma's JSON format does (no HTML escaping, a final newline), so
// a kept answer is byte for byte what the operation answered before it was kept.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return buf.Bytes(), err
}

// etagListMatches tells whether an If-None-Match value names etag (RFC 9110 §13.1.2): "*",
// or a comma-separated list of entity tags compared weakly (a W/ prefix is ignored). A
// quoted tag may hold commas; a malformed list matches only up to its first fault.
func etagListMatches(header, etag string) bool {
	rest := strings.TrimSpace(header)
	if rest == "*" {
		return true
	}
	for rest != "" {
		rest = strings.TrimLeft(rest, " \t,")
		rest = strings.TrimPrefix(rest, "W/")
		if !strings.HasPrefix(rest, `"`) {
			return false
		}
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			return false
		}
		if rest[:end+2] == etag {
			return true
		}
		rest = strings.TrimLeft(rest[end+2:], " \t")
		if rest != "" && rest[0] != ',' {
			return false
		}
	}
	return false
}
