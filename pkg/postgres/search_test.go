package postgres_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/work"
)

// searchWorld is an assessment store with searchable records: requirements with English and
// German descriptions, a second entity, an assessment with its team, evidence and a claim,
// and another team's assessment with its own.
type searchWorld struct {
	*assessmentStore
	member, outsider, admin         assess.Actor
	v123, passwords, tokens         string
	ours, theirs, ourEv, theirEv    string
	ourClaim, theirClaim, warehouse string
}

// searchPerms is what the built-in roles give participants: every kind's view permission,
// but not assessments.view_all or evidence.view_all.
var searchPerms = []assess.Perm{assess.PermStandardsView, assess.PermEntitiesView, assess.PermProjectsView,
	assess.PermAssessmentsView, assess.PermEvidenceView, assess.PermClaimsView}

func newSearchWorld(t *testing.T) *searchWorld {
	t.Helper()
	w := &searchWorld{assessmentStore: newAssessmentStore(t)}
	w.member = w.user("member", searchPerms...)
	w.outsider = w.user("outsider", searchPerms...)
	w.admin = w.user("admin", append(searchPerms, assess.PermAssessmentsViewAll, assess.PermEvidenceViewAll)...)
	w.v123 = w.requirement("V1.2.3", "Session management", "Verify that session tokens are rotated after every sign-in.")
	w.passwords = w.requirement("8.1.2", "Kennwörter", "Die Passwörter werden verschlüsselt gespeichert.")
	w.tokens = w.requirement("V1.2.4", "Token lifetime", "Verify that tokens expire.")
	w.warehouse = assess.NewID(assess.PrefixEntity, time.Now())
	w.exec(`INSERT INTO entities (id, name, entity_type) VALUES ($1, 'Warehouse Robotics', 'product')`, w.warehouse)
	w.ours = w.assessment("Quarterly access review", w.member)
	w.assessment("Quarterly access review follow-up", w.admin)
	w.theirs = w.assessment("Payroll secrets audit", w.outsider)
	w.ourEv = w.evidence("Payroll secrets scan of our shop", w.member, w.ours)
	w.theirEv = w.evidence("Payroll secrets scan of theirs", w.outsider, w.theirs)
	w.ourClaim = w.claim(w.ours, "Payroll secrets are rotated")
	w.theirClaim = w.claim(w.theirs, "Payroll secrets are vaulted")
	return w
}

func (w *searchWorld) requirement(identifier, name, description string) string {
	id := assess.NewID(assess.PrefixRequirement, time.Now())
	w.exec(`INSERT INTO requirements (id, standard_id, identifier, natural_key, name, description) VALUES ($1, $2, $3, $4, $5, $6)`,
		id, w.standard, identifier, assess.NaturalKey(identifier), name, description)
	return id
}

func (w *searchWorld) assessment(title string, member assess.Actor) string {
	id := assess.NewID(assess.PrefixAssessment, time.Now())
	w.exec(`INSERT INTO assessments (id, title, entity_id, state) VALUES ($1, $2, $3, 'in_progress')`, id, title, w.entity)
	w.exec(`INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ($1, $2, 'assessor')`, id, member.ID)
	w.exec(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id) VALUES ($1, $2, $3, $4)`,
		assess.NewID(assess.PrefixAssessmentRequirement, time.Now()), id, w.v123, w.standard)
	return id
}

// evidence inserts evidence by author linked to the requirement of assessment.
func (w *searchWorld) evidence(name string, author assess.Actor, assessment string) string {
	id := assess.NewID(assess.PrefixEvidence, time.Now())
	w.exec(`INSERT INTO evidence (id, name, author_id) VALUES ($1, $2, $3)`, id, name, author.ID)
	w.exec(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
		SELECT id, $2, $1 FROM assessment_requirements WHERE assessment_id = $1`, assessment, id)
	return id
}

func (w *searchWorld) claim(assessment, name string) string {
	id := assess.NewID(assess.PrefixClaim, time.Now())
	w.exec(`INSERT INTO claims (id, assessment_id, name, target, predicate) VALUES ($1, $2, $3, 'the shop', 'Secrets are handled.')`,
		id, assessment, name)
	return id
}

// search runs q for actor and answers the ids found of each kind, in rank order.
func (w *searchWorld) search(actor assess.Actor, q assess.SearchQuery) map[assess.SearchType][]string {
	w.t.Helper()
	res, err := w.svc.Search.Search(w.ctx, actor, q)
	require.NoError(w.t, err)
	out := map[assess.SearchType][]string{}
	for _, g := range res.Groups {
		for _, h := range g.Items {
			require.Equal(w.t, g.Type, h.Type)
			out[g.Type] = append(out[g.Type], h.ID)
		}
	}
	return out
}

// TestSearchFindsByWordsPrefixesIdentifiersAndTitles (issue 25 item 3): a requirement by a
// word of its description in English and in German, an entity by the start of its name, an
// assessment by its exact title (first, above a longer title with the same words), a
// requirement by its identifier, each hit with its subtitle and page.
func TestSearchFindsByWordsPrefixesIdentifiersAndTitles(t *testing.T) {
	t.Parallel()
	w := newSearchWorld(t)
	q := func(text string, types ...assess.SearchType) assess.SearchQuery {
		var list []string
		for _, k := range types {
			list = append(list, string(k))
		}
		return assess.SearchQuery{Q: text, Types: strings.Join(list, ",")}
	}
	req := assess.SearchRequirement
	t.Run("English stemming: rotating finds rotated", func(t *testing.T) {
		require.Equal(t, []string{w.v123}, w.search(w.member, q("rotating", req))[req])
	})
	t.Run("German stemming: Passwort finds Passwörter", func(t *testing.T) {
		require.Equal(t, []string{w.passwords}, w.search(w.member, q("Passwort", req))[req])
		require.Equal(t, []string{w.passwords}, w.search(w.member, q("verschlüsselte Passwörter", req))[req])
	})
	t.Run("the last word as a prefix", func(t *testing.T) {
		require.Equal(t, []string{w.warehouse}, w.search(w.member, q("Wareh", assess.SearchEntity))[assess.SearchEntity])
		require.Equal(t, []string{w.warehouse}, w.search(w.member, q("warehouse rob", assess.SearchEntity))[assess.SearchEntity])
		require.Equal(t, []string{w.warehouse}, w.search(w.member, q("robotics wa", assess.SearchEntity))[assess.SearchEntity], "two letters")
		require.Empty(t, w.search(w.member, q("wa robotics", assess.SearchEntity)), "only the last word is a prefix")
	})
	t.Run("identifiers", func(t *testing.T) {
		require.Equal(t, []string{w.v123}, w.search(w.member, q("V1.2.3", req))[req])
		require.Equal(t, []string{w.passwords}, w.search(w.member, q("8.1.2", req))[req])
		require.ElementsMatch(t, []string{w.v123, w.tokens}, w.search(w.member, q("V1.2", req))[req], "a part of an identifier")
	})
	t.Run("exact title first", func(t *testing.T) {
		got := w.search(w.admin, q("Quarterly access review", assess.SearchAssessment))[assess.SearchAssessment]
		require.Len(t, got, 2)
		require.Equal(t, w.ours, got[0], "the exact title ranks above a longer one")
	})
	t.Run("a hit's title, subtitle and page", func(t *testing.T) {
		res, err := w.svc.Search.Search(w.ctx, w.member, q("V1.2.3"))
		require.NoError(t, err)
		require.Equal(t, assess.SearchRequirement, res.Groups[0].Type)
		h := res.Groups[0].Items[0]
		require.Equal(t, "V1.2.3 Session management", h.Title)
		require.Equal(t, "Standard", h.Subtitle, "the requirement's standard")
		require.Equal(t, "/standards/"+w.standard+"?requirement="+w.v123, h.Link)
		require.Positive(t, h.Rank)
		res, err = w.svc.Search.Search(w.ctx, w.member, q("Quarterly access", assess.SearchAssessment, assess.SearchClaim))
		require.NoError(t, err)
		require.Equal(t, "Shop", res.Groups[0].Items[0].Subtitle, "the assessment's entity")
		require.Equal(t, "/assessments/"+w.ours, res.Groups[0].Items[0].Link)
		res, err = w.svc.Search.Search(w.ctx, w.member, q("rotated", assess.SearchClaim))
		require.NoError(t, err)
		require.Equal(t, "/assessments/"+w.ours+"?tab=claims&claim="+w.ourClaim, res.Groups[0].Items[0].Link)
		require.Equal(t, "Quarterly access review", res.Groups[0].Items[0].Subtitle, "the claim's assessment")
	})
	t.Run("wildcards and query syntax are text", func(t *testing.T) {
		require.Empty(t, w.search(w.member, q("%%%")))
		require.Empty(t, w.search(w.member, q(`"unclosed & | ! ( :*`)))
	})
}

// TestSearchLeavesWhatNoIndexCanFindUnread: a query whose words are all excluded ("-robotics",
// or an alternative of exclusions), or without three letters or digits in a row to match in
// part ("'\"<", "___", "-1"), asks nothing GIN or the trigram indexes would have to answer by
// reading every entry of each searched table (0.4–1.3 s at a million claims); such a query
// finds only records titled exactly so. The searches run with sequential scans priced out,
// as PostgreSQL plans them at scale: before, each read all 1,500 entities.
func TestSearchLeavesWhatNoIndexCanFindUnread(t *testing.T) {
	t.Parallel()
	w := newSearchWorld(t)
	w.exec(`INSERT INTO entities (id, name, description, entity_type)
		SELECT 'en_' || lpad(i::text, 26, '0'), 'Robotics cell ' || i, 'Robotics line, stage ' || i || '.', 'component'
		FROM generate_series(1, 1500) i`)
	w.exec(`ANALYZE entities`)
	one, ex := pgtest.Explained(t, w.pool, "SET enable_seqscan = off")
	search := work.NewSearchService(postgres.New(one, nil), -1)
	find := func(text string) []string {
		t.Helper()
		ex.Reset()
		res, err := search.Search(w.ctx, w.admin, assess.SearchQuery{Q: text, Types: "entity", Limit: 50})
		require.NoError(t, err)
		var ids []string
		for _, g := range res.Groups {
			for _, h := range g.Items {
				ids = append(ids, h.ID)
			}
		}
		return ids
	}
	for _, text := range []string{"-robotics", "-robotics -cell", "-robotics or -line", `-"robotics cell"`, `'"<`, "___", "...", "-1", "--"} {
		t.Run(text, func(t *testing.T) {
			require.Empty(t, find(text))
			read, statements := ex.RowsRead("entities", "websearch_to_tsquery")
			require.Equal(t, 1, statements)
			require.LessOrEqual(t, read, int64(5), "entities read:\n%s", ex.Plans("websearch_to_tsquery"))
		})
	}
	t.Run("what an index can find is still found", func(t *testing.T) {
		require.Len(t, find("robotics -warehouse"), 50, "a word and an exclusion")
		require.Equal(t, []string{w.warehouse}, find("warehouse -cell"))
		require.Equal(t, []string{w.warehouse}, find("ehous"), "three letters in a row match a part of a title")
		require.Equal(t, []string{"en_" + fmt.Sprintf("%026d", 1234)}, find("Robotics cell 1234"), "an exact title")
	})
	t.Run("a title that is the query itself is found without an index of words", func(t *testing.T) {
		odd := assess.NewID(assess.PrefixEntity, time.Now())
		w.exec(`INSERT INTO entities (id, name, entity_type) VALUES ($1, '___', 'product')`, odd)
		require.Equal(t, []string{odd}, find("___"))
	})
}

// TestSearchShowsOnlyWhatTheCallerMayOpen: an outsider — a participant of another team's
// assessment, with every view permission — finds none of our assessments, evidence or claims
// (and their own), an administrator finds both, and a caller without a kind's permission
// finds nothing of that kind.
func TestSearchShowsOnlyWhatTheCallerMayOpen(t *testing.T) {
	t.Parallel()
	w := newSearchWorld(t)
	kinds := assess.SearchQuery{Q: "payroll secrets", Types: "assessment,evidence,claim"}
	require.Equal(t, map[assess.SearchType][]string{assess.SearchAssessment: {w.theirs}, assess.SearchEvidence: {w.theirEv},
		assess.SearchClaim: {w.theirClaim}}, w.search(w.outsider, kinds), "the outsider finds only their team's records")
	member := w.search(w.member, kinds)
	require.Equal(t, []string{w.ourEv}, member[assess.SearchEvidence])
	require.Equal(t, []string{w.ourClaim}, member[assess.SearchClaim])
	require.Empty(t, member[assess.SearchAssessment], "our assessment is not called payroll")
	admin := w.search(w.admin, kinds)
	require.ElementsMatch(t, []string{w.ourEv, w.theirEv}, admin[assess.SearchEvidence])
	require.ElementsMatch(t, []string{w.ourClaim, w.theirClaim}, admin[assess.SearchClaim])
	require.Empty(t, w.search(w.outsider, assess.SearchQuery{Q: "Quarterly access review"}), "nothing of another team by its title")

	onlyStandards := w.user("reader", assess.PermStandardsView)
	got := w.search(onlyStandards, assess.SearchQuery{Q: "payroll V1.2.3 Shop"})
	require.Empty(t, got)
	got = w.search(onlyStandards, assess.SearchQuery{Q: "V1.2.3"})
	require.Equal(t, map[assess.SearchType][]string{assess.SearchRequirement: {w.v123}}, got)
	noClaims := w.user("noclaims", assess.PermAssessmentsView, assess.PermEvidenceView)
	w.exec(`INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ($1, $2, 'assessee')`, w.ours, noClaims.ID)
	require.Equal(t, map[assess.SearchType][]string{assess.SearchEvidence: {w.ourEv}}, w.search(noClaims, kinds), "claims need claims.view")
}

// TestSearchShowsWhatAParticipantOfManyAssessmentsMayOpen: a participant of 71 assessments
// (more than the evidence list's fewAssessments, past which lists test rows by lookups)
// finds the evidence they authored, the evidence of others linked to or cited in their
// assessments, and their assessments' claims — and nothing linked or cited only in another
// team's; the other team's member finds what is linked to theirs.
func TestSearchShowsWhatAParticipantOfManyAssessmentsMayOpen(t *testing.T) {
	t.Parallel()
	w := newSearchWorld(t)
	for i := range 70 {
		w.assessment(fmt.Sprintf("Quiet review %d", i), w.member)
	}
	linked := w.evidence("Ledger secrets export linked to ours", w.admin, w.ours)
	cited := w.evidence("Ledger secrets export cited in ours", w.admin, w.theirs)
	w.exec(`INSERT INTO claim_evidence (claim_id, evidence_id, kind) VALUES ($1, $2, 'evidence')`, w.ourClaim, cited)
	theirsOnly := w.evidence("Ledger secrets export of theirs", w.admin, w.theirs)
	w.exec(`INSERT INTO claim_evidence (claim_id, evidence_id, kind) VALUES ($1, $2, 'evidence')`, w.theirClaim, theirsOnly)
	kinds := assess.SearchQuery{Q: "secrets", Types: "assessment,evidence,claim", Limit: 20}
	member := w.search(w.member, kinds)
	require.ElementsMatch(t, []string{w.ourEv, linked, cited}, member[assess.SearchEvidence])
	require.Equal(t, []string{w.ourClaim}, member[assess.SearchClaim])
	require.Empty(t, member[assess.SearchAssessment])
	admin := w.search(w.admin, kinds)
	require.ElementsMatch(t, []string{w.ourEv, w.theirEv, linked, cited, theirsOnly}, admin[assess.SearchEvidence])
	require.ElementsMatch(t, []string{w.ourClaim, w.theirClaim}, admin[assess.SearchClaim])
	outsider := w.search(w.outsider, kinds)
	require.ElementsMatch(t, []string{w.theirEv, cited, theirsOnly}, outsider[assess.SearchEvidence],
		"the outsider, of one assessment, finds what is linked to theirs")
	require.Equal(t, []string{w.theirClaim}, outsider[assess.SearchClaim])
}

// TestSearchTypesLimitAndInput: types narrows the kinds, limit the hits per kind (more says
// there are others), and empty, over-long or unknown input is validation_failed.
func TestSearchTypesLimitAndInput(t *testing.T) {
	t.Parallel()
	w := newSearchWorld(t)
	all := w.search(w.admin, assess.SearchQuery{Q: "payroll"})
	require.Len(t, all, 3, "assessments, evidence and claims")
	only := w.search(w.admin, assess.SearchQuery{Q: "payroll", Types: "claim"})
	require.Equal(t, []assess.SearchType{assess.SearchClaim}, keysOf(only))

	res, err := w.svc.Search.Search(w.ctx, w.admin, assess.SearchQuery{Q: "V1.2", Types: "requirement", Limit: 1})
	require.NoError(t, err)
	require.Len(t, res.Groups, 1)
	require.Len(t, res.Groups[0].Items, 1)
	require.True(t, res.Groups[0].More)
	res, err = w.svc.Search.Search(w.ctx, w.admin, assess.SearchQuery{Q: "V1.2", Types: "requirement", Limit: 2})
	require.NoError(t, err)
	require.Len(t, res.Groups[0].Items, 2)
	require.False(t, res.Groups[0].More)

	for name, bad := range map[string]assess.SearchQuery{"empty": {Q: "  "}, "too long": {Q: strings.Repeat("ä", 201)},
		"unknown type": {Q: "x", Types: "standard,users"}, "limit": {Q: "x", Limit: 51}, "control": {Q: "a\x01b"}} {
		t.Run(name, func(t *testing.T) {
			_, err := w.svc.Search.Search(w.ctx, w.admin, bad)
			requireCode(t, err, assess.ECodeValidation, "")
		})
	}
	_, err = w.svc.Search.Search(w.ctx, w.admin, assess.SearchQuery{Q: strings.Repeat("ä", 200)})
	require.NoError(t, err, "200 characters are fine")
}

func keysOf(m map[assess.SearchType][]string) []assess.SearchType {
	out := []assess.SearchType{}
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestSearchRanksAnExactTitleFirstAmongManyMatches: when more records match than are ranked
// (a common word), the one titled exactly so is still found, first, and more says there are others.
func TestSearchRanksAnExactTitleFirstAmongManyMatches(t *testing.T) {
	t.Parallel()
	w := newSearchWorld(t)
	w.exec(`INSERT INTO entities (id, name, description, entity_type)
		SELECT 'en_' || lpad(i::text, 26, '0'), 'Robotics cell ' || i, 'Robotics line robotics.', 'component' FROM generate_series(1, 1500) i`)
	exact := assess.NewID(assess.PrefixEntity, time.Now())
	w.exec(`INSERT INTO entities (id, name, entity_type) VALUES ($1, 'Robotics', 'product')`, exact)
	res, err := w.svc.Search.Search(w.ctx, w.member, assess.SearchQuery{Q: "robotics", Types: "entity"})
	require.NoError(t, err)
	require.Len(t, res.Groups, 1)
	require.Equal(t, exact, res.Groups[0].Items[0].ID)
	require.Len(t, res.Groups[0].Items, assess.SearchDefaultLimit)
	require.True(t, res.Groups[0].More)
}

// TestSearchAnswersAreKeptPerScopeAndQuery: an answer is served again for SearchCacheTTL to
// the same caller and query — a record made since appears only after it, or at once with
// the cache off — but never to another participant, and a caller whose permissions change
// asks under a new key (granted view_all: everyone's records at once).
func TestSearchAnswersAreKeptPerScopeAndQuery(t *testing.T) {
	t.Parallel()
	w := newSearchWorld(t)
	kinds := assess.SearchQuery{Q: "payroll secrets", Types: "evidence"}
	require.Equal(t, []string{w.ourEv}, w.search(w.member, kinds)[assess.SearchEvidence])
	second := w.evidence("Payroll secrets scan, second run", w.member, w.ours)
	require.Equal(t, []string{w.ourEv}, w.search(w.member, kinds)[assess.SearchEvidence], "kept: the same answer within the TTL")
	require.Equal(t, []string{w.theirEv}, w.search(w.outsider, kinds)[assess.SearchEvidence], "another participant's answer is their own")
	require.ElementsMatch(t, []string{w.ourEv, second}, w.search(w.member, assess.SearchQuery{Q: "payroll secrets", Types: "evidence", Limit: 6})[assess.SearchEvidence],
		"another limit is another answer")

	uncached := work.NewSearchService(postgres.New(w.pool, nil), -1)
	res, err := uncached.Search(w.ctx, w.member, kinds)
	require.NoError(t, err)
	require.Len(t, res.Groups, 1)
	require.Len(t, res.Groups[0].Items, 2, "without the cache the new evidence is found at once")

	promoted := w.member
	promoted.Principal = &assess.Principal{User: w.member.Principal.User,
		Permissions: append(slices.Clone(w.member.Principal.Permissions), string(assess.PermAssessmentsViewAll), string(assess.PermEvidenceViewAll))}
	slices.Sort(promoted.Principal.Permissions)
	require.ElementsMatch(t, []string{w.ourEv, second, w.theirEv}, w.search(promoted, kinds)[assess.SearchEvidence],
		"granted view_all: a new scope, every team's evidence")
}
