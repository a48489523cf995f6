package logging

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRequestIDOnEveryLine(t *testing.T) {
	var buf bytes.Buffer
	log := New(&buf, slog.LevelInfo).With("component", "test")
	ctx := WithRequestID(context.Background(), "req-123")
	log.InfoContext(ctx, "first")
	log.DebugContext(ctx, "hidden below level")
	log.Info("no context")

	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	require.Len(t, lines, 2)
	var first, second map[string]any
	require.NoError(t, json.Unmarshal(lines[0], &first))
	require.NoError(t, json.Unmarshal(lines[1], &second))
	require.Equal(t, "req-123", first["request_id"])
	require.Equal(t, "test", first["component"])
	require.NotContains(t, second, "request_id")
}
