package httpapi

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"
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
