package postgres_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// The object-level access rule is decided in Go for single reads (assess.CanSeeAssessment
// and assess.CanSeeEvidence from the ties the store loads), written in SQL for lists and
// sets (visibility.go: the assessment list condition, the evidence list and set
// conditions) and in SQL functions for the event fan-out (0011_assessments.sql). This
// test holds all of them to the same answers, and to the rule as documented, for every
// user and record of a small organisation covering each way of taking part.
func TestVisibilityRuleAgreesInGoAndSQL(t *testing.T) {
	f := newEventsFixture(t, allOff())
	// Records are named here and given real identifiers (malformed ids are 404 before SQL).
	ids := map[string]string{}
	for _, name := range []string{"as_team", "as_linked", "as_claims", "as_alone", "ev_linked", "ev_own", "ev_cited", "ev_team",
		"ar_team", "ar_linked", "cl_1"} {
		prefix, _, _ := strings.Cut(name, "_")
		ids[name] = assess.NewID(prefix+"_", f.clock.Now())
	}
	exec := func(sql string, args ...any) {
		t.Helper()
		for name, id := range ids {
			sql = strings.ReplaceAll(sql, "${"+name+"}", "'"+id+"'")
		}
		_, err := f.pool.Exec(f.ctx, sql, args...)
		require.NoError(t, err, sql)
	}
	users := map[string]assess.User{"admin": f.admin}
	for _, u := range []struct{ name, role string }{
		{"assessor", assess.RoleAssessor}, {"assessee", assess.RoleAssessee}, {"outsider", assess.RoleAssessor},
		{"author", assess.RoleAssessee}, {"reviewer", assess.RoleAssessor}, {"citer", assess.RoleAssessee},
		{"allviewer", assess.RoleAssessee}, {"evviewer", assess.RoleAssessee},
	} {
		users[u.name] = f.user(u.name, u.role)
	}
	// Custom roles widening what their holders see.
	exec(`INSERT INTO roles (id, name) VALUES ('ro_viewall', 'view_all_assessments'), ('ro_evall', 'view_all_evidence')`)
	exec(`INSERT INTO role_permissions VALUES ('ro_viewall', 'assessments.view_all'), ('ro_evall', 'evidence.view_all')`)
	exec(`INSERT INTO user_roles VALUES ($1, 'ro_viewall'), ($2, 'ro_evall')`, users["allviewer"].ID, users["evviewer"].ID)

	exec(`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'Shop', 'product')`)
	exec(`INSERT INTO standards (id, identifier, name, state) VALUES ('st_1', 'asvs', 'ASVS', 'published')`)
	exec(`INSERT INTO requirements (id, standard_id, identifier, natural_key) VALUES ('rq_1', 'st_1', 'V1', 'V1')`)
	exec(`INSERT INTO assessments (id, title, entity_id) VALUES (${as_team}, 'Team', 'en_1'), (${as_linked}, 'Linked', 'en_1'),
		(${as_claims}, 'Claims', 'en_1'), (${as_alone}, 'Alone', 'en_1')`)
	exec(`INSERT INTO assessment_members VALUES (${as_team}, $1, 'assessor'), (${as_team}, $2, 'assessee'),
		(${as_claims}, $3, 'assessor')`, users["assessor"].ID, users["assessee"].ID, users["citer"].ID)
	exec(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id) VALUES
		(${ar_team}, ${as_team}, 'rq_1', 'st_1'), (${ar_linked}, ${as_linked}, 'rq_1', 'st_1')`)
	exec(`INSERT INTO evidence (id, name, author_id, reviewer_id) VALUES (${ev_linked}, 'Linked', $1, $2),
		(${ev_own}, 'Own', $3, NULL), (${ev_cited}, 'Cited', $4, NULL), (${ev_team}, 'Team', $5, NULL)`,
		users["author"].ID, users["reviewer"].ID, users["assessee"].ID, f.admin.ID, f.admin.ID)
	exec(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id) VALUES
		(${ar_linked}, ${ev_linked}, ${as_linked}), (${ar_team}, ${ev_team}, ${as_team})`)
	exec(`INSERT INTO claims (id, assessment_id, name, target, predicate) VALUES (${cl_1}, ${as_claims}, 'C', 'Shop', 'P')`)
	exec(`INSERT INTO claim_evidence VALUES (${cl_1}, ${ev_cited}, 'evidence')`)

	// Who sees what, as docs/assessments.md states the rule.
	want := map[string][]string{
		"admin":     {"as_team", "as_linked", "as_claims", "as_alone", "ev_linked", "ev_own", "ev_cited", "ev_team"},
		"allviewer": {"as_team", "as_linked", "as_claims", "as_alone", "ev_linked", "ev_own", "ev_cited", "ev_team"},
		"evviewer":  {"ev_linked", "ev_own", "ev_cited", "ev_team"},
		"assessor":  {"as_team", "ev_team"},
		"assessee":  {"as_team", "ev_own", "ev_team"},
		"author":    {"as_linked", "ev_linked"},
		"reviewer":  {"as_linked", "ev_linked"},
		"citer":     {"as_claims", "ev_cited"},
		"outsider":  nil,
	}
	records := []string{"as_team", "as_linked", "as_claims", "as_alone", "ev_linked", "ev_own", "ev_cited", "ev_team"}
	for name, u := range users {
		var perms []string
		rows, err := f.pool.Query(f.ctx, `SELECT DISTINCT rp.permission FROM user_roles ur JOIN role_permissions rp
			ON rp.role_id = ur.role_id WHERE ur.user_id = $1 ORDER BY 1`, u.ID)
		require.NoError(t, err)
		for rows.Next() {
			var p string
			require.NoError(t, rows.Scan(&p))
			perms = append(perms, p)
		}
		require.NoError(t, rows.Err())
		actor := assess.Actor{ID: u.ID, Principal: &assess.Principal{User: u, Permissions: perms}}
		for _, rec := range records {
			kind, fn := "assessment", "assessment_visible"
			if rec[:3] == "ev_" {
				kind, fn = "evidence", "evidence_visible"
			}
			inGo, err := f.db.VisibleForTest(f.ctx, actor, kind, ids[rec])
			require.NoError(t, err)
			forms := []string{kind + "-array"}
			if kind == "assessment" {
				forms = append(forms, "assessment-list", "assessment-page", "assessment-write", "assessment-lookup")
			}
			if kind == "evidence" {
				forms = append(forms, "evidence-set", "evidence-ids", "evidence-few")
			}
			for _, form := range forms {
				inSQL, err := f.db.VisibleForTest(f.ctx, actor, form, ids[rec])
				require.NoError(t, err)
				require.Equal(t, inGo, inSQL, "%s sees %s (%s form)", name, rec, form)
			}
			var inSQL bool
			require.NoError(t, f.pool.QueryRow(f.ctx, fmt.Sprintf("SELECT %s($1, $2)", fn), u.ID, ids[rec]).Scan(&inSQL))
			expected := slices.Contains(want[name], rec)
			require.Equal(t, expected, inGo, "%s sees %s (Go)", name, rec)
			require.Equal(t, expected, inSQL, "%s sees %s (SQL)", name, rec)
		}
	}
}

// An event about an assessment reaches its audience and the holders of the type's
// permission only when they may see the assessment; the same for evidence.
func TestEventsReachOnlyUsersWhoMaySeeTheRecord(t *testing.T) {
	f := newEventsFixture(t, allOff())
	member, outsider, author := f.user("member", assess.RoleAssessor), f.user("outsider", assess.RoleAssessor), f.user("author", assess.RoleAssessee)
	as, ev := assess.NewID(assess.PrefixAssessment, f.clock.Now()), assess.NewID(assess.PrefixEvidence, f.clock.Now())
	for _, sql := range []string{
		`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'Shop', 'product')`,
		`INSERT INTO assessments (id, title, entity_id) VALUES ('` + as + `', 'A', 'en_1')`,
		`INSERT INTO assessment_members VALUES ('` + as + `', '` + member.ID + `', 'assessor')`,
		`INSERT INTO evidence (id, name, author_id) VALUES ('` + ev + `', 'E', '` + author.ID + `')`,
	} {
		_, err := f.pool.Exec(f.ctx, sql)
		require.NoError(t, err, sql)
	}
	// The audience names an outsider too (say, a stale team list): they are not told.
	id, err := f.db.EmitForTest(f.ctx, f.actor(), assess.NewEvent{Type: assess.EventAssessmentCreated, Data: assess.AssessmentEvent{},
		Audience: []string{member.ID, outsider.ID}, AssessmentID: as, Summary: "A"}, true)
	require.NoError(t, err)
	require.Equal(t, []string{"member"}, f.notified(id))
	// evidence.expiring goes to its subject, the author, who may see it; an outsider
	// named as subject of an evidence event they cannot see gets nothing.
	id, err = f.db.EmitForTest(f.ctx, f.actor(), assess.NewEvent{Type: assess.EventEvidenceExpiring, Data: assess.EvidenceEvent{},
		SubjectUserID: author.ID, EvidenceID: ev, Summary: "E"}, true)
	require.NoError(t, err)
	require.Equal(t, []string{"author"}, f.notified(id))
	id, err = f.db.EmitForTest(f.ctx, f.actor(), assess.NewEvent{Type: assess.EventEvidenceExpiring, Data: assess.EvidenceEvent{},
		SubjectUserID: outsider.ID, EvidenceID: ev, Summary: "E"}, true)
	require.NoError(t, err)
	require.Empty(t, f.notified(id))
}
