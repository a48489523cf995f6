package httpapi

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/logging"
)

type fakeEncryption struct {
	actor assess.Actor
	err   error
}

func (f *fakeEncryption) EncryptionStatus(context.Context) (assess.EncryptionStatus, error) {
	return assess.EncryptionStatus{Mode: "encrypted", CurrentVersion: 2, Versions: []assess.EncryptionKeyVersion{
		{Version: 1, CreatedBy: "system", Usable: true}, {Version: 2, CreatedBy: "u_1", Current: true, Usable: true},
	}, Fields: []assess.EncryptedFieldCount{{Kind: "jwt_secret", Encrypted: 1}}}, f.err
}

func (f *fakeEncryption) RotateEncryptionKey(_ context.Context, a assess.Actor) (assess.RotationResult, error) {
	f.actor = a
	return assess.RotationResult{Version: 3, PreviousVersion: 2, Rewrapped: 7}, f.err
}

// actorAuthorizer grants one permission and names the caller, as the identity layer will.
type actorAuthorizer struct{ granted assess.Perm }

func (a actorAuthorizer) Authorize(r *http.Request, perm assess.Perm) (context.Context, error) {
	if perm != a.granted {
		return nil, assess.Errorf(assess.ECodePermissionDenied, "This action requires the permission %s.", perm)
	}
	return assess.WithActor(r.Context(), assess.Actor{ID: "u_admin"}), nil
}

func newEncryptionHarness(t *testing.T, auth Authorizer, enc *fakeEncryption) *harness {
	t.Helper()
	h := &harness{setup: &fakeSetup{}, db: &fakeCheck{}}
	h.setup.done.Store(true)
	h.srv = New(Config{Version: "test", StartedAt: time.Now()},
		Deps{Logger: logging.New(io.Discard, slog.LevelError), Database: h.db, Setup: h.setup, Authorizer: auth, Encryption: enc})
	return h
}

func TestEncryptionEndpoints(t *testing.T) {
	enc := &fakeEncryption{}
	t.Run("without a credential", func(t *testing.T) {
		h := newEncryptionHarness(t, nil, enc)
		res, body := h.do(t, "GET", "/api/v1/admin/encryption/status", "")
		requireEnvelope(t, res, body, 401, "unauthenticated")
	})
	t.Run("without admin.encryption", func(t *testing.T) {
		h := newEncryptionHarness(t, actorAuthorizer{granted: "something.else"}, enc)
		res, body := h.do(t, "POST", "/api/v1/admin/encryption/rotate", "")
		requireEnvelope(t, res, body, 403, "permission_denied")
		require.Contains(t, body["message"], "admin.encryption")
	})

	h := newEncryptionHarness(t, actorAuthorizer{granted: assess.PermAdminEncryption}, enc)
	t.Run("the status lists the key versions, never cached", func(t *testing.T) {
		res, body := h.do(t, "GET", "/api/v1/admin/encryption/status", "")
		require.Equal(t, 200, res.StatusCode)
		require.Equal(t, float64(2), body["currentVersion"])
		require.Len(t, body["versions"], 2)
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	})
	t.Run("a rotation is made by the caller, with the request id and address", func(t *testing.T) {
		res, body := h.do(t, "POST", "/api/v1/admin/encryption/rotate", "", HeaderRequestID, "rot-1")
		require.Equal(t, 200, res.StatusCode)
		require.Equal(t, float64(3), body["version"])
		require.Equal(t, "u_admin", enc.actor.ID)
		require.Equal(t, "rot-1", enc.actor.RequestID)
		require.NotEmpty(t, enc.actor.IP)
	})
	t.Run("an unavailable key is 503", func(t *testing.T) {
		enc.err = &assess.Error{Code: assess.ECodeKeyUnavailable, Message: "The master key does not open version 2."}
		res, body := h.do(t, "POST", "/api/v1/admin/encryption/rotate", "")
		requireEnvelope(t, res, body, 503, "encryption_key_unavailable")
	})
	t.Run("a refusal by rule is 422", func(t *testing.T) {
		enc.err = &assess.Error{Code: assess.ECodeBusinessRule, Message: "This needs MASTER_ENCRYPTION_KEY."}
		res, body := h.do(t, "POST", "/api/v1/admin/encryption/rotate", "")
		requireEnvelope(t, res, body, 422, "business_rule_violation")
	})
}
