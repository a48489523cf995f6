package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
)

// credentialKey names the caller for rate-limit budgets and idempotency scopes without
// validating the credential: "cred:" and a hash of the session cookie, bearer token or
// X-Api-Key (in that order of preference), or "ip:" and the client address when the
// request carries none. Only the hash leaves this function, so the key can be stored and
// logged. A made-up token gets a budget of its own; guessing is bounded by the per-IP
// auth limiter and by the authorizer, which rejects it.
func credentialKey(r *http.Request) string {
	if secret := presentedCredential(r); secret != "" && credentialValid(r) {
		sum := sha256.Sum256([]byte(secret))
		return "cred:" + hex.EncodeToString(sum[:16])
	}
	return "ip:" + ClientFrom(r.Context()).IP
}

// presentedCredential returns the raw credential of the request, or "".
func presentedCredential(r *http.Request) string {
	if c, err := r.Cookie(SessionCookieName); err == nil && c.Value != "" {
		return c.Value
	}
	if token := bearerToken(r.Header.Get("Authorization")); token != "" {
		return token
	}
	return strings.TrimSpace(r.Header.Get("X-Api-Key"))
}
