package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The garbage collector's settings (docs/configuration.md, "Memory"; docs/performance.md,
// "Garbage collection"). GOGC and GOMEMLIMIT are the Go runtime's own variables: the runtime
// applies them before any of our code runs, and they win over the policy. When the operator
// has set no GOMEMLIMIT, the policy derives a soft memory limit from the container's cgroup
// limit, leaving room for the embedded PostgreSQL when it runs in the same container. GOGC
// stays Go's 100 unless set: a higher value under the limit was measured and multiplied what
// a PDF report and an upload hold at their peak (200: about twice, 400: four times), past the
// bounds make bench-reports and make bench-attachments keep.

// NoMemoryLimit is the soft memory limit that limits nothing, the runtime's default.
const NoMemoryLimit = math.MaxInt64

// EmbeddedDatabaseMemory is what the policy leaves, out of a container's memory limit, to
// the embedded PostgreSQL running beside the service (at most half the limit): its shared
// buffers (128 MiB, initdb's default) and a dozen backends of a few MiB each (the pool, the
// listeners, autovacuum, the background processes).
const EmbeddedDatabaseMemory = 256 << 20

// goShare is the part of what the container leaves to the Go process that the soft limit
// takes, in tenths: the rest is memory the limit does not count (the binary's pages, thread
// stacks, the kernel's buffers for the process).
const goShare = 9

// cgroupUnlimited is the smallest cgroup v1 limit read as none: v1 writes "no limit" as the
// largest page-aligned 64-bit number (9223372036854771712).
const cgroupUnlimited = 1 << 62

// MemoryInputs are what MemoryPolicy decides from.
type MemoryInputs struct {
	// GOGC and GOMEMLIMIT are the environment's values as the Go runtime reads them; ""
	// when unset.
	GOGC, GOMEMLIMIT string
	// CgroupV2Max is the content of /sys/fs/cgroup/memory.max and CgroupV1Limit that of
	// /sys/fs/cgroup/memory/memory.limit_in_bytes; "" when the file does not exist.
	CgroupV2Max, CgroupV1Limit string
	// EmbeddedDatabase tells that the embedded PostgreSQL runs in the same container
	// (DATABASE_PROVIDER=pglite).
	EmbeddedDatabase bool
}

// Where a Memory setting comes from.
const (
	FromEnvironment = "env"     // GOGC or GOMEMLIMIT, applied by the runtime
	FromCgroup      = "cgroup"  // the limit derived from the container's
	FromDefault     = "default" // the runtime's default: no limit, GOGC 100
)

// Memory is the garbage collector's configuration of a process.
type Memory struct {
	// Limit is the soft memory limit in bytes (runtime/debug.SetMemoryLimit);
	// NoMemoryLimit when there is none.
	Limit int64
	// GCPercent is GOGC: how far the heap grows past what the last collection left, in
	// percent, before the next; -1 for GOGC=off.
	GCPercent int
	// LimitFrom and GCPercentFrom are FromEnvironment, FromCgroup (Limit only) or
	// FromDefault.
	LimitFrom, GCPercentFrom string
	// Reason tells in words how the values were arrived at, for the start-up log and
	// `assay-ctl config check`.
	Reason string
}

// String formats m in one line, for example "soft memory limit 230 MiB (cgroup), GOGC 100
// (default): …".
func (m Memory) String() string {
	limit := "none"
	if m.Limit != NoMemoryLimit {
		limit = mib(m.Limit)
	}
	gc := "off"
	if m.GCPercent >= 0 {
		gc = strconv.Itoa(m.GCPercent)
	}
	return fmt.Sprintf("soft memory limit %s (%s), GOGC %s (%s): %s", limit, m.LimitFrom, gc, m.GCPercentFrom, m.Reason)
}

// MemoryPolicy decides the garbage collector's settings. GOMEMLIMIT, when set, is the limit;
// otherwise a container limit (cgroup v2 memory.max, else v1 memory.limit_in_bytes; "max"
// and v1's huge "unlimited" mean none) less the embedded database's share
// (EmbeddedDatabaseMemory, at most half) gives the limit, nine tenths of what is left.
// GOGC, when set, is the growth; otherwise Go's 100. A GOGC or GOMEMLIMIT the runtime
// cannot read counts as unset (FromEnviron refuses both).
func MemoryPolicy(in MemoryInputs) Memory {
	m := Memory{Limit: NoMemoryLimit, LimitFrom: FromDefault, GCPercent: 100, GCPercentFrom: FromDefault}
	var why []string
	if limit, ok := parseGOMEMLIMIT(in.GOMEMLIMIT); ok {
		m.Limit, m.LimitFrom = limit, FromEnvironment
		why = append(why, "the limit is GOMEMLIMIT's")
	} else if container, file := cgroupLimit(in); container > 0 {
		share := int64(0)
		if in.EmbeddedDatabase {
			share = min(EmbeddedDatabaseMemory, container/2)
		}
		m.Limit, m.LimitFrom = (container-share)/10*goShare, FromCgroup
		if share > 0 {
			why = append(why, fmt.Sprintf("%s %s, less %s for the embedded PostgreSQL; the limit is 90 %% of the rest", file, mib(container), mib(share)))
		} else {
			why = append(why, fmt.Sprintf("%s %s; the limit is 90 %% of it", file, mib(container)))
		}
	} else {
		why = append(why, "no container memory limit and GOMEMLIMIT unset")
	}
	if gc, ok := parseGOGC(in.GOGC); ok {
		m.GCPercent, m.GCPercentFrom = gc, FromEnvironment
		why = append(why, "GOGC is the environment's")
	} else {
		why = append(why, "GOGC 100, Go's default")
	}
	m.Reason = strings.Join(why, "; ")
	return m
}

// cgroupLimit returns the container's memory limit in bytes and the file that set it; 0
// when there is none.
func cgroupLimit(in MemoryInputs) (int64, string) {
	for _, f := range []struct{ name, content string }{
		{"cgroup memory.max", in.CgroupV2Max}, {"cgroup memory.limit_in_bytes", in.CgroupV1Limit},
	} {
		s := strings.TrimSpace(f.content)
		if s == "" {
			continue
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 || n >= cgroupUnlimited { // "max", or v1's "unlimited"
			return 0, ""
		}
		return n, f.name
	}
	return 0, ""
}

// parseGOGC reads GOGC as the Go runtime does: "off" (-1) or a decimal integer; ok is false
// when unset or not one of these (the runtime then uses 100).
func parseGOGC(s string) (int, bool) {
	if s == "off" {
		return -1, true
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, false
	}
	return int(n), true
}

// parseGOMEMLIMIT reads GOMEMLIMIT as the Go runtime does: "off" (no limit) or a number of
// bytes with an optional unit B, KiB, MiB, GiB or TiB (runtime.parseByteCount); ok is false
// when unset or malformed (the runtime then refuses to start).
func parseGOMEMLIMIT(s string) (int64, bool) {
	if s == "off" {
		return NoMemoryLimit, true
	}
	digits, shift := s, 0
	switch {
	case strings.HasSuffix(s, "iB") && len(s) >= 4:
		i := strings.IndexByte("KMGT", s[len(s)-3])
		if i < 0 {
			return 0, false
		}
		digits, shift = s[:len(s)-3], 10*(i+1)
	case strings.HasSuffix(s, "B"):
		digits = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64>>shift {
		return 0, false
	}
	return n << shift, true
}

// mib formats a byte count in MiB.
func mib(n int64) string {
	return fmt.Sprintf("%d MiB", n>>20)
}
