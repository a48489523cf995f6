package cdxtest

import (
	"testing"
)

// recorder is a testing.TB that records whether the helper failed or skipped; both stop
// the helper (runtime.Goexit in a real test), here by a panic the test recovers.
type recorder struct {
	testing.TB
	failed, skipped bool
}

type stopped struct{}

func (r *recorder) Helper()                  {}
func (r *recorder) Fatal(...any)             { r.failed = true; panic(stopped{}) }
func (r *recorder) Fatalf(string, ...any)    { r.failed = true; panic(stopped{}) }
func (r *recorder) Skip(...any)              { r.skipped = true; panic(stopped{}) }
func (r *recorder) Skipf(string, ...any)     { r.skipped = true; panic(stopped{}) }
func (r *recorder) Setenv(key, value string) { r.TB.Setenv(key, value) }

// TestMissingSharedDataFails: without the shared data a test fails, also outside CI; it
// used to be skipped unless CI=true, so a developer's green run proved nothing (issue 26
// item 18).
func TestMissingSharedDataFails(t *testing.T) {
	t.Setenv("SHARED_DATA_DIR", "")
	t.Setenv("CI", "")
	t.Chdir(t.TempDir())
	r := &recorder{TB: t}
	func() {
		defer func() {
			if p := recover(); p != nil {
				if _, ok := p.(stopped); !ok {
					panic(p)
				}
			}
		}()
		SharedData(r)
	}()
	if !r.failed || r.skipped {
		t.Fatalf("failed %v, skipped %v: a missing shared data folder must fail the test", r.failed, r.skipped)
	}
}
