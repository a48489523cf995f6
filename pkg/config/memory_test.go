package config

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMemoryPolicy: the operator's GOMEMLIMIT and GOGC win; otherwise a container limit,
// less the embedded database's share, gives the soft limit, and GOGC stays Go's 100.
func TestMemoryPolicy(t *testing.T) {
	t.Parallel()
	const gib, mib = int64(1 << 30), int64(1 << 20)
	tests := []struct {
		name      string
		in        MemoryInputs
		limit     int64
		limitFrom string
		gc        int
		gcFrom    string
		reason    string
	}{
		{name: "nothing set, no container limit", limit: NoMemoryLimit, limitFrom: FromDefault, gc: 100, gcFrom: FromDefault,
			reason: "no container memory limit and GOMEMLIMIT unset; GOGC 100, Go's default"},
		{name: "cgroup v2 without a limit", in: MemoryInputs{CgroupV2Max: "max\n"}, limit: NoMemoryLimit, limitFrom: FromDefault, gc: 100, gcFrom: FromDefault},
		{name: "cgroup v2 decides over a v1 file", in: MemoryInputs{CgroupV2Max: "max", CgroupV1Limit: "536870912"}, limit: NoMemoryLimit, limitFrom: FromDefault, gc: 100, gcFrom: FromDefault},
		{name: "cgroup v1 unlimited", in: MemoryInputs{CgroupV1Limit: "9223372036854771712\n"}, limit: NoMemoryLimit, limitFrom: FromDefault, gc: 100, gcFrom: FromDefault},
		{name: "cgroup content unreadable", in: MemoryInputs{CgroupV2Max: "lots"}, limit: NoMemoryLimit, limitFrom: FromDefault, gc: 100, gcFrom: FromDefault},
		{name: "external database, 1 GiB container", in: MemoryInputs{CgroupV2Max: "1073741824\n"},
			limit: gib / 10 * 9, limitFrom: FromCgroup, gc: 100, gcFrom: FromDefault,
			reason: "cgroup memory.max 1024 MiB; the limit is 90 % of it; GOGC 100, Go's default"},
		{name: "embedded database, 1 GiB container", in: MemoryInputs{CgroupV2Max: "1073741824", EmbeddedDatabase: true},
			limit: (gib - 256*mib) / 10 * 9, limitFrom: FromCgroup, gc: 100, gcFrom: FromDefault,
			reason: "cgroup memory.max 1024 MiB, less 256 MiB for the embedded PostgreSQL; the limit is 90 % of the rest; GOGC 100, Go's default"},
		{name: "embedded database takes at most half", in: MemoryInputs{CgroupV2Max: "268435456", EmbeddedDatabase: true},
			limit: 128 * mib / 10 * 9, limitFrom: FromCgroup, gc: 100, gcFrom: FromDefault},
		{name: "cgroup v1 limit", in: MemoryInputs{CgroupV1Limit: "536870912\n", EmbeddedDatabase: true},
			limit: 256 * mib / 10 * 9, limitFrom: FromCgroup, gc: 100, gcFrom: FromDefault,
			reason: "cgroup memory.limit_in_bytes 512 MiB, less 256 MiB for the embedded PostgreSQL; the limit is 90 % of the rest; GOGC 100, Go's default"},
		{name: "GOMEMLIMIT wins over the container", in: MemoryInputs{GOMEMLIMIT: "300MiB", CgroupV2Max: "1073741824"},
			limit: 300 * mib, limitFrom: FromEnvironment, gc: 100, gcFrom: FromDefault,
			reason: "the limit is GOMEMLIMIT's; GOGC 100, Go's default"},
		{name: "GOMEMLIMIT=off: no limit", in: MemoryInputs{GOMEMLIMIT: "off", CgroupV2Max: "1073741824"},
			limit: NoMemoryLimit, limitFrom: FromEnvironment, gc: 100, gcFrom: FromDefault},
		{name: "GOGC wins under the container's limit", in: MemoryInputs{GOGC: "200", CgroupV2Max: "1073741824"},
			limit: gib / 10 * 9, limitFrom: FromCgroup, gc: 200, gcFrom: FromEnvironment},
		{name: "GOGC=off", in: MemoryInputs{GOGC: "off"}, limit: NoMemoryLimit, limitFrom: FromDefault, gc: -1, gcFrom: FromEnvironment,
			reason: "no container memory limit and GOMEMLIMIT unset; GOGC is the environment's"},
		{name: "a GOGC the runtime cannot read counts as unset", in: MemoryInputs{GOGC: "40O", CgroupV2Max: "1073741824"},
			limit: gib / 10 * 9, limitFrom: FromCgroup, gc: 100, gcFrom: FromDefault},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			t.Parallel()
			m := MemoryPolicy(test.in)
			require.Equal(t, test.limit, m.Limit)
			require.Equal(t, test.limitFrom, m.LimitFrom)
			require.Equal(t, test.gc, m.GCPercent)
			require.Equal(t, test.gcFrom, m.GCPercentFrom)
			if test.reason != "" {
				require.Equal(t, test.reason, m.Reason)
			}
		})
	}
}

func TestMemoryString(t *testing.T) {
	t.Parallel()
	m := MemoryPolicy(MemoryInputs{CgroupV2Max: "536870912", EmbeddedDatabase: true})
	require.Equal(t, "soft memory limit 230 MiB (cgroup), GOGC 100 (default): cgroup memory.max 512 MiB, less 256 MiB "+
		"for the embedded PostgreSQL; the limit is 90 % of the rest; GOGC 100, Go's default", m.String())
	m = MemoryPolicy(MemoryInputs{GOGC: "off"})
	require.Equal(t, "soft memory limit none (default), GOGC off (env): no container memory limit and GOMEMLIMIT unset; "+
		"GOGC is the environment's", m.String())
}

// TestParseGOMEMLIMIT reads GOMEMLIMIT as the runtime does (runtime.parseByteCount).
func TestParseGOMEMLIMIT(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{
		"0": 0, "1048576": 1 << 20, "100B": 100, "1KiB": 1 << 10, "512MiB": 512 << 20, "2GiB": 2 << 30, "1TiB": 1 << 40,
		"+8MiB": 8 << 20, "off": NoMemoryLimit, "9223372036854775807": math.MaxInt64, "8388607TiB": 8388607 << 40,
	} {
		got, ok := parseGOMEMLIMIT(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "B", "iB", "KiB", "-1", "1 MiB", "1.5GiB", "1kiB", "1MB", "1EiB", "12iB", "Off", "8388608TiB", "9223372036854775808"} {
		_, ok := parseGOMEMLIMIT(in)
		require.False(t, ok, in)
	}
}
