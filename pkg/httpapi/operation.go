package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"

	"github.com/assay-dev/assay/pkg/assess"
)

// ExtPermission is the OpenAPI extension naming the permission an operation requires.
// The value declared there is the value enforced: authorize reads it back.
const ExtPermission = "x-required-permission"

// Authorizer checks a request's credential against a permission key. It returns the
// context to continue with (carrying the caller) or an *assess.Error: unauthenticated
// (401) or permission_denied (403, naming the key).
type Authorizer interface {
	Authorize(r *http.Request, permission assess.Perm) (context.Context, error)
}

// denyAll is the authorizer in force until the identity layer exists: nothing but public
// operations can be called.
type denyAll struct{}

func (denyAll) Authorize(*http.Request, assess.Perm) (context.Context, error) {
	return nil, assess.Errorf(assess.ECodeUnauthenticated, "Authentication is required.")
}

// authorize enforces the permission declared on each operation.
func authorize(api huma.API, a Authorizer) func(huma.Context, func(huma.Context)) {
	return func(hctx huma.Context, next func(huma.Context)) {
		perm, _ := hctx.Operation().Extensions[ExtPermission].(assess.Perm)
		if perm == assess.PermPublic {
			next(hctx)
			return
		}
		r, _ := humachi.Unwrap(hctx)
		ctx, err := a.Authorize(r, perm)
		if err != nil {
			_ = huma.WriteErr(api, hctx, http.StatusInternalServerError, "", err)
			return
		}
		next(huma.WithContext(hctx, ctx))
	}
}

// Op declares an API operation: its huma description, the permission it requires and the
// error statuses it can answer besides the platform ones.
type Op struct {
	huma.Operation
	Permission assess.Perm
}

// anonymous is the security requirement of public operations: one empty requirement
// object, which OpenAPI reads as "no credential needed".
var anonymous = []map[string][]string{{}}

// register adds an operation. Declaring it without a permission is a programming error
// caught at start-up, so no endpoint can slip out unguarded.
func register[I, O any](s *Server, op Op, handler func(context.Context, *I) (*O, error)) {
	if op.Permission == "" {
		panic(fmt.Sprintf("operation %s declared without a permission", op.OperationID))
	}
	if op.Extensions == nil {
		op.Extensions = map[string]any{}
	}
	op.Extensions[ExtPermission] = op.Permission
	if op.MaxBodyBytes == 0 {
		op.MaxBodyBytes = s.cfg.MaxBodyBytes
	}
	if op.Permission == assess.PermPublic {
		op.Security = anonymous
	} else {
		op.Security = []map[string][]string{{"sessionCookie": {}}, {"bearerAuth": {}}, {"apiKeyHeader": {}}}
		op.Errors = append(op.Errors, http.StatusUnauthorized, http.StatusForbidden)
	}
	op.Errors = append(op.Errors, http.StatusBadRequest, http.StatusTooManyRequests, http.StatusServiceUnavailable)
	in := reflect.TypeFor[I]()
	_, hasBody := in.FieldByName("Body")
	if hasBody {
		op.Errors = append(op.Errors, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType)
	}
	// huma adds these two to an operation that declares errors (422 when it reads
	// parameters or a body).
	if hasBody || hasParams(in) {
		op.Errors = append(op.Errors, http.StatusUnprocessableEntity)
	}
	op.Errors = append(op.Errors, http.StatusInternalServerError)
	if op.Responses == nil {
		op.Responses = map[string]*huma.Response{}
	}
	for _, code := range op.Errors {
		op.Responses[strconv.Itoa(code)] = s.errorResponse(code)
	}
	op.Errors = nil
	huma.Register(s.API, op.Operation, handler)
}

// errorResponse is the documented error answer of status code, the same object for every
// operation. huma would build one per operation and status (about 1,500, 0.8 MB kept for
// the process's life; docs/performance.md, "Memory at start"); register gives it the
// shared ones and no errors left to describe. Its content is what huma writes: the
// envelope's schema under the content type of its errors.
func (s *Server) errorResponse(code int) *huma.Response {
	if r, ok := s.errorResponses[code]; ok {
		return r
	}
	if s.errorResponses == nil {
		s.errorResponses = map[int]*huma.Response{}
	}
	example := huma.NewError(0, "")
	contentType := "application/json"
	if f, ok := example.(huma.ContentTypeFilter); ok {
		contentType = f.ContentType(contentType)
	}
	t := reflect.TypeOf(example)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	hint := "Error"
	if t.Name() != "" {
		hint = t.Name()
	}
	r := &huma.Response{Description: http.StatusText(code),
		Content: map[string]*huma.MediaType{contentType: {Schema: s.API.OpenAPI().Components.Schemas.Schema(t, true, hint)}}}
	s.errorResponses[code] = r
	return r
}

// hasParams says whether the input type t reads a request parameter: a field, at any
// depth of its structs, tagged path, query, header or cookie.
func hasParams(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		for _, tag := range []string{"path", "query", "header", "cookie"} {
			if _, ok := f.Tag.Lookup(tag); ok {
				return true
			}
		}
		if f.Name != "Body" && hasParams(f.Type) {
			return true
		}
	}
	return false
}

// init makes huma produce our envelope for every error it raises or receives. huma keeps
// these hooks in package variables, so they are set once for the process; internal errors
// are logged through slog's default logger, which cmd/* sets to the service logger.
func init() {
	huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
		return humaError(context.Background(), slog.Default(), status, msg, errs...)
	}
	huma.NewErrorWithContext = func(hctx huma.Context, status int, msg string, errs ...error) huma.StatusError {
		ctx := context.Background()
		if hctx != nil {
			ctx = hctx.Context()
		}
		return humaError(ctx, slog.Default(), status, msg, errs...)
	}
}
