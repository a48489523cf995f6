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
	PrefixAttachment            = "at_"
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
	var b [16]byte
	ms := uint64(now.UnixMilli())
	binary.BigEndian.PutUint64(b[:8], ms<<16)
	_, _ = rand.Read(b[6:])
	lastID.Lock()
	if ms == lastID.ms && bytes.Compare(b[6:], lastID.random[:]) <= 0 {
		copy(b[6:], lastID.random[:])
		for i := 15; i >= 6; i-- { // plus one, with carry
			b[i]++
			if b[i] != 0 {
				break
			}
		}
	}
	lastID.ms = ms
	copy(lastID.random[:], b[6:])
	lastID.Unlock()
	var sb strings.Builder
	sb.Grow(len(prefix) + 26)
	sb.WriteString(prefix)
	// 128 bits → 26 base32 digits, most significant first.
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
