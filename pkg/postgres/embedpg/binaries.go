package embedpg

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// installHelp is shown when no server binaries are found. It is the first
// thing a developer without PostgreSQL sees, so it says how to get them and
// how to avoid needing them.
const installHelp = `embedded database: PostgreSQL server binaries (initdb, postgres) not found.
%s  DATABASE_PROVIDER=pglite runs a private PostgreSQL server from locally installed binaries.
  Install them, e.g.:
    Debian/Ubuntu:  apt-get install postgresql   (binaries in /usr/lib/postgresql/<ver>/bin)
    Fedora/RHEL:    dnf install postgresql-server
    Alpine:         apk add postgresql16
    macOS:          brew install postgresql@16
  or point PG_BIN_DIR at a directory containing initdb and postgres,
  or use an external server: DATABASE_PROVIDER=postgres DATABASE_URL=postgres://...`

// FindBinaries returns the directory holding initdb and postgres. explicit
// (PG_BIN_DIR) wins and must be valid, or the directory's bin subdirectory;
// otherwise it tries pg_config --bindir, the distribution and Homebrew
// locations (newest version first), /usr/local/pgsql/bin and finally PATH.
// The error wraps ErrBinariesNotFound and carries install instructions.
func FindBinaries(explicit string) (string, error) {
	return findBinaries(explicit, defaultCandidates)
}

func findBinaries(explicit string, candidates func() []string) (string, error) {
	if explicit != "" {
		for _, dir := range []string{explicit, filepath.Join(explicit, "bin")} {
			if hasServerBinaries(dir) {
				return filepath.Abs(dir)
			}
		}
		detail := fmt.Sprintf("  The configured directory %s (PG_BIN_DIR) does not contain both initdb and postgres.\n", explicit)
		return "", &detailedError{sentinel: ErrBinariesNotFound, msg: fmt.Sprintf(installHelp, detail)}
	}
	for _, dir := range candidates() {
		if hasServerBinaries(dir) {
			return filepath.Abs(dir)
		}
	}
	return "", &detailedError{sentinel: ErrBinariesNotFound, msg: fmt.Sprintf(installHelp, "")}
}

// defaultCandidates lists the places PostgreSQL packages install to, in
// order of preference: what pg_config reports is what the developer chose.
func defaultCandidates() []string {
	var dirs []string
	if dir := pgConfigBinDir(); dir != "" {
		dirs = append(dirs, dir)
	}
	for _, pattern := range []string{
		"/usr/lib/postgresql/*/bin",                          // Debian, Ubuntu
		"/usr/pgsql-*/bin",                                   // PGDG RPMs
		"/opt/homebrew/opt/postgresql@*/bin",                 // Homebrew, Apple silicon
		"/usr/local/opt/postgresql@*/bin",                    // Homebrew, Intel
		"/Applications/Postgres.app/Contents/Versions/*/bin", // Postgres.app
	} {
		dirs = append(dirs, globNewestFirst(pattern)...)
	}
	dirs = append(dirs, "/opt/homebrew/opt/postgresql/bin", "/usr/local/opt/postgresql/bin", "/usr/local/pgsql/bin")
	dirs = append(dirs, globNewestFirst("/usr/libexec/postgresql*")...) // Alpine
	if path, err := exec.LookPath("postgres"); err == nil {
		dirs = append(dirs, filepath.Dir(path))
		if real, err := filepath.EvalSymlinks(path); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
	}
	return dirs
}

func pgConfigBinDir() string {
	path, err := exec.LookPath("pg_config")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--bindir").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// globNewestFirst expands a pattern with one '*' standing for a version and
// orders the matches by that version, highest first.
func globNewestFirst(pattern string) []string {
	matches, _ := filepath.Glob(pattern)
	prefix, suffix, _ := strings.Cut(pattern, "*")
	version := func(m string) []int {
		return parseVersion(strings.TrimSuffix(strings.TrimPrefix(m, prefix), suffix))
	}
	sort.SliceStable(matches, func(i, j int) bool {
		return compareVersions(version(matches[i]), version(matches[j])) > 0
	})
	return matches
}

// parseVersion reads the leading dotted number of s ("16", "9.6", "15.18
// (Debian …)"); it returns nil when s does not start with a digit.
func parseVersion(s string) []int {
	var parts []int
	for _, field := range strings.Split(s, ".") {
		end := 0
		for end < len(field) && field[end] >= '0' && field[end] <= '9' {
			end++
		}
		if end == 0 {
			break
		}
		n, _ := strconv.Atoi(field[:end])
		parts = append(parts, n)
		if end < len(field) {
			break
		}
	}
	return parts
}

func compareVersions(a, b []int) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] - b[i]
		}
	}
	return len(a) - len(b)
}

// majorVersion maps a server version to the form PG_VERSION uses: "15" for
// 10 and later, "9.6" before that.
func majorVersion(version string) string {
	v := parseVersion(version)
	switch {
	case len(v) == 0:
		return version
	case v[0] >= 10 || len(v) == 1:
		return strconv.Itoa(v[0])
	default:
		return fmt.Sprintf("%d.%d", v[0], v[1])
	}
}

func hasServerBinaries(dir string) bool {
	return isExecutable(filepath.Join(dir, "initdb")) && isExecutable(filepath.Join(dir, "postgres"))
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// binaryVersion asks postgres for its version. --version is answered before
// postgres' refusal to run as root, so no credential switch is needed.
func binaryVersion(ctx context.Context, binDir string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, filepath.Join(binDir, "postgres"), "--version").Output()
	if err != nil {
		return "", fmt.Errorf("embedpg: run %s --version: %w", filepath.Join(binDir, "postgres"), err)
	}
	version := versionFromBanner(string(out))
	if parseVersion(version) == nil {
		return "", fmt.Errorf("embedpg: unrecognised postgres --version output %q", bytes.TrimSpace(out))
	}
	return version, nil
}

// versionFromBanner extracts "15.18" from
// "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)".
func versionFromBanner(banner string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(banner), "\n")
	if _, rest, ok := strings.Cut(line, "(PostgreSQL)"); ok {
		line = rest
	}
	fields := strings.Fields(line)
	for _, f := range fields {
		if parseVersion(f) != nil {
			return f
		}
	}
	return ""
}
