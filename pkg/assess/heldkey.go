package assess

import (
	"strings"
	"time"
)

// Signing keys held by the service (docs/attestations.md, "Keys held by the service"): for
// users who cannot keep a private key, the service generates one on request and keeps it
// sealed through the keyring. It signs only for its owner, who gives their password again
// for every signature; a revocation destroys it.

// HeldKeyAlgorithms are the algorithms a key held by the service can be generated for.
var HeldKeyAlgorithms = []string{"Ed25519", "ES256"}

// NewHeldSigningKey asks the service to generate a signing key it holds for the actor.
type NewHeldSigningKey struct {
	Label     string `json:"label" minLength:"1" maxLength:"300"`
	Algorithm string `json:"algorithm" enum:"Ed25519,ES256" doc:"Ed25519, or ES256 (ECDSA on P-256)"`
}

// Validate trims and checks the label and the algorithm.
func (n *NewHeldSigningKey) Validate() error {
	n.Label = strings.TrimSpace(n.Label)
	details := appendTextProblem(nil, "label", n.Label, 300, true)
	known := false
	for _, a := range HeldKeyAlgorithms {
		known = known || a == n.Algorithm
	}
	if !known {
		details = append(details, Detail{Field: "algorithm", Code: "invalid", Message: "Ed25519 or ES256."})
	}
	return validationError(details)
}

// KeyRevocation says that the key with thumbprint KeyID was revoked at RevokedAt: a
// signature with it made later is invalid, one made before stays valid.
type KeyRevocation struct {
	KeyID     string    `json:"keyId" doc:"RFC 7638 thumbprint of the revoked key"`
	RevokedAt time.Time `json:"revokedAt"`
}

// Errors of the keys held by the service.
var (
	// ErrHeldKeyNeedsEncryption refuses to generate a key in passthrough mode, where its
	// private half would be stored in plaintext.
	ErrHeldKeyNeedsEncryption = &Error{Code: ECodeConflict,
		Message: "The service runs without a master encryption key (MASTER_ENCRYPTION_KEY), so it would store the private key " +
			"in plaintext: it holds no signing keys until encryption at rest is turned on. Sign with a key of your own instead.",
		Details: []Detail{{Code: "encryption_required"}}}
	// ErrHeldKeyRevoked refuses to sign with, or revoke again, a revoked key.
	ErrHeldKeyRevoked = &Error{Code: ECodeConflict, Message: "This key was revoked: it signs nothing any more.",
		Details: []Detail{{Code: "revoked"}}}
	// ErrNotHeldKey refuses to revoke a key the service does not hold, or to sign with one.
	ErrNotHeldKey = &Error{Code: ECodeConflict, Message: "The service does not hold this key's private half: only keys held " +
		"by the service are revoked here or sign on the server; remove a public key of your own instead.",
		Details: []Detail{{Field: "id", Code: "not_held"}}}
	// ErrHeldKeyDelete refuses to delete a held key: it is revoked instead, and its record
	// stays so verification can judge the signatures it made.
	ErrHeldKeyDelete = &Error{Code: ECodeConflict, Message: "A key held by the service is revoked, not removed: its record stays " +
		"so that verification can tell the signatures made before the revocation from later ones.",
		Details: []Detail{{Field: "id", Code: "held_key"}}}
	// ErrSigningPasswordIncorrect refuses a server-side signature whose password is wrong.
	ErrSigningPasswordIncorrect = &Error{Code: ECodeValidation, Message: "The password is incorrect.",
		Details: []Detail{{Field: "digital.password", Code: "incorrect", Message: "The password is incorrect."}}}
	// ErrSigningPasswordLocked refuses a server-side signature while the account is locked
	// after too many wrong passwords (sign-in and signing count together).
	ErrSigningPasswordLocked = &Error{Code: ECodeRateLimited, Message: "Too many wrong passwords: the account is locked for a " +
		"while. Try again later.", Details: []Detail{{Field: "digital.password", Code: "locked"}}}
)
