package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
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
	assess.ECodeValidation:         http.StatusBadRequest,
	assess.ECodeUnauthenticated:    http.StatusUnauthorized,
	assess.ECodePermissionDenied:   http.StatusForbidden,
	assess.ECodeNotFound:           http.StatusNotFound,
	assess.ECodeMethodNotAllowed:   http.StatusMethodNotAllowed,
	assess.ECodeConflict:           http.StatusConflict,
	assess.ECodeAlreadyExists:      http.StatusConflict,
	assess.ECodeVersionConflict:    http.StatusConflict,
	assess.ECodeInvalidState:       http.StatusConflict,
	assess.ECodePayloadTooLarge:    http.StatusRequestEntityTooLarge,
	assess.ECodeUnsupportedMedia:   http.StatusUnsupportedMediaType,
	assess.ECodeBusinessRule:       http.StatusUnprocessableEntity,
	assess.ECodeRateLimited:        http.StatusTooManyRequests,
	assess.ECodeSetupRequired:      http.StatusServiceUnavailable,
	assess.ECodeUnavailable:        http.StatusServiceUnavailable,
	assess.ECodeInternal:           http.StatusInternalServerError,
	assess.ECodeKeyUnavailable:     http.StatusServiceUnavailable,
	assess.ECodeIntegrity:          http.StatusInternalServerError,
	assess.ECodeRegistrationClosed: http.StatusForbidden,
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
			out.Details = append(out.Details, assess.Detail{Field: fieldOf(d.Location), Code: "invalid", Message: d.Message})
			continue
		}
		out.Details = append(out.Details, assess.Detail{Message: e.Error()})
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
	if msg == "" {
		return "The request is invalid."
	}
	return strings.ToUpper(msg[:1]) + msg[1:] + "."
}

// writeError writes the envelope for err to w. It is the one error writer of plain
// (non-huma) handlers and middleware.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	writeEnvelope(w, toError(r.Context(), log, err))
}

func writeEnvelope(w http.ResponseWriter, e *Error) {
	if e.status == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", retryAfterUnavailable)
	}
	w.Header().Set("Content-Type", contentTypeJSON)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(e.status)
	_ = json.NewEncoder(w).Encode(e)
}

// newError returns an envelope with an explicit status, for the few errors the platform
// raises itself (unknown route, wrong method).
func newError(status int, code, format string, args ...any) *Error {
	return &Error{status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}
