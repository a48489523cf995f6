package httpapi

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/logging"
)

// fakeSigningKeys answers the signing-key list; the other operations are not called.
type fakeSigningKeys struct {
	assess.AttestationService
}

func (fakeSigningKeys) FindSigningKeys(context.Context, assess.Actor) (assess.SigningKeyList, error) {
	return assess.SigningKeyList{Items: []assess.SigningKey{{ID: "uk_1", Label: "laptop", Algorithm: "Ed25519"}}}, nil
}

func newCapabilityHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	h := &harness{setup: &fakeSetup{}, db: &fakeCheck{}}
	h.setup.done.Store(true)
	cfg.Version, cfg.StartedAt = "test", time.Now()
	h.srv = New(cfg, Deps{Logger: logging.New(io.Discard, slog.LevelError), Database: h.db, Setup: h.setup,
		Authorizer: actorAuthorizer{granted: assess.PermSignaturesManage}, Attestations: fakeSigningKeys{}})
	return h
}

// TestCapabilities checks that a client learns what this server can do before offering
// it: the starter standards without the network, and keys held by the service.
func TestCapabilities(t *testing.T) {
	for _, on := range []bool{true, false} {
		h := newCapabilityHarness(t, Config{StarterStandardsBuiltIn: on, HoldsSigningKeys: on})
		t.Run("the setup status says whether the starter standards are built in", func(t *testing.T) {
			res, body := h.do(t, "GET", "/api/v1/setup/status", "")
			require.Equal(t, 200, res.StatusCode)
			require.Equal(t, on, body["starterStandardsBuiltIn"])
		})
		t.Run("the signing keys say whether the service can hold one", func(t *testing.T) {
			res, body := h.do(t, "GET", "/api/v1/me/signing-keys", "")
			require.Equal(t, 200, res.StatusCode)
			require.Equal(t, on, body["heldKeysAvailable"])
			require.Len(t, body["items"], 1)
		})
	}
}
