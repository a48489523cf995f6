package postgres

import (
	"cmp"
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

// List composes one list query: the rows, the filters and search, the sort, and the
// keyset cursor. Every list of the store is built with it, so each pages in the database
// on an index at the same cost for every page, and every cursor is opaque and bound to
// its list, filters and sort.
type List struct {
	name   string // binds cursors to this list
	Sel    string // "SELECT … FROM … [JOIN …]"
	where  []string
	args   []any
	order  SortOrder
	filter strings.Builder // canonical text of the filters, hashed into cursors
	// generic runs the page's query on PostgreSQL's generic plan (GenericPlan), custom on a
	// plan made for its values (CustomPlan).
	generic, custom bool
	// unbound are the ranges [from, to) of args that cursors do not bind (WhereResolved).
	unbound [][2]int
}

// SortOrder is one way a list can be sorted: the name clients use (bound into cursors) and
// the keys, the last of which must be unique (usually the id).
type SortOrder struct {
	Name string
	Keys []SortKey
}

// SortKey is one ORDER BY term: its SQL expression, the SQL type of its value as carried
// in a cursor, and its direction.
type SortKey struct {
	Expr string
	Typ  string // "text", "bigint", "timestamptz", "boolean", "date"
	Desc bool
}

// NewList starts a list named name (one per list operation) on the rows of sel.
func NewList(name, sel string, order SortOrder) *List {
	return &List{name: name, Sel: sel, order: order}
}

// Arg adds a parameter and returns its placeholder.
func (l *List) Arg(v any) string {
	l.args = append(l.args, v)
	return "$" + strconv.Itoa(len(l.args))
}

// Where adds a filter condition; its placeholders come from arg. The condition and its
// values are bound into the cursors of the list.
func (l *List) Where(cond string) {
	l.where = append(l.where, cond)
	fmt.Fprintf(&l.filter, "%s\x00", cond)
}

// GenericPlan has PostgreSQL run the list's query on its generic plan: made once per
// connection and statement, never planned again. Left to itself (plan_cache_mode auto),
// PostgreSQL plans a prepared statement anew for its parameters on every execution when a
// plan for the given values looks cheaper than the generic one, and for a list whose
// condition is a set kept per user (a participant's assessments) the custom plan can both
// cost more to make than the page costs to read and read more (make bench, a participant
// of a thousand assessments: 1.3 ms planning and 1.9 ms execution a page under load,
// against 0.26 ms on the generic plan, which walks the participant's own set). Use it only
// for lists whose generic plans were checked (EXPLAIN of the prepared statement with
// plan_cache_mode = force_generic_plan) for every filter and sort. The switch travels with
// the page's query in one round trip and lasts only for it (queueGenericPlan).
func (l *List) GenericPlan() { l.generic = true }

// CustomPlan has PostgreSQL plan the list's query for its values on every page, never on the
// generic plan: for a list filtered on a column whose values select very different shares
// of the rows (the audit log's action, actor or target type). PostgreSQL switches a prepared
// statement to its generic plan once that looks no dearer than the custom plans so far, and
// the generic plan expects every value to select the average share: after pages of a
// common action, the generic plan walked the whole log newest first to find a rare one
// (1,001,773 rows read, 170–200 ms at make bench's million-row data) where an index of the
// action leads to its rows. The switch travels with the page's query in one round trip and
// lasts only for it.
func (l *List) CustomPlan() { l.custom = true }

// WhereResolved adds a filter condition built, by build with its parameters from arg, from
// what the client gave (input) as the database resolves it now — a name looked up as the
// ids it stands for. The list's cursors bind input, not the condition and its values, so a
// resolution that changes between two pages (a user renamed) does not turn the next page's
// cursor away.
func (l *List) WhereResolved(input string, build func(arg func(any) string) string) {
	from := len(l.args)
	cond := build(l.Arg)
	l.unbound = append(l.unbound, [2]int{from, len(l.args)})
	l.where = append(l.where, cond)
	fmt.Fprintf(&l.filter, "resolved %q\x00", input)
}

// Equal filters expr = value when value is not the zero value of its type.
func Equal[V comparable](l *List, expr string, value V) {
	var zero V
	if value != zero {
		l.Where(expr + " = " + l.Arg(value))
	}
}

// Search filters rows where any of cols contains q, case-insensitively; a blank q does not
// filter. LIKE wildcards in q match themselves.
func (l *List) Search(q string, cols ...string) {
	pattern := LikePattern(q)
	if pattern == "" {
		return
	}
	p := l.Arg(pattern)
	terms := make([]string, len(cols))
	for i, c := range cols {
		terms[i] = c + " ILIKE " + p
	}
	l.Where("(" + strings.Join(terms, " OR ") + ")")
}

// LikePattern is the ILIKE pattern "contains q" (LIKE wildcards in q match themselves), or
// "" for a blank q (list.Search and the workspace search).
func LikePattern(q string) string {
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
func (l *List) filterHash() string {
	h := fnv.New64a()
	h.Write([]byte(l.filter.String()))
	for i, a := range l.args {
		if l.isUnbound(i) {
			continue
		}
		fmt.Fprintf(h, "%T=%v\x00", a, a)
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// isUnbound reports whether the i-th arg is one cursors do not bind (WhereResolved).
func (l *List) isUnbound(i int) bool {
	for _, r := range l.unbound {
		if i >= r[0] && i < r[1] {
			return true
		}
	}
	return false
}

// after restricts the list to rows after the cursor's position.
func (l *List) after(raw string) error {
	b, err := base64.RawURLEncoding.DecodeString(raw)
	var c cursor
	if err != nil || json.Unmarshal(b, &c) != nil || c.List != l.name || c.Sort != l.order.Name ||
		c.Filter != l.filterHash() || len(c.Keys) != len(l.order.Keys) {
		return errBadCursor
	}
	for i, k := range l.order.Keys {
		if !validKey(k.Typ, c.Keys[i]) {
			return errBadCursor
		}
	}
	l.where = append(l.where, l.keysetCondition(c.Keys))
	return nil
}

// keysetCondition is "the row sorts after these key values": one row comparison when all
// keys share a direction (which an index on the keys serves), else the expanded form.
func (l *List) keysetCondition(vals []string) string {
	keys := l.order.Keys
	ph := make([]string, len(keys))
	for i, k := range keys {
		ph[i] = l.Arg(vals[i]) + "::" + k.Typ
	}
	sameDirection := true
	for _, k := range keys {
		sameDirection = sameDirection && k.Desc == keys[0].Desc
	}
	if sameDirection {
		exprs := make([]string, len(keys))
		for i, k := range keys {
			exprs[i] = k.Expr
		}
		op := ">"
		if keys[0].Desc {
			op = "<"
		}
		return "(" + strings.Join(exprs, ", ") + ") " + op + " (" + strings.Join(ph, ", ") + ")"
	}
	var ors []string
	for i := range keys {
		var ands []string
		for j := 0; j < i; j++ {
			ands = append(ands, keys[j].Expr+" = "+ph[j])
		}
		op := ">"
		if keys[i].Desc {
			op = "<"
		}
		ands = append(ands, keys[i].Expr+" "+op+" "+ph[i])
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
func (l *List) sql(size int) string {
	var b strings.Builder
	b.WriteString(l.Sel)
	if len(l.where) > 0 {
		b.WriteString(" WHERE ")
		b.WriteString(strings.Join(l.where, " AND "))
	}
	b.WriteString(" ORDER BY ")
	for i, k := range l.order.Keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k.Expr)
		if k.Desc {
			b.WriteString(" DESC")
		}
	}
	b.WriteString(" LIMIT ")
	b.WriteString(strconv.Itoa(size + 1))
	return b.String()
}

// CollectPage runs the list from the page's cursor and returns one page. scan reads a row;
// key returns the sort key values of an item, in the order of the sort's keys.
func CollectPage[T any](ctx context.Context, q Querier, l *List, page assess.PageRequest,
	scan func(pgx.Row) (T, error), key func(T) []any) (assess.Page[T], error) {
	hash := l.filterHash() // before the cursor's own condition is added
	if page.Cursor != "" {
		if err := l.after(page.Cursor); err != nil {
			return assess.Page[T]{}, err
		}
	}
	size := page.Size()
	items, err := queryPage(ctx, q, l, size, scan)
	if err != nil {
		return assess.Page[T]{}, DBError(err)
	}
	if len(items) <= size {
		return assess.NewPage(items, ""), nil
	}
	items = items[:size]
	vals := key(items[size-1])
	c := cursor{List: l.name, Sort: l.order.Name, Filter: hash, Keys: make([]string, len(vals))}
	for i, v := range vals {
		c.Keys[i] = keyText(v)
	}
	b, err := json.Marshal(c)
	if err != nil {
		return assess.Page[T]{}, err
	}
	return assess.NewPage(items, base64.RawURLEncoding.EncodeToString(b)), nil
}

// queryPage reads the rows of a page of size rows (and one more), on the generic plan when
// the list asks for it.
func queryPage[T any](ctx context.Context, q Querier, l *List, size int, scan func(pgx.Row) (T, error)) ([]T, error) {
	// The page's slice is made at its size once: grown by append from empty, a page of 51
	// assessments (about 500 bytes each) was copied six times over, 63 KB a page, the largest
	// allocation of the assessment list (BenchmarkListPages, -memprofile).
	collect := func(rows pgx.Rows) ([]T, error) {
		defer rows.Close()
		items := make([]T, 0, size+1)
		for rows.Next() {
			item, err := scan(rows)
			if err != nil {
				return nil, err
			}
			items = append(items, item)
		}
		return items, rows.Err()
	}
	if !l.generic && !l.custom {
		rows, err := q.Query(ctx, l.sql(size), l.args...)
		if err != nil {
			return nil, err
		}
		return collect(rows)
	}
	var b pgx.Batch
	var items []T
	queuePage := func(b *pgx.Batch) {
		b.Queue(l.sql(size), l.args...).Query(func(rows pgx.Rows) error {
			var err error
			items, err = collect(rows)
			return err
		})
	}
	if l.custom {
		queueCustomPlan(&b, q, queuePage)
	} else {
		queueGenericPlan(&b, q, queuePage)
	}
	return items, q.SendBatch(ctx, &b).Close()
}

// queueCustomPlan queues on b the statements queue adds, planned for their values on every
// run (List.CustomPlan), and no further: as queueGenericPlan, in the batch's implicit
// transaction on the pool, switched on and back in a change.
func queueCustomPlan(b *pgx.Batch, q Querier, queue func(b *pgx.Batch)) {
	if tx, inChange := q.(*Tx); inChange {
		b.Queue("SET LOCAL plan_cache_mode = force_custom_plan")
		queue(b)
		if tx.generic {
			b.Queue(genericPlanOn)
		} else {
			b.Queue(genericPlanOff)
		}
		return
	}
	b.Queue("SELECT set_config('plan_cache_mode', 'force_custom_plan', true)")
	queue(b)
}

// QueueOnGenericPlans queues on b the statements queue adds, run on PostgreSQL's generic
// plans and no further (queueGenericPlan), in the same round trip: for a page's follow-up
// reads by the page's ids (QueueLinks, QueueTags). Their custom plans are made for every
// page and may pick a plan that grows with a table the ids join: the team of a page of
// assessments, 124 members, hashed all 3,007 users (3.3 ms, against 0.3 ms on the generic
// plan's index lookups; EXPLAIN ANALYZE on the million-row data).
func QueueOnGenericPlans(b *pgx.Batch, q Querier, queue func(b *pgx.Batch)) {
	queueGenericPlan(b, q, queue)
}

// QueryOnGenericPlan runs sql with args on PostgreSQL's generic plan (queueGenericPlan), the
// switch and the statement in one round trip, and reads its rows with read before it
// returns. For a statement PostgreSQL would otherwise plan anew on every run because a plan
// for the given values looks cheaper, where making that plan costs more than running either
// (an entity's inherited policies: 1.2–2.9 ms of planning for 0.2–0.4 ms of execution on
// make bench's million-row data). Check its generic plan first, as for List.GenericPlan,
// and keep the custom plans where the rows a value selects vary widely: a generic plan
// expects every value to select the average share, so for a user's notifications, on data
// with few users, it walked everyone's newest rows filtering by user, where a user with
// none would read the whole table.
func QueryOnGenericPlan(ctx context.Context, q Querier, sql string, args []any, read func(rows pgx.Rows) error) error {
	var b pgx.Batch
	queueGenericPlan(&b, q, func(b *pgx.Batch) { b.Queue(sql, args...).Query(read) })
	return q.SendBatch(ctx, &b).Close()
}

// QueryRowOnGenericPlan is QueryOnGenericPlan for a statement of one row, which scan reads
// (pgx.ErrNoRows when there is none, as QueryRow's Scan).
func QueryRowOnGenericPlan(ctx context.Context, q Querier, sql string, args []any, scan func(row pgx.Row) error) error {
	var b pgx.Batch
	queueGenericPlan(&b, q, func(b *pgx.Batch) { b.Queue(sql, args...).QueryRow(scan) })
	return q.SendBatch(ctx, &b).Close()
}

// queueGenericPlan queues on b the statements queue adds, on PostgreSQL's generic plans
// (List.GenericPlan), and no further. On the pool, the batch's statements run in one
// implicit transaction, which the batch's Sync ends, and a local setting ends with it
// (set_config's: SET LOCAL outside a transaction block would log a warning on every
// page). In a change, the switch is turned back (genericPlanOff), unless the change runs
// on generic plans already (ChangeGeneric).
func queueGenericPlan(b *pgx.Batch, q Querier, queue func(b *pgx.Batch)) {
	tx, inChange := q.(*Tx)
	switch {
	case inChange && tx.generic:
		queue(b)
	case inChange:
		b.Queue(genericPlanOn)
		queue(b)
		b.Queue(genericPlanOff)
	default:
		b.Queue(genericPlanOnce)
		queue(b)
	}
}

// genericPlanOnce switches the implicit transaction of a batch sent on the pool to generic
// plans (queueGenericPlan).
const genericPlanOnce = "SELECT set_config('plan_cache_mode', 'force_generic_plan', true)"

// ForEachLink loads what a page shows of its records' links, in one query for the whole
// page: sql takes the records' ids as $1, its first column is the owning record's id and
// the rest are scanned into dest, and add is called with the owner after every row.
func ForEachLink(ctx context.Context, q Querier, sql string, ids []string, dest []any, add func(owner string)) error {
	rows, err := q.Query(ctx, sql, ids)
	if err != nil {
		return err
	}
	return eachLink(rows, dest, add)
}

// IDsJoin is the ids of a page's records ($1, distinct) as rows to join a follow-up read
// to (ids.id), rather than a condition "= ANY($1)": on a generic plan PostgreSQL cannot hash
// the array, and a table small enough to scan was scanned with each row compared to each
// id, where the join looks each id up in the table's index (work.assessmentProgressSQL).
const IDsJoin = `unnest($1::text[]) AS ids(id)`

// idJoin is IDsJoin for a single record's links (QueueLinks): a generic plan of IDsJoin
// expects ten ids, and hashes a link table small enough to scan for them (a project's
// entities: all 1,203 links on the million-row data), so a single record's reads kept
// custom plans, planned on every call (0.24 ms of planning for 0.03 ms of lookups). Known
// to be one row, the id is looked up by key on the generic plan too.
const idJoin = `(SELECT ($1::text[])[1] AS id) AS ids`

// QueueLinks queues ForEachLink's query on b, so that a page's several links are read in
// one round trip (Querier.SendBatch): add is called as the batch's results are read, by
// the time its Close returns. With a single id, sql's IDsJoin is read as one row
// (idJoin), a statement of its own.
func QueueLinks(b *pgx.Batch, sql string, ids []string, dest []any, add func(owner string)) {
	QueueLinksThen(b, sql, ids, dest, add, nil)
}

// QueueLinksThen is QueueLinks calling done, when not nil, once every row has been added:
// to sort each record's links in the server (CompareFolded), a few per record, rather
// than a page's in PostgreSQL.
func QueueLinksThen(b *pgx.Batch, sql string, ids []string, dest []any, add func(owner string), done func()) {
	if len(ids) == 1 {
		sql = strings.Replace(sql, IDsJoin, idJoin, 1)
	}
	b.Queue(sql, ids).Query(func(rows pgx.Rows) error {
		if err := eachLink(rows, dest, add); err != nil {
			return err
		}
		if done != nil {
			done()
		}
		return nil
	})
}

// CompareFolded compares a and b as PostgreSQL orders lower(a) and lower(b) in the C
// collation, which the embedded database has: byte by byte, with ASCII letters folded to
// lower case (the only letters lower() folds in that collation). For the few links of
// each record, sorted by the server after a page's read in no order: PostgreSQL sorting
// the page's 50–130 links took a fifth to a quarter of such a read (million-row data).
// In a database of another collation these short lists still follow this order.
func CompareFolded(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := cmp.Compare(asciiLower(a[i]), asciiLower(b[i])); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// eachLink scans the owner and dest of every row of a link query and calls add.
func eachLink(rows pgx.Rows, dest []any, add func(owner string)) error {
	var owner string
	_, err := pgx.ForEachRow(rows, append([]any{&owner}, dest...), func() error {
		add(owner)
		return nil
	})
	return err
}

// NewestFirst is the sort of lists keyed on time-ordered ids (assess.NewID): newest first.
func NewestFirst(idExpr string) SortOrder {
	return SortOrder{Name: "newest", Keys: []SortKey{{Expr: idExpr, Typ: "text", Desc: true}}}
}

// OldestFirst is the sort of lists keyed on time-ordered ids (assess.NewID): oldest first,
// in the order the records were made.
func OldestFirst(idExpr string) SortOrder {
	return SortOrder{Name: "oldest", Keys: []SortKey{{Expr: idExpr, Typ: "text"}}}
}
