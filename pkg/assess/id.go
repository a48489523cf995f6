package assess

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"strings"
	"sync"
	"time"
)

// Identifier prefixes of the resources (interface spec, PRODUCT P3.2).
const (
	PrefixUser    = "u_"
	PrefixRole    = "ro_"
	PrefixSession = "se_"
	PrefixAPIKey  = "ak_"
	PrefixInvite  = "inv_"

	PrefixStandard     = "st_"
	PrefixRequirement  = "rq_"
	PrefixLevel        = "lv_"
	PrefixEntity       = "en_"
	PrefixRelationship = "er_"
	PrefixPolicy       = "cp_"
	PrefixProject      = "pr_"
	PrefixTag          = "tg_"

	PrefixAssessment            = "as_"
	PrefixAssessmentRequirement = "ar_"
	PrefixEvidence              = "ev_"
	PrefixEvidenceNote          = "evn_"
	PrefixAttachment            = "af_" // "attachment file"; at_ until migration 0017 gave at_ to attestations
	PrefixAttestation           = "at_"
	PrefixClaim                 = "cl_"
	PrefixWorkNote              = "wn_"
)

const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

// lastID is the millisecond and random part of the last identifier NewID made.
var lastID struct {
	sync.Mutex
	ms     uint64
	random [10]byte
}

// NewID returns prefix + a 26-character, time-sortable identifier (48 bits of
// milliseconds, 80 random bits, Crockford base32, lower case). Identifiers this process
// makes in one millisecond keep the order they were made in: when the random part does
// not sort after the last one of the same millisecond, it is that one plus one.
func NewID(prefix string, now time.Time) string {
	b := reserveIDs(now, 1)
	return encodeID(prefix, &b)
}

// NewIDs returns n identifiers as NewID makes them, in ascending order: the first with a
// fresh random part, each next one the previous plus one, all of them reserved against
// the identifiers this process makes later in the same millisecond. For a statement that
// inserts many rows whose ids must follow the order of the rows: every id keeps all 80
// random bits, so two processes starting such a batch in one millisecond collide only if
// their random parts fall within n of each other.
func NewIDs(prefix string, now time.Time, n int) []string {
	if n <= 0 {
		return nil
	}
	b := reserveIDs(now, n)
	ids := make([]string, n)
	for i := range ids {
		if i > 0 {
			increment(&b)
		}
		ids[i] = encodeID(prefix, &b)
	}
	return ids
}

// reserveIDs returns the time and random part of the first of n identifiers made at now,
// and remembers the last of them as this process's last identifier.
func reserveIDs(now time.Time, n int) [16]byte {
	var b [16]byte
	ms := uint64(now.UnixMilli())
	binary.BigEndian.PutUint64(b[:8], ms<<16)
	_, _ = rand.Read(b[6:])
	lastID.Lock()
	defer lastID.Unlock()
	if ms == lastID.ms && bytes.Compare(b[6:], lastID.random[:]) <= 0 {
		copy(b[6:], lastID.random[:])
		increment(&b)
	}
	last := b
	for range n - 1 {
		increment(&last)
	}
	lastID.ms = ms
	copy(lastID.random[:], last[6:])
	return b
}

// increment adds one to the random part of b, with carry.
func increment(b *[16]byte) {
	for i := 15; i >= 6; i-- {
		b[i]++
		if b[i] != 0 {
			return
		}
	}
}

// encodeID writes prefix and the 128 bits of b as 26 base32 digits, most significant first.
func encodeID(prefix string, b *[16]byte) string {
	var sb strings.Builder
	sb.Grow(len(prefix) + 26)
	sb.WriteString(prefix)
	hi, lo := binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])
	for i := 25; i >= 0; i-- {
		shift := uint(i * 5)
		var v uint64
		switch {
		case shift >= 64:
			v = hi >> (shift - 64)
		case shift > 59:
			v = lo>>shift | hi<<(64-shift)
		default:
			v = lo >> shift
		}
		sb.WriteByte(crockford[v&31])
	}
	return sb.String()
}

// ValidID reports whether id looks like an identifier of the given prefix, so malformed
// ids can be answered with 404 before reaching the database.
func ValidID(prefix, id string) bool {
	rest, ok := strings.CutPrefix(id, prefix)
	if !ok || len(rest) != 26 {
		return false
	}
	for _, c := range rest {
		if !strings.ContainsRune(crockford, c) {
			return false
		}
	}
	return true
}
