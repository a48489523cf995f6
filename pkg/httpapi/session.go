package httpapi

import (
	"errors"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// sessionSigner signs and checks the session cookie: a JWT (HS256) naming the session
// row, which is what actually grants access, so logout and revocation apply at once.
type sessionSigner struct {
	key      []byte
	lifetime time.Duration
	now      func() time.Time
}

const (
	tokenIssuer   = "assay"
	tokenAudience = "assay-session"
)

type sessionClaims struct {
	SessionID string `json:"sid"`
	jwt.RegisteredClaims
}

func (s sessionSigner) sign(userID, sessionID string, expires time.Time) (string, error) {
	now := s.now()
	claims := sessionClaims{SessionID: sessionID, RegisteredClaims: jwt.RegisteredClaims{
		Issuer: tokenIssuer, Audience: jwt.ClaimStrings{tokenAudience}, Subject: userID,
		IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(expires),
	}}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.key)
}

var errBadToken = errors.New("invalid session token")

// verify returns the session id of a valid, unexpired token signed with our key.
func (s sessionSigner) verify(token string) (string, error) {
	var claims sessionClaims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return s.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithIssuer(tokenIssuer),
		jwt.WithAudience(tokenAudience), jwt.WithExpirationRequired(), jwt.WithLeeway(30*time.Second),
		jwt.WithTimeFunc(s.now))
	if err != nil || claims.SessionID == "" {
		return "", errBadToken
	}
	return claims.SessionID, nil
}
