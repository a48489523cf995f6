package assess

import (
	"sort"
	"testing"
	"time"
)

func TestNewIDIsSortableAndValid(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ids []string
	seen := map[string]bool{}
	for i := range 1000 {
		id := NewID(PrefixUser, base.Add(time.Duration(i)*time.Millisecond))
		if !ValidID(PrefixUser, id) {
			t.Fatalf("invalid id %q", id)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
		ids = append(ids, id)
	}
	if !sort.StringsAreSorted(ids) {
		t.Fatal("ids made later must sort later")
	}
	for _, bad := range []string{"", "u_", "u_short", "ro_" + ids[0][2:], "u_" + ids[0][2:27] + "!", "u_" + ids[0][2:] + "x"} {
		if ValidID(PrefixUser, bad) {
			t.Errorf("ValidID(%q) = true", bad)
		}
	}
}

func TestBuiltinRolesUseKnownPermissions(t *testing.T) {
	for _, r := range BuiltinRoles() {
		for _, p := range r.Permissions {
			if !KnownPermission(p) {
				t.Errorf("role %s grants unknown permission %s", r.Name, p)
			}
		}
	}
}

// TestNewIDsOfOneMillisecondKeepTheirOrder: identifiers made one after the other in the
// same millisecond sort in the order they were made (lists sort newest first by id), and
// stay unique; another millisecond starts afresh.
func TestNewIDsOfOneMillisecondKeepTheirOrder(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ids := make([]string, 0, 2000)
	for range 1000 {
		ids = append(ids, NewID(PrefixStandard, at))
	}
	for range 1000 {
		ids = append(ids, NewID(PrefixStandard, at.Add(time.Millisecond)))
	}
	for i := 1; i < len(ids); i++ {
		if ids[i] <= ids[i-1] {
			t.Fatalf("id %d %q does not sort after %q", i, ids[i], ids[i-1])
		}
	}
}

// TestNewIDsAreConsecutiveAndReserved: a batch of identifiers is ascending and unique, keeps
// order with the identifiers made before and after it in the same millisecond, and two
// batches of one millisecond share nothing (issue 26 item 0: starts collided).
func TestNewIDsAreConsecutiveAndReserved(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ids := []string{NewID(PrefixAssessmentRequirement, at)}
	ids = append(ids, NewIDs(PrefixAssessmentRequirement, at, 500)...)
	ids = append(ids, NewIDs(PrefixAssessmentRequirement, at, 500)...)
	ids = append(ids, NewID(PrefixAssessmentRequirement, at))
	seen := map[string]bool{}
	for i, id := range ids {
		if !ValidID(PrefixAssessmentRequirement, id) || seen[id] {
			t.Fatalf("id %d %q is invalid or repeated", i, id)
		}
		seen[id] = true
		if i > 0 && id <= ids[i-1] {
			t.Fatalf("id %d %q does not sort after %q", i, id, ids[i-1])
		}
	}
	if NewIDs(PrefixUser, at, 0) != nil {
		t.Fatal("no identifiers for n = 0")
	}
}
