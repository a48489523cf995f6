package embedpg

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
)

// runAs is the unprivileged account postgres runs as when we are root.
type runAs struct {
	name     string
	uid, gid uint32
}

// resolveRunAs picks the account for the server. It returns nil when this
// process is not root: the server then simply runs as our own uid.
func resolveRunAs(explicit string) (*runAs, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	names := []string{"postgres", "nobody"}
	if explicit != "" {
		names = []string{explicit}
	}
	for _, name := range names {
		u, err := lookupUser(name)
		if errors.As(err, new(user.UnknownUserError)) || errors.As(err, new(user.UnknownUserIdError)) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("embedpg: look up user %q: %w", name, err)
		}
		uid, uidErr := strconv.ParseUint(u.Uid, 10, 32)
		gid, gidErr := strconv.ParseUint(u.Gid, 10, 32)
		if uidErr != nil || gidErr != nil {
			return nil, fmt.Errorf("embedpg: user %q has a non-numeric uid/gid (%s/%s)", name, u.Uid, u.Gid)
		}
		if uid == 0 {
			return nil, fmt.Errorf("embedded database: user %q has uid 0; PostgreSQL cannot run as root, choose an unprivileged RunAsUser", name)
		}
		return &runAs{name: u.Username, uid: uint32(uid), gid: uint32(gid)}, nil
	}
	if explicit != "" {
		return nil, fmt.Errorf("embedded database: user %q (RunAsUser) does not exist; create it or choose another unprivileged user", explicit)
	}
	return nil, errors.New("embedded database: running as root, but neither a \"postgres\" nor a \"nobody\" user exists to run PostgreSQL as; " +
		"create a postgres user, set RunAsUser, or run the service as a non-root user")
}

// lookupUser accepts a name or a numeric uid.
func lookupUser(name string) (*user.User, error) {
	u, err := user.Lookup(name)
	if errors.As(err, new(user.UnknownUserError)) {
		if _, numErr := strconv.ParseUint(name, 10, 32); numErr == nil {
			return user.LookupId(name)
		}
	}
	return u, err
}

// checkTraversable verifies that owner can reach dataDir through all of its
// existing ancestors. It runs before anything is created or chowned: a data
// dir under root's 0700 home would otherwise be chowned and still fail, with
// postgres' much vaguer "permission denied".
func checkTraversable(dataDir string, owner *runAs) error {
	existing := dataDir
	for {
		if _, err := os.Stat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return nil
		}
		existing = parent
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return fmt.Errorf("embedpg: resolve %s: %w", existing, err)
	}
	// dataDir itself is chowned to owner, so only its ancestors matter.
	dir := real
	if existing == dataDir {
		dir = filepath.Dir(real)
	}
	for {
		fi, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("embedpg: stat %s: %w", dir, err)
		}
		if !canSearch(fi, owner) {
			uid, _, _ := fileOwner(fi)
			return fmt.Errorf("embedded database: PostgreSQL runs as uid %d (%s), which cannot enter %s (mode %s, owner uid %d); "+
				"put the data directory elsewhere, allow access with \"chmod o+x %s\", or run the service as a non-root user",
				owner.uid, owner.name, dir, fi.Mode(), uid, dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}

// canSearch applies the classic owner/group/other rule for the execute bit.
// The child runs with no supplementary groups, so only the primary gid counts.
func canSearch(fi fs.FileInfo, owner *runAs) bool {
	uid, gid, ok := fileOwner(fi)
	if !ok {
		return true
	}
	perm := fi.Mode().Perm()
	switch {
	case uid == owner.uid:
		return perm&0o100 != 0
	case gid == owner.gid:
		return perm&0o010 != 0
	default:
		return perm&0o001 != 0
	}
}

// createDataDir creates dataDir (0700) and any missing parents (0755,
// regardless of umask, so the server uid can traverse them) and returns its
// symlink-free path: the path is compared against /proc/<pid>/cwd and put in
// ConnString.
func createDataDir(dataDir string) (string, error) {
	var missing []string
	for dir := dataDir; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(dir); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("embedpg: stat %s: %w", dir, err)
		}
		missing = append(missing, dir)
		if filepath.Dir(dir) == dir {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		mode := fs.FileMode(0o755)
		if missing[i] == dataDir {
			mode = 0o700
		}
		if err := os.Mkdir(missing[i], mode); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("embedpg: create %s: %w", missing[i], err)
		}
		if err := os.Chmod(missing[i], mode); err != nil {
			return "", fmt.Errorf("embedpg: chmod %s: %w", missing[i], err)
		}
	}
	real, err := filepath.EvalSymlinks(dataDir)
	if err != nil {
		return "", fmt.Errorf("embedpg: resolve %s: %w", dataDir, err)
	}
	return real, nil
}

// chownTree hands everything under root to owner. Files already owned are
// skipped, so a restart of a large cluster costs only a directory walk.
// Symlinks are changed themselves and never followed. Files may vanish
// during the walk: a server orphaned by our previous run can still be
// shutting down (it runs as owner already, so its files need nothing).
func chownTree(root string, owner *runAs) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("embedpg: chown %s: %w", path, err)
		}
		fi, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("embedpg: chown %s: %w", path, err)
		}
		if uid, gid, ok := fileOwner(fi); ok && uid == owner.uid && gid == owner.gid {
			return nil
		}
		err = os.Lchown(path, int(owner.uid), int(owner.gid))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("embedpg: chown %s to %s: %w", path, owner.name, err)
		}
		return nil
	})
}
