package work

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Global search (assess.SearchService; docs/assessments.md, "Search"). One statement asks
// every kind the caller may search: each kind's branch matches the words against the
// table's search_vector (migrations/0027_search.sql: English, German and unstemmed lexemes,
// GIN-indexed) and, from three characters on, the query as a part of the title or identifier
// (trigram GIN indexes), and carries the visibility condition its list carries, so a hit is
// always a record the caller could open.

// SearchService implements assess.SearchService. An answer is kept for SearchCacheTTL per
// scope and query (answerCache): a search box is typed by many people with the same first
// letters, and a common word costs hundreds of milliseconds for a participant at scale
// (docs/performance.md, "Search at scale").
type SearchService struct {
	db      *postgres.DB
	cache   *answerCache[assess.SearchResults]
	visible *answerCache[[]string] // the ids of the assessments a participant takes part in, by user
}

// SearchCacheTTL is how long an answer is served again to the same scope and query.
const SearchCacheTTL = 10 * time.Second

// searchCacheMax bounds the answers kept (answerCache); an answer is a few kilobytes.
// searchVisibleCacheMax bounds the participants whose assessments are kept (some 30 bytes
// an assessment: 30 kB for someone in a thousand).
const (
	searchCacheMax        = 20000
	searchVisibleCacheMax = 1000
)

// NewSearchService returns the search on db, each answer kept for ttl (SearchCacheTTL when
// zero; negative: not kept).
func NewSearchService(db *postgres.DB, ttl time.Duration) *SearchService {
	if ttl == 0 {
		ttl = SearchCacheTTL
	}
	return &SearchService{db: db, cache: newAnswerCache[assess.SearchResults](ttl, searchCacheMax),
		visible: newAnswerCache[[]string](ttl, searchVisibleCacheMax)}
}

// searchKind is how one kind is searched: its table (alias x) and the joins its hits need,
// the SQL of a hit's title, subtitle and link, the columns matched in part (trigrams), and
// the visibility condition for actor on x ("" when every row is visible).
type searchKind struct {
	table, joins, title, subtitle, link string
	exact                               []string // compared whole (lower case) with the query: an exact title ranks first
	trigram                             []string
	// visible is the condition on x for actor, given the query of the ids of the
	// assessments actor takes part in (the CTE vis; "" when they see every assessment).
	visible func(actor assess.Actor, vis string, arg func(any) string) string
}

// inArray is "expr is one of the ids of the array", or "" when array is "" (everything visible).
func inArray(expr, array string) string {
	if array == "" {
		return ""
	}
	return expr + " = ANY(" + array + ")"
}

var searchKinds = map[assess.SearchType]searchKind{
	assess.SearchStandard: {table: "standards",
		title: "x.name", subtitle: "x.identifier || CASE WHEN x.standard_version <> '' THEN ' ' || x.standard_version ELSE '' END",
		link: "'/standards/' || x.id", exact: []string{"x.name", "x.identifier"}, trigram: []string{"x.name", "x.identifier"}},
	assess.SearchRequirement: {table: "requirements", joins: "JOIN standards s ON s.id = x.standard_id",
		title: "btrim(x.identifier || ' ' || x.name)", subtitle: "s.name || CASE WHEN s.standard_version <> '' THEN ' ' || s.standard_version ELSE '' END",
		link: "'/standards/' || x.standard_id || '?requirement=' || x.id", exact: []string{"x.identifier", "x.name"}, trigram: []string{"x.identifier", "x.name"}},
	assess.SearchEntity: {table: "entities", title: "x.name", subtitle: "x.entity_type",
		link: "'/entities/' || x.id", exact: []string{"x.name"}, trigram: []string{"x.name"}},
	assess.SearchProject: {table: "projects", title: "x.name", subtitle: "x.state",
		link: "'/projects/' || x.id", exact: []string{"x.name"}, trigram: []string{"x.name"}},
	assess.SearchAssessment: {table: "assessments", joins: "JOIN entities en ON en.id = x.entity_id", title: "x.title", subtitle: "en.name",
		link: "'/assessments/' || x.id", exact: []string{"x.title"}, trigram: []string{"x.title"},
		visible: func(_ assess.Actor, vis string, _ func(any) string) string { return inArray("x.id", vis) }},
	assess.SearchEvidence: {table: "evidence", title: "x.name", subtitle: "left(x.description, 160)",
		link: "'/evidence/' || x.id", exact: []string{"x.name"}, trigram: []string{"x.name"},
		visible: func(a assess.Actor, vis string, arg func(any) string) string {
			// Each matching row tested by index lookups against the participant's
			// assessments, read once (the list form's per-row set took over 10 s on a
			// common word at 100,000 evidence, the whole visible set 200 ms).
			if vis == "" {
				vis = "'{}'::text[]"
			}
			return postgres.EvidenceVisibleInArraySQL(a, "x.id", "x.author_id", "x.reviewer_id", vis, arg)
		}},
	assess.SearchClaim: {table: "claims", joins: "JOIN assessments ca ON ca.id = x.assessment_id", title: "x.name", subtitle: "ca.title",
		link: "'/assessments/' || x.assessment_id || '?tab=claims&claim=' || x.id", exact: []string{"x.name"}, trigram: []string{"x.name"},
		visible: func(_ assess.Actor, vis string, _ func(any) string) string { return inArray("x.assessment_id", vis) }},
}

// searchInPart tells whether q is also matched as a part of titles and identifiers: when it
// has three letters or digits in a row, a trigram the indexes can look up, and excludes no
// word. A query without such a trigram ("ab", "1.2", "'\"<", "___") could not narrow the
// trigram indexes, which would then read every entry of every searched table (0.75–1.3 s at a
// million claims); one that excludes words ("robotics -cell") is a query of words, and the
// part it would match ("-cell") is what it asks to leave out. The words and word starts of
// either are still found.
func searchInPart(q string) bool {
	for _, f := range strings.Fields(q) {
		if len(f) > 1 && f[0] == '-' {
			return false
		}
	}
	run := 0
	for _, r := range q {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			run = 0
			continue
		}
		if run++; run == 3 {
			return true
		}
	}
	return false
}

// searchCandidates bounds the records of one kind that are ranked: of a query so common that
// more match (a word in every tenth piece of evidence), the best hits are chosen among the
// first ones found — searchCandidatesPerHit for each hit asked for, at least
// searchMinCandidates — plus every record whose title is the query itself. Ranking 25,000
// claims took half a second, and for a participant each candidate is also tested against
// what they may see; more words narrow such a query anyway.
func searchCandidates(limit int) int {
	return max(searchMinCandidates, limit*searchCandidatesPerHit)
}

const (
	searchMinCandidates    = 200
	searchCandidatesPerHit = 20
)

// Search implements assess.SearchService.
func (s *SearchService) Search(ctx context.Context, actor assess.Actor, q assess.SearchQuery) (assess.SearchResults, error) {
	if err := q.Validate(); err != nil {
		return assess.SearchResults{}, err
	}
	// The key holds everything the answer depends on: whose records (everyone's for a caller
	// who sees every assessment and all evidence, else the caller's), the kinds the caller
	// may search (a role changed since is a new key), the kinds and hits asked for, the words.
	scope := "user:" + postgres.ActorID(actor)
	if assess.SeesEveryAssessment(actor) && assess.SeesAllEvidence(actor) {
		scope = "all"
	}
	var kinds []string
	for _, kind := range q.Kinds() {
		if actor.Can(assess.SearchPermission(kind)) {
			kinds = append(kinds, string(kind))
		}
	}
	key := scope + "\x00" + strings.Join(kinds, ",") + "\x00" + strconv.Itoa(q.Limit) + "\x00" + q.Q
	return s.cache.get(ctx, key, func(ctx context.Context) (assess.SearchResults, error) { return s.search(ctx, actor, q) })
}

// search answers q for actor from the database.
func (s *SearchService) search(ctx context.Context, actor assess.Actor, q assess.SearchQuery) (assess.SearchResults, error) {
	out := assess.SearchResults{Query: q.Q, Groups: []assess.SearchGroup{}}
	var args postgres.SQLArgs
	text := args.Add(q.Q)
	head, prefix := searchPrefix(q.Q)
	// The participant's assessments, read once for every kind that needs them (and kept per
	// user like the answers: 60 ms and more for someone in a thousand assessments).
	var kinds []assess.SearchType
	needVis := false
	for _, kind := range q.Kinds() {
		if actor.Can(assess.SearchPermission(kind)) {
			kinds = append(kinds, kind)
			needVis = needVis || searchKinds[kind].visible != nil
		}
	}
	vis := ""
	if needVis && !assess.SeesEveryAssessment(actor) {
		ids, err := s.visible.get(ctx, postgres.ActorID(actor), func(ctx context.Context) ([]string, error) {
			ids, _, err := postgres.VisibleAssessmentIDs(ctx, s.db.Pool, actor)
			return append([]string{}, ids...), err
		})
		if err != nil {
			return out, err
		}
		vis = args.Add(ids) + "::text[]"
	}
	branches := []string{}
	for _, kind := range kinds {
		branches = append(branches, searchBranch(kind, searchKinds[kind], actor, vis, q, &args))
	}
	if len(branches) == 0 {
		return out, nil
	}
	// The words as each configuration reads them, each kept only where an index can find
	// them: a query of exclusions alone ("-draft") or with an alternative of them ("-a or b")
	// is one GIN would answer by reading every entry of every searched table (querytree 'T';
	// 0.4–1.3 s at a million claims), so that configuration's reading is dropped; when no
	// reading is left, tsq is NULL, which an index scan answers with nothing at once.
	indexable := func(tsq string) string {
		return "CASE WHEN querytree(" + tsq + ") = 'T' THEN ''::tsquery ELSE " + tsq + " END"
	}
	sql := `WITH r AS (SELECT websearch_to_tsquery('english', ` + text + `) AS en, websearch_to_tsquery('german', ` + text + `) AS de,
		websearch_to_tsquery('simple', ` + args.Add(head) + `) && to_tsquery('simple', ` + args.Add(prefix) + `) AS pre),
		w AS (SELECT ` + indexable("r.en") + ` || ` + indexable("r.de") + ` || ` + indexable("r.pre") + ` AS tsq FROM r),
		q AS (SELECT CASE WHEN numnode(w.tsq) = 0 THEN NULL ELSE w.tsq END AS tsq,
		lower(` + text + `) AS lq, ` + text + `::text AS t, ` + args.Add(likePattern(q.Q)) + `::text AS pat FROM w)
		` + strings.Join(branches, "\nUNION ALL\n")
	rows, err := s.db.Pool.Query(ctx, sql, args...)
	if err != nil {
		return out, postgres.DBError(err)
	}
	defer rows.Close()
	groups := map[assess.SearchType]*assess.SearchGroup{}
	for rows.Next() {
		var h assess.SearchHit
		if err := rows.Scan(&h.Type, &h.ID, &h.Title, &h.Subtitle, &h.Link, &h.Rank); err != nil {
			return out, postgres.DBError(err)
		}
		g := groups[h.Type]
		if g == nil {
			g = &assess.SearchGroup{Type: h.Type, Items: []assess.SearchHit{}}
			groups[h.Type] = g
		}
		if len(g.Items) == q.Limit {
			g.More = true
			continue
		}
		g.Items = append(g.Items, h)
	}
	if err := rows.Err(); err != nil {
		return out, postgres.DBError(err)
	}
	for _, kind := range assess.SearchTypes {
		if g := groups[kind]; g != nil {
			out.Groups = append(out.Groups, *g)
		}
	}
	return out, nil
}

// searchBranch is the query of one kind: its best limit+1 hits (one more tells that there are more).
func searchBranch(kind assess.SearchType, k searchKind, actor assess.Actor, vis string, q assess.SearchQuery, args *postgres.SQLArgs) string {
	match := []string{"x.search_vector @@ q.tsq"}
	if searchInPart(q.Q) {
		for _, col := range k.trigram {
			match = append(match, col+" ILIKE q.pat")
		}
	}
	var exact, similar []string
	for _, col := range k.exact {
		exact = append(exact, "lower("+col+") = q.lq")
	}
	for _, col := range k.trigram {
		similar = append(similar, "similarity("+col+", q.t)")
	}
	// Rank: the words' weight in the text (ts_rank: a title word counts more than a
	// description's), plus how much of the title the query is (trigram similarity), plus one
	// for a title or identifier that is the query itself.
	rank := "coalesce(ts_rank(x.search_vector, q.tsq), 0) + " + greatest(similar) + " + CASE WHEN " + strings.Join(exact, " OR ") + " THEN 1 ELSE 0 END"
	visible := func() string {
		if k.visible != nil {
			if cond := k.visible(actor, vis, args.Add); cond != "" {
				return " AND " + cond
			}
		}
		return ""
	}
	// The candidates: the first matches, and the records titled exactly so (lower(title)
	// indexes), each with the caller's visibility condition.
	candidates := "(SELECT x.id FROM " + k.table + " x, q WHERE (" + strings.Join(match, " OR ") + ")" + visible() +
		" LIMIT " + args.Add(searchCandidates(q.Limit)) + ")" +
		" UNION (SELECT x.id FROM " + k.table + " x, q WHERE (" + strings.Join(exact, " OR ") + ")" + visible() + ")"
	return "(SELECT '" + string(kind) + "', x.id, " + k.title + ", " + k.subtitle + ", " + k.link + ", (" + rank + ")::float8 AS rank" +
		" FROM " + k.table + " x " + k.joins + ", q WHERE x.id IN (" + candidates + ") ORDER BY rank DESC, x.id LIMIT " + args.Add(q.Limit+1) + ")"
}

func greatest(exprs []string) string {
	if len(exprs) == 1 {
		return exprs[0]
	}
	return "greatest(" + strings.Join(exprs, ", ") + ")"
}

// searchPrefix splits q into the words before the last one and a to_tsquery of the last one
// as a prefix ('word':*), so that what is being typed already matches. Only letters, digits
// and the punctuation of identifiers (. _ -) of the last word are kept; a last word that
// is excluded (-word) or has none of them gives no prefix.
func searchPrefix(q string) (head, prefix string) {
	fields := strings.Fields(q)
	last := fields[len(fields)-1]
	head = strings.Join(fields[:len(fields)-1], " ")
	if strings.HasPrefix(last, "-") {
		return q, ""
	}
	word := strings.Trim(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-' {
			return r
		}
		return -1
	}, last), ".-_")
	if word == "" {
		return q, ""
	}
	return head, "'" + word + "':*"
}

// likePattern is q as a LIKE pattern matching it anywhere, its wildcards escaped.
func likePattern(q string) string {
	return "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(q) + "%"
}
