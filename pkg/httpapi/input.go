package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/logging"
)

// The input boundary. Every text the service takes in ends up in PostgreSQL, which refuses
// the NUL character, and in JSON and logs, which need valid UTF-8; and in front of people,
// where a direction override (U+202D, U+202E) makes text read other than it is stored
// (a Trojan Source spoof, "report \u202egnp.exe" shown as "report exe.png"). Rather than each
// handler checking each field, checkInput refuses both once, before any handler or store
// sees the request: in the path, the query (names and values, which must also be
// correctly percent-encoded), the headers the service reads, and JSON bodies (string
// values and object keys, after JSON unescaping, so "\u0000" is caught and "\\u0000" is
// not). The answer is 400 validation_failed with one detail per offending field, named
// as a client knows it: the JSON path ("items[2].name"), the query parameter, the header
// or the path parameter. Uploads stream their bodies and are checked as they are read
// (see Upload.open).

// readHeaders are the request headers the service reads; their values are checked.
var readHeaders = []string{
	"Authorization", "X-Api-Key", HeaderIdempotencyKey, "If-Match", "If-None-Match", "Origin", "Referer",
	"Content-Type", "Accept", "Access-Control-Request-Method",
	"X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host",
}

// maxTextDetails bounds the details of one refusal: a body full of bad strings is named
// by its first few.
const maxTextDetails = 20

// Detail codes of malformed text.
const (
	codeNULCharacter  = "nul_character"
	codeInvalidUTF8   = "invalid_utf8"
	codeInvalidEscape = "invalid_escape"
	codeBidiOverride  = "bidi_override"
)

// checkInput is the input boundary middleware.
func (s *Server) checkInput(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		details := pathProblems(r)
		details = append(details, queryProblems(r.URL.RawQuery)...)
		details = append(details, headerProblems(r.Header)...)
		if len(details) == 0 && isAPIPath(r.URL.Path) && !isMultipart(r) && r.Body != nil && r.Body != http.NoBody {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				writeError(w, r, s.dep.Logger, bodyReadError(err))
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			if isJSON(r.Header.Get("Content-Type")) {
				details = jsonProblems(body)
			}
		}
		if len(details) > 0 {
			writeEnvelope(w, malformedText(r, details))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func malformedText(r *http.Request, details []assess.Detail) *Error {
	if len(details) > maxTextDetails {
		details = details[:maxTextDetails]
	}
	return &Error{status: http.StatusBadRequest, Code: assess.ECodeValidation,
		Message:   "The request contains malformed text: a NUL character, invalid UTF-8, a broken percent-escape or a direction override (U+202D, U+202E). See the details for where.",
		RequestID: logging.RequestID(r.Context()), Details: details}
}

// bodyReadError is the answer to a body that could not be read in full.
func bodyReadError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return errBodyTooLarge(tooLarge.Limit)
	}
	return assess.Errorf(assess.ECodeValidation, "The request body could not be read in full.")
}

// errBodyTooLarge is the one answer to a body over its limit, however it was sent.
func errBodyTooLarge(limit int64) *Error {
	return newError(http.StatusRequestEntityTooLarge, assess.ECodePayloadTooLarge,
		"The request body is larger than the limit of %s.", humanBytes(limit))
}

// errFileTooLarge is the answer to an uploaded file over UPLOAD_MAX_FILE_SIZE, whether its
// request said so in Content-Length or the stream passed the limit.
func errFileTooLarge(limit int64) *Error {
	return newError(http.StatusRequestEntityTooLarge, assess.ECodePayloadTooLarge,
		"The file is larger than the upload limit of %s.", humanBytes(limit))
}

// humanBytes writes a size as people read it: "50 MiB", "1.5 GiB", "512 KiB", "900 bytes"
// (binary units, rounded to one decimal, none when it is zero).
func humanBytes(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	value, unit := float64(n)/1024, units[0]
	for _, next := range units[1:] {
		if value < 1024 {
			break
		}
		value, unit = value/1024, next
	}
	return strings.TrimSuffix(strconv.FormatFloat(value, 'f', 1, 64), ".0") + " " + unit
}

// isJSON reports a JSON media type, or none at all (the API reads such bodies as JSON).
func isJSON(contentType string) bool {
	if strings.TrimSpace(contentType) == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// textProblem describes what is wrong with s, or returns "" when s is clean text.
func textProblem(s string) (code, message string) {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return codeNULCharacter, "must not contain the NUL character (\\u0000)"
	case !utf8.ValidString(s):
		return codeInvalidUTF8, "must be valid UTF-8 text"
	case strings.ContainsAny(s, "\u202d\u202e"):
		// The direction overrides show the characters after them in another order than they
		// are stored: "report \u202egnp.exe" reads as "report exe.png". Right-to-left text
		// needs none of them (marks, embeddings and isolates pass).
		return codeBidiOverride, "must not contain a direction override (U+202D or U+202E), which shows text in another order than it is stored"
	}
	return "", ""
}

// fieldName makes a client-supplied name printable for a detail: invalid bytes and NUL
// become U+FFFD.
func fieldName(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// pathProblems checks the decoded path; the detail names the path parameter holding the
// bad text when a route matches, "path" otherwise.
func pathProblems(r *http.Request) []assess.Detail {
	code, msg := textProblem(r.URL.Path)
	if code == "" {
		return nil
	}
	field := "path"
	if rc := chi.RouteContext(r.Context()); rc != nil && rc.Routes != nil {
		for _, method := range []string{r.Method, http.MethodGet} {
			tctx := chi.NewRouteContext()
			if !rc.Routes.Match(tctx, method, r.URL.Path) {
				continue
			}
			for i, v := range tctx.URLParams.Values {
				if c, _ := textProblem(v); c != "" && i < len(tctx.URLParams.Keys) {
					field = tctx.URLParams.Keys[i]
					break
				}
			}
			break
		}
	}
	return []assess.Detail{{Field: field, Code: code, Message: msg}}
}

// queryProblems checks every name and value of a raw query string. Unlike
// url.ParseQuery, which drops a pair it cannot decode, a broken escape is refused.
func queryProblems(raw string) []assess.Detail {
	var out []assess.Detail
	for pair := range strings.SplitSeq(raw, "&") {
		if pair == "" {
			continue
		}
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, nameErr := url.QueryUnescape(rawName)
		value, valueErr := url.QueryUnescape(rawValue)
		field := fieldName(name)
		if nameErr != nil {
			field = fieldName(rawName)
		}
		switch {
		case nameErr != nil || valueErr != nil:
			out = append(out, assess.Detail{Field: field, Code: codeInvalidEscape,
				Message: "is not correctly percent-encoded (a % must be followed by two hexadecimal digits)"})
		default:
			for _, s := range []string{name, value} {
				if code, msg := textProblem(s); code != "" {
					out = append(out, assess.Detail{Field: field, Code: code, Message: msg})
					break
				}
			}
		}
	}
	return out
}

// headerProblems checks the values of the headers the service reads.
func headerProblems(h http.Header) []assess.Detail {
	var out []assess.Detail
	for _, name := range readHeaders { // canonical names: the map is indexed directly
		for _, v := range h[name] {
			if code, msg := textProblem(v); code != "" {
				out = append(out, assess.Detail{Field: name, Code: code, Message: msg})
				break
			}
		}
	}
	return out
}

// jsonProblems walks a JSON document token by token and names every string value or
// object key holding a NUL (after unescaping) or invalid UTF-8 (in the raw bytes, since
// the decoder quietly replaces those with U+FFFD). Syntax errors end the walk: the
// operation answers them itself.
func jsonProblems(body []byte) []assess.Detail {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var w jsonWalk
	var out []assess.Detail
	prev := int64(0)
	for len(out) < maxTextDetails {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		end := dec.InputOffset()
		raw := body[prev:end]
		prev = end
		switch v := tok.(type) {
		case json.Delim:
			w.delim(v)
		case string:
			w.str(v)
			code, msg := textProblem(v)
			if code == "" && !utf8.Valid(raw) {
				code, msg = codeInvalidUTF8, "must be valid UTF-8 text"
			}
			if code != "" {
				out = append(out, assess.Detail{Field: w.field(), Code: code, Message: msg})
			}
		default:
			w.slot()
		}
	}
	return out
}

// jsonWalk tracks where the current token is while walking a JSON document. Paths are
// rendered only for the fields reported, so a deeply nested document costs linear time.
type jsonWalk struct {
	stack []*jsonFrame
	last  string // the step of the last token placed: a key or "[i]"
}

type jsonFrame struct {
	object    bool
	step      string // the frame's own place in its parent
	key       string // the current key, in an object
	expectKey bool   // the next string is a key
	index     int    // the next index, in an array
}

// field renders the path of the last token placed ("body" for a bare top-level value).
func (w *jsonWalk) field() string {
	if len(w.stack) == 0 {
		return "body"
	}
	var b strings.Builder
	for _, f := range w.stack {
		appendStep(&b, f.step)
	}
	appendStep(&b, w.last)
	return b.String()
}

func appendStep(b *strings.Builder, step string) {
	if step == "" {
		return
	}
	if b.Len() > 0 && !strings.HasPrefix(step, "[") {
		b.WriteByte('.')
	}
	b.WriteString(step)
}

// slot places a value in the current container and returns its step.
func (w *jsonWalk) slot() string {
	w.last = ""
	if n := len(w.stack); n > 0 {
		top := w.stack[n-1]
		if top.object {
			top.expectKey = true
			w.last = top.key
		} else {
			top.index++
			w.last = "[" + strconv.Itoa(top.index-1) + "]"
		}
	}
	return w.last
}

func (w *jsonWalk) delim(d json.Delim) {
	switch d {
	case '{', '[':
		w.stack = append(w.stack, &jsonFrame{object: d == '{', step: w.slot(), expectKey: d == '{'})
	default:
		if len(w.stack) > 0 {
			w.stack = w.stack[:len(w.stack)-1]
		}
	}
}

// str places a string token: an object key or a value.
func (w *jsonWalk) str(s string) {
	if n := len(w.stack); n > 0 && w.stack[n-1].object && w.stack[n-1].expectKey {
		top := w.stack[n-1]
		top.key, top.expectKey = fieldName(s), false
		w.last = top.key
		return
	}
	w.slot()
}

// joinField joins an object path and a member name.
func joinField(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}
