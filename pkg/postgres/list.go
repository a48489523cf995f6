package postgres

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// list composes one list query: the rows, the filters and search, the sort, and the
// keyset cursor. Every list of the store is built with it, so each pages in the database
// on an index at the same cost for every page, and every cursor is opaque and bound to
// its list, filters and sort.
type list struct {
	name   string // binds cursors to this list
	sel    string // "SELECT … FROM … [JOIN …]"
	where  []string
	args   []any
	order  sortOrder
	filter strings.Builder // canonical text of the filters, hashed into cursors
}

// sortOrder is one way a list can be sorted: the name clients use (bound into cursors) and
// the keys, the last of which must be unique (usually the id).
type sortOrder struct {
	name string
	keys []sortKey
}

// sortKey is one ORDER BY term: its SQL expression, the SQL type of its value as carried
// in a cursor, and its direction.
type sortKey struct {
	expr string
	typ  string // "text", "bigint", "timestamptz", "boolean", "date"
	desc bool
}

// newList starts a list named name (one per list operation) on the rows of sel.
func newList(name, sel string, order sortOrder) *list {
	return &list{name: name, sel: sel, order: order}
}

// arg adds a parameter and returns its placeholder.
func (l *list) arg(v any) string {
	l.args = append(l.args, v)
	return "$" + strconv.Itoa(len(l.args))
}

// Where adds a filter condition; its placeholders come from arg. The condition and its
// values are bound into the cursors of the list.
func (l *list) Where(cond string) {
	l.where = append(l.where, cond)
	fmt.Fprintf(&l.filter, "%s\x00", cond)
}

// Equal filters expr = value when value is not the zero value of its type.
func Equal[V comparable](l *list, expr string, value V) {
	var zero V
	if value != zero {
		l.Where(expr + " = " + l.arg(value))
	}
}

// Search filters rows where any of cols contains q, case-insensitively; a blank q does not
// filter. LIKE wildcards in q match themselves.
func (l *list) Search(q string, cols ...string) {
	pattern := likePattern(q)
	if pattern == "" {
		return
	}
	p := l.arg(pattern)
	terms := make([]string, len(cols))
	for i, c := range cols {
		terms[i] = c + " ILIKE " + p
	}
	l.Where("(" + strings.Join(terms, " OR ") + ")")
}

// likePattern is the ILIKE pattern "contains q" (LIKE wildcards in q match themselves), or
// "" for a blank q (list.Search and the workspace search).
func likePattern(q string) string {
	q = strings.TrimSpace(q)
	if q == "" {
		return ""
	}
	return "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(q) + "%"
}

// cursor is what a cursor carries: the list, sort and filters it belongs to, and the sort
// key values of the last row of the previous page, as text.
type cursor struct {
	List   string   `json:"l"`
	Sort   string   `json:"s"`
	Filter string   `json:"f"`
	Keys   []string `json:"k"`
}

// errBadCursor answers a cursor this list did not hand out with these filters and sort.
var errBadCursor = &assess.Error{Code: assess.ECodeValidation, Message: "The cursor is not valid for this list, its filters or its sort.",
	Details: []assess.Detail{{Field: "cursor", Code: "invalid", Message: "Use nextCursor from the previous page, with the same filters and sort."}}}

// filterHash is the binding of the list's filters and their values.
func (l *list) filterHash() string {
	h := fnv.New64a()
	h.Write([]byte(l.filter.String()))
	for _, a := range l.args {
		fmt.Fprintf(h, "%T=%v\x00", a, a)
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// after restricts the list to rows after the cursor's position.
func (l *list) after(raw string) error {
	b, err := base64.RawURLEncoding.DecodeString(raw)
	var c cursor
	if err != nil || json.Unmarshal(b, &c) != nil || c.List != l.name || c.Sort != l.order.name ||
		c.Filter != l.filterHash() || len(c.Keys) != len(l.order.keys) {
		return errBadCursor
	}
	for i, k := range l.order.keys {
		if !validKey(k.typ, c.Keys[i]) {
			return errBadCursor
		}
	}
	l.where = append(l.where, l.keysetCondition(c.Keys))
	return nil
}

// keysetCondition is "the row sorts after these key values": one row comparison when all
// keys share a direction (which an index on the keys serves), else the expanded form.
func (l *list) keysetCondition(vals []string) string {
	keys := l.order.keys
	ph := make([]string, len(keys))
	for i, k := range keys {
		ph[i] = l.arg(vals[i]) + "::" + k.typ
	}
	sameDirection := true
	for _, k := range keys {
		sameDirection = sameDirection && k.desc == keys[0].desc
	}
	if sameDirection {
		exprs := make([]string, len(keys))
		for i, k := range keys {
			exprs[i] = k.expr
		}
		op := ">"
		if keys[0].desc {
			op = "<"
		}
		return "(" + strings.Join(exprs, ", ") + ") " + op + " (" + strings.Join(ph, ", ") + ")"
	}
	var ors []string
	for i := range keys {
		var ands []string
		for j := 0; j < i; j++ {
			ands = append(ands, keys[j].expr+" = "+ph[j])
		}
		op := ">"
		if keys[i].desc {
			op = "<"
		}
		ands = append(ands, keys[i].expr+" "+op+" "+ph[i])
		ors = append(ors, "("+strings.Join(ands, " AND ")+")")
	}
	return "(" + strings.Join(ors, " OR ") + ")"
}

// validKey checks a cursor value against its SQL type before it reaches the database.
func validKey(typ, v string) bool {
	switch typ {
	case "bigint":
		_, err := strconv.ParseInt(v, 10, 64)
		return err == nil
	case "timestamptz":
		_, err := time.Parse(time.RFC3339Nano, v)
		return err == nil
	case "boolean":
		_, err := strconv.ParseBool(v)
		return err == nil
	case "date": // a calendar day, or infinity for "after every day"
		t, err := time.Parse(time.DateOnly, v)
		return (err == nil && t.Year() >= 1) || v == "infinity"
	}
	return !strings.ContainsRune(v, 0)
}

// keyText renders a sort key value for a cursor.
func keyText(v any) string {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case *time.Time:
		if x == nil {
			return ""
		}
		return x.UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprint(v)
}

// sql returns the query for a page of size rows (one more is fetched to know whether a
// next page exists).
func (l *list) sql(size int) string {
	var b strings.Builder
	b.WriteString(l.sel)
	if len(l.where) > 0 {
		b.WriteString(" WHERE ")
		b.WriteString(strings.Join(l.where, " AND "))
	}
	b.WriteString(" ORDER BY ")
	for i, k := range l.order.keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k.expr)
		if k.desc {
			b.WriteString(" DESC")
		}
	}
	b.WriteString(" LIMIT ")
	b.WriteString(strconv.Itoa(size + 1))
	return b.String()
}

// collectPage runs the list from the page's cursor and returns one page. scan reads a row;
// key returns the sort key values of an item, in the order of the sort's keys.
func collectPage[T any](ctx context.Context, q querier, l *list, page assess.PageRequest,
	scan func(pgx.Row) (T, error), key func(T) []any) (assess.Page[T], error) {
	hash := l.filterHash() // before the cursor's own condition is added
	if page.Cursor != "" {
		if err := l.after(page.Cursor); err != nil {
			return assess.Page[T]{}, err
		}
	}
	size := page.Size()
	rows, err := q.Query(ctx, l.sql(size), l.args...)
	if err != nil {
		return assess.Page[T]{}, dbError(err)
	}
	items, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (T, error) { return scan(r) })
	if err != nil {
		return assess.Page[T]{}, dbError(err)
	}
	if len(items) <= size {
		return assess.NewPage(items, ""), nil
	}
	items = items[:size]
	vals := key(items[size-1])
	c := cursor{List: l.name, Sort: l.order.name, Filter: hash, Keys: make([]string, len(vals))}
	for i, v := range vals {
		c.Keys[i] = keyText(v)
	}
	b, err := json.Marshal(c)
	if err != nil {
		return assess.Page[T]{}, err
	}
	return assess.NewPage(items, base64.RawURLEncoding.EncodeToString(b)), nil
}

// newestFirst is the sort of lists keyed on time-ordered ids (assess.NewID): newest first.
func newestFirst(idExpr string) sortOrder {
	return sortOrder{name: "newest", keys: []sortKey{{expr: idExpr, typ: "text", desc: true}}}
}
