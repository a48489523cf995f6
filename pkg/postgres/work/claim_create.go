package work

import (
	"context"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// CreateClaim implements assess.ClaimService in four round trips (docs/performance.md,
// "Creates and the write ceiling"): the begin; the reads, in one batch — the assessment's
// check with its team (the event's audience), the target entity, the claim countered, the
// cited evidence and the requirements; the writes with the audit row and the event; the
// commit. The claim is answered as written, from what the reads found, not read back
// (TestCreatesAnswerWhatAReadShows holds the answer to a read's). The errors come in the
// order of the checks: 404 or 409 of the assessment, 400 of the request, then 422 of the
// ids, as checkClaim gives them for an update.
func (s *ClaimService) CreateClaim(ctx context.Context, assessmentID string, in assess.NewClaim, actor assess.Actor) (assess.Claim, error) {
	var c assess.Claim
	err := s.db.ChangeGeneric(ctx, actor, func(tx *postgres.Tx) error {
		var team []string
		var b pgx.Batch
		if err := postgres.QueueWritableAssessment(&b, tx.Actor, assessmentID,
			"ARRAY(SELECT DISTINCT m.user_id FROM assessment_members m WHERE m.assessment_id = a.id ORDER BY m.user_id)", nil, &team); err != nil {
			return err
		}
		invalid := in.Validate()
		if invalid != nil { // the assessment's 404 comes first; the ids are not checked
			if err := tx.SendBatch(ctx, &b).Close(); err != nil {
				return err
			}
			return invalid
		}
		c = assess.Claim{ID: assess.NewID(assess.PrefixClaim, tx.Now), AssessmentID: assessmentID, Name: in.Name,
			Target: in.Target, TargetEntityID: in.TargetEntityID, Predicate: in.Predicate, Reasoning: in.Reasoning,
			IsCounterClaim: in.IsCounterClaim, CountersClaimID: in.CountersClaimID,
			ExternalReferences: postgres.OrEmpty(in.ExternalReferences), CreatedBy: userIDOf(tx.Actor), Version: 1,
			CreatedAt: tx.Now.UTC(), UpdatedAt: tx.Now.UTC()}
		found := queueNewClaimChecks(&b, tx.Actor, c, in)
		if err := tx.SendBatch(ctx, &b).Close(); err != nil {
			return err
		}
		if err := found.judge(&c, in); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeClaimCreated, claimTarget(c), map[string]any{"name": c.Name},
			assess.NewEvent{Data: showClaim(c), Summary: c.Name, Link: "/assessments/" + c.AssessmentID + "?tab=claims",
				Audience: team, AssessmentID: c.AssessmentID},
			newClaimWrites(c, tx.Now)...)
	})
	return showClaim(c), err
}

// newClaimFound is what the checks of a new claim read.
type newClaimFound struct {
	entityName                  string
	entityFound, counteredFound bool
	cited                       []assess.ClaimEvidence // visible evidence of the request, in the order a claim lists it
	requirements                []string               // the request's requirements of the assessment, by id
}

// queueNewClaimChecks queues the reads checkClaim makes for new claim c of request in —
// each only when the request names what it reads — with the target entity's name and the
// names and states of the cited evidence, in the order claimSelect lists it (lower(name),
// id).
func queueNewClaimChecks(b *pgx.Batch, actor assess.Actor, c assess.Claim, in assess.NewClaim) *newClaimFound {
	f := &newClaimFound{}
	if c.TargetEntityID != "" {
		b.Queue("SELECT coalesce(max(name), ''), count(*) > 0 FROM entities WHERE id = $1", c.TargetEntityID).QueryRow(func(row pgx.Row) error {
			return row.Scan(&f.entityName, &f.entityFound)
		})
	}
	if c.CountersClaimID != "" {
		b.Queue("SELECT EXISTS (SELECT 1 FROM claims WHERE id = $1 AND assessment_id = $2 AND id <> $3)",
			c.CountersClaimID, c.AssessmentID, c.ID).QueryRow(func(row pgx.Row) error { return row.Scan(&f.counteredFound) })
	}
	if cited := slices.Concat(in.EvidenceIDs, in.CounterEvidenceIDs, in.MitigationEvidenceIDs); len(cited) > 0 {
		var args postgres.SQLArgs
		sql := "SELECT e.id, e.name, e.state FROM evidence e WHERE e.id = ANY (" + args.Add(cited) + ")"
		if cond := postgres.EvidenceVisibleSQL(actor, "e.id", "e.author_id", "e.reviewer_id", args.Add); cond != "" {
			sql += " AND " + cond
		}
		b.Queue(sql+" ORDER BY lower(e.name), e.id", args...).Query(func(rows pgx.Rows) error {
			var err error
			f.cited, err = pgx.CollectRows(rows, pgx.RowToStructByPos[assess.ClaimEvidence])
			return err
		})
	}
	if len(in.RequirementIDs) > 0 {
		b.Queue("SELECT id FROM assessment_requirements WHERE assessment_id = $1 AND id = ANY ($2) ORDER BY id",
			c.AssessmentID, in.RequirementIDs).Query(func(rows pgx.Rows) error {
			var err error
			f.requirements, err = pgx.CollectRows(rows, pgx.RowTo[string])
			return err
		})
	}
	return f
}

// judge answers the first problem of the request in checkClaim's order, and otherwise
// completes c with what was found.
func (f *newClaimFound) judge(c *assess.Claim, in assess.NewClaim) error {
	if c.TargetEntityID != "" && !f.entityFound {
		return claimRule("targetEntityId", "unknown_entity", "No entity "+c.TargetEntityID+".")
	}
	c.TargetEntityName = f.entityName
	if c.CountersClaimID != "" && !f.counteredFound {
		return claimRule("countersClaimId", "unknown_claim", "No other claim "+c.CountersClaimID+" in this assessment.")
	}
	visible := func(id string) bool {
		return slices.ContainsFunc(f.cited, func(e assess.ClaimEvidence) bool { return e.ID == id })
	}
	lists := map[assess.ClaimRelation]*[]assess.ClaimEvidence{assess.ClaimRelationEvidence: &c.Evidence,
		assess.ClaimRelationCounterEvidence: &c.CounterEvidence, assess.ClaimRelationMitigation: &c.MitigationStrategies}
	rel := claimRelations{Evidence: &in.EvidenceIDs, CounterEvidence: &in.CounterEvidenceIDs, Mitigation: &in.MitigationEvidenceIDs}
	for _, set := range rel.evidenceSets() {
		if i := slices.IndexFunc(*set.ids, func(id string) bool { return !visible(id) }); i >= 0 {
			return claimRule(set.field, "unknown_evidence", "No evidence "+(*set.ids)[i]+".")
		}
		*lists[set.kind] = []assess.ClaimEvidence{}
		for _, e := range f.cited {
			if slices.Contains(*set.ids, e.ID) {
				*lists[set.kind] = append(*lists[set.kind], e)
			}
		}
	}
	for _, id := range in.RequirementIDs {
		if !slices.Contains(f.requirements, id) {
			return claimRule("requirementIds", "unknown_requirement", "No requirement "+id+" in this assessment.")
		}
	}
	c.RequirementIDs = postgres.OrEmpty(f.requirements)
	return nil
}

// newClaimWrites are the inserts of new claim c, written at now: the claim, its citations
// (every kind in one statement) and its requirements.
func newClaimWrites(c assess.Claim, now time.Time) []postgres.Statement {
	writes := []postgres.Statement{{SQL: `INSERT INTO claims (id, assessment_id, name, target, target_entity_id, predicate, reasoning,
			is_counter_claim, counters_claim_id, external_references, created_by, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
		Args: []any{c.ID, c.AssessmentID, c.Name, c.Target, postgres.Nullable(c.TargetEntityID), c.Predicate, c.Reasoning,
			c.IsCounterClaim, postgres.Nullable(c.CountersClaimID), c.ExternalReferences, postgres.Nullable(c.CreatedBy), now}}}
	var evidence, kinds []string
	for _, set := range []struct {
		kind assess.ClaimRelation
		list []assess.ClaimEvidence
	}{{assess.ClaimRelationEvidence, c.Evidence}, {assess.ClaimRelationCounterEvidence, c.CounterEvidence},
		{assess.ClaimRelationMitigation, c.MitigationStrategies}} {
		for _, e := range set.list {
			evidence, kinds = append(evidence, e.ID), append(kinds, string(set.kind))
		}
	}
	if len(evidence) > 0 && len(c.RequirementIDs) > 0 {
		writes = append(writes, lockCitedEvidence(evidence))
	}
	if len(c.RequirementIDs) > 0 {
		writes = append(writes, postgres.Statement{SQL: `INSERT INTO claim_requirements (claim_id, assessment_requirement_id)
			SELECT $1, unnest($2::text[])`, Args: []any{c.ID, c.RequirementIDs}})
	}
	if len(evidence) > 0 {
		writes = append(writes, postgres.Statement{SQL: `INSERT INTO claim_evidence (claim_id, evidence_id, kind)
			SELECT $1, x.e, x.k FROM unnest($2::text[], $3::text[]) AS x(e, k)`, Args: []any{c.ID, evidence, kinds}})
	}
	return writes
}

// lockCitedEvidence is the first of a claim's writes that cite evidence and name
// requirements: the evidence's key share, in id order, which the citations' foreign key
// would take. A claim's writes lock in the order of the link writers (docs/performance.md,
// "Assessment progress as counters", Locks): the evidence, then the requirement rows (their
// claim counts, migrations/0038), then the evidence's assessments (the citations' trigger,
// migrations/0035). Citing the
// evidence first would take its assessments before the requirement rows, and a link of the
// same evidence to the same requirement, taking them the other way, would deadlock with it.
func lockCitedEvidence(ids []string) postgres.Statement {
	return postgres.Statement{SQL: `SELECT 1 FROM evidence WHERE id = ANY ($1::text[]) ORDER BY id FOR KEY SHARE`, Args: []any{ids}}
}
