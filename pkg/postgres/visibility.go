package postgres

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// Object-level access (PRODUCT P4.4, docs/assessments.md "Who sees what"). A participant
// of an assessment is an assessor or assessee of it, or the author or reviewer of evidence
// linked to one of its requirements; participants see the assessment and everything under
// it (requirements, results, claims, notes, timeline, linked evidence). assessments.view_all
// widens that to every assessment; evidence.view_all (or assessments.view_all) to every
// piece of evidence. Evidence is also visible to its author and reviewer, and to the
// participants of an assessment whose requirement or claim cites it.
//
// What a caller may not see does not exist for them: reads and writes alike answer 404,
// and every list applies the same rule in its WHERE clause so that counts and pages never
// reveal a record. The rule is decided in Go for single records (assess.CanSeeAssessment
// and assess.CanSeeEvidence, from the ties loaded with the record), written in SQL here
// for lists and sets, and in SQL functions of migrations/0011_assessments.sql for the
// event fan-out; tests hold all of them to the same answers (TestVisibilityRuleAgreesInGoAndSQL).

// participantSQL is "user $U takes part in assessment A" with A and $U substituted, in two
// forms of the same rule over assessment_participants, the set PostgreSQL keeps of every
// user's assessments (migrations/0033), each where the planner does best with it: for
// assessments, membership in the user's set — one index range, not correlated with A, read
// once per query; inside the evidence rule, where A comes from each link of each candidate,
// one index probe. Single records decide from the same set (VisibleAssessmentState,
// AssessmentParticipantSQL): the sources — a team role, or evidence authored or reviewed
// and linked to a requirement — were read there until the set was kept, and one evidence
// tie of a busy assessment meant walking all its links (the timeline, claims and notes of
// make bench's assessment with 1,666 links: 385 blocks for each page's check). The
// property tests hold the set equal to its sources after every kind of change
// (TestAssessmentProgressCountersFollowEveryChange). A user's ties to an assessment are kept
// in up to sixteen rows (migrations/0037): every form here asks whether a row exists, never
// how many.
const (
	participantSQL           = `({A} IN (SELECT pp.assessment_id FROM assessment_participants pp WHERE pp.user_id = {U}))`
	participantCorrelatedSQL = `EXISTS (SELECT 1 FROM assessment_participants pp WHERE pp.user_id = {U} AND pp.assessment_id = {A})`
	// participantOrderedSQL is participantSQL for a list of assessments in id order: a page
	// walks the user's index range from the top, each assessment once, and stops with the
	// page, whichever plan PostgreSQL uses. As the plain semi-join, a generic plan (which
	// PostgreSQL may choose for a prepared statement after five executions, when it does not
	// estimate it dearer than the custom ones so far) expects a participant of a few dozen
	// assessments: for the bench's participant of a thousand it joined all of them and sorted
	// (231 ms cold, 2–3 ms warm, against 0.45 ms; EXPLAIN ANALYZE on the million-row data,
	// plan_cache_mode = force_generic_plan).
	participantOrderedSQL = `({A} IN (SELECT DISTINCT pp.assessment_id FROM assessment_participants pp WHERE pp.user_id = {U} ORDER BY pp.assessment_id DESC))`
)

// AssessmentVisibleSQL returns the condition "the assessment whose id is idExpr is visible
// to actor", or "" when the actor sees every assessment. arg adds the actor's id as a
// parameter and returns its placeholder (list.arg, or an args slice's).
func AssessmentVisibleSQL(actor assess.Actor, idExpr string, arg func(any) string) string {
	if assess.SeesEveryAssessment(actor) {
		return ""
	}
	return participant(idExpr, arg(ActorID(actor)))
}

// AssessmentListVisibleSQL is AssessmentVisibleSQL for the assessment list, whose pages
// go in id order by default: the participant's set is a subquery of its own, each
// assessment once and newest first (participantOrderedSQL).
func AssessmentListVisibleSQL(actor assess.Actor, idExpr string, arg func(any) string) string {
	if assess.SeesEveryAssessment(actor) {
		return ""
	}
	return substitute(participantOrderedSQL, idExpr, arg(ActorID(actor)))
}

// evidenceTieConditions are the ties of assess.EvidenceTies, in its order, as conditions
// on the evidence whose id is idExpr (with author and reviewer columns authorExpr and
// reviewerExpr) for the user whose placeholder is u: each a comparison or index lookups of
// the row's links or citations and of assessment_participants. OFFSET 0 keeps each EXISTS
// a lookup per row: without it PostgreSQL may turn an EXISTS under OR into a hashed set of
// every link or citation of the user's assessments, built on every request (a participant of
// a thousand assessments at a million claims: 100,000 citations, 77 ms, where the lookups
// of a page's rows take 5).
func evidenceTieConditions(idExpr, authorExpr, reviewerExpr, u string) []string {
	return []string{authorExpr + " = " + u, reviewerExpr + " = " + u,
		"EXISTS (SELECT 1 FROM assessment_requirement_evidence vl WHERE vl.evidence_id = " + idExpr +
			" AND " + participantCorrelated("vl.assessment_id", u) + " OFFSET 0)",
		"EXISTS (SELECT 1 FROM claim_evidence vce WHERE vce.evidence_id = " + idExpr +
			" AND " + participantCorrelated("vce.assessment_id", u) + " OFFSET 0)"}
}

// EvidenceVisibleSQL returns the condition "the evidence whose id is idExpr (with author
// and reviewer columns authorExpr and reviewerExpr) is visible to actor", or "" when the
// actor sees all evidence: for given ids (cited evidence) and for the rows of a list page,
// each tested by index lookups — the row's assessments in evidence_assessments (those it is
// linked to or cited in, each once: migrations/0035), each probed in assessment_participants.
// Evidence cited by ten claims of one assessment costs one probe, not ten: a participant's
// evidence page at a million claims took 22 ms with the links and citations looked at one by
// one. The same ties as evidenceTieConditions, which names them one by one.
func EvidenceVisibleSQL(actor assess.Actor, idExpr, authorExpr, reviewerExpr string, arg func(any) string) string {
	if assess.SeesAllEvidence(actor) {
		return ""
	}
	u := arg(ActorID(actor))
	return "(" + authorExpr + " = " + u + " OR " + reviewerExpr + " = " + u +
		" OR EXISTS (SELECT 1 FROM evidence_assessments ea JOIN assessment_participants pp ON pp.user_id = " + u +
		" AND pp.assessment_id = ea.assessment_id WHERE ea.evidence_id = " + idExpr + " OFFSET 0))"
}

// VisibleEvidenceIDsSQL returns a query of the ids of every piece of evidence visible to
// actor — theirs, linked to or cited in an assessment they take part in — or "" when the actor
// sees all evidence: the rule as a set built once, for aggregates over all of a participant's
// evidence (the dashboard). Tested for each row as a subquery, the same set stops being
// hashed once it outgrows work_mem (a participant's 100,000-evidence count: 10 s and more;
// this form: tens of milliseconds); lists use EvidenceVisibleInArraySQL. The linked and
// cited pieces are read by assessment from evidence_assessments (each pair once, migrations
// 0035 and 0044), not as every link and citation: a participant of a thousand assessments
// has 100,000 citations there (189 ms of their dashboard at make bench's million-row data).
func VisibleEvidenceIDsSQL(actor assess.Actor, arg func(any) string) string {
	if assess.SeesAllEvidence(actor) {
		return ""
	}
	u := arg(ActorID(actor))
	return "SELECT ve.id FROM evidence ve WHERE ve.author_id = " + u + " OR ve.reviewer_id = " + u +
		" UNION SELECT vea.evidence_id FROM evidence_assessments vea JOIN assessment_participants vpp ON vpp.user_id = " + u +
		" AND vpp.assessment_id = vea.assessment_id"
}

// VisibleAssessmentIDsSQL returns a query of the ids of the assessments actor takes part in
// (one column), or "" when the actor sees every assessment: the rule as a set, for a statement
// that tests rows of several kinds against it and computes it once (search materializes it).
func VisibleAssessmentIDsSQL(actor assess.Actor, arg func(any) string) string {
	if assess.SeesEveryAssessment(actor) {
		return ""
	}
	return "SELECT DISTINCT pp.assessment_id FROM assessment_participants pp WHERE pp.user_id = " + arg(ActorID(actor))
}

// EvidenceVisibleInArraySQL is the evidence rule with the ids of the actor's assessments given
// as arrayExpr, a text[] (VisibleAssessmentIDs, read once by the caller): each candidate row is
// tested by index lookups of its links and citations, each checked against the array (which
// PostgreSQL hashes), or "" when the actor sees all evidence. For a search that tests the rows
// matching a word, instead of building the participant's whole evidence set (200 ms at
// 100,000 evidence).
func EvidenceVisibleInArraySQL(actor assess.Actor, idExpr, authorExpr, reviewerExpr, arrayExpr string, arg func(any) string) string {
	if assess.SeesAllEvidence(actor) {
		return ""
	}
	u := arg(ActorID(actor))
	return "(" + authorExpr + " = " + u + " OR " + reviewerExpr + " = " + u +
		" OR EXISTS (SELECT 1 FROM assessment_requirement_evidence vl WHERE vl.evidence_id = " + idExpr + " AND vl.assessment_id = ANY(" + arrayExpr + "))" +
		" OR EXISTS (SELECT 1 FROM claim_evidence vce WHERE vce.evidence_id = " + idExpr + " AND vce.assessment_id = ANY(" + arrayExpr + ")))"
}

// FewEvidenceVisibleSQL is the evidence rule for a participant of few assessments
// (TakesPartInFew): the evidence whose id is idExpr is among what they may see, gathered
// first — theirs as author or reviewer, and what is linked to or cited in their assessments —
// and its rows then read by id. Their evidence is a small part of the whole: testing the
// table's rows in a list's order would pass over most of it (a participant of eight
// assessments at 100,000 evidence: 66–658 ms a page, against 5). Not for a participant of
// many assessments, whose set is large (EvidenceVisibleSQL).
func FewEvidenceVisibleSQL(actor assess.Actor, idExpr string, arg func(any) string) string {
	if assess.SeesAllEvidence(actor) {
		return ""
	}
	u := arg(ActorID(actor))
	mine := "(SELECT fp.assessment_id FROM assessment_participants fp WHERE fp.user_id = " + u + ")"
	return idExpr + " = ANY (ARRAY(SELECT fl.evidence_id FROM assessment_requirement_evidence fl WHERE fl.assessment_id IN " + mine +
		" UNION SELECT fc.evidence_id FROM claim_evidence fc WHERE fc.assessment_id IN " + mine +
		" UNION SELECT fe.id FROM evidence fe WHERE fe.author_id = " + u + " OR fe.reviewer_id = " + u + "))"
}

// TakesPartInFew says whether actor takes part in at most n assessments (false for an actor
// who sees every assessment).
func TakesPartInFew(ctx context.Context, q Querier, actor assess.Actor, n int) (bool, error) {
	if assess.SeesEveryAssessment(actor) {
		return false, nil
	}
	var count int
	err := q.QueryRow(ctx, `SELECT count(*) FROM (SELECT DISTINCT assessment_id FROM assessment_participants WHERE user_id = $1 LIMIT $2) p`,
		ActorID(actor), n+1).Scan(&count)
	return count <= n, DBError(err)
}

// VisibleAssessmentIDs reads the ids of the assessments actor takes part in (nil, false when
// the actor sees every assessment).
func VisibleAssessmentIDs(ctx context.Context, q Querier, actor assess.Actor) ([]string, bool, error) {
	var args SQLArgs
	set := VisibleAssessmentIDsSQL(actor, args.Add)
	if set == "" {
		return nil, false, nil
	}
	rows, err := q.Query(ctx, set, args...)
	if err != nil {
		return nil, true, DBError(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, true, DBError(err)
	}
	return ids, true, nil
}

func participant(assessmentExpr, userPlaceholder string) string {
	return substitute(participantSQL, assessmentExpr, userPlaceholder)
}

func participantCorrelated(assessmentExpr, userPlaceholder string) string {
	return substitute(participantCorrelatedSQL, assessmentExpr, userPlaceholder)
}

func substitute(sql, assessmentExpr, userPlaceholder string) string {
	return strings.NewReplacer("{A}", assessmentExpr, "{U}", userPlaceholder).Replace(sql)
}

// EvidenceTiesSQL selects the ties of actor to the evidence row e, the four columns of
// assess.EvidenceTies; for an actor who sees all evidence they are not looked up (false).
func EvidenceTiesSQL(actor assess.Actor, arg func(any) string) string {
	if assess.SeesAllEvidence(actor) {
		return "false, false, false, false"
	}
	ties := evidenceTieConditions("e.id", "e.author_id", "e.reviewer_id", arg(ActorID(actor)))
	for i, t := range ties {
		ties[i] = "coalesce(" + t + ", false)" // no reviewer: false, not null
	}
	return strings.Join(ties, ", ")
}

// SQLArgs collects positional parameters for a hand-written query: add appends a value
// and returns its placeholder.
type SQLArgs []any

func (a *SQLArgs) Add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

// ErrAssessmentNotFound is the answer for an assessment that does not exist or that the
// caller may not see: the same 404 either way.
var ErrAssessmentNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "Assessment not found."}

// ErrEvidenceNotFound is the same for evidence.
var ErrEvidenceNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "Evidence not found."}

// VisibleAssessmentState returns the state of assessment id if actor may see it
// (CanSeeAssessmentAs, from the participant set read with it), and 404 otherwise. With lock, the
// row is locked (FOR SHARE) for the rest of the transaction, so a change under the
// assessment cannot race a state change (which locks it FOR UPDATE).
func VisibleAssessmentState(ctx context.Context, q Querier, actor assess.Actor, id string, lock bool) (assess.AssessmentState, error) {
	if !assess.ValidID(assess.PrefixAssessment, id) {
		return "", ErrAssessmentNotFound
	}
	var args SQLArgs
	sql := "SELECT a.state, " + AssessmentParticipantSQL(actor, "a.id", args.Add) + " FROM assessments a WHERE a.id = " + args.Add(id)
	if lock {
		sql += " FOR SHARE OF a"
	}
	var state assess.AssessmentState
	var participant bool
	err := q.QueryRow(ctx, sql, args...).Scan(&state, &participant)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && !CanSeeAssessmentAs(actor, participant)) {
		return "", ErrAssessmentNotFound
	}
	return state, err
}

// WritableAssessment is visibleAssessmentState with lock for a change of the assessment's
// content: 404 when invisible, 409 read_only when complete, archived or cancelled.
func WritableAssessment(ctx context.Context, q Querier, actor assess.Actor, id string) error {
	state, err := VisibleAssessmentState(ctx, q, actor, id, true)
	if err != nil {
		return err
	}
	if assess.AssessmentReadOnly(state) {
		return assess.ErrAssessmentReadOnly(state)
	}
	return nil
}

// EvidenceVisible returns nil if actor may see evidence id (assess.CanSeeEvidence, from
// the ties read with it), and 404 otherwise.
func EvidenceVisible(ctx context.Context, q Querier, actor assess.Actor, id string) error {
	if !assess.ValidID(assess.PrefixEvidence, id) {
		return ErrEvidenceNotFound
	}
	var args SQLArgs
	sql := "SELECT " + EvidenceTiesSQL(actor, args.Add) + " FROM evidence e WHERE e.id = " + args.Add(id)
	var ties assess.EvidenceTies
	err := q.QueryRow(ctx, sql, args...).Scan(&ties.Author, &ties.Reviewer, &ties.InLinkedAssessment, &ties.InCitingAssessment)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && !assess.CanSeeEvidence(actor, ties)) {
		return ErrEvidenceNotFound
	}
	return err
}

// AssessmentTeam is the ids of an assessment's team (assessors and assessees), each once:
// the audience of events about the assessment and what is under it.
func AssessmentTeam(ctx context.Context, q Querier, assessmentID string) ([]string, error) {
	rows, err := q.Query(ctx, "SELECT DISTINCT user_id FROM assessment_members WHERE assessment_id = $1 ORDER BY user_id", assessmentID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
