// Package secret implements envelope encryption of the service's stored secrets.
//
// Key hierarchy: MASTER_ENCRYPTION_KEY (environment, 256 bits) → key-encryption keys
// (KEK, one per version, random 256 bits, stored in the database wrapped under a key
// derived with HKDF-SHA-512 from the master key and the version's own random salt) →
// data keys (DEK, random 256 bits per record, stored beside the ciphertext wrapped under
// the current KEK). Everything is AES-256-GCM. The record's associated data (table,
// column, record id) is bound into both the data and the wrapped data key, so a
// ciphertext copied to another row or column does not open.
package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// Prefix starts every encrypted stored value. Anything else is a plaintext value
// (passthrough mode, or written before encryption was enabled).
const Prefix = "$assay-enc1$"

// KeySize is the size of every key in the hierarchy, in bytes.
const KeySize = 32

const nonceSize = 12

var b64 = base64.RawURLEncoding

// IsEncrypted reports whether a stored value is in the encrypted format.
func IsEncrypted(stored string) bool { return strings.HasPrefix(stored, Prefix) }

// envelope is the parsed form of an encrypted stored value:
// Prefix + kekVersion + "$" + b64(nonce‖wrapped DEK) + "$" + b64(nonce‖ciphertext).
type envelope struct {
	version    int
	wrappedDEK []byte
	data       []byte
}

func (e envelope) String() string {
	return Prefix + strconv.Itoa(e.version) + "$" + b64.EncodeToString(e.wrappedDEK) + "$" + b64.EncodeToString(e.data)
}

func parseEnvelope(stored string) (envelope, error) {
	rest, ok := strings.CutPrefix(stored, Prefix)
	if !ok {
		return envelope{}, errCorrupt("value is not in the encrypted format")
	}
	parts := strings.Split(rest, "$")
	if len(parts) != 3 {
		return envelope{}, errCorrupt("encrypted value has %d parts, want 3", len(parts))
	}
	v, err := strconv.Atoi(parts[0])
	if err != nil || v < 1 {
		return envelope{}, errCorrupt("encrypted value has a bad key version %q", parts[0])
	}
	dek, err1 := b64.DecodeString(parts[1])
	data, err2 := b64.DecodeString(parts[2])
	if err1 != nil || err2 != nil || len(dek) < nonceSize+KeySize || len(data) < nonceSize {
		return envelope{}, errCorrupt("encrypted value is malformed")
	}
	e := envelope{version: v, wrappedDEK: dek, data: data}
	// The decoders forgive some variations (unused low bits of the last base64 character,
	// line breaks, "+1" or "01" as the version); a value must be exactly what Seal wrote,
	// so that any change to it is detected.
	if e.String() != stored {
		return envelope{}, errCorrupt("encrypted value is not in canonical form")
	}
	return e, nil
}

// ParseVersion returns the KEK version an encrypted stored value was written under.
func ParseVersion(stored string) (int, error) {
	e, err := parseEnvelope(stored)
	return e.version, err
}

// seal encrypts plaintext with key, binding aad; the result is nonce‖ciphertext.
func seal(key, plaintext []byte, aad string) ([]byte, error) {
	aead, err := newGCM(key)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, nonceSize, nonceSize+len(plaintext)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return aead.Seal(nonce, nonce, plaintext, []byte(aad)), nil
}

// open reverses seal; any change to the key, the bytes or the aad fails.
func open(key, sealed []byte, aad string) ([]byte, error) {
	aead, err := newGCM(key)
	if err != nil {
		return nil, err
	}
	if len(sealed) < nonceSize+aead.Overhead() {
		return nil, errCorrupt("sealed value too short")
	}
	return aead.Open(nil, sealed[:nonceSize], sealed[nonceSize:], []byte(aad))
}

func newGCM(key []byte) (cipher.AEAD, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("secret: key must be %d bytes, got %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// wrappingKey derives the key that wraps KEK version v from the master key and the
// version's salt (HKDF-SHA-512).
func wrappingKey(master, salt []byte, version int) ([]byte, error) {
	if len(master) != KeySize {
		return nil, fmt.Errorf("secret: master key must be %d bytes, got %d", KeySize, len(master))
	}
	return hkdf.Key(sha512.New, master, salt, "assay kek wrapping v"+strconv.Itoa(version), KeySize)
}

func kekAAD(version int) string { return "assay/kek/v" + strconv.Itoa(version) }
func dekAAD(aad string) string  { return "assay/dek/" + aad }
