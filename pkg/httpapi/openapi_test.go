package httpapi

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

var update = flag.Bool("update", false, "rewrite golden files")

const goldenPath = "testdata/openapi.golden.json"

// TestOpenAPIGolden pins the API description: a change to any operation shows up as a
// diff of the golden file in review. Regenerate with `go test ./pkg/httpapi -update`.
func TestOpenAPIGolden(t *testing.T) {
	srv := New(Config{Version: "golden", StartedAt: time.Now()}, Deps{Setup: &fakeSetup{}, Database: &fakeCheck{}})
	got, err := srv.OpenAPIDocument()
	require.NoError(t, err)
	got = append(got, '\n')
	if *update {
		require.NoError(t, os.WriteFile(goldenPath, got, 0o644))
	}
	want, err := os.ReadFile(goldenPath)
	require.NoError(t, err, "run `go test ./pkg/httpapi -update` to create the golden file")
	require.Equal(t, string(want), string(got), "API description changed; review and run `go test ./pkg/httpapi -update`")

	var doc map[string]any
	require.NoError(t, json.Unmarshal(got, &doc))
	require.Equal(t, "3.1.0", doc["openapi"])
	require.Contains(t, doc, "webhooks")
	paths := doc["paths"].(map[string]any)
	require.Contains(t, paths, "/api/health")
	for p, item := range paths {
		for method, op := range item.(map[string]any) {
			perm, _ := op.(map[string]any)[ExtPermission].(string)
			require.NotEmpty(t, perm, "%s %s has no %s", method, p, ExtPermission)
		}
	}

	loader := openapi3.NewLoader()
	parsed, err := loader.LoadFromData(got)
	require.NoError(t, err)
	require.NoError(t, parsed.Validate(context.Background()))
}

// TestOpenAPIWebhooksDescribeEveryEventType: a receiver can generate types for every
// event the service may send, from the document alone.
func TestOpenAPIWebhooksDescribeEveryEventType(t *testing.T) {
	srv := New(Config{Version: "golden", StartedAt: time.Now()}, Deps{Setup: &fakeSetup{}, Database: &fakeCheck{}})
	raw, err := srv.OpenAPIDocument()
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(raw, &doc))
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	resolve := func(t *testing.T, s map[string]any) map[string]any {
		t.Helper()
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		name, found := strings.CutPrefix(ref, "#/components/schemas/")
		require.True(t, found, ref)
		require.Contains(t, schemas, name)
		return schemas[name].(map[string]any)
	}

	hooks := doc["webhooks"].(map[string]any)
	require.Len(t, hooks, len(assess.EventTypes))
	for _, et := range assess.EventTypes {
		t.Run(string(et.Type), func(t *testing.T) { requireWebhookDescribed(t, hooks, et, resolve) })
	}

	// x-required-permission is the document's only vendor extension.
	t.Run("the only vendor extension is "+ExtPermission, func(t *testing.T) {
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, child := range v {
					if strings.HasPrefix(k, "x-") {
						require.Equal(t, ExtPermission, k, "unexpected extension at %s", path)
					}
					walk(path+"/"+k, child)
				}
			case []any:
				for _, child := range v {
					walk(path+"[]", child)
				}
			}
		}
		walk("", doc)
	})
}

// requireWebhookDescribed checks the webhook operation of one event type: its summary,
// permission, signature headers and an envelope whose data schema has the payload's fields.
func requireWebhookDescribed(t *testing.T, hooks map[string]any, et assess.EventType, resolve func(t *testing.T, s map[string]any) map[string]any) {
	typ := string(et.Type)
	require.Contains(t, hooks, typ)
	op := hooks[typ].(map[string]any)["post"].(map[string]any)
	require.Equal(t, "event-"+strings.ReplaceAll(typ, ".", "-"), op["operationId"])
	require.Equal(t, et.Title, op["summary"])
	require.Equal(t, et.Description, op["description"])
	require.Equal(t, string(assess.PermAdminWebhooks), op[ExtPermission])
	require.Contains(t, op["responses"], "2XX")
	var headers []string
	for _, p := range op["parameters"].([]any) {
		headers = append(headers, p.(map[string]any)["name"].(string))
	}
	require.ElementsMatch(t, []string{"webhook-id", "webhook-timestamp", "webhook-signature"}, headers)

	body := op["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)
	envelope := resolve(t, body["schema"].(map[string]any))
	props := envelope["properties"].(map[string]any)
	require.Equal(t, typ, props["type"].(map[string]any)["const"])
	require.ElementsMatch(t, []any{"id", "type", "timestamp", "actor", "data"}, envelope["required"])
	data := resolve(t, props["data"].(map[string]any))
	require.NotEmpty(t, data["properties"], "%s: the data schema describes the payload's fields", et.Type)
}

func TestOpenAPIDocumentRevalidates(t *testing.T) {
	srv := New(Config{Version: "test"}, Deps{Setup: &fakeSetup{}, Database: &fakeCheck{}})
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/openapi.json", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	etag := rec.Header().Get("ETag")
	require.NotEmpty(t, etag)
	req := httptest.NewRequest(http.MethodGet, "/api/v1/openapi.json", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	require.Equal(t, http.StatusNotModified, rec.Code)
	require.Zero(t, rec.Body.Len())
}

// TestErrorResponsesAreShared: every operation documents its error answers with the same
// objects, one per status (register), not a copy per operation and status as huma makes
// them: the document is the golden one either way, but the copies stayed in memory for the
// process's life (docs/performance.md, "Memory at start"). Answers an operation describes
// in its own words (health's 503) are its own.
func TestErrorResponsesAreShared(t *testing.T) {
	srv := New(Config{Version: "test"}, Deps{Setup: &fakeSetup{}, Database: &fakeCheck{}})
	seen := map[string]*huma.Response{}
	ops := 0
	for _, item := range srv.API.OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Get, item.Post, item.Put, item.Patch, item.Delete} {
			if op == nil {
				continue
			}
			ops++
			for code, r := range op.Responses {
				if n, err := strconv.Atoi(code); err != nil || n < 400 || r.Description != http.StatusText(n) {
					continue // not an error answer, or one the operation describes itself
				}
				if first, ok := seen[code]; ok {
					require.Same(t, first, r, "%s %s answers %s", op.Method, op.Path, code)
				} else {
					seen[code] = r
				}
			}
		}
	}
	require.Greater(t, ops, 150)
	require.Contains(t, seen, "400")
	require.Contains(t, seen, "500")
}
