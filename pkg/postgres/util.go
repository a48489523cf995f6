package postgres

import (
	"strings"
	"time"
	"unicode/utf8"
)

func UTCPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// TruncateUTF8 cuts s to at most n bytes without splitting a character.
func TruncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return strings.ToValidUTF8(s, "")
}

// PutSet records a field of a partial update when the request sets it.
func PutSet[T any](m map[string]any, field string, v *T) {
	if v != nil {
		m[field] = *v
	}
}

// Nullable turns "" into SQL NULL.
func Nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// OrEmpty is s, or an empty slice for nil, so JSON and array columns get [] and '{}'.
func OrEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// CmpErr returns err when set, else fallback.
func CmpErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}
