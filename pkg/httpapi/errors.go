package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/logging"
)

// Error is the JSON envelope of every error response.
type Error struct {
	status    int
	Code      string          `json:"error" doc:"Stable machine-readable code, safe to switch on" example:"validation_failed"`
	Message   string          `json:"message" doc:"Human-readable explanation; may change between releases"`
	RequestID string          `json:"requestId" doc:"The request id, also in the X-Request-Id header and the server logs"`
	Details   []assess.Detail `json:"details,omitempty" doc:"Error-specific details, e.g. one entry per invalid field"`
}

// Error implements the error interface.
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// GetStatus implements huma.StatusError.
func (e *Error) GetStatus() int { return e.status }

// ContentType implements huma.ContentTypeFilter.
func (e *Error) ContentType(string) string { return contentTypeJSON }

const contentTypeJSON = "application/json; charset=utf-8"

// statusByCode is the single table from domain error codes to HTTP statuses.
var statusByCode = map[string]int{
	assess.ECodeValidation:          http.StatusBadRequest,
	assess.ECodeUnauthenticated:     http.StatusUnauthorized,
	assess.ECodePermissionDenied:    http.StatusForbidden,
	assess.ECodeNotFound:            http.StatusNotFound,
	assess.ECodeMethodNotAllowed:    http.StatusMethodNotAllowed,
	assess.ECodeConflict:            http.StatusConflict,
	assess.ECodeAlreadyExists:       http.StatusConflict,
	assess.ECodeVersionConflict:     http.StatusConflict,
	assess.ECodeInvalidState:        http.StatusConflict,
	assess.ECodePayloadTooLarge:     http.StatusRequestEntityTooLarge,
	assess.ECodeUnsupportedMedia:    http.StatusUnsupportedMediaType,
	assess.ECodeBusinessRule:        http.StatusUnprocessableEntity,
	assess.ECodeRateLimited:         http.StatusTooManyRequests,
	assess.ECodeSetupRequired:       http.StatusServiceUnavailable,
	assess.ECodeUnavailable:         http.StatusServiceUnavailable,
	assess.ECodeInternal:            http.StatusInternalServerError,
	assess.ECodeKeyUnavailable:      http.StatusServiceUnavailable,
	assess.ECodeIntegrity:           http.StatusInternalServerError,
	assess.ECodeExportInvalid:       http.StatusInternalServerError,
	assess.ECodeRangeNotSatisfiable: http.StatusRequestedRangeNotSatisfiable,
	assess.ECodeRegistrationClosed:  http.StatusForbidden,
}

// codeByStatus names the errors huma itself raises (parsing, validation, limits).
var codeByStatus = map[int]string{
	http.StatusBadRequest:            assess.ECodeValidation,
	http.StatusUnprocessableEntity:   assess.ECodeValidation, // schema validation: 400 per the contract
	http.StatusNotFound:              assess.ECodeNotFound,
	http.StatusMethodNotAllowed:      assess.ECodeMethodNotAllowed,
	http.StatusRequestEntityTooLarge: assess.ECodePayloadTooLarge,
	http.StatusUnsupportedMediaType:  assess.ECodeUnsupportedMedia,
	http.StatusNotAcceptable:         "not_acceptable",
	http.StatusUnauthorized:          assess.ECodeUnauthenticated,
	http.StatusForbidden:             assess.ECodePermissionDenied,
	http.StatusTooManyRequests:       assess.ECodeRateLimited,
	http.StatusServiceUnavailable:    assess.ECodeUnavailable,
}

// toError turns any error into the envelope. Domain errors keep their code and message;
// anything else is internal, logged in full with the request id and hidden from the client.
func toError(ctx context.Context, log *slog.Logger, err error) *Error {
	rid := logging.RequestID(ctx)
	var apiErr *Error
	if errors.As(err, &apiErr) {
		apiErr.RequestID = rid
		return apiErr
	}
	var de *assess.Error
	if errors.As(err, &de) {
		status, ok := statusByCode[de.Code]
		if !ok {
			status = http.StatusBadRequest
		}
		return &Error{status: status, Code: de.Code, Message: de.Message, RequestID: rid, Details: de.Details}
	}
	log.ErrorContext(ctx, "internal error", slog.String("error", err.Error()))
	return &Error{status: http.StatusInternalServerError, Code: assess.ECodeInternal,
		Message: "An internal error occurred; quote the request id when reporting it.", RequestID: rid}
}

// humaError builds the envelope for errors raised inside huma (body parsing, schema
// validation, size limits) and for errors returned by handlers (status 500 + err).
func humaError(ctx context.Context, log *slog.Logger, status int, msg string, errs ...error) *Error {
	if status == http.StatusInternalServerError && len(errs) == 1 {
		return toError(ctx, log, errs[0])
	}
	if status >= 500 {
		for _, e := range errs {
			if e != nil {
				log.ErrorContext(ctx, "internal error", slog.String("error", e.Error()))
			}
		}
		return &Error{status: status, Code: assess.ECodeInternal, Message: "An internal error occurred.", RequestID: logging.RequestID(ctx)}
	}
	switch status {
	case http.StatusRequestEntityTooLarge:
		var limit int64
		if _, err := fmt.Sscanf(msg, "request body is too large limit=%d bytes", &limit); err == nil {
			e := errBodyTooLarge(limit)
			e.RequestID = logging.RequestID(ctx)
			return e
		}
	case http.StatusUnsupportedMediaType:
		return &Error{status: status, Code: assess.ECodeUnsupportedMedia, Message: "Send the body as application/json.",
			RequestID: logging.RequestID(ctx),
			Details:   []assess.Detail{{Field: "Content-Type", Code: "unsupported", Message: "must be application/json"}}}
	}
	code, ok := codeByStatus[status]
	if !ok {
		code = assess.ECodeValidation
	}
	out := &Error{status: status, Code: code, Message: humanise(msg), RequestID: logging.RequestID(ctx)}
	if status == http.StatusUnprocessableEntity {
		out.status = http.StatusBadRequest
	}
	for _, e := range errs {
		if e == nil {
			continue
		}
		var d *huma.ErrorDetail
		if errors.As(e, &d) {
			out.Details = append(out.Details, humanDetail(d))
			continue
		}
		out.Details = append(out.Details, assess.Detail{Message: e.Error()})
	}
	return out
}

// detailRewrites replace the messages huma builds from Go's own errors (time layouts,
// net/mail, encoding/json) with ones written for people, by message prefix.
var detailRewrites = []struct{ prefix, message string }{
	{"invalid date/time for format", "must be a date and time in RFC 3339 format, such as 2024-05-01T12:00:00Z"},
	{"expected string to be RFC 3339 date-time", "must be a date and time in RFC 3339 format, such as 2024-05-01T12:00:00Z"},
	{"expected string to be RFC 3339 date", "must be a date in RFC 3339 format, such as 2024-05-01"},
	{"expected string to be RFC 5322 email", "must be an e-mail address, such as name@example.com"},
	{"expected string to be RFC 3986 uri", "must be a URL, such as https://example.com/hook"},
	{"expected string to be RFC 4122 uuid", "must be a UUID"},
	{"expected string to be regex", "must be a regular expression"},
	{"expected duration", "must be a duration, such as 90s or 5m"},
	{"invalid integer", "must be a whole number"},
	{"invalid float", "must be a number"},
	{"invalid boolean", "must be true or false"},
	{"json: cannot unmarshal", "has a value of the wrong type"},
	{"unexpected end of JSON input", "is not valid JSON: it ends too early"},
}

// requiredProperty matches huma's message for a missing member, which it reports on the
// enclosing object.
var requiredProperty = regexp.MustCompile(`^expected required property (.+) to be present$`)

// oneOf matches huma's message for a value outside an enum: `expected value to be one of
// "-createdAt, name, validUntil, "` (the empty value last when the parameter may be empty).
var oneOf = regexp.MustCompile(`^expected value to be one of "(.*)"$`)

// oneOfMessage lists the values an enum takes, each quoted, without the empty one that
// stands for "not given": must be one of "-createdAt", "name" or "validUntil".
func oneOfMessage(list string) string {
	var values []string
	for _, v := range strings.Split(list, ", ") {
		if v = strings.TrimSpace(v); v != "" {
			values = append(values, strconv.Quote(v))
		}
	}
	switch len(values) {
	case 0:
		return "must be empty"
	case 1:
		return "must be " + values[0]
	}
	return "must be one of " + strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// humanDetail turns one of huma's error details into ours: the field as the client names
// it, and a message without Go internals.
func humanDetail(d *huma.ErrorDetail) assess.Detail {
	out := assess.Detail{Field: fieldOf(d.Location), Code: "invalid", Message: d.Message}
	if m := requiredProperty.FindStringSubmatch(d.Message); m != nil {
		if out.Field == "body" {
			out.Field = ""
		}
		out.Field, out.Code, out.Message = joinField(out.Field, m[1]), "required", "is required"
		return out
	}
	if m := oneOf.FindStringSubmatch(d.Message); m != nil {
		out.Message = oneOfMessage(m[1])
		return out
	}
	if strings.HasPrefix(d.Message, "invalid character") { // encoding/json's syntax error names the culprit
		out.Message = "is not valid JSON: " + d.Message
		return out
	}
	for _, r := range detailRewrites {
		if strings.HasPrefix(d.Message, r.prefix) {
			out.Message = r.message
			break
		}
	}
	return out
}

// fieldOf turns huma's "body.items[3].name" into the field path "items[3].name".
func fieldOf(location string) string {
	for _, p := range []string{"body.", "query.", "path.", "header."} {
		if strings.HasPrefix(location, p) {
			return strings.TrimPrefix(location, p)
		}
	}
	return location
}

func humanise(msg string) string {
	switch msg {
	case "":
		return "The request is invalid."
	case "validation failed":
		return "The request is invalid; the details name each problem."
	}
	return strings.ToUpper(msg[:1]) + msg[1:] + "."
}

// writeError writes the envelope for err to w. It is the one error writer of plain
// (non-huma) handlers and middleware.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	writeEnvelope(w, toError(r.Context(), log, err))
}

func writeEnvelope(w http.ResponseWriter, e *Error) {
	w.Header().Set("Content-Type", contentTypeJSON)
	setErrorHeaders(w.Header().Set, e)
	w.WriteHeader(e.status)
	_ = json.NewEncoder(w).Encode(e)
}

// wwwAuthenticate is the challenge of every 401: the API takes bearer credentials (API
// keys) besides the session cookie.
const wwwAuthenticate = `Bearer realm="assay"`

// retryAfterUnavailable is the Retry-After of a 503: the database or a dependency is down
// or overloaded, or the service is not set up yet, usually for moments.
const retryAfterUnavailable = "5"

// setErrorHeaders sets the headers every error answer carries, whoever writes it: errors
// are never cached, a 401 names the scheme to authenticate with, and a 503 says when to
// try again.
func setErrorHeaders(set func(name, value string), e *Error) {
	set("Cache-Control", "no-store")
	switch e.status {
	case http.StatusUnauthorized:
		set("WWW-Authenticate", wwwAuthenticate)
	case http.StatusServiceUnavailable:
		set("Retry-After", retryAfterUnavailable)
	}
}

// errorHeadersTransformer gives the errors huma writes (validation, limits, handler
// errors) the headers of writeEnvelope.
func errorHeadersTransformer(hctx huma.Context, _ string, v any) (any, error) {
	if e, ok := v.(*Error); ok {
		setErrorHeaders(hctx.SetHeader, e)
	}
	return v, nil
}

// newError returns an envelope with an explicit status, for the few errors the platform
// raises itself (unknown route, wrong method).
func newError(status int, code, format string, args ...any) *Error {
	return &Error{status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}
