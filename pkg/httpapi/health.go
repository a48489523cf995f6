package httpapi

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"reflect"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Health is the body of a healthy answer.
type Health struct {
	Status   string  `json:"status" enum:"ok,error" doc:"ok when every check passed"`
	Version  string  `json:"version" doc:"Version of the running service"`
	Uptime   float64 `json:"uptime" doc:"Seconds since the process started"`
	Database string  `json:"database" enum:"ok,error" doc:"Result of a trivial query through the database pool"`
	Storage  string  `json:"storage" enum:"ok,error" doc:"Result of the evidence storage check (a bucket HEAD with S3; the database check otherwise)"`
}

// HealthFailure is the body of an unhealthy (503) answer.
type HealthFailure struct {
	Status   string `json:"status" enum:"error"`
	Database string `json:"database" enum:"ok,error"`
	Message  string `json:"message" doc:"Which check failed"`
}

func status(err error) string {
	if err != nil {
		return "error"
	}
	return "ok"
}

// handleHealth runs the checks on every call (no cached verdict), each bounded by a short
// timeout inside the checker, so a dead dependency shows at once and never hangs a probe.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	dbErr := s.dep.Database.CheckHealth(ctx)
	storageErr := dbErr
	if s.dep.Storage != nil {
		storageErr = s.dep.Storage.CheckHealth(ctx)
	}
	w.Header().Set("Content-Type", contentTypeJSON)
	w.Header().Set("Cache-Control", "no-store")
	if dbErr != nil || storageErr != nil {
		msg := "database check failed"
		if dbErr == nil {
			msg = "storage check failed"
		}
		for name, err := range map[string]error{"database": dbErr, "storage": storageErr} {
			if err != nil {
				s.dep.Logger.WarnContext(ctx, "health check failed", slog.String("check", name), slog.String("error", err.Error()))
			}
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		_ = json.NewEncoder(w).Encode(HealthFailure{Status: "error", Database: status(dbErr), Message: msg})
		return
	}
	_ = json.NewEncoder(w).Encode(Health{
		Status: "ok", Version: s.cfg.Version, Uptime: time.Since(s.cfg.StartedAt).Seconds(),
		Database: "ok", Storage: "ok",
	})
}

var docHealth = huma.Operation{OperationID: "getHealth", Summary: "Service health", Tags: []string{"System"},
	Description: "Runs a trivial database query and, with S3 storage, a HEAD on the bucket. No authentication, " +
		"not rate limited, reachable before setup. A healthy answer does not imply that setup is complete."}

// describeHealth adds the health endpoint to the API description. It is a plain handler
// (two distinct bodies, outside /api/v1, before the setup gate and the rate limiter),
// mounted in New and described by hand here rather than registered through huma.
func (s *Server) describeHealth(op huma.Operation) {
	reg := s.API.OpenAPI().Components.Schemas
	op.Security = anonymous
	op.Extensions = map[string]any{ExtPermission: assess.PermPublic}
	op.Responses = map[string]*huma.Response{
		"200": {Description: "Every check passed", Content: map[string]*huma.MediaType{
			"application/json": {Schema: reg.Schema(reflect.TypeFor[Health](), true, "Health")}}},
		"503": {Description: "A check failed", Content: map[string]*huma.MediaType{
			"application/json": {Schema: reg.Schema(reflect.TypeFor[HealthFailure](), true, "HealthFailure")}}},
	}
	s.API.OpenAPI().AddOperation(&op)
}
