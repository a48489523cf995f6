package assess

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorCodeAndMessage(t *testing.T) {
	domain := Errorf(ECodeNotFound, "No assessment %s.", "as_1")
	wrapped := fmt.Errorf("loading: %w", domain)
	for _, tc := range []struct {
		err           error
		code, message string
	}{
		{domain, ECodeNotFound, "No assessment as_1."},
		{wrapped, ECodeNotFound, "No assessment as_1."},
		{errors.New("pq: relation does not exist"), ECodeInternal, "An internal error occurred."},
	} {
		if got := ErrorCode(tc.err); got != tc.code {
			t.Errorf("ErrorCode(%v) = %q, want %q", tc.err, got, tc.code)
		}
		if got := ErrorMessage(tc.err); got != tc.message {
			t.Errorf("ErrorMessage(%v) = %q, want %q", tc.err, got, tc.message)
		}
	}
}
