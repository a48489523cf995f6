package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Signing keys held by the service for users who cannot keep one (docs/attestations.md,
// "Keys held by the service"). Signing with one is the sign operation's digital kind
// with heldKeyId and the password.

var docHeldSigningKeyGenerate = huma.Operation{OperationID: "generateHeldSigningKey", Summary: "Generate a signing key held by the service",
	Tags: tagAttestations, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusBadRequest, http.StatusConflict},
	Description: "For users who cannot keep a private key: the service generates an Ed25519 or ES256 (P-256) key pair, keeps " +
		"the private key sealed through the keyring (encrypted at rest; never returned) and answers with the public key, " +
		"listed with one's other keys as held. It signs a slot only for its owner, with their password given again " +
		"(sign with kind digital and digital.heldKeyId). 409 encryption_required when the service runs without " +
		"MASTER_ENCRYPTION_KEY: it would store the private key in plaintext."}

func (s *Server) handleHeldSigningKeyGenerate(ctx context.Context, in *body[assess.NewHeldSigningKey]) (*body[assess.SigningKey], error) {
	k, err := s.dep.Attestations.GenerateHeldSigningKey(ctx, in.Body, requestActor(ctx))
	return reply(k), err
}

var docSigningKeyRevoke = huma.Operation{OperationID: "revokeSigningKey", Summary: "Revoke a signing key held by the service",
	Tags: tagAttestations, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "One's own keys held by the service: the private key is destroyed and the revocation time recorded (the " +
		"time of the last signature it made if that is later). Verification then reports a signature with the key whose " +
		"signing record is later than the revocation as invalid; earlier ones stay valid. The public rescission list " +
		"(/api/v1/rescissions) publishes the revocation for offline verifiers. 409 not_held for a public key of one's own " +
		"(remove it instead), 409 revoked when revoked already."}

func (s *Server) handleSigningKeyRevoke(ctx context.Context, in *idInput) (*body[assess.SigningKey], error) {
	k, err := s.dep.Attestations.RevokeSigningKey(ctx, in.ID, requestActor(ctx))
	return reply(k), err
}
