package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagAdministration = []string{"Administration"}

type encryptionStatusOutput struct {
	CacheControl string `header:"Cache-Control"`
	Body         assess.EncryptionStatus
}

var docEncryptionStatus = huma.Operation{OperationID: "getEncryptionStatus", Summary: "Encryption at rest status",
	Tags: tagAdministration,
	Description: "The current key-encryption-key version, the full version history (and whether the configured " +
		"master key opens each version), and per kind of secret the counts of encrypted and plaintext values."}

func (s *Server) handleEncryptionStatus(ctx context.Context, _ *struct{}) (*encryptionStatusOutput, error) {
	st, err := s.dep.Encryption.EncryptionStatus(ctx)
	if err != nil {
		return nil, err
	}
	return &encryptionStatusOutput{CacheControl: "no-store", Body: st}, nil
}

var docEncryptionRotate = huma.Operation{OperationID: "rotateEncryptionKey", Summary: "Rotate the key-encryption key",
	Tags: tagAdministration, Errors: []int{http.StatusUnprocessableEntity},
	Description: "Appends a key-encryption-key version with a fresh derivation salt, makes it current and " +
		"rewraps every data key under it. Old versions are kept. Writes an audit row with the caller. " +
		"Answers 422 in passthrough mode (no master key) and 503 when the master key does not open the current version."}

func (s *Server) handleEncryptionRotate(ctx context.Context, _ *struct{}) (*body[assess.RotationResult], error) {
	res, err := s.dep.Encryption.RotateEncryptionKey(ctx, requestActor(ctx))
	return reply(res), err
}
