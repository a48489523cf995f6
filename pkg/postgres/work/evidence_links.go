package work

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// errLinkRequirementNotFound answers an assessment requirement that does not exist or whose
// assessment the caller may not see: the same 404 either way.
var errLinkRequirementNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "Assessment requirement not found."}

// errLinkNotFound answers an unlink of a link that does not exist or that the caller may
// not see.
var errLinkNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "The evidence is not linked to this requirement."}

// evidenceLinkColumns read a link of evidence (l) with its assessment (a) and requirement.
const evidenceLinkColumns = `a.id, a.title, a.state, ar.id, rq.identifier, rq.name
	FROM assessment_requirement_evidence l JOIN assessments a ON a.id = l.assessment_id
	JOIN assessment_requirements ar ON ar.id = l.assessment_requirement_id JOIN requirements rq ON rq.id = ar.requirement_id`

func scanEvidenceLink(r pgx.Row) (assess.EvidenceLink, error) {
	var l assess.EvidenceLink
	err := r.Scan(&l.AssessmentID, &l.AssessmentTitle, &l.AssessmentState, &l.AssessmentRequirementID, &l.RequirementIdentifier, &l.RequirementName)
	return l, err
}

// FindEvidenceLinks implements assess.EvidenceService: the links into assessments actor
// may see, by assessment title and requirement identifier.
func (s *EvidenceService) FindEvidenceLinks(ctx context.Context, id string, actor assess.Actor) ([]assess.EvidenceLink, error) {
	if err := postgres.EvidenceVisible(ctx, s.db.Pool, actor, id); err != nil {
		return nil, postgres.DBError(err)
	}
	var args postgres.SQLArgs
	sql := "SELECT " + evidenceLinkColumns + " WHERE l.evidence_id = " + args.Add(id)
	if cond := postgres.AssessmentVisibleSQL(actor, "l.assessment_id", args.Add); cond != "" {
		sql += " AND " + cond
	}
	rows, err := s.db.Pool.Query(ctx, sql+" ORDER BY lower(a.title), a.id, rq.natural_key, rq.identifier, ar.id", args...)
	if err != nil {
		return nil, postgres.DBError(err)
	}
	links, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.EvidenceLink, error) { return scanEvidenceLink(r) })
	return postgres.OrEmpty(links), postgres.DBError(err)
}

// insertEvidenceLinks links evidence id to the assessment requirements arIDs (each once)
// and returns the links in that order: each requirement's assessment must be visible to
// the actor (404) and writable (409 read_only), checked in order up to the first refused;
// a link that exists already is 409 already_exists. The links are written in one
// statement in the order of the requirements' ids, whatever order the request names them
// in, so that every lock it takes comes in the order a bulk write of results takes its
// own: the requirement rows (the foreign key's, then the triggers' that count the links)
// by id, then the progress counters of their assessments by key, once
// (migrations/0030_assessment_progress.sql). A statement per link, or the request's
// order, would hold one requirement row or one assessment's counters while waiting for
// another, which a writer of results holding that one and waiting for these would
// deadlock with (docs/performance.md, "Assessment progress as counters").
func insertEvidenceLinks(ctx context.Context, tx *postgres.Tx, id string, arIDs []string) ([]assess.EvidenceLink, error) {
	if len(arIDs) == 0 {
		return []assess.EvidenceLink{}, nil
	}
	assessments := make([]string, len(arIDs))
	for i, arID := range arIDs {
		var err error
		if assessments[i], err = linkableAssessment(ctx, tx, arID); err != nil {
			return nil, err
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id, linked_by, created_at)
		SELECT l.ar, $2, l.a, nullif($4, ''), $5 FROM unnest($1::text[], $3::text[]) AS l(ar, a) ORDER BY l.ar`,
		arIDs, id, assessments, userIDOrEmpty(tx.Actor), tx.Now); err != nil {
		return nil, postgres.DBError(err)
	}
	rows, err := tx.Query(ctx, "SELECT "+evidenceLinkColumns+" WHERE l.evidence_id = $1 AND l.assessment_requirement_id = ANY ($2)", id, arIDs)
	if err != nil {
		return nil, err
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.EvidenceLink, error) { return scanEvidenceLink(r) })
	if err != nil {
		return nil, err
	}
	links := make([]assess.EvidenceLink, 0, len(arIDs))
	for _, arID := range arIDs {
		for _, l := range found {
			if l.AssessmentRequirementID == arID {
				links = append(links, l)
			}
		}
	}
	return links, nil
}

// linkableAssessment returns the assessment of requirement arID when the actor may link
// evidence to it: visible (404 otherwise) and writable (409 read_only).
func linkableAssessment(ctx context.Context, tx *postgres.Tx, arID string) (string, error) {
	if !assess.ValidID(assess.PrefixAssessmentRequirement, arID) {
		return "", errLinkRequirementNotFound
	}
	var assessmentID string
	err := tx.QueryRow(ctx, "SELECT assessment_id FROM assessment_requirements WHERE id = $1", arID).Scan(&assessmentID)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", errLinkRequirementNotFound
	}
	if err != nil {
		return "", err
	}
	if err := postgres.WritableAssessment(ctx, tx, tx.Actor, assessmentID); err != nil {
		if errors.Is(err, postgres.ErrAssessmentNotFound) {
			return "", errLinkRequirementNotFound
		}
		return "", err
	}
	return assessmentID, nil
}

// userIDOrEmpty is the actor's id when it is a user's, else "".
func userIDOrEmpty(a assess.Actor) string {
	if assess.ValidID(assess.PrefixUser, a.ID) {
		return a.ID
	}
	return ""
}

// recordEvidenceLink records a link or unlink of evidence id, scoped to the link's
// assessment (its timeline).
func recordEvidenceLink(ctx context.Context, tx *postgres.Tx, c assess.Change, id string, link assess.EvidenceLink) (assess.Evidence, error) {
	return recordEvidence(ctx, tx, c, id,
		map[string]any{"assessmentId": link.AssessmentID, "requirementId": link.AssessmentRequirementID, "requirement": link.RequirementIdentifier},
		func(d *assess.EvidenceEvent) (string, string) {
			d.AssessmentID, d.RequirementID = link.AssessmentID, link.AssessmentRequirementID
			return d.Author.ID, link.AssessmentID
		})
}

// LinkEvidence implements assess.EvidenceService. Linking is allowed for locked evidence
// too (approved evidence is reused across assessments); the assessment must take changes.
func (s *EvidenceService) LinkEvidence(ctx context.Context, id string, nl assess.NewEvidenceLink, actor assess.Actor) (assess.EvidenceLink, error) {
	var link assess.EvidenceLink
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := nl.Validate(); err != nil {
			return err
		}
		if err := postgres.EvidenceVisible(ctx, tx, tx.Actor, id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "SELECT 1 FROM evidence WHERE id = $1 FOR UPDATE", id); err != nil {
			return err
		}
		links, err := insertEvidenceLinks(ctx, tx, id, []string{nl.AssessmentRequirementID})
		if err != nil {
			return err
		}
		link = links[0]
		_, err = recordEvidenceLink(ctx, tx, assess.ChangeEvidenceLinked, id, link)
		return err
	})
	return link, err
}

// UnlinkEvidence implements assess.EvidenceService: the link must be into an assessment
// the actor may see (404 otherwise), and the evidence must not be locked (409 with the
// reason: an assessment that ended locks its evidence's links). The event is recorded
// before the link goes, so that those who saw the evidence through it hear of it.
func (s *EvidenceService) UnlinkEvidence(ctx context.Context, id, arID string, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if _, err := lockEvidence(ctx, tx, id, 0); err != nil {
			return err
		}
		var args postgres.SQLArgs
		sql := "SELECT " + evidenceLinkColumns + " WHERE l.evidence_id = " + args.Add(id) + " AND l.assessment_requirement_id = " + args.Add(arID)
		if cond := postgres.AssessmentVisibleSQL(tx.Actor, "l.assessment_id", args.Add); cond != "" {
			sql += " AND " + cond
		}
		link, err := scanEvidenceLink(tx.QueryRow(ctx, sql, args...))
		if errors.Is(err, pgx.ErrNoRows) {
			return errLinkNotFound
		}
		if err != nil {
			return err
		}
		if err := postgres.WritableAssessment(ctx, tx, tx.Actor, link.AssessmentID); err != nil {
			return err
		}
		if _, err := recordEvidenceLink(ctx, tx, assess.ChangeEvidenceUnlinked, id, link); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "DELETE FROM assessment_requirement_evidence WHERE evidence_id = $1 AND assessment_requirement_id = $2", id, arID)
		return err
	})
}

// evidenceClaimOrder is the order of the claims citing evidence: oldest claim first, each
// claim's citations by kind; a keyset on the index claim_evidence_evidence_claim_idx
// (evidence_id, claim_id, kind).
var evidenceClaimOrder = postgres.SortOrder{Name: "oldest", Keys: []postgres.SortKey{{Expr: "ce.claim_id", Typ: "text"}, {Expr: "ce.kind", Typ: "text"}}}

// FindEvidenceClaims implements assess.EvidenceService: the claims citing evidence, in
// assessments actor may see, oldest first, keyset paginated.
func (s *EvidenceService) FindEvidenceClaims(ctx context.Context, id string, page assess.PageRequest, actor assess.Actor) (assess.Page[assess.EvidenceClaim], error) {
	if err := postgres.EvidenceVisible(ctx, s.db.Pool, actor, id); err != nil {
		return assess.Page[assess.EvidenceClaim]{}, postgres.DBError(err)
	}
	l := postgres.NewList("evidence_claims", `SELECT c.id, c.name, c.assessment_id, ce.kind
		FROM claim_evidence ce JOIN claims c ON c.id = ce.claim_id`, evidenceClaimOrder)
	l.Where("ce.evidence_id = " + l.Arg(id))
	if cond := postgres.AssessmentVisibleSQL(actor, "ce.assessment_id", l.Arg); cond != "" {
		l.Where(cond)
	}
	return postgres.CollectPage(ctx, s.db.Pool, l, page, func(r pgx.Row) (assess.EvidenceClaim, error) {
		var c assess.EvidenceClaim
		return c, r.Scan(&c.ID, &c.Name, &c.AssessmentID, &c.Relation)
	}, func(c assess.EvidenceClaim) []any { return []any{c.ID, c.Relation} })
}
