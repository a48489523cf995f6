package work

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// The requirements of a started assessment, as the assessor's workspace shows them: the
// whole list in tree order with each requirement's ancestors, single reads, and the
// results, rationales and assignees written one at a time or in bulk. Every operation
// first asks visibility.go whether the caller may see the assessment (404 otherwise).

var errAssessmentRequirementNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such requirement in this assessment."}

// The requirements of an assessment are read in tree order with their ancestors in one
// statement, in one of two shapes that end alike (assessmentRequirementColumns):
//
//   - the workspace list walks the catalogue trees of the assessment's standards down from
//     the roots once (siblings ranked by position, then natural key; each node carries its
//     path of ranks and its ancestors as JSON): a few hundred rows for ASVS, cheaper than
//     walking up from each of its requirements;
//   - reads by id walk up from the requirements read (one primary-key read per level), with
//     the path as the (position, natural key, id) of every level: reading one costs its depth.
//
// Either way the rows come in the order of the assessment's standards, then depth-first.
// Evidence and claim counts are index lookups per row.

// treeDownQuery reads the requirements of assessment $1 that pass where (a condition on
// ar, the assessment_requirements row) by walking their standards' trees down.
func treeDownQuery(where string) string {
	return `WITH RECURSIVE sel AS (
		SELECT ar.* FROM assessment_requirements ar WHERE ar.assessment_id = $1 AND ` + where + `
	), ranked AS (
		SELECT r.id, r.parent_id, r.identifier, r.name,
			row_number() OVER (PARTITION BY r.standard_id, r.parent_id ORDER BY r.position, r.natural_key, r.id) AS rk
		FROM requirements r WHERE r.standard_id IN (SELECT s.standard_id FROM assessment_standards s WHERE s.assessment_id = $1)
	), walk AS (
		SELECT id, identifier, name, ARRAY[rk] AS path, '[]'::jsonb AS ancestors FROM ranked WHERE parent_id IS NULL
		UNION ALL
		SELECT c.id, c.identifier, c.name, w.path || c.rk,
			w.ancestors || jsonb_build_object('id', w.id, 'identifier', w.identifier, 'name', w.name)
		FROM ranked c JOIN walk w ON c.parent_id = w.id
	)` + assessmentRequirementColumns + ` JOIN walk t ON t.id = sel.requirement_id` + assessmentRequirementOrder
}

// treeUpQuery reads the requirements of assessment $1 that pass where by walking up from
// each of them.
func treeUpQuery(where string) string {
	return `WITH RECURSIVE sel AS (
		SELECT ar.* FROM assessment_requirements ar WHERE ar.assessment_id = $1 AND ` + where + `
	), up AS (
		SELECT sel.id AS ar_id, r.parent_id AS next, ARRAY[ROW(r.position, r.natural_key, r.id)] AS path, '[]'::jsonb AS ancestors
		FROM sel JOIN requirements r ON r.id = sel.requirement_id
		UNION ALL
		SELECT up.ar_id, p.parent_id, ROW(p.position, p.natural_key, p.id) || up.path,
			jsonb_build_array(jsonb_build_object('id', p.id, 'identifier', p.identifier, 'name', p.name)) || up.ancestors
		FROM up JOIN requirements p ON p.id = up.next
	)` + assessmentRequirementColumns + ` JOIN up t ON t.ar_id = sel.id AND t.next IS NULL` + assessmentRequirementOrder
}

// assessmentRequirementColumns are the columns of both shapes; t is the walk's row.
const assessmentRequirementColumns = `
	SELECT sel.id, sel.requirement_id, sel.standard_id, r.identifier, r.name, r.description, t.ancestors,
		sel.result, sel.rationale, coalesce(sel.assignee_id, ''), coalesce(sel.answered_by, ''), sel.answered_at,
		sel.evidence_links, sel.claim_links, sel.version
	FROM sel JOIN requirements r ON r.id = sel.requirement_id`

// assessmentRequirementOrder is the order of both shapes: the standards, then the path.
const assessmentRequirementOrder = `
	JOIN standards s ON s.id = sel.standard_id
	LEFT JOIN assessment_standards ast ON ast.assessment_id = sel.assessment_id AND ast.standard_id = sel.standard_id
	ORDER BY coalesce(ast.position, 2147483647), lower(s.name), s.standard_version, s.id, t.path`

// readAssessmentRequirements runs query (treeDownQuery or treeUpQuery) with args ($1 the
// assessment).
func readAssessmentRequirements(ctx context.Context, q postgres.Querier, query string, args postgres.SQLArgs) ([]assess.AssessmentRequirement, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, postgres.DBError(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.AssessmentRequirement, error) {
		var a assess.AssessmentRequirement
		var evidence, claims int64
		err := r.Scan(&a.ID, &a.RequirementID, &a.StandardID, &a.Identifier, &a.Name, &a.Description, &a.Ancestors,
			&a.Result, &a.Rationale, &a.AssigneeID, &a.AnsweredBy, &a.AnsweredAt, &evidence, &claims, &a.Version)
		a.EvidenceCount, a.ClaimCount, a.AnsweredAt = int(evidence), int(claims), postgres.UTCPtr(a.AnsweredAt)
		a.Ancestors = postgres.OrEmpty(a.Ancestors)
		return a, err
	})
	return postgres.OrEmpty(list), postgres.DBError(err)
}

// resultFilterSQL turns the workspace filters into a condition on ar, adding its values to
// args after the assessment ($1).
func resultFilterSQL(f assess.AssessmentRequirementFilter, actor assess.Actor, args *postgres.SQLArgs) (string, error) {
	results, err := f.Results()
	if err != nil {
		return "", err
	}
	cond := "true"
	if len(results) > 0 {
		cond += " AND (ar.result = ANY (" + args.Add(results) + "::text[])"
		if slices.Contains(results, assess.ResultUnanswered) {
			cond += " OR ar.result IS NULL"
		}
		cond += ")"
	}
	if f.Mine {
		cond += " AND ar.assignee_id = " + args.Add(postgres.ActorID(actor))
	}
	if f.NoEvidence {
		cond += " AND NOT EXISTS (SELECT 1 FROM assessment_requirement_evidence ne WHERE ne.assessment_requirement_id = ar.id)"
	}
	if f.Standard != "" {
		cond += " AND ar.standard_id = " + args.Add(f.Standard)
	}
	if q := postgres.LikePattern(f.Q); q != "" {
		p := args.Add(q)
		cond += " AND EXISTS (SELECT 1 FROM requirements sr WHERE sr.id = ar.requirement_id AND (sr.identifier ILIKE " + p +
			" OR sr.name ILIKE " + p + " OR sr.description ILIKE " + p + "))"
	}
	return cond, nil
}

// FindAssessmentRequirements implements assess.ResultService.
func (s *ResultService) FindAssessmentRequirements(ctx context.Context, assessmentID string, f assess.AssessmentRequirementFilter, actor assess.Actor) ([]assess.AssessmentRequirement, error) {
	if _, err := postgres.VisibleAssessmentState(ctx, s.db.Pool, actor, assessmentID, false); err != nil {
		return nil, postgres.DBError(err)
	}
	args := postgres.SQLArgs{assessmentID}
	cond, err := resultFilterSQL(f, actor, &args)
	if err != nil {
		return nil, err
	}
	return readAssessmentRequirements(ctx, s.db.Pool, treeDownQuery(cond), args)
}

// workspaceRevisionQuery is the revision of assessment $1's requirements list, computed
// from the rows the list is read from, so that a change made anywhere — any replica, the
// worker, assay-ctl, a bulk write, a cascade — moves it once committed, with nothing to
// maintain on the write paths: the assessment row's version (xmin; the standards' order
// changes with it), then a fingerprint of the requirement rows by id and row version. A
// row's version moves with its result, rationale and assignee, and with its counts of
// evidence links and of claims, which PostgreSQL keeps on the row in the transaction that
// links or cites (migrations/0030 and 0038). A fingerprint is the count and the sum of
// 64-bit hashes, so any added, removed or changed row changes it (a collision is a 2^-64
// chance); a maximum of updated_at would not do: transactions commit in another order than
// their clocks. The links and the claims had fingerprints of their own before their counts
// were kept, whose cost grew with the assessment's links and claims (docs/performance.md,
// "Conditional reads").
const workspaceRevisionQuery = `SELECT a.xmin::text
	|| ' ' || (SELECT count(*) || '.' || coalesce(sum(hashtextextended(ar.id, ar.xmin::text::bigint)), 0)
		FROM assessment_requirements ar WHERE ar.assessment_id = a.id)
	|| ' ' || (SELECT coalesce(string_agg(s.standard_id || '.' || s.position, ',' ORDER BY s.standard_id), '')
		FROM assessment_standards s WHERE s.assessment_id = a.id)
	FROM assessments a WHERE a.id = $1`

// WorkspaceRevision implements assess.ResultService: the visibility check of the list
// first (404), then workspaceRevisionQuery. Every caller who may see the assessment sees
// the same list (evidence and claims are counted, not shown), so the revision is theirs
// alike; the mine filter is the caller's own, and the API keys its answers by caller.
func (s *ResultService) WorkspaceRevision(ctx context.Context, assessmentID string, actor assess.Actor) (assess.Revision, error) {
	if _, err := postgres.VisibleAssessmentState(ctx, s.db.Pool, actor, assessmentID, false); err != nil {
		return assess.Revision{}, postgres.DBError(err)
	}
	rev := assess.Revision{Keep: true}
	err := s.db.Pool.QueryRow(ctx, workspaceRevisionQuery, assessmentID).Scan(&rev.Tag)
	if errors.Is(err, pgx.ErrNoRows) { // deleted since the check
		return assess.Revision{}, postgres.ErrAssessmentNotFound
	}
	return rev, postgres.DBError(err)
}

// RationaleMinWords implements assess.ResultService.
func (s *ResultService) RationaleMinWords() int { return s.minWords }

// FindAssessmentRequirement implements assess.ResultService.
func (s *ResultService) FindAssessmentRequirement(ctx context.Context, assessmentID, id string, actor assess.Actor) (assess.AssessmentRequirement, error) {
	if _, err := postgres.VisibleAssessmentState(ctx, s.db.Pool, actor, assessmentID, false); err != nil {
		return assess.AssessmentRequirement{}, postgres.DBError(err)
	}
	return findAssessmentRequirement(ctx, s.db.Pool, assessmentID, id)
}

// findAssessmentRequirement reads requirement id of assessment assessmentID, whose
// visibility the caller has checked.
func findAssessmentRequirement(ctx context.Context, q postgres.Querier, assessmentID, id string) (assess.AssessmentRequirement, error) {
	if !assess.ValidID(assess.PrefixAssessmentRequirement, id) {
		return assess.AssessmentRequirement{}, errAssessmentRequirementNotFound
	}
	list, err := readAssessmentRequirements(ctx, q, treeUpQuery("ar.id = $2"), postgres.SQLArgs{assessmentID, id})
	if err != nil {
		return assess.AssessmentRequirement{}, err
	}
	if len(list) == 0 {
		return assess.AssessmentRequirement{}, errAssessmentRequirementNotFound
	}
	return list[0], nil
}

// answerable locks the assessment against state changes (FOR SHARE) and checks that the
// actor may see it (404) and that it takes answers: in progress (409 conflict not_in_progress),
// not complete, archived or cancelled (409 read_only).
func answerable(ctx context.Context, tx *postgres.Tx, assessmentID string) error {
	state, err := postgres.VisibleAssessmentState(ctx, tx, tx.Actor, assessmentID, true)
	switch {
	case err != nil:
		return err
	case assess.AssessmentReadOnly(state):
		return assess.ErrAssessmentReadOnly(state)
	case state != assess.AssessmentInProgress:
		return &assess.Error{Code: assess.ECodeConflict, Message: "Results are recorded only while the assessment is in progress; it is " + string(state) + ".",
			Details: []assess.Detail{{Field: "state", Code: "not_in_progress", Message: string(state)}}}
	}
	return nil
}

// checkAssignee refuses an assignee who is not on the assessment's team (422 not_a_member).
func checkAssignee(ctx context.Context, tx *postgres.Tx, assessmentID, userID string) error {
	if userID == "" {
		return nil
	}
	var member bool
	if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM assessment_members WHERE assessment_id = $1 AND user_id = $2)",
		assessmentID, userID).Scan(&member); err != nil {
		return err
	}
	if !member {
		msg := "The assignee must be an assessor or assessee of the assessment."
		return &assess.Error{Code: assess.ECodeBusinessRule, Message: msg,
			Details: []assess.Detail{{Field: "assigneeId", Code: "not_a_member", Message: msg}}}
	}
	return nil
}

// userOf is the actor's user id for columns referencing users (nil for the service or the
// command line).
func userOf(actor assess.Actor) *string {
	if assess.ValidID(assess.PrefixUser, actor.ID) {
		return &actor.ID
	}
	return nil
}

// answerSQL sets result ($R), rationale ($T) and its word count ($W) of row ar, and who
// answered when: cleared with the result, kept when neither changes, else the actor ($U)
// at the change's time ($N).
func answerSQL(r, t, w, u, n string) string {
	changed := "(ar.result IS DISTINCT FROM " + r + " OR ar.rationale <> " + t + ")"
	return "result = " + r + ", rationale = " + t + ", rationale_words = " + w +
		", answered_by = CASE WHEN " + r + " IS NULL THEN NULL WHEN " + changed + " THEN " + u + " ELSE ar.answered_by END" +
		", answered_at = CASE WHEN " + r + " IS NULL THEN NULL WHEN " + changed + " THEN " + n + " ELSE ar.answered_at END"
}

// resultText is a result as its column takes it.
func resultText(r *assess.Result) *string {
	if r == nil {
		return nil
	}
	t := string(*r)
	return &t
}

// RecordResult implements assess.ResultService.
func (s *ResultService) RecordResult(ctx context.Context, assessmentID, id string, u assess.ResultUpdate, actor assess.Actor) (assess.AssessmentRequirement, error) {
	var out assess.AssessmentRequirement
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := u.Validate(s.minWords); err != nil {
			return err
		}
		if err := answerable(ctx, tx, assessmentID); err != nil {
			return err
		}
		if err := requirementOfAssessment(ctx, tx, assessmentID, id); err != nil {
			return err
		}
		if err := tx.LockVersionNoKey(ctx, "assessment_requirements", id, u.Version, errAssessmentRequirementNotFound); err != nil {
			return err
		}
		assignee := u.AssigneeID
		if assignee != nil {
			if err := checkAssignee(ctx, tx, assessmentID, *assignee); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, "UPDATE assessment_requirements ar SET "+answerSQL("$2::text", "$3", "$7", "$5", "$6")+
			", assignee_id = CASE WHEN $4::text IS NULL THEN ar.assignee_id ELSE nullif($4::text, '') END WHERE ar.id = $1",
			id, resultText(u.Result), u.Rationale, assignee, userOf(actor), tx.Now, assess.RationaleWords(u.Rationale)); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "assessment_requirements", id); err != nil {
			return err
		}
		var err error
		if out, err = findAssessmentRequirement(ctx, tx, assessmentID, id); err != nil {
			return err
		}
		ev := assess.ResultEvent{AssessmentID: assessmentID, Requirement: &out, Count: 1}
		return recordResults(ctx, tx, assessmentID, postgres.Target{Type: "assessment_requirement", ID: id, Scope: assessmentID},
			map[string]any{"identifier": out.Identifier, "result": out.Result, "assigneeId": out.AssigneeID}, ev, out.Identifier)
	})
	return out, err
}

// requirementOfAssessment answers 404 unless id is a requirement of the assessment.
func requirementOfAssessment(ctx context.Context, tx *postgres.Tx, assessmentID, id string) error {
	if !assess.ValidID(assess.PrefixAssessmentRequirement, id) {
		return errAssessmentRequirementNotFound
	}
	var ok bool
	err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM assessment_requirements WHERE id = $1 AND assessment_id = $2)",
		id, assessmentID).Scan(&ok)
	if err == nil && !ok {
		return errAssessmentRequirementNotFound
	}
	return err
}

// RecordResults implements assess.ResultService: the rows are locked in id order, every
// item must name a requirement of the assessment (400 naming items[i].id otherwise), and
// the request is one change with one audit row and one event.
func (s *ResultService) RecordResults(ctx context.Context, assessmentID string, b assess.BulkResults, actor assess.Actor) ([]assess.AssessmentRequirement, error) {
	var out []assess.AssessmentRequirement
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := b.Validate(s.minWords); err != nil {
			return err
		}
		// Planning the lock, the update and the tree walk anew for every request cost
		// more database time than running them (their id arrays make each custom plan
		// look cheaper); one generic plan per connection serves 1 to 500 items.
		if err := tx.GenericPlans(ctx); err != nil {
			return err
		}
		if err := answerable(ctx, tx, assessmentID); err != nil {
			return err
		}
		ids, results, rationales := make([]string, len(b.Items)), make([]*string, len(b.Items)), make([]string, len(b.Items))
		words := make([]int32, len(b.Items))
		for i, it := range b.Items {
			ids[i], results[i], rationales[i] = it.ID, resultText(it.Result), it.Rationale
			words[i] = int32(assess.RationaleWords(it.Rationale))
		}
		if err := lockRequirementsOfAssessment(ctx, tx, assessmentID, ids); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE assessment_requirements ar SET `+answerSQL("v.result", "v.rationale", "v.words", "$5", "$6")+`,
			version = ar.version + 1, updated_at = $6
			FROM unnest($2::text[], $3::text[], $4::text[], $7::int[]) AS v(id, result, rationale, words)
			WHERE ar.id = v.id AND ar.assessment_id = $1`, assessmentID, ids, results, rationales, userOf(actor), tx.Now, words); err != nil {
			return err
		}
		var err error
		if out, err = readAssessmentRequirements(ctx, tx, treeUpQuery("ar.id = ANY ($2)"), postgres.SQLArgs{assessmentID, ids}); err != nil {
			return err
		}
		ev := assess.ResultEvent{AssessmentID: assessmentID, RequirementIDs: ids, Count: len(ids)}
		return recordResults(ctx, tx, assessmentID, postgres.Target{Type: "assessment", ID: assessmentID, Scope: assessmentID},
			map[string]any{"count": len(ids), "bulk": true}, ev, fmt.Sprintf("%d requirements", len(ids)))
	})
	return out, err
}

// lockRequirementsOfAssessment locks the rows ids in id order (so concurrent bulk writes
// do not deadlock) and refuses an id that is not a requirement of the assessment. FOR NO
// KEY UPDATE, as LockVersionNoKey: links being inserted under the rows are not waited for.
func lockRequirementsOfAssessment(ctx context.Context, tx *postgres.Tx, assessmentID string, ids []string) error {
	rows, err := tx.Query(ctx, `SELECT id FROM assessment_requirements WHERE assessment_id = $1 AND id = ANY ($2)
		ORDER BY id FOR NO KEY UPDATE`, assessmentID, ids)
	if err != nil {
		return err
	}
	found, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	if len(found) == len(ids) {
		return nil
	}
	var details []assess.Detail
	for i, id := range ids {
		if !slices.Contains(found, id) {
			details = append(details, assess.Detail{Field: fmt.Sprintf("items[%d].id", i), Code: "unknown",
				Message: "Not a requirement of this assessment."})
		}
	}
	return &assess.Error{Code: assess.ECodeValidation, Message: "The results are invalid.", Details: details}
}

// recordResults writes the audit row and the assessment.result_recorded event of a result
// change: scoped to the assessment, reaching only users who may see it, its team as the
// audience.
func recordResults(ctx context.Context, tx *postgres.Tx, assessmentID string, target postgres.Target, details map[string]any, ev assess.ResultEvent, what string) error {
	var title string
	var team []string
	err := tx.QueryRow(ctx, `SELECT a.title, coalesce((SELECT array_agg(DISTINCT m.user_id ORDER BY m.user_id)
		FROM assessment_members m WHERE m.assessment_id = a.id), '{}') FROM assessments a WHERE a.id = $1`, assessmentID).Scan(&title, &team)
	if errors.Is(err, pgx.ErrNoRows) {
		return postgres.ErrAssessmentNotFound
	}
	if err != nil {
		return err
	}
	return tx.Record(ctx, assess.ChangeAssessmentResultRecorded, target, details, assess.NewEvent{Data: ev,
		Summary: what + " in " + title, Link: "/assessments/" + assessmentID, Audience: team, AssessmentID: assessmentID})
}

var _ assess.ResultService = (*ResultService)(nil)
