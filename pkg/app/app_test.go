package app_test

import (
	"errors"
	"io"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// The flows run against the real store on a database of their own (pgtest), the real
// database provider, and where S3 is concerned a real S3 server (blobtest).

func TestMain(m *testing.M) { pgtest.Main(m) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// requireCode asserts an *assess.Error with code.
func requireCode(t *testing.T, err error, code string) {
	t.Helper()
	var e *assess.Error
	require.True(t, errors.As(err, &e), "want *assess.Error %s, got %v", code, err)
	require.Equal(t, code, e.Code, e.Message)
}
