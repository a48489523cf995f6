package assess

import (
	"context"
	"time"
)

// EncryptionKeyVersion describes one KEK version of the key ledger.
type EncryptionKeyVersion struct {
	Version   int       `json:"version"`
	CreatedAt time.Time `json:"createdAt"`
	CreatedBy string    `json:"createdBy"`
	Current   bool      `json:"current" doc:"New values are sealed under this version"`
	Usable    bool      `json:"usable" doc:"The configured master key opens this version"`
}

// EncryptedFieldCount counts the stored values of one kind of secret.
type EncryptedFieldCount struct {
	Kind      string `json:"kind" doc:"What the secret is, e.g. jwt_secret"`
	Encrypted int64  `json:"encrypted"`
	Plaintext int64  `json:"plaintext"`
}

// EncryptionStatus is the state of encryption at rest.
type EncryptionStatus struct {
	Mode           string                 `json:"mode" enum:"encrypted,passthrough" doc:"passthrough when no master key is configured"`
	CurrentVersion int                    `json:"currentVersion" doc:"0 when no key version exists"`
	Versions       []EncryptionKeyVersion `json:"versions" doc:"Every key version, oldest first"`
	Fields         []EncryptedFieldCount  `json:"fields"`
}

// RotationResult reports a key-encryption-key rotation.
type RotationResult struct {
	Version         int   `json:"version" doc:"The new current key version"`
	PreviousVersion int   `json:"previousVersion"`
	Rewrapped       int64 `json:"rewrapped" doc:"Data keys rewrapped under the new version"`
	Unreadable      int64 `json:"unreadable" doc:"Values under key versions the master key cannot open, left as they are"`
}

// SecretsMigration reports an encrypt-secrets run.
type SecretsMigration struct {
	Encrypted        int64 `json:"encrypted" doc:"Plaintext values encrypted by this run"`
	AlreadyEncrypted int64 `json:"alreadyEncrypted"`
}

// EncryptionService manages encryption at rest.
type EncryptionService interface {
	EncryptionStatus(ctx context.Context) (EncryptionStatus, error)
	RotateEncryptionKey(ctx context.Context, actor Actor) (RotationResult, error)
}
