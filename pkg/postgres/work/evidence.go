package work

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// evidenceLockFactsSQL selects what the retention lock of the evidence row e is decided
// from (assess.EvidenceLockFacts, after its state): whether a claim cites it, the states
// of the attestations whose claims cite it and the states of the assessments it is linked
// to (one per attestation or assessment). assess.EvidenceLock decides. OFFSET 0 keeps the
// EXISTS a lookup of the row's citations: PostgreSQL plans an EXISTS in a select list also
// as a hashed subplan of the whole table and picks by the rows it expects the list to run
// for (the table's, not the page's), so a page of 51 read every citation of every claim
// once the table fitted in memory (100,090 of them at make bench's 100,000-row data: 25 ms
// of a 25 ms page; TestEvidencePageLooksUpEachRowsFacts).
const evidenceLockFactsSQL = `EXISTS (SELECT 1 FROM claim_evidence ce WHERE ce.evidence_id = e.id OFFSET 0),
	ARRAY(SELECT t.state FROM attestations t WHERE t.id IN (SELECT ac.attestation_id FROM claim_evidence ce
		JOIN attestation_claims ac ON ac.claim_id = ce.claim_id WHERE ce.evidence_id = e.id)),
	ARRAY(SELECT a.state FROM assessments a WHERE a.id IN (SELECT l.assessment_id FROM assessment_requirement_evidence l
		WHERE l.evidence_id = e.id))`

// evidenceColumns reads evidence as actor sees it: the facts of the row's lock and the
// number of linked assessments actor may see. arg adds the actor's id as a parameter. The
// last two columns are the sort keys of the name and validUntil orders.
func evidenceColumns(actor assess.Actor, arg func(any) string) string {
	// Each link's assessment is looked up in the actor's set, in every plan: as a
	// membership in the set (AssessmentVisibleSQL), the generic plan PostgreSQL kept for a
	// participant's evidence page merged each row's links with the participant's whole set
	// (a participant of a thousand assessments: 1,202 index entries a row; the page took
	// 6.6–8.4 ms in pgbench -c 1, against 2.2–2.3 with lookups).
	count := `SELECT count(DISTINCT c.assessment_id) FROM assessment_requirement_evidence c WHERE c.evidence_id = e.id`
	if cond := postgres.AssessmentVisibleLookupSQL(actor, "c.assessment_id", arg); cond != "" {
		count += " AND " + cond
	}
	return `e.id, e.name, e.description, e.classification, e.bom_ref, e.is_counter_evidence, e.state,
	au.id, au.username, au.display_name, rv.id, rv.username, rv.display_name,
	coalesce(to_char(e.collected_on, 'YYYY-MM-DD'), ''), coalesce(to_char(e.valid_from, 'YYYY-MM-DD'), ''),
	coalesce(to_char(e.valid_until, 'YYYY-MM-DD'), ''), e.submitted_at, e.reviewed_at, ` + evidenceLockFactsSQL + `,
	(SELECT count(*) FROM evidence_attachments x WHERE x.evidence_id = e.id), (` + count + `),
	e.version, e.created_at, e.updated_at, lower(e.name)`
}

const evidenceFrom = ` FROM evidence e JOIN users au ON au.id = e.author_id LEFT JOIN users rv ON rv.id = e.reviewer_id`

// evidenceRow is evidence as read, with the sort key of the name order.
type evidenceRow struct {
	assess.Evidence
	sortName string
}

func scanEvidence(r pgx.Row) (evidenceRow, error) { return scanEvidenceWith(r) }

// scanEvidenceWith scans evidence and then the columns selected after evidenceColumns
// into extra.
func scanEvidenceWith(r pgx.Row, extra ...any) (evidenceRow, error) {
	var e evidenceRow
	var rvID, rvName, rvDisplay *string
	var lock assess.EvidenceLockFacts
	err := r.Scan(append([]any{&e.ID, &e.Name, &e.Description, &e.Classification, &e.BOMRef, &e.IsCounterEvidence, &e.State,
		&e.Author.ID, &e.Author.Username, &e.Author.DisplayName, &rvID, &rvName, &rvDisplay,
		&e.CollectedOn, &e.ValidFrom, &e.ValidUntil, &e.SubmittedAt, &e.ReviewedAt,
		&lock.CitedByClaim, &lock.AttestationStates, &lock.AssessmentStates,
		&e.AttachmentCount, &e.AssessmentCount, &e.Version, &e.CreatedAt, &e.UpdatedAt, &e.sortName}, extra...)...)
	lock.State = e.State
	e.Locked = assess.EvidenceLock(lock)
	if rvID != nil {
		e.Reviewer = &assess.UserRef{ID: *rvID, Username: *rvName, DisplayName: *rvDisplay}
	}
	e.CreatedAt, e.UpdatedAt = e.CreatedAt.UTC(), e.UpdatedAt.UTC()
	e.SubmittedAt, e.ReviewedAt = postgres.UTCPtr(e.SubmittedAt), postgres.UTCPtr(e.ReviewedAt)
	return e, err
}

// evidenceSorts are the orders of the evidence list.
var evidenceSorts = map[string]postgres.SortOrder{
	"-createdAt": postgres.NewestFirst("e.id"),
	"name":       {Name: "name", Keys: []postgres.SortKey{{Expr: "lower(e.name)", Typ: "text"}, {Expr: "e.id", Typ: "text"}}},
	"validUntil": {Name: "validUntil", Keys: []postgres.SortKey{{Expr: validUntilKey, Typ: "date"}, {Expr: "e.id", Typ: "text"}}},
}

// validUntilKey is the sort key of the validUntil order, undated last: the expression of
// evidence_valid_until_sort_idx (migration 0043), which the order and the expiring filter
// walk.
const validUntilKey = "coalesce(e.valid_until, '" + undatedLast + "'::date)"

// evidenceSortKey returns the sort key values of evidence in order.
func evidenceSortKey(order string) func(evidenceRow) []any {
	return func(e evidenceRow) []any {
		switch order {
		case "name":
			return []any{e.sortName, e.ID}
		case "validUntil":
			if e.ValidUntil == "" {
				return []any{undatedLast, e.ID}
			}
			return []any{e.ValidUntil, e.ID}
		}
		return []any{e.ID}
	}
}

// evidenceToday is the calendar day (UTC) against which validity is compared.
func evidenceToday(tx *postgres.Tx) string { return projectToday(tx.Now) }

// fewAssessments is how many assessments a participant may take part in for the evidence
// list to gather their visible evidence first (postgres.FewEvidenceVisibleSQL);
// beyond, each row of the page is tested by lookups (postgres.EvidenceVisibleSQL), and the
// dense set is never built (make bench, a participant of 1,000 assessments at a million
// claims: 100,000 citations to gather per request).
const fewAssessments = 64

// FindEvidenceList implements assess.EvidenceService: the evidence actor may see, filtered
// in SQL, keyset paginated; the assessment and requirement filters match only links into
// assessments actor may see, so a filter cannot reveal a link either.
func (s *EvidenceService) FindEvidenceList(ctx context.Context, f assess.EvidenceFilter, actor assess.Actor) (assess.Page[assess.Evidence], error) {
	sortName := f.Sort
	order, ok := evidenceSorts[sortName]
	if !ok {
		sortName, order = "-createdAt", evidenceSorts["-createdAt"]
	}
	l := postgres.NewList("evidence", "", order)
	l.Sel = "SELECT " + evidenceColumns(actor, l.Arg) + evidenceFrom
	if !assess.SeesAllEvidence(actor) {
		// A participant's page on its generic plan, in every form below. Left to choose,
		// PostgreSQL may plan it anew for each page (0.8–1.0 ms of planning for 0.9–4.3 ms
		// of execution on the million-row data), and the generic plans were as fast or
		// faster for every sort and filter measured (EXPLAIN ANALYZE of the prepared
		// statements: evidence of the ASVS assessment by name 35 → 9 ms, a participant's
		// search 549 → 44 ms; pgbench -c 1 of a participant's unfiltered page: 2.9–4.5 ms
		// custom, 2.1–3.6 generic).
		// Not with a tag: a tag may be on a third of the evidence or on a handful, and the
		// generic plan, which expects every tag's average share, walked the sort's index and
		// tested each row's visibility and tag until the page was full — every row for a rare
		// tag (a participant's page by name or valid-until: 337 and 476 ms at the million-row
		// data, 19 ms on the custom plan, which starts from the tag's rows). Left to choose,
		// PostgreSQL takes that generic plan after five pages of the rare tag, whose custom
		// plans it estimates dearer: so the page is planned for its tag every time.
		if f.Tag == "" {
			l.GenericPlan()
		} else {
			l.CustomPlan()
		}
	}
	// A link filter matches only links into assessments the actor may see (below), and
	// evidence linked to one is visible to them: the filter then says all the rule would.
	if !assess.SeesAllEvidence(actor) && f.Assessment == "" && f.Requirement == "" {
		// A participant of few assessments sees a small part of the evidence: it is gathered
		// first and the page read by id. Of many, each row of the page is tested by index
		// lookups (its assessments, each probed in assessment_participants), and the list
		// stops after its rows.
		// (A participant's whole set, tested for each row, used to be rescanned once it
		// outgrew work_mem: 2.6 s and more a page at 100,000 evidence.)
		few, err := postgres.TakesPartInFew(ctx, s.db.Pool, actor, fewAssessments)
		if err != nil {
			return assess.Page[assess.Evidence]{}, err
		}
		if few {
			l.Where(postgres.FewEvidenceVisibleSQL(actor, "e.id", l.Arg))
		} else {
			l.Where(postgres.EvidenceVisibleSQL(actor, "e.id", "e.author_id", "e.reviewer_id", l.Arg))
		}
	}
	postgres.Equal(l, "e.state", f.State)
	postgres.Equal(l, "e.author_id", meOr(f.Author, actor))
	postgres.Equal(l, "e.reviewer_id", meOr(f.Reviewer, actor))
	for _, link := range []struct{ column, id string }{{"fl.assessment_id", f.Assessment}, {"fl.assessment_requirement_id", f.Requirement}} {
		if link.id == "" {
			continue
		}
		// The linked evidence, each once, newest first: the list's default order walks the
		// links' index backwards and reads the evidence rows of the page by id. As an EXISTS
		// per row, PostgreSQL merged the links with the whole evidence table in id order,
		// passing over every newer piece of evidence (64 ms for an assessment of 1,666
		// links at 100,000 evidence, against 0.2; a deep page reads the links before it).
		cond := "e.id IN (SELECT DISTINCT fl.evidence_id FROM assessment_requirement_evidence fl WHERE " + link.column + " = " + l.Arg(link.id)
		if vis := postgres.AssessmentVisibleSQL(actor, "fl.assessment_id", l.Arg); vis != "" {
			cond += " AND " + vis
		}
		l.Where(cond + " ORDER BY fl.evidence_id DESC)")
	}
	l.Tagged(postgres.EvidenceTags, "e.id", f.Tag)
	l.Search(f.Q, "e.name", "e.description")
	if f.ExpiringWithin > 0 {
		// In the terms of the valid-until sort's key (undated is never in the range), so that
		// one index serves the range and the order: sorted soonest first, the page reads the
		// range in order and stops after its rows, instead of reading and sorting all of it
		// (6,133 pieces of evidence within 30 days at make bench's million-row data: 28 ms of
		// a participant's page).
		today := projectToday(s.db.Now())
		l.Where("e.state <> 'expired' AND " + validUntilKey + " BETWEEN " + l.Arg(today) + "::date AND " + l.Arg(today) + "::date + " + l.Arg(f.ExpiringWithin) + "::int")
	}
	if f.Counter {
		l.Where("e.is_counter_evidence")
	}
	page, err := postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanEvidence, evidenceSortKey(sortName))
	if err != nil {
		return assess.Page[assess.Evidence]{}, err
	}
	out := make([]assess.Evidence, len(page.Items))
	for i, e := range page.Items {
		out[i] = e.Evidence
	}
	if err := loadEvidenceTags(ctx, s.db.Pool, out); err != nil {
		return assess.Page[assess.Evidence]{}, postgres.DBError(err)
	}
	return assess.NewPage(out, page.NextCursor), nil
}

// meOr resolves "me" in a user filter to the actor's id.
func meOr(v string, actor assess.Actor) string {
	if v == assess.EvidenceFilterMe {
		return postgres.ActorID(actor)
	}
	return v
}

// loadEvidenceTags fills in the tags of evidence (one query for all).
func loadEvidenceTags(ctx context.Context, q postgres.Querier, items []assess.Evidence) error {
	ids := make([]string, len(items))
	for i, e := range items {
		ids[i] = e.ID
	}
	tags, err := postgres.LoadTags(ctx, q, postgres.EvidenceTags, ids)
	if err != nil {
		return err
	}
	for i := range items {
		items[i].Tags = tags[items[i].ID]
	}
	return nil
}

// FindEvidence implements assess.EvidenceService.
func (s *EvidenceService) FindEvidence(ctx context.Context, id string, actor assess.Actor) (assess.Evidence, error) {
	return findEvidence(ctx, s.db.Pool, actor, id)
}

// findEvidence reads evidence as actor sees it (404 when actor may not: the ties read
// with it, assess.CanSeeEvidence), also inside a transaction; the row and its tags in one
// round trip.
func findEvidence(ctx context.Context, q postgres.Querier, actor assess.Actor, id string) (assess.Evidence, error) {
	if !assess.ValidID(assess.PrefixEvidence, id) {
		return assess.Evidence{}, postgres.ErrEvidenceNotFound
	}
	var args postgres.SQLArgs
	sql := "SELECT " + evidenceColumns(actor, args.Add) + ", " + postgres.EvidenceTiesSQL(actor, args.Add) + evidenceFrom +
		" WHERE e.id = " + args.Add(id)
	var b pgx.Batch
	var e evidenceRow
	var ties assess.EvidenceTies
	found := false
	b.Queue(sql, args...).QueryRow(func(r pgx.Row) error {
		var err error
		e, err = scanEvidenceWith(r, &ties.Author, &ties.Reviewer, &ties.InLinkedAssessment, &ties.InCitingAssessment)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		found = err == nil
		return err
	})
	var tags map[string][]assess.TagRef
	postgres.QueueOnGenericPlans(&b, q, func(b *pgx.Batch) { tags = postgres.QueueTags(b, postgres.EvidenceTags, []string{id}) })
	if err := q.SendBatch(ctx, &b).Close(); err != nil {
		return assess.Evidence{}, postgres.DBError(err)
	}
	if !found || !assess.CanSeeEvidence(actor, ties) {
		return assess.Evidence{}, postgres.ErrEvidenceNotFound
	}
	e.Tags = tags[id]
	return e.Evidence, nil
}

// evidenceTarget names evidence in the audit log; scope is the assessment of a link
// change ("" otherwise), for that assessment's timeline.
func evidenceTarget(id, scope string) postgres.Target {
	return postgres.Target{Type: "evidence", ID: id, Scope: scope}
}

// evidenceEvent is the event content of a change to evidence: it reaches only users who
// may see the evidence; subject is the user it concerns (the reviewer of a submission,
// otherwise the author).
func evidenceEvent(data assess.EvidenceEvent, subject string) assess.NewEvent {
	return assess.NewEvent{Data: data, SubjectUserID: subject, Summary: data.Name, Link: "/evidence/" + data.ID, EvidenceID: data.ID}
}

// recordEvidence reads evidence id inside tx as the actor sees it and records change c
// about it, with its name; fill completes the event data (previous state, note, link).
func recordEvidence(ctx context.Context, tx *postgres.Tx, c assess.Change, id string, details map[string]any,
	fill func(*assess.EvidenceEvent) (subject, scope string)) (assess.Evidence, error) {
	e, err := findEvidence(ctx, tx, tx.Actor, id)
	if err != nil {
		return e, err
	}
	data := assess.EvidenceEvent{Evidence: e}
	subject, scope := e.Author.ID, ""
	if fill != nil {
		subject, scope = fill(&data)
	}
	return e, tx.Record(ctx, c, evidenceTarget(id, scope), withName(details, e.Name), evidenceEvent(data, subject))
}

// withName records the record's name with a change (details "name", unless the change
// recorded one), so the timeline and the audit log name it even after it is deleted.
func withName(details map[string]any, name string) map[string]any {
	if details == nil {
		details = map[string]any{}
	}
	if _, ok := details["name"]; !ok {
		details["name"] = name
	}
	return details
}

var (
	_ assess.EvidenceService = (*EvidenceService)(nil)
	_ assess.EvidenceExpiry  = (*EvidenceService)(nil)
)
