package work

import (
	"context"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// CreateEvidence implements assess.EvidenceService: the actor is the author; the
// requirements named are linked at once (each announced as evidence.linked). Four round
// trips without tags (docs/performance.md, "Creates and the write ceiling"): the begin; the
// insert, which answers what PostgreSQL stores, with the check of every requirement named
// in one statement; the links with the audit rows and events of the creation and of each
// link; the commit. The evidence is answered as written, not read back
// (TestCreatesAnswerWhatAReadShows holds the answer to a read's).
func (s *EvidenceService) CreateEvidence(ctx context.Context, ne assess.NewEvidence, actor assess.Actor) (assess.Evidence, error) {
	var e assess.Evidence
	err := s.db.ChangeGeneric(ctx, actor, func(tx *postgres.Tx) error {
		if err := ne.Validate(); err != nil {
			return err
		}
		if !assess.ValidID(assess.PrefixUser, actor.ID) {
			return errEvidenceNeedsUser
		}
		e = assess.Evidence{ID: assess.NewID(assess.PrefixEvidence, tx.Now), Name: ne.Name, Description: ne.Description,
			Classification: ne.Classification, IsCounterEvidence: ne.IsCounterEvidence, Author: assess.UserRef{ID: actor.ID},
			Tags: []assess.TagRef{}, CreatedAt: tx.Now.UTC(), UpdatedAt: tx.Now.UTC()}
		var b pgx.Batch
		b.Queue(`INSERT INTO evidence (id, name, description, classification, is_counter_evidence, author_id,
			collected_on, valid_from, valid_until, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, nullif($7::text, '')::date, nullif($8::text, '')::date, nullif($9::text, '')::date, $10, $10)
			RETURNING bom_ref, state, coalesce(to_char(collected_on, 'YYYY-MM-DD'), ''), coalesce(to_char(valid_from, 'YYYY-MM-DD'), ''),
				coalesce(to_char(valid_until, 'YYYY-MM-DD'), ''), version,
				(SELECT u.username FROM users u WHERE u.id = author_id), (SELECT u.display_name FROM users u WHERE u.id = author_id)`,
			e.ID, ne.Name, ne.Description, ne.Classification, ne.IsCounterEvidence, actor.ID, ne.CollectedOn, ne.ValidFrom, ne.ValidUntil,
			tx.Now).QueryRow(func(row pgx.Row) error {
			return row.Scan(&e.BOMRef, &e.State, &e.CollectedOn, &e.ValidFrom, &e.ValidUntil, &e.Version, &e.Author.Username, &e.Author.DisplayName)
		})
		targets := queueLinkTargets(&b, tx.Actor, ne.RequirementIDs)
		if err := tx.SendBatch(ctx, &b).Close(); err != nil {
			return err
		}
		if err := postgres.ReplaceTags(ctx, tx, postgres.EvidenceTags, e.ID, ne.TagIDs); err != nil {
			return err
		}
		links, err := targets.links(ne.RequirementIDs)
		if err != nil {
			return namedField(err, "requirementIds")
		}
		if len(ne.TagIDs) > 0 {
			tags, err := postgres.LoadTags(ctx, tx, postgres.EvidenceTags, []string{e.ID})
			if err != nil {
				return err
			}
			e.Tags = tags[e.ID]
		}
		completeNewEvidence(&e, links)
		return tx.RecordAll(ctx, newEvidenceRecordings(e, links), insertLinks(tx, e.ID, links)...)
	})
	return e, err
}

// linkTargets are the requirements a new piece of evidence is to be linked to, as the check
// of them found them: by requirement id, with the state of their assessment and whether
// the actor may see it.
type linkTargets map[string]linkTarget

type linkTarget struct {
	link    assess.EvidenceLink
	visible bool
}

// queueLinkTargets queues the check linkableAssessment makes of each requirement arIDs
// names, in one statement: the requirement with its assessment, whether the actor takes
// part in it and what a link shows of both (evidenceLinkColumns), the assessments locked
// FOR SHARE in the order of their ids.
func queueLinkTargets(b *pgx.Batch, actor assess.Actor, arIDs []string) linkTargets {
	found := linkTargets{}
	ids := slices.DeleteFunc(slices.Clone(arIDs), func(id string) bool { return !assess.ValidID(assess.PrefixAssessmentRequirement, id) })
	if len(ids) == 0 {
		return found
	}
	var args postgres.SQLArgs
	sql := "SELECT a.id, a.title, a.state, ar.id, rq.identifier, rq.name, " + postgres.AssessmentParticipantSQL(actor, "a.id", args.Add) + `
		FROM assessment_requirements ar JOIN assessments a ON a.id = ar.assessment_id JOIN requirements rq ON rq.id = ar.requirement_id
		WHERE ar.id = ANY (` + args.Add(ids) + `) ORDER BY a.id FOR SHARE OF a`
	b.Queue(sql, args...).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var t linkTarget
			var participant bool
			l := &t.link
			if err := rows.Scan(&l.AssessmentID, &l.AssessmentTitle, &l.AssessmentState, &l.AssessmentRequirementID,
				&l.RequirementIdentifier, &l.RequirementName, &participant); err != nil {
				return err
			}
			t.visible = postgres.CanSeeAssessmentAs(actor, participant)
			found[l.AssessmentRequirementID] = t
		}
		return rows.Err()
	})
	return found
}

// links answers linkableAssessment's error for the first requirement of arIDs that cannot
// be linked (404 when it does not exist or its assessment is not visible, 409 read_only),
// and otherwise the links, in the order of arIDs.
func (found linkTargets) links(arIDs []string) ([]assess.EvidenceLink, error) {
	links := make([]assess.EvidenceLink, 0, len(arIDs))
	for _, arID := range arIDs {
		t, ok := found[arID]
		switch {
		case !ok || !t.visible:
			return nil, errLinkRequirementNotFound
		case assess.AssessmentReadOnly(t.link.AssessmentState):
			return nil, assess.ErrAssessmentReadOnly(t.link.AssessmentState)
		}
		links = append(links, t.link)
	}
	return links, nil
}

// completeNewEvidence fills in what a read of new evidence e derives from its links: the
// lock (assess.EvidenceLock; none while its assessments take changes) and the number of
// assessments it is linked to, each of which the author may see.
func completeNewEvidence(e *assess.Evidence, links []assess.EvidenceLink) {
	var assessments []string
	states := []assess.AssessmentState{}
	for _, l := range links {
		if !slices.Contains(assessments, l.AssessmentID) {
			assessments, states = append(assessments, l.AssessmentID), append(states, l.AssessmentState)
		}
	}
	e.AssessmentCount = len(assessments)
	e.Locked = assess.EvidenceLock(assess.EvidenceLockFacts{State: e.State, AssessmentStates: states})
}

// insertLinks is the insert of the links of new evidence id, as insertEvidenceLinks writes
// them (in the order of the requirements' ids); none without links.
func insertLinks(tx *postgres.Tx, id string, links []assess.EvidenceLink) []postgres.Statement {
	if len(links) == 0 {
		return nil
	}
	arIDs, assessments := make([]string, len(links)), make([]string, len(links))
	for i, l := range links {
		arIDs[i], assessments[i] = l.AssessmentRequirementID, l.AssessmentID
	}
	return []postgres.Statement{{SQL: `INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id, linked_by, created_at)
		SELECT l.ar, $2, l.a, nullif($4, ''), $5 FROM unnest($1::text[], $3::text[]) AS l(ar, a) ORDER BY l.ar`,
		Args: []any{arIDs, id, assessments, userIDOrEmpty(tx.Actor), tx.Now}}}
}

// newEvidenceRecordings are the audit rows and events of new evidence e: its creation, then
// each link, scoped to the link's assessment (its timeline), as recordEvidence and
// recordEvidenceLink record them.
func newEvidenceRecordings(e assess.Evidence, links []assess.EvidenceLink) []postgres.Recording {
	recs := []postgres.Recording{{Change: assess.ChangeEvidenceCreated, Target: evidenceTarget(e.ID, ""),
		Details: map[string]any{"name": e.Name}, Event: evidenceEvent(assess.EvidenceEvent{Evidence: e}, e.Author.ID)}}
	for _, l := range links {
		recs = append(recs, postgres.Recording{Change: assess.ChangeEvidenceLinked, Target: evidenceTarget(e.ID, l.AssessmentID),
			Details: map[string]any{"assessmentId": l.AssessmentID, "requirementId": l.AssessmentRequirementID,
				"requirement": l.RequirementIdentifier, "name": e.Name},
			Event: evidenceEvent(assess.EvidenceEvent{Evidence: e, AssessmentID: l.AssessmentID, RequirementID: l.AssessmentRequirementID},
				e.Author.ID)})
	}
	return recs
}
