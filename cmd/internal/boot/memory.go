package boot

import (
	"context"
	"log/slog"
	"os"
	"runtime/debug"

	"github.com/assay-dev/assay/pkg/config"
)

// The files that hold the container's memory limit: cgroup v2's, then v1's.
const (
	cgroupV2MemoryMax   = "/sys/fs/cgroup/memory.max"
	cgroupV1MemoryLimit = "/sys/fs/cgroup/memory/memory.limit_in_bytes"
)

// Memory decides the garbage collector's settings of a process configured by cfg in this
// container (config.MemoryPolicy; docs/configuration.md, "Memory").
func Memory(cfg *config.Config) config.Memory {
	return config.MemoryPolicy(config.MemoryInputs{
		GOGC: cfg.GOGC, GOMEMLIMIT: cfg.GOMEMLIMIT,
		CgroupV2Max: readOrEmpty(cgroupV2MemoryMax), CgroupV1Limit: readOrEmpty(cgroupV1MemoryLimit),
		EmbeddedDatabase: cfg.Embedded(),
	})
}

// ApplyMemory sets the soft memory limit and GOGC that Memory decides and logs them, once,
// at start. The runtime's defaults are left alone; values from GOGC and GOMEMLIMIT are set
// again, which changes nothing when cfg was read from this process's environment (the
// runtime read the same) and applies them when it was not (the tests' servers).
func ApplyMemory(ctx context.Context, cfg *config.Config, log *slog.Logger) {
	m := Memory(cfg)
	if m.LimitFrom != config.FromDefault {
		debug.SetMemoryLimit(m.Limit)
	}
	if m.GCPercentFrom != config.FromDefault {
		debug.SetGCPercent(m.GCPercent)
	}
	attrs := []slog.Attr{slog.String("memory_limit_from", m.LimitFrom), slog.Int("gogc", m.GCPercent),
		slog.String("gogc_from", m.GCPercentFrom), slog.String("reason", m.Reason)}
	if m.Limit != config.NoMemoryLimit {
		attrs = append(attrs, slog.Int64("memory_limit_bytes", m.Limit))
	}
	log.LogAttrs(ctx, slog.LevelInfo, "memory", attrs...)
}

// readOrEmpty returns the content of a file, or "" when it cannot be read (a cgroup file
// of the other version, or no cgroup file system at all).
func readOrEmpty(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	return string(b)
}

// ReleaseStartMemory collects the garbage of the start — registering the API's operations
// allocates 7.5 MB of schemas, messages and closures, most of it dropped once registered —
// and returns the free heap pages to the operating system at once. Left to the runtime, an
// idle server keeps them resident: the background scavenger returns pages only above the
// heap goal it keeps for reuse (docs/performance.md, "Memory at start"). Called once the
// server is serving, off its path: one collection of a small heap.
func ReleaseStartMemory() {
	debug.FreeOSMemory()
}
