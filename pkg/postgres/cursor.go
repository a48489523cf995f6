package postgres

import (
	"encoding/base64"

	"github.com/assay-dev/assay/pkg/assess"
)

// errBadCursor answers a cursor this store did not hand out.
var errBadCursor = &assess.Error{Code: assess.ECodeValidation, Message: "The cursor is not valid.",
	Details: []assess.Detail{{Field: "cursor", Code: "invalid", Message: "Use nextCursor from the previous page."}}}

// idCursorStart sorts after every identifier: the first page of a newest-first list.
const idCursorStart = "~"

// decodeIDCursor returns the id a cursor of an id-keyed, newest-first list carries, or
// idCursorStart for the first page.
func decodeIDCursor(cursor, prefix string) (string, error) {
	if cursor == "" {
		return idCursorStart, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || !assess.ValidID(prefix, string(raw)) {
		return "", errBadCursor
	}
	return string(raw), nil
}

// pageLimit bounds a requested page size: 50 when unset, at most 200.
func pageLimit(limit int) int {
	if limit <= 0 {
		return 50
	}
	return min(limit, 200)
}

// pageByID cuts a result fetched with limit+1 rows to limit and returns the cursor of
// the next page ("" on the last one).
func pageByID[T any](items []T, limit int, id func(T) string) ([]T, string) {
	if len(items) <= limit {
		return items, ""
	}
	items = items[:limit]
	return items, base64.RawURLEncoding.EncodeToString([]byte(id(items[limit-1])))
}
