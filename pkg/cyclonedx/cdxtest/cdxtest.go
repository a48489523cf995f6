// Package cdxtest serves tests that read the shared documents of the CycloneDX ecosystem
// (../shared/data beside the checkout: standards, schemas, examples, JSF vectors).
package cdxtest

import (
	"os"
	"path/filepath"
	"testing"
)

// SharedData returns the shared test data folder: SHARED_DATA_DIR when set, else
// shared/data or ../shared/data found walking up from the test's directory. Without it the
// test fails, on a developer's machine as in CI: a test that skips quietly proves nothing
// (issue 26 item 18).
func SharedData(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("SHARED_DATA_DIR"); d != "" {
		return d
	}
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		for _, c := range []string{filepath.Join(dir, "shared", "data"), filepath.Join(dir, "..", "shared", "data")} {
			if st, err := os.Stat(filepath.Join(c, "standards")); err == nil && st.IsDir() {
				return c
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("the shared test data (shared/data beside the checkout) is missing; set SHARED_DATA_DIR to its folder")
		}
		dir = parent
	}
}
