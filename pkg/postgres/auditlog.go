package postgres

import (
	"context"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// AuditNewestFirst orders the audit log on its identity column, newest first.
var AuditNewestFirst = SortOrder{Name: "newest", Keys: []SortKey{{Expr: "a.id", Typ: "bigint", Desc: true}}}

// AuditTargetNameSQL names the target of the audit row a for people, in the query that
// reads the row (one index probe per row, never a query per row). A user is named by
// their current display name (or username): people are known by the name they have now.
// Any other record by the name recorded with the row — what it was called then, which
// a deleted record keeps — and, for rows that recorded none (older rows), by its
// current name. Requirements are named by their identifier (V1.2.3).
const AuditTargetNameSQL = `CASE WHEN a.target_type = 'user' THEN
		(SELECT coalesce(nullif(u.display_name, ''), u.username) FROM users u WHERE u.id = a.target_id)
	ELSE coalesce(nullif(CASE a.target_type
			WHEN 'assessment' THEN a.details->>'title'
			WHEN 'assessment_requirement' THEN a.details->>'identifier'
			WHEN 'requirement' THEN a.details->>'identifier'
			WHEN 'level' THEN a.details->>'identifier'
			WHEN 'evidence_attachment' THEN a.details->>'filename'
			WHEN 'attestation' THEN a.details->>'assessment'
			ELSE a.details->>'name' END, ''),
		CASE a.target_type
			WHEN 'role' THEN (SELECT x.name FROM roles x WHERE x.id = a.target_id)
			WHEN 'assessment' THEN (SELECT x.title FROM assessments x WHERE x.id = a.target_id)
			WHEN 'assessment_requirement' THEN (SELECT r.identifier FROM assessment_requirements x
				JOIN requirements r ON r.id = x.requirement_id WHERE x.id = a.target_id)
			WHEN 'evidence' THEN (SELECT x.name FROM evidence x WHERE x.id = a.target_id)
			WHEN 'evidence_attachment' THEN (SELECT x.filename FROM evidence_attachments x WHERE x.id = a.target_id)
			WHEN 'claim' THEN (SELECT x.name FROM claims x WHERE x.id = a.target_id)
			WHEN 'attestation' THEN (SELECT s.title FROM attestations x JOIN assessments s ON s.id = x.assessment_id
				WHERE x.id = a.target_id)
			WHEN 'project' THEN (SELECT x.name FROM projects x WHERE x.id = a.target_id)
			WHEN 'entity' THEN (SELECT x.name FROM entities x WHERE x.id = a.target_id)
			WHEN 'standard' THEN (SELECT x.name FROM standards x WHERE x.id = a.target_id)
			WHEN 'requirement' THEN (SELECT x.identifier FROM requirements x WHERE x.id = a.target_id)
			WHEN 'level' THEN (SELECT x.identifier FROM levels x WHERE x.id = a.target_id)
			WHEN 'tag' THEN (SELECT x.name FROM tags x WHERE x.id = a.target_id)
			WHEN 'webhook' THEN (SELECT x.name FROM webhooks x WHERE x.id = a.target_id)
			WHEN 'chat' THEN (SELECT x.name FROM chat_destinations x WHERE x.id = a.target_id)
			WHEN 'notification_rule' THEN (SELECT x.name FROM notification_rules x WHERE x.id = a.target_id)
			WHEN 'api_key' THEN (SELECT x.name FROM api_keys x WHERE x.id = a.target_id)
			WHEN 'assessor' THEN (SELECT x.name FROM assessors x WHERE x.id = a.target_id)
		END)
	END`

// AuditTargetLinkSQL is the path of the page of the audit row a's target in the web UI,
// while the record exists (NULL otherwise, and for targets without a page of their own):
// a file leads to its evidence, a claim, note or requirement of an assessment to the
// assessment's tab, a requirement or level of a standard to the standard.
const AuditTargetLinkSQL = `CASE a.target_type
		WHEN 'assessment' THEN (SELECT '/assessments/' || x.id FROM assessments x WHERE x.id = a.target_id)
		WHEN 'assessment_requirement' THEN (SELECT '/assessments/' || x.assessment_id || '?tab=requirements&requirement=' || x.id
			FROM assessment_requirements x WHERE x.id = a.target_id)
		WHEN 'claim' THEN (SELECT '/assessments/' || x.assessment_id || '?tab=claims' FROM claims x WHERE x.id = a.target_id)
		WHEN 'work_note' THEN (SELECT '/assessments/' || x.id || '?tab=notes' FROM assessments x WHERE x.id = a.scope_id)
		WHEN 'evidence' THEN (SELECT '/evidence/' || x.id FROM evidence x WHERE x.id = a.target_id)
		WHEN 'evidence_attachment' THEN (SELECT '/evidence/' || x.id FROM evidence x WHERE x.id = a.details->>'evidenceId')
		WHEN 'attestation' THEN (SELECT '/attestations/' || x.id FROM attestations x WHERE x.id = a.target_id)
		WHEN 'project' THEN (SELECT '/projects/' || x.id FROM projects x WHERE x.id = a.target_id)
		WHEN 'entity' THEN (SELECT '/entities/' || x.id FROM entities x WHERE x.id = a.target_id)
		WHEN 'standard' THEN (SELECT '/standards/' || x.id FROM standards x WHERE x.id = a.target_id)
		WHEN 'requirement' THEN (SELECT '/standards/' || x.standard_id FROM requirements x WHERE x.id = a.target_id)
		WHEN 'level' THEN (SELECT '/standards/' || x.standard_id FROM levels x WHERE x.id = a.target_id)
	END`

// auditSelect reads audit rows with the names people recognise, resolved in the same
// query (never a query per row): the acting user's display name, or the label of a
// non-user actor (as actorName does for events), and the target's name and page.
const auditSelect = `SELECT a.id, a.occurred_at, a.actor, a.action, a.target_type, a.target_id, a.details, a.request_id, a.ip,
	CASE
		WHEN a.actor = 'system' THEN 'System'
		WHEN starts_with(a.actor, 'cli:') THEN 'Command line'
		WHEN a.actor IN ('', 'anonymous') THEN 'Anonymous'
		ELSE coalesce(nullif(au.display_name, ''), au.username, a.actor)
	END,
	coalesce(` + AuditTargetNameSQL + `, ''), coalesce(` + AuditTargetLinkSQL + `, '')
FROM audit_log a
LEFT JOIN users au ON au.id = a.actor`

func scanAuditRecord(r pgx.Row) (assess.AuditRecord, error) {
	var a assess.AuditRecord
	var id int64
	err := r.Scan(&id, &a.OccurredAt, &a.Actor, &a.Action, &a.TargetType, &a.TargetID, &a.Details, &a.RequestID, &a.IP,
		&a.ActorName, &a.TargetName, &a.TargetLink)
	a.ID = strconv.FormatInt(id, 10)
	a.OccurredAt = a.OccurredAt.UTC()
	return a, err
}

// FindAudit implements assess.AuditService: filters in SQL, keyset pagination on the
// identity column (newest first), so any page costs the same. The actor filter matches
// the recorded actor or the id of the user with that username, so people filter by the
// name they know and ids keep working.
//
// Each filter of one column has an index of that column and the id (migrations 0002,
// 0043), which leads to its rows newest first. A filtered page is planned for its values
// (List.CustomPlan): the shares values select differ by orders of magnitude (a million
// results recorded, one key rotated), and on the generic plan a rare value was looked for
// by walking the whole log.
func (s *AuditService) FindAudit(ctx context.Context, f assess.AuditFilter) (assess.Page[assess.AuditRecord], error) {
	l := NewList("audit", auditSelect, AuditNewestFirst)
	if prefix, ok := strings.CutSuffix(f.Action, "."); ok && prefix != "" {
		l.Where("starts_with(a.action, " + l.Arg(prefix+".") + ")")
	} else {
		Equal(l, "a.action", f.Action)
	}
	if actor := strings.TrimSpace(f.Actor); actor != "" {
		actors, err := s.auditActors(ctx, actor)
		if err != nil {
			return assess.Page[assess.AuditRecord]{}, DBError(err)
		}
		l.WhereResolved(actor, func(arg func(any) string) string {
			if len(actors) == 1 {
				return "a.actor = " + arg(actors[0])
			}
			return "a.actor = ANY(" + arg(actors) + "::text[])"
		})
	}
	Equal(l, "a.target_type", f.TargetType)
	Equal(l, "a.target_id", f.TargetID)
	if f.Action != "" || f.Actor != "" || f.TargetType != "" || f.TargetID != "" {
		l.CustomPlan()
	}
	if !f.From.IsZero() {
		l.Where("a.occurred_at >= " + l.Arg(f.From))
	}
	if !f.To.IsZero() {
		l.Where("a.occurred_at < " + l.Arg(f.To))
	}
	return CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanAuditRecord, func(a assess.AuditRecord) []any { return []any{a.ID} })
}

// auditActors resolves the actor filter's text to the recorded actors it matches: the text
// itself where rows were recorded under it (an id, system, cli:…), and the id of the user
// with that username (case-insensitive), in one round trip. Either alone is one value,
// which the index of actors walks newest first; as "the text or the username's id" in one
// condition, PostgreSQL read every row of both and sorted them (a user of 26,000 rows:
// 98 ms a page at make bench's million-row data). Matching nothing, the text is the one
// value, and the page is empty.
func (s *AuditService) auditActors(ctx context.Context, actor string) ([]string, error) {
	var userID *string
	var recorded bool
	err := s.db.Pool.QueryRow(ctx, `SELECT (SELECT id FROM users WHERE lower(username) = lower($1)),
		EXISTS (SELECT 1 FROM audit_log WHERE actor = $1)`, actor).Scan(&userID, &recorded)
	if err != nil {
		return nil, err
	}
	switch {
	case userID == nil || *userID == actor:
		return []string{actor}, nil
	case !recorded:
		return []string{*userID}, nil
	}
	return []string{actor, *userID}, nil
}

var _ assess.AuditService = (*AuditService)(nil)
