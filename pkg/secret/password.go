package secret

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Argon2Params are the argon2id cost parameters. The defaults follow OWASP's
// recommendation (m=19 MiB, t=2, p=1).
type Argon2Params struct {
	MemoryKiB uint32
	Time      uint32
	Threads   uint8
}

// DefaultArgon2 is the cost used for new hashes.
var DefaultArgon2 = Argon2Params{MemoryKiB: 19 * 1024, Time: 2, Threads: 1}

// Hasher hashes and verifies passwords. At most MaxConcurrent hashes run at once, so a
// flood of sign-ins queues here instead of starving every other request of CPU and memory.
type Hasher struct {
	Params Argon2Params
	slots  chan struct{}
}

// NewHasher returns a hasher running at most maxConcurrent hashes at a time. The default
// leaves one CPU free for everything else (at least one hash runs): an argon2 hash holds
// a core for its whole duration, so letting every core hash starves other requests.
func NewHasher(params Argon2Params, maxConcurrent int) *Hasher {
	if maxConcurrent <= 0 {
		maxConcurrent = max(1, runtime.NumCPU()-1)
	}
	return &Hasher{Params: params, slots: make(chan struct{}, maxConcurrent)}
}

func (h *Hasher) acquire(ctx context.Context) error {
	select {
	case h.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Hasher) release() { <-h.slots }

// Hash returns the PHC-format argon2id hash of password.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer h.release()
	p := h.Params
	key := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, 32)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.MemoryKiB, p.Time, p.Threads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

// ErrMalformedHash is returned for a stored hash this package cannot read.
var ErrMalformedHash = errors.New("secret: malformed password hash")

// Verify reports whether password matches the stored hash, comparing in constant time.
// The cost is read from the hash, so older hashes keep verifying after a parameter change.
func (h *Hasher) Verify(ctx context.Context, password, encoded string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, ErrMalformedHash
	}
	var version int
	var p Argon2Params
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, ErrMalformedHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Time, &p.Threads); err != nil ||
		p.MemoryKiB == 0 || p.MemoryKiB > 1<<20 || p.Time == 0 || p.Time > 10 || p.Threads == 0 {
		return false, ErrMalformedHash
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	want, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false, ErrMalformedHash
	}
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer h.release()
	got := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// DummyVerify spends the time of one verification without a stored hash, so a sign-in for
// an unknown user takes as long as one with a wrong password (no user enumeration by timing).
func (h *Hasher) DummyVerify(ctx context.Context, password string) {
	_, _ = h.Verify(ctx, password, dummyHash)
}

// dummyHash is a valid hash of a random password with the default cost.
const dummyHash = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$0dYbuH7mjSi0D3Qk8WmXgC6PyXwF2V7c1Pp5s2jK0aA"
