package postgres_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

func projectIDOf(p assess.Project) string { return p.ID }

// day is the calendar day days away from the fixture's today (its clock stays on one day).
func (k *storeKit) day(days int) string {
	return k.clock.Now().UTC().AddDate(0, 0, days).Format(time.DateOnly)
}

// TestProjectListFilters: the project list leaves archived projects out unless asked for
// (then only them); filters by state, tag, standard, entity and search (wildcards literal)
// in SQL; orders by name, newest first, or due date with the undated last, paging across
// them; each project comes with its links in name order and its overdue flag.
func TestProjectListFilters(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	asvs, ssdf := k.standard("asvs", "5", assess.StandardPublished), k.standard("ssdf", "1", assess.StandardPublished)
	shop, bank := k.entity("Shop", assess.EntityActive), k.entity("Bank", assess.EntityActive)
	yearly := k.tag("yearly")
	names := map[string]string{}
	for _, n := range []assess.NewProject{
		{Name: "Audit 2026", Description: "Yearly audit", State: assess.ProjectInProgress, DueDate: k.day(10),
			StandardIDs: []string{asvs}, EntityIDs: []string{shop}, TagIDs: []string{yearly}},
		{Name: "beta launch", DueDate: k.day(2), StandardIDs: []string{ssdf}, EntityIDs: []string{shop, bank}},
		{Name: "Cloud move", State: assess.ProjectOnHold, StandardIDs: []string{ssdf, asvs}},
		{Name: "Data migration", Description: "Moves 100% of the data", DueDate: k.day(-1)},
		{Name: "Exports", Description: "1000 rows a day"},
		{Name: "Old work", DueDate: k.day(1), StandardIDs: []string{asvs}},
	} {
		p, err := k.svc.Projects.CreateProject(k.ctx, n, k.actor())
		require.NoError(t, err)
		names[p.ID] = n.Name
		if n.Name == "Old work" {
			_, err := k.svc.Projects.ArchiveProject(k.ctx, p.ID, assess.ProjectArchive{Version: p.Version}, k.actor())
			require.NoError(t, err)
		}
	}
	list := func(f assess.ProjectFilter) []assess.Project {
		t.Helper()
		page, err := k.svc.Projects.FindProjects(k.ctx, f)
		require.NoError(t, err)
		return page.Items
	}
	for _, c := range []struct {
		name string
		f    assess.ProjectFilter
		want []string
	}{
		{"not archived, by name whatever the case", assess.ProjectFilter{}, []string{"Audit 2026", "beta launch", "Cloud move", "Data migration", "Exports"}},
		{"newest first", assess.ProjectFilter{Sort: "-createdAt"}, []string{"Exports", "Data migration", "Cloud move", "beta launch", "Audit 2026"}},
		{"soonest due first, undated last", assess.ProjectFilter{Sort: "dueDate"}, []string{"Data migration", "beta launch", "Audit 2026", "Cloud move", "Exports"}},
		{"only archived", assess.ProjectFilter{Archived: true}, []string{"Old work"}},
		{"state", assess.ProjectFilter{State: "new"}, []string{"beta launch", "Data migration", "Exports"}},
		{"tag", assess.ProjectFilter{Tag: yearly}, []string{"Audit 2026"}},
		{"standard", assess.ProjectFilter{Standard: asvs}, []string{"Audit 2026", "Cloud move"}},
		{"standard among archived", assess.ProjectFilter{Standard: asvs, Archived: true}, []string{"Old work"}},
		{"entity", assess.ProjectFilter{Entity: bank}, []string{"beta launch"}},
		{"search in description, any case", assess.ProjectFilter{Q: "YEARLY"}, []string{"Audit 2026"}},
		{"a percent sign matches itself", assess.ProjectFilter{Q: "100%"}, []string{"Data migration"}},
	} {
		t.Run(c.name, func(t *testing.T) { require.Equal(t, c.want, namesOf(list(c.f), projectIDOf, names)) })
	}

	t.Run("due-date pages cross into the undated", func(t *testing.T) {
		var got []string
		f := assess.ProjectFilter{Sort: "dueDate", PageRequest: assess.PageRequest{Limit: 2}}
		for range 4 {
			page, err := k.svc.Projects.FindProjects(k.ctx, f)
			require.NoError(t, err)
			got = append(got, namesOf(page.Items, projectIDOf, names)...)
			if page.NextCursor == "" {
				break
			}
			f.Cursor = page.NextCursor
		}
		require.Equal(t, []string{"Data migration", "beta launch", "Audit 2026", "Cloud move", "Exports"}, got)
	})

	t.Run("links by name and the overdue flag", func(t *testing.T) {
		overdue := map[string]bool{}
		for _, p := range append(list(assess.ProjectFilter{}), list(assess.ProjectFilter{Archived: true})...) {
			overdue[p.Name] = p.Overdue
			switch p.Name {
			case "Cloud move":
				require.Equal(t, []string{"asvs 5", "ssdf 1"}, []string{p.Standards[0].Name, p.Standards[1].Name})
			case "beta launch":
				require.Equal(t, []string{"Bank", "Shop"}, []string{p.Entities[0].Name, p.Entities[1].Name})
			case "Audit 2026":
				require.Equal(t, yearly, p.Tags[0].ID)
			}
		}
		require.Equal(t, map[string]bool{"Audit 2026": false, "beta launch": false, "Cloud move": false, "Data migration": true,
			"Exports": false, "Old work": false}, overdue)
	})
}

// TestProjectLinkRules: only published standards and entities that are not archived may
// be newly linked (422 naming the set), unknown ids are 400 naming their field, and what
// is already linked stays whatever became of it; a set given replaces the old one, a set
// absent stays; dates are checked as the project ends up.
func TestProjectLinkRules(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	published, draft := k.standard("asvs", "5", assess.StandardPublished), k.standard("ssdf", "1", assess.StandardDraft)
	shop, attic := k.entity("Shop", assess.EntityActive), k.entity("Attic", assess.EntityArchived)
	create := func(n assess.NewProject) (assess.Project, error) {
		n.Name = "Audit"
		return k.svc.Projects.CreateProject(k.ctx, n, k.actor())
	}
	for _, c := range []struct {
		name               string
		n                  assess.NewProject
		code, field, dcode string
	}{
		{"a draft standard", assess.NewProject{StandardIDs: []string{published, draft}}, assess.ECodeBusinessRule, "standardIds", "standard_not_published"},
		{"an archived entity", assess.NewProject{EntityIDs: []string{attic}}, assess.ECodeBusinessRule, "entityIds", assess.DetailEntityArchived},
		{"an unknown standard", assess.NewProject{StandardIDs: []string{k.newID(assess.PrefixStandard)}}, assess.ECodeValidation, "standardIds", "unknown"},
		{"an entity named as a standard", assess.NewProject{StandardIDs: []string{shop}}, assess.ECodeValidation, "standardIds", "unknown"},
		{"an unknown entity", assess.NewProject{EntityIDs: []string{shop, k.newID(assess.PrefixEntity)}}, assess.ECodeValidation, "entityIds", "unknown"},
		{"an unknown tag", assess.NewProject{TagIDs: []string{k.newID(assess.PrefixTag)}}, assess.ECodeValidation, "tagIds", "unknown"},
		{"an unknown owner", assess.NewProject{OwnerID: k.newID(assess.PrefixUser)}, assess.ECodeValidation, "ownerId", "unknown"},
		{"due before start", assess.NewProject{StartDate: "2026-05-02", DueDate: "2026-05-01"}, assess.ECodeValidation, "dueDate", "before_start"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := create(c.n)
			requireDetail(t, err, c.code, c.field, c.dcode)
		})
	}
	require.Equal(t, 0, k.count(`SELECT count(*) FROM projects`), "nothing was written")

	p, err := create(assess.NewProject{StandardIDs: []string{published, published}, EntityIDs: []string{shop}, StartDate: "2026-05-01"})
	require.NoError(t, err)
	require.Len(t, p.Standards, 1, "duplicates are ignored")
	k.exec(`UPDATE standards SET state = 'retired' WHERE id = $1`, published)
	k.exec(`UPDATE entities SET state = 'archived' WHERE id = $1`, shop)

	update := func(u assess.ProjectUpdate) (assess.Project, error) {
		u.Version = p.Version
		after, err := k.svc.Projects.UpdateProject(k.ctx, p.ID, u, k.actor())
		if err == nil {
			require.Equal(t, p.Version+1, after.Version)
			p = after
		}
		return after, err
	}
	_, err = update(assess.ProjectUpdate{StandardIDs: &[]string{published}, EntityIDs: &[]string{shop}})
	require.NoError(t, err, "what is linked stays linked")
	require.Equal(t, assess.StandardRetired, p.Standards[0].State)
	require.Equal(t, "Shop", p.Entities[0].Name)
	_, err = update(assess.ProjectUpdate{StandardIDs: &[]string{published, draft}})
	requireDetail(t, err, assess.ECodeBusinessRule, "standardIds", "standard_not_published")
	k.exec(`UPDATE entities SET state = 'active' WHERE id = $1`, attic)
	_, err = update(assess.ProjectUpdate{Name: ptr("Renamed"), EntityIDs: &[]string{attic}})
	require.NoError(t, err)
	require.Equal(t, "Renamed", p.Name)
	require.Equal(t, []string{"Attic"}, []string{p.Entities[0].Name}, "the set was replaced")
	require.Len(t, p.Standards, 1, "an absent set stays")
	_, err = update(assess.ProjectUpdate{StandardIDs: &[]string{}})
	require.NoError(t, err)
	require.Empty(t, p.Standards, "[] empties the set")
	require.Len(t, p.Entities, 1)

	_, err = update(assess.ProjectUpdate{DueDate: ptr("2026-04-30")})
	requireDetail(t, err, assess.ECodeValidation, "dueDate", "before_start")
	_, err = update(assess.ProjectUpdate{StartDate: ptr(""), DueDate: ptr("2026-04-30")})
	require.NoError(t, err, "the start date cleared in the same change")
	require.Equal(t, "", p.StartDate)
	require.Equal(t, "2026-04-30", p.DueDate)
}

// TestProjectLifecycleArchiveAndVersion: state moves follow the lifecycle (409 listing
// the allowed ones), changes check the version, an archived project is hidden, read-only
// (422 project_archived) and not overdue, archiving twice changes nothing, and a restored
// project takes changes again; deletion takes the links with it.
func TestProjectLifecycleArchiveAndVersion(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	st := k.standard("asvs", "5", assess.StandardRetired)
	p, err := k.svc.Projects.CreateProject(k.ctx, assess.NewProject{Name: "Audit", DueDate: k.day(-1)}, k.actor())
	require.NoError(t, err)
	k.exec(`INSERT INTO project_standards (project_id, standard_id) VALUES ($1, $2)`, p.ID, st)
	require.True(t, p.Overdue, "new and past due")
	move := func(to assess.ProjectState) error {
		after, err := k.svc.Projects.ChangeProjectState(k.ctx, p.ID, assess.ProjectStateChange{State: to, Version: p.Version}, k.actor())
		if err == nil {
			p = after
		}
		return err
	}
	var e *assess.Error
	require.ErrorAs(t, move(assess.ProjectComplete), &e)
	require.Equal(t, assess.ECodeInvalidState, e.Code)
	var allowed []string
	for _, d := range e.Details {
		allowed = append(allowed, d.Message)
	}
	require.Equal(t, []string{"in_progress", "on_hold", "retired"}, allowed)
	_, err = k.svc.Projects.ChangeProjectState(k.ctx, p.ID, assess.ProjectStateChange{State: assess.ProjectInProgress, Version: p.Version + 1}, k.actor())
	requireDetail(t, err, assess.ECodeVersionConflict, "version", "stale")
	require.NoError(t, move(assess.ProjectInProgress))
	require.True(t, p.Overdue)
	require.NoError(t, move(assess.ProjectComplete))
	require.False(t, p.Overdue, "a complete project is not overdue")
	require.NoError(t, move(assess.ProjectInProgress), "reopened")

	archived, err := k.svc.Projects.ArchiveProject(k.ctx, p.ID, assess.ProjectArchive{Version: p.Version}, k.actor())
	require.NoError(t, err)
	require.NotNil(t, archived.ArchivedAt)
	require.False(t, archived.Overdue, "an archived project is not overdue")
	require.Equal(t, p.Version+1, archived.Version)
	again, err := k.svc.Projects.ArchiveProject(k.ctx, p.ID, assess.ProjectArchive{Version: archived.Version}, k.actor())
	require.NoError(t, err)
	require.Equal(t, archived.Version, again.Version, "archiving twice changes nothing")
	page, err := k.svc.Projects.FindProjects(k.ctx, assess.ProjectFilter{})
	require.NoError(t, err)
	require.Empty(t, page.Items)
	p = archived
	requireCode(t, move(assess.ProjectOnHold), assess.ECodeBusinessRule, "project_archived")
	_, err = k.svc.Projects.UpdateProject(k.ctx, p.ID, assess.ProjectUpdate{Version: p.Version, Name: ptr("x")}, k.actor())
	requireCode(t, err, assess.ECodeBusinessRule, "project_archived")
	restored, err := k.svc.Projects.ArchiveProject(k.ctx, p.ID, assess.ProjectArchive{Version: p.Version, Archived: ptr(false)}, k.actor())
	require.NoError(t, err)
	require.Nil(t, restored.ArchivedAt)
	require.Equal(t, p.Version+1, restored.Version)
	require.True(t, restored.Overdue)
	p = restored
	require.NoError(t, move(assess.ProjectRetired))
	require.Equal(t, assess.ECodeInvalidState, assess.ErrorCode(move(assess.ProjectInProgress)), "retired is final")

	require.Equal(t, assess.ECodeConflict, assess.ErrorCode(k.svc.Standards.DeleteStandard(k.ctx, st, k.actor())), "the project holds the standard")
	require.NoError(t, k.svc.Projects.DeleteProject(k.ctx, p.ID, k.actor()))
	require.Equal(t, 0, k.count(`SELECT count(*) FROM project_standards`))
	require.NoError(t, k.svc.Standards.DeleteStandard(k.ctx, st, k.actor()), "nothing holds the standard any more")
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(k.svc.Projects.DeleteProject(k.ctx, p.ID, k.actor())))
}

// figuresText is the figures that count, as one comparable value.
type figuresText struct {
	Total, Complete, InProgress, Requirements, Answered, WithEvidence, Overdue, Assessed int
	ByState                                                                              map[assess.AssessmentState]int
	PercentComplete, EvidencePercent, AverageScore                                       *float64
	Warnings                                                                             []string
}

func figuresOf(f assess.ProjectFigures) figuresText {
	out := figuresText{Total: f.Assessments.Total, Complete: f.Assessments.Complete, InProgress: f.Assessments.InProgress,
		Requirements: f.Assessments.Requirements, Answered: f.Assessments.Answered, WithEvidence: f.EvidenceCoverage.WithEvidence,
		Overdue: f.Overdue.Assessments, Assessed: f.Conformance.Assessed, ByState: map[assess.AssessmentState]int{},
		PercentComplete: f.Assessments.PercentComplete, EvidencePercent: f.EvidenceCoverage.Percent, AverageScore: f.Conformance.AverageScore,
		Warnings: []string{}}
	for s, n := range f.Assessments.ByState {
		if n > 0 {
			out.ByState[s] = n
		}
	}
	for _, w := range f.Warnings {
		out.Warnings = append(out.Warnings, w.Code)
	}
	return out
}

// TestProjectFiguresCountOnlyVisibleAssessments: the figures of a constructed project,
// exactly — assessments by state, requirements and answers of those not cancelled,
// evidence coverage, overdue (not finished, not cancelled, due before today), the mean
// score of the finished assessments that have one — for a caller who sees every
// assessment, and, over the same project, for a team member, for the author of evidence
// linked into one, and for an outsider, who see only their own.
func TestProjectFiguresCountOnlyVisibleAssessments(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	st := k.standard("asvs", "5", assess.StandardPublished)
	var rqs []string
	for _, r := range []string{"R1", "R2", "R3", "R4"} {
		rqs = append(rqs, k.requirement(st, r))
	}
	en := k.entity("Shop", assess.EntityActive)
	pr, err := k.svc.Projects.CreateProject(k.ctx, assess.NewProject{Name: "Yearly", DueDate: k.day(1), StandardIDs: []string{st}}, k.actor())
	require.NoError(t, err)
	ann, eve, outsider := k.user("ann", assess.RoleAssessor), k.user("eve", assess.RoleAssessee), k.user("outsider", assess.RoleAssessor)

	// assessmentOf makes an assessment of project in state, due on due, with score, and
	// loads a requirement per result given (a result or "" for none); those marked with "+"
	// get a piece of the administrator's evidence linked.
	assessmentOf := func(state assess.AssessmentState, due string, score string, project string, results ...string) string {
		t.Helper()
		as := k.assessment(string(state), en, project, state)
		k.exec(`UPDATE assessments SET due_date = nullif($2, '')::date, conformance_score = nullif($3, '')::numeric WHERE id = $1`, as, due, score)
		for i, r := range results {
			ar := k.load(as, st, rqs[i])
			result, linked := r, false
			if len(r) > 0 && r[len(r)-1] == '+' {
				result, linked = r[:len(r)-1], true
			}
			k.exec(`UPDATE assessment_requirements SET result = nullif($2, '') WHERE id = $1`, ar, result)
			if linked {
				ev := k.newID(assess.PrefixEvidence)
				k.exec(`INSERT INTO evidence (id, name, author_id) VALUES ($1, 'E', $2)`, ev, k.admin.ID)
				k.exec(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id) VALUES ($1, $2, $3)`, ar, ev, as)
			}
		}
		return as
	}
	working := assessmentOf(assess.AssessmentInProgress, k.day(-1), "", pr.ID, "yes+", "no", "", "")
	assessmentOf(assess.AssessmentComplete, k.day(-3), "80.00", pr.ID, "yes+", "not_applicable")
	archived := assessmentOf(assess.AssessmentArchived, "", "60.50", pr.ID, "partial")
	assessmentOf(assess.AssessmentCancelled, k.day(-1), "10.00", pr.ID, "yes+", "yes+", "no")
	assessmentOf(assess.AssessmentNew, k.day(0), "", pr.ID)
	assessmentOf(assess.AssessmentComplete, "", "", pr.ID, "not_applicable") // no score: every answer not applicable
	assessmentOf(assess.AssessmentInProgress, k.day(-1), "", k.project("Other"), "yes+")
	k.member(working, ann, assess.RoleInAssessmentAssessor)
	ev := k.newID(assess.PrefixEvidence)
	k.exec(`INSERT INTO evidence (id, name, author_id) VALUES ($1, 'Eve''s', $2)`, ev, eve.ID)
	k.exec(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
		SELECT id, $2, assessment_id FROM assessment_requirements WHERE assessment_id = $1`, archived, ev)

	figures := func(actor assess.Actor) figuresText {
		t.Helper()
		f, err := k.svc.Projects.FindProjectFigures(k.ctx, pr.ID, actor)
		require.NoError(t, err)
		return figuresOf(f)
	}
	for _, c := range []struct {
		name  string
		actor assess.Actor
		want  figuresText
	}{
		{"every assessment", k.adminSignedIn(), figuresText{Total: 6, Complete: 3, InProgress: 1, Requirements: 8, Answered: 6, WithEvidence: 3,
			Overdue: 1, Assessed: 2, ByState: map[assess.AssessmentState]int{"in_progress": 1, "complete": 2, "archived": 1, "cancelled": 1, "new": 1},
			PercentComplete: ptr(70.0), EvidencePercent: ptr(37.5), AverageScore: ptr(70.25), Warnings: []string{"assessments_overdue", "work_started"}}},
		{"a team member", signedIn(k.eventsFixture, ann), figuresText{Total: 1, InProgress: 1, Requirements: 4, Answered: 2, WithEvidence: 1,
			Overdue: 1, ByState: map[assess.AssessmentState]int{"in_progress": 1},
			PercentComplete: ptr(50.0), EvidencePercent: ptr(25.0), Warnings: []string{"assessments_overdue", "work_started"}}},
		{"the author of linked evidence", signedIn(k.eventsFixture, eve), figuresText{Total: 1, Complete: 1, Requirements: 1, Answered: 1,
			WithEvidence: 1, Assessed: 1, ByState: map[assess.AssessmentState]int{"archived": 1},
			PercentComplete: ptr(100.0), EvidencePercent: ptr(100.0), AverageScore: ptr(60.5), Warnings: []string{"ready_to_complete"}}},
		{"an outsider", signedIn(k.eventsFixture, outsider), figuresText{ByState: map[assess.AssessmentState]int{}, Warnings: []string{}}},
	} {
		t.Run(c.name, func(t *testing.T) { require.Equal(t, c.want, figures(c.actor)) })
	}

	t.Run("warnings about the project itself", func(t *testing.T) {
		bare, err := k.svc.Projects.CreateProject(k.ctx, assess.NewProject{Name: "Bare", DueDate: k.day(-1), StandardIDs: []string{st}}, k.actor())
		require.NoError(t, err)
		k.exec(`UPDATE standards SET state = 'retired' WHERE id = $1`, st)
		f, err := k.svc.Projects.FindProjectFigures(k.ctx, bare.ID, k.adminSignedIn())
		require.NoError(t, err)
		require.Equal(t, []string{"standard_not_published", "overdue"}, figuresOf(f).Warnings)
		require.True(t, f.Overdue.Project)
		empty, err := k.svc.Projects.CreateProject(k.ctx, assess.NewProject{Name: "Empty"}, k.actor())
		require.NoError(t, err)
		f, err = k.svc.Projects.FindProjectFigures(k.ctx, empty.ID, k.adminSignedIn())
		require.NoError(t, err)
		require.Equal(t, []string{"no_standards"}, figuresOf(f).Warnings)
		_, err = k.svc.Projects.FindProjectFigures(k.ctx, k.newID(assess.PrefixProject), k.adminSignedIn())
		require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err))
	})
}
