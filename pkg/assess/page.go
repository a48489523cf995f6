package assess

// PageRequest is the position in a list, embedded in every list filter: the cursor handed
// out with the previous page and the page size. A cursor is opaque and bound to its list,
// filters and sort: presenting it to another list, or with other filters or another sort,
// is refused with 400.
type PageRequest struct {
	Cursor string `query:"cursor" maxLength:"512" doc:"nextCursor of the previous page, with the same filters and sort"`
	Limit  int    `query:"limit" minimum:"1" maximum:"200" default:"50" doc:"Page size, 1–200"`
}

// Page bounds: the default page size and the largest one.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

// Size returns the page size to use: DefaultPageSize when unset, at most MaxPageSize.
func (r PageRequest) Size() int {
	if r.Limit <= 0 {
		return DefaultPageSize
	}
	return min(r.Limit, MaxPageSize)
}

// Page is one page of a list, as every list operation answers it.
type Page[T any] struct {
	Items      []T    `json:"items"`
	NextCursor string `json:"nextCursor,omitempty" doc:"Pass as cursor to get the next page; absent on the last page"`
	HasMore    bool   `json:"hasMore"`
}

// NewPage returns a page of items (never a nil slice, so JSON shows []) and the cursor of
// the next one ("" on the last page).
func NewPage[T any](items []T, next string) Page[T] {
	if items == nil {
		items = []T{}
	}
	return Page[T]{Items: items, NextCursor: next, HasMore: next != ""}
}
