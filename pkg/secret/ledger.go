package secret

import (
	"crypto/rand"
	"errors"
	"time"
)

// KeyVersion is one row of the key ledger: a KEK version as stored in the database.
type KeyVersion struct {
	Version    int
	Salt       []byte // HKDF salt of the wrapping key, fresh per version (and per rekey)
	WrappedKEK []byte // nonce‖AES-GCM(wrapping key, KEK)
	CreatedAt  time.Time
	CreatedBy  string
	Current    bool
}

// ErrWrongMasterKey means the master key does not open a ledger entry.
var ErrWrongMasterKey = errors.New("the master key does not open this key version")

// NewKeyVersion creates KEK version `version`: a random KEK wrapped under the master key
// with a fresh salt. It returns the ledger row and the plaintext KEK.
func NewKeyVersion(master []byte, version int, createdBy string, now time.Time) (KeyVersion, []byte, error) {
	kek := make([]byte, KeySize)
	if _, err := rand.Read(kek); err != nil {
		return KeyVersion{}, nil, err
	}
	kv, err := wrapKEK(master, version, kek)
	if err != nil {
		return KeyVersion{}, nil, err
	}
	kv.CreatedAt, kv.CreatedBy, kv.Current = now, createdBy, true
	return kv, kek, nil
}

func wrapKEK(master []byte, version int, kek []byte) (KeyVersion, error) {
	salt := make([]byte, KeySize)
	if _, err := rand.Read(salt); err != nil {
		return KeyVersion{}, err
	}
	wk, err := wrappingKey(master, salt, version)
	if err != nil {
		return KeyVersion{}, err
	}
	wrapped, err := seal(wk, kek, kekAAD(version))
	if err != nil {
		return KeyVersion{}, err
	}
	return KeyVersion{Version: version, Salt: salt, WrappedKEK: wrapped}, nil
}

// UnwrapKEK opens a ledger entry with the master key.
func UnwrapKEK(master []byte, kv KeyVersion) ([]byte, error) {
	wk, err := wrappingKey(master, kv.Salt, kv.Version)
	if err != nil {
		return nil, err
	}
	kek, err := open(wk, kv.WrappedKEK, kekAAD(kv.Version))
	if err != nil {
		return nil, ErrWrongMasterKey
	}
	return kek, nil
}

// RewrapKEK moves a ledger entry from the old master key to the new one, with a fresh
// salt. The KEK itself, and so every data key wrapped under it, is unchanged.
func RewrapKEK(oldMaster, newMaster []byte, kv KeyVersion) (KeyVersion, error) {
	kek, err := UnwrapKEK(oldMaster, kv)
	if err != nil {
		return KeyVersion{}, err
	}
	out, err := wrapKEK(newMaster, kv.Version, kek)
	if err != nil {
		return KeyVersion{}, err
	}
	out.CreatedAt, out.CreatedBy, out.Current = kv.CreatedAt, kv.CreatedBy, kv.Current
	return out, nil
}
