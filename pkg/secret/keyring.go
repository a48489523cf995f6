package secret

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// Keyring holds the unwrapped KEKs of this process and seals and opens values. Without a
// master key it runs in passthrough mode: Seal stores plaintext, and Open returns
// plaintext values and refuses encrypted ones.
type Keyring struct {
	// OnUnavailable is called (for the audit log) whenever a value cannot be opened
	// because its key version is unknown or unusable with the configured master key.
	OnUnavailable func(ctx context.Context, version int, aad string)
	// Reload fetches the ledger again; Open calls it once when it meets a version it does
	// not know, which another replica may have created by rotating.
	Reload func(ctx context.Context) ([]KeyVersion, error)

	mu       sync.RWMutex
	master   []byte
	keks     map[int][]byte
	unusable map[int]bool
	current  int
}

// NewKeyring unwraps the ledger with master (nil or empty: passthrough). Entries the
// master key does not open are remembered as unusable rather than failing: the service
// must start and serve everything that does not need them.
func NewKeyring(master []byte, ledger []KeyVersion) *Keyring {
	k := &Keyring{keks: map[int][]byte{}, unusable: map[int]bool{}}
	if len(master) > 0 {
		k.master = append([]byte(nil), master...)
	}
	k.load(ledger)
	return k
}

// load merges a ledger read into the keyring. KEKs already held are kept (after a rekey
// of the master key, a process still running with the old key keeps what it unwrapped
// before), and the current version only moves forward (a ledger read that raced with
// this process's own rotation must not take the new version away).
func (k *Keyring) load(ledger []KeyVersion) {
	if k.master == nil {
		return
	}
	opened := map[int][]byte{}
	current := 0
	for _, kv := range ledger {
		kek, err := UnwrapKEK(k.master, kv)
		if err != nil {
			continue
		}
		opened[kv.Version] = kek
		if kv.Current {
			current = kv.Version
		}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, kv := range ledger {
		if kek := opened[kv.Version]; kek != nil && k.keks[kv.Version] == nil {
			k.keks[kv.Version] = kek
		}
		k.unusable[kv.Version] = k.keks[kv.Version] == nil
	}
	if current > k.current {
		k.current = current
	}
}

// Passthrough reports whether no master key is configured.
func (k *Keyring) Passthrough() bool { return k.master == nil }

// Current returns the KEK version new values are sealed under (0 when none is usable).
func (k *Keyring) Current() int {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.current
}

// Unusable lists the ledger versions the configured master key cannot open.
func (k *Keyring) Unusable() []int {
	k.mu.RLock()
	defer k.mu.RUnlock()
	out := make([]int, 0, len(k.unusable))
	for v, bad := range k.unusable {
		if bad {
			out = append(out, v)
		}
	}
	sort.Ints(out)
	return out
}

// Seal encrypts plaintext for the record named by aad ("table/column/id") under the
// current KEK. In passthrough mode it returns the plaintext unchanged.
func (k *Keyring) Seal(_ context.Context, aad string, plaintext []byte) (string, error) {
	if k.Passthrough() {
		if IsEncrypted(string(plaintext)) {
			return "", errors.New("secret: plaintext looks like an encrypted value; refusing to store it unencrypted")
		}
		return string(plaintext), nil
	}
	k.mu.RLock()
	version, kek := k.current, k.keks[k.current]
	k.mu.RUnlock()
	if kek == nil {
		return "", &assess.Error{Code: assess.ECodeKeyUnavailable,
			Message: "No usable encryption key: the master key does not open the current key version; see docs/encryption.md."}
	}
	dek := make([]byte, KeySize)
	if _, err := rand.Read(dek); err != nil {
		return "", err
	}
	wrapped, err := seal(kek, dek, dekAAD(aad))
	if err != nil {
		return "", err
	}
	data, err := seal(dek, plaintext, aad)
	if err != nil {
		return "", err
	}
	return envelope{version: version, wrappedDEK: wrapped, data: data}.String(), nil
}

// Open returns the plaintext of a stored value. Plaintext values (written before
// encryption was enabled) are returned as they are, so both kinds can coexist.
func (k *Keyring) Open(ctx context.Context, aad, stored string) ([]byte, error) {
	if !IsEncrypted(stored) {
		return []byte(stored), nil
	}
	e, err := parseEnvelope(stored)
	if err != nil {
		return nil, err
	}
	kek, err := k.kek(ctx, e.version, aad)
	if err != nil {
		return nil, err
	}
	dek, err := open(kek, e.wrappedDEK, dekAAD(aad))
	if err != nil {
		return nil, errCorrupt("the data key of %s does not open (tampered, or moved from another record)", aad)
	}
	plaintext, err := open(dek, e.data, aad)
	if err != nil {
		return nil, errCorrupt("the value of %s failed its integrity check (tampered, or moved from another record)", aad)
	}
	return plaintext, nil
}

// Rewrap re-encrypts only the data key of a stored value under KEK version `to`; the
// ciphertext stays as it is. Plaintext values are returned unchanged.
func (k *Keyring) Rewrap(ctx context.Context, aad, stored string, to int) (string, error) {
	if !IsEncrypted(stored) {
		return stored, nil
	}
	e, err := parseEnvelope(stored)
	if err != nil || e.version == to {
		return stored, err
	}
	from, err := k.kek(ctx, e.version, aad)
	if err != nil {
		return "", err
	}
	target, err := k.kek(ctx, to, aad)
	if err != nil {
		return "", err
	}
	dek, err := open(from, e.wrappedDEK, dekAAD(aad))
	if err != nil {
		return "", errCorrupt("the data key of %s does not open (tampered, or moved from another record)", aad)
	}
	if e.wrappedDEK, err = seal(target, dek, dekAAD(aad)); err != nil {
		return "", err
	}
	e.version = to
	return e.String(), nil
}

// kek returns KEK version v, reloading the ledger once when v is unknown.
func (k *Keyring) kek(ctx context.Context, v int, aad string) ([]byte, error) {
	k.mu.RLock()
	_, seen := k.unusable[v]
	kek, known := k.keks[v], k.keks[v] != nil || seen
	k.mu.RUnlock()
	if kek == nil && !known && k.Reload != nil && !k.Passthrough() {
		if ledger, err := k.Reload(ctx); err == nil {
			k.load(ledger)
			k.mu.RLock()
			kek = k.keks[v]
			k.mu.RUnlock()
		}
	}
	if kek != nil {
		return kek, nil
	}
	if k.OnUnavailable != nil {
		k.OnUnavailable(ctx, v, aad)
	}
	reason := "no master key is configured (MASTER_ENCRYPTION_KEY)"
	if !k.Passthrough() {
		reason = "the configured master key cannot open that key version, or the version is unknown"
	}
	// The record's identity goes to the audit row, not into the client-visible message.
	return nil, &assess.Error{Code: assess.ECodeKeyUnavailable,
		Message: fmt.Sprintf("Cannot decrypt this record: it is encrypted under key version %d and %s.", v, reason)}
}

// NewVersion creates KEK version `version` under this keyring's master key. The caller
// stores the ledger row and, once it is committed, calls AddVersion with the KEK.
func (k *Keyring) NewVersion(version int, createdBy string, now time.Time) (KeyVersion, []byte, error) {
	if k.Passthrough() {
		return KeyVersion{}, nil, errors.New("secret: no master key configured")
	}
	return NewKeyVersion(k.master, version, createdBy, now)
}

// Usable reports whether this process holds KEK version v.
func (k *Keyring) Usable(v int) bool {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.keks[v] != nil
}

// AddVersion makes a freshly created KEK version known and current in this process.
func (k *Keyring) AddVersion(version int, kek []byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.keks[version] = kek
	k.unusable[version] = false
	k.current = max(k.current, version)
}

func errCorrupt(format string, args ...any) error {
	return &assess.Error{Code: assess.ECodeIntegrity, Message: "Encrypted data failed its integrity check: " + fmt.Sprintf(format, args...) + "."}
}
