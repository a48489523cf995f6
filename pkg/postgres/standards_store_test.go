package postgres_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// Store tests of the rules that run in SQL for standards, entities, projects and evidence
// (standards_store_test.go, entities_store_test.go, projects_store_test.go,
// evidence_store_test.go). storeKit below is the setup they share.

// storeKit is the events fixture (a database of its own, an administrator, a ticking
// clock) with the setup steps of the store tests. Records a test is not about are made
// in SQL; the records under test go through the services.
type storeKit struct {
	*eventsFixture
}

func newStoreKit(t *testing.T) *storeKit {
	t.Helper()
	return &storeKit{newEventsFixture(t, allOff())}
}

// exec runs a setup statement.
func (k *storeKit) exec(sql string, args ...any) {
	k.t.Helper()
	_, err := k.pool.Exec(k.ctx, sql, args...)
	require.NoError(k.t, err, sql)
}

// newID is a fresh id of prefix on the fixture's clock, so ids sort in the order made.
func (k *storeKit) newID(prefix string) string { return assess.NewID(prefix, k.clock.Now()) }

// adminSignedIn is the administrator signed in, with every permission (k.actor() is the
// administrator without a principal, who sees no assessment or evidence of others).
func (k *storeKit) adminSignedIn() assess.Actor {
	return signedIn(k.eventsFixture, k.admin)
}

// tag creates a tag and returns its id.
func (k *storeKit) tag(name string) string {
	k.t.Helper()
	tg, err := k.svc.Tags.CreateTag(k.ctx, assess.NewTag{Name: name}, k.actor())
	require.NoError(k.t, err)
	return tg.ID
}

// standard inserts a standard in state with SQL and returns its id.
func (k *storeKit) standard(identifier, version string, state assess.StandardState) string {
	k.t.Helper()
	id := k.newID(assess.PrefixStandard)
	k.exec(`INSERT INTO standards (id, identifier, standard_version, name, state) VALUES ($1, $2, $3, $2 || ' ' || $3, $4)`,
		id, identifier, version, state)
	return id
}

// requirement inserts a top-level requirement of standard with SQL and returns its id.
func (k *storeKit) requirement(standard, identifier string) string {
	k.t.Helper()
	id := k.newID(assess.PrefixRequirement)
	k.exec(`INSERT INTO requirements (id, standard_id, identifier, natural_key) VALUES ($1, $2, $3, $4)`,
		id, standard, identifier, assess.NaturalKey(identifier))
	return id
}

// entity inserts an entity with SQL and returns its id.
func (k *storeKit) entity(name string, state assess.EntityState) string {
	k.t.Helper()
	id := k.newID(assess.PrefixEntity)
	k.exec(`INSERT INTO entities (id, name, entity_type, state) VALUES ($1, $2, 'product', $3)`, id, name, state)
	return id
}

// project inserts a project with SQL and returns its id.
func (k *storeKit) project(name string) string {
	k.t.Helper()
	id := k.newID(assess.PrefixProject)
	k.exec(`INSERT INTO projects (id, name) VALUES ($1, $2)`, id, name)
	return id
}

// assessment inserts an assessment of entity in state (of project, unless "") with SQL
// and returns its id.
func (k *storeKit) assessment(title, entity, project string, state assess.AssessmentState) string {
	k.t.Helper()
	id := k.newID(assess.PrefixAssessment)
	k.exec(`INSERT INTO assessments (id, title, entity_id, project_id, state) VALUES ($1, $2, $3, nullif($4, ''), $5)`,
		id, title, entity, project, state)
	return id
}

// load inserts the assessment requirement of requirement rq (of standard st) into
// assessment as and returns its id.
func (k *storeKit) load(as, st, rq string) string {
	k.t.Helper()
	id := k.newID(assess.PrefixAssessmentRequirement)
	k.exec(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id) VALUES ($1, $2, $3, $4)`, id, as, rq, st)
	return id
}

// member puts user on the team of assessment as in role.
func (k *storeKit) member(as string, u assess.User, role assess.MemberRole) {
	k.t.Helper()
	k.exec(`INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ($1, $2, $3)`, as, u.ID, role)
}

// namesOf maps items to their names through id → name, keeping the order, so a failure
// shows which records are missing or misplaced.
func namesOf[T any](items []T, id func(T) string, names map[string]string) []string {
	out := []string{}
	for _, it := range items {
		n, ok := names[id(it)]
		if !ok {
			n = "?" + id(it)
		}
		out = append(out, n)
	}
	return out
}

// requireDetail asserts an *assess.Error with code whose details hold field with
// detailCode.
func requireDetail(t *testing.T, err error, code, field, detailCode string) {
	t.Helper()
	var e *assess.Error
	require.True(t, errors.As(err, &e), "want *assess.Error %s, got %v", code, err)
	require.Equal(t, code, e.Code, e.Message)
	var got []string
	for _, d := range e.Details {
		if d.Field == field && d.Code == detailCode {
			return
		}
		got = append(got, d.Field+":"+d.Code)
	}
	require.Failf(t, "detail missing", "want %s:%s among %v", field, detailCode, got)
}

func standardIDOf(s assess.Standard) string { return s.ID }

// TestStandardListFiltersAndOrders: every filter of the standard list (state, owner,
// identifier, tag, search over name, identifier and description with wildcards taken
// literally) and every order (name case-insensitively, newest first, identifier then
// version), paged on a cursor bound to its filters; the versions of an identifier newest
// first.
func TestStandardListFiltersAndOrders(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	web, iso := k.tag("web"), k.tag("iso")
	names := map[string]string{}
	ids := map[string]string{}
	for _, s := range []struct {
		key   string
		n     assess.NewStandard
		state assess.StandardState
	}{
		{"asvs4", assess.NewStandard{Identifier: "owasp-asvs", StandardVersion: "4.0.3", Name: "OWASP ASVS", Owner: "OWASP",
			Description: "Application security verification", TagIDs: []string{web}}, assess.StandardPublished},
		{"asvs5", assess.NewStandard{Identifier: "owasp-asvs", StandardVersion: "5.0.0", Name: "OWASP ASVS", Owner: "OWASP",
			TagIDs: []string{web}}, assess.StandardDraft},
		{"ssdf", assess.NewStandard{Identifier: "nist-ssdf", StandardVersion: "1.1", Name: "NIST SSDF", Owner: "NIST",
			Description: "Secure software development framework"}, assess.StandardPublished},
		{"iso", assess.NewStandard{Identifier: "iso-27001", StandardVersion: "2022", Name: "iso 27001", Owner: "ISO",
			Description: "Annex A has 1000 words", TagIDs: []string{iso, web}}, assess.StandardRetired},
		{"pci", assess.NewStandard{Identifier: "pci-dss", StandardVersion: "4.0", Name: "PCI DSS", Owner: "PCI SSC",
			Description: "Covers 100% of card data"}, assess.StandardInReview},
	} {
		st, err := k.svc.Standards.CreateStandard(k.ctx, s.n, k.actor())
		require.NoError(t, err)
		k.exec(`UPDATE standards SET state = $2 WHERE id = $1`, st.ID, s.state)
		names[st.ID], ids[s.key] = s.key, st.ID
	}

	list := func(f assess.StandardFilter) []string {
		t.Helper()
		page, err := k.svc.Standards.FindStandards(k.ctx, f)
		require.NoError(t, err)
		return namesOf(page.Items, standardIDOf, names)
	}
	for _, c := range []struct {
		name string
		f    assess.StandardFilter
		want []string
	}{
		{"by name, case-insensitively, then id", assess.StandardFilter{}, []string{"iso", "ssdf", "asvs4", "asvs5", "pci"}},
		{"newest first", assess.StandardFilter{Sort: "-createdAt"}, []string{"pci", "iso", "ssdf", "asvs5", "asvs4"}},
		{"by identifier then version", assess.StandardFilter{Sort: "identifier"}, []string{"iso", "ssdf", "asvs4", "asvs5", "pci"}},
		{"state", assess.StandardFilter{State: "published"}, []string{"ssdf", "asvs4"}},
		{"owner is exact", assess.StandardFilter{Owner: "OWASP"}, []string{"asvs4", "asvs5"}},
		{"owner is case-sensitive", assess.StandardFilter{Owner: "owasp"}, []string{}},
		{"identifier", assess.StandardFilter{Identifier: "owasp-asvs", Sort: "-createdAt"}, []string{"asvs5", "asvs4"}},
		{"tag", assess.StandardFilter{Tag: web}, []string{"iso", "asvs4", "asvs5"}},
		{"tag and state", assess.StandardFilter{Tag: web, State: "draft"}, []string{"asvs5"}},
		{"search in identifier", assess.StandardFilter{Q: "SSDF"}, []string{"ssdf"}},
		{"search in description, any case", assess.StandardFilter{Q: "FRAMEWORK"}, []string{"ssdf"}},
		{"a percent sign matches itself", assess.StandardFilter{Q: "100%"}, []string{"pci"}},
		{"an underscore matches itself", assess.StandardFilter{Q: "owasp_asvs"}, []string{}},
		{"blank search", assess.StandardFilter{Q: "  "}, []string{"iso", "ssdf", "asvs4", "asvs5", "pci"}},
	} {
		t.Run(c.name, func(t *testing.T) { require.Equal(t, c.want, list(c.f)) })
	}

	t.Run("pages follow the order and the cursor is bound to the filters", func(t *testing.T) {
		var got []string
		f := assess.StandardFilter{PageRequest: assess.PageRequest{Limit: 2}}
		for range 4 {
			page, err := k.svc.Standards.FindStandards(k.ctx, f)
			require.NoError(t, err)
			got = append(got, namesOf(page.Items, standardIDOf, names)...)
			if page.NextCursor == "" {
				break
			}
			require.True(t, page.HasMore)
			f.Cursor = page.NextCursor
		}
		require.Equal(t, []string{"iso", "ssdf", "asvs4", "asvs5", "pci"}, got)

		first, err := k.svc.Standards.FindStandards(k.ctx, assess.StandardFilter{PageRequest: assess.PageRequest{Limit: 2}})
		require.NoError(t, err)
		_, err = k.svc.Standards.FindStandards(k.ctx, assess.StandardFilter{State: "published",
			PageRequest: assess.PageRequest{Limit: 2, Cursor: first.NextCursor}})
		requireDetail(t, err, assess.ECodeValidation, "cursor", "invalid")
		_, err = k.svc.Standards.FindStandards(k.ctx, assess.StandardFilter{Sort: "-createdAt",
			PageRequest: assess.PageRequest{Limit: 2, Cursor: first.NextCursor}})
		requireDetail(t, err, assess.ECodeValidation, "cursor", "invalid")
	})

	t.Run("versions of an identifier, newest first", func(t *testing.T) {
		page, err := k.svc.Standards.FindStandardVersions(k.ctx, ids["asvs4"], assess.PageRequest{})
		require.NoError(t, err)
		require.Equal(t, []string{"asvs5", "asvs4"}, namesOf(page.Items, standardIDOf, names))
	})

	t.Run("tags come with each standard, by name", func(t *testing.T) {
		st, err := k.svc.Standards.FindStandard(k.ctx, ids["iso"])
		require.NoError(t, err)
		require.Equal(t, []string{"iso", "web"}, []string{st.Tags[0].Name, st.Tags[1].Name})
		require.Len(t, st.Tags, 2)
	})
}

// TestStandardIdentifierAndVersionAreUnique: (identifier, standardVersion) is unique —
// on create, update and duplicate — with 409 already_exists naming standardVersion; the
// same version of another identifier and another version of the same one are fine.
func TestStandardIdentifierAndVersionAreUnique(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	create := func(identifier, version string) (assess.Standard, error) {
		return k.svc.Standards.CreateStandard(k.ctx, assess.NewStandard{Identifier: identifier, StandardVersion: version, Name: identifier}, k.actor())
	}
	_, err := create("owasp-asvs", "5.0.0")
	require.NoError(t, err)
	_, err = create("owasp-asvs", "5.0.0")
	requireDetail(t, err, assess.ECodeAlreadyExists, "standardVersion", "taken")
	_, err = create(" owasp-asvs ", "5.0.0") // trimmed before it is compared
	requireDetail(t, err, assess.ECodeAlreadyExists, "standardVersion", "taken")
	other, err := create("owasp-asvs", "4.0.3")
	require.NoError(t, err)
	_, err = create("owasp-samm", "5.0.0")
	require.NoError(t, err)

	_, err = k.svc.Standards.UpdateStandard(k.ctx, other.ID, assess.StandardUpdate{Version: other.Version, StandardVersion: ptr("5.0.0")}, k.actor())
	requireDetail(t, err, assess.ECodeAlreadyExists, "standardVersion", "taken")
	_, err = k.svc.Standards.DuplicateStandard(k.ctx, other.ID, assess.DuplicateRequest{StandardVersion: "5.0.0"}, k.actor())
	requireDetail(t, err, assess.ECodeAlreadyExists, "standardVersion", "taken")

	require.Equal(t, 3, k.count(`SELECT count(*) FROM standards`), "no refused write left a row")
	after, err := k.svc.Standards.FindStandard(k.ctx, other.ID)
	require.NoError(t, err)
	require.Equal(t, "4.0.3", after.StandardVersion)
	require.Equal(t, other.Version, after.Version, "the refused update did not bump the version")
}

// TestStandardContentChangesOnlyWhileDraft: the four-eyes lifecycle in the store — the
// submitter may neither approve nor reject, a rejection keeps its reason until approval,
// moves outside the lifecycle are refused — and every content write of a standard that is
// not a draft is 409 not_draft, while its tags may change in any state.
func TestStandardContentChangesOnlyWhileDraft(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	author := signedIn(k.eventsFixture, k.user("author", assess.RoleStandardsManager))
	approver := signedIn(k.eventsFixture, k.user("approver", assess.RoleStandardsApprover))
	svc := k.svc.Standards
	st, err := svc.CreateStandard(k.ctx, assess.NewStandard{Identifier: "std", StandardVersion: "1", Name: "Standard"}, author)
	require.NoError(t, err)
	rq, err := svc.CreateRequirement(k.ctx, st.ID, assess.NewRequirement{Identifier: "R1"}, author)
	require.NoError(t, err)
	lv, err := svc.CreateLevel(k.ctx, st.ID, assess.NewLevel{Identifier: "L1", RequirementIDs: []string{rq.ID}}, author)
	require.NoError(t, err)

	_, err = svc.ApproveStandard(k.ctx, st.ID, approver)
	require.Equal(t, assess.ECodeInvalidState, assess.ErrorCode(err), "a draft is not approved: %v", err)
	_, err = svc.SubmitStandard(k.ctx, st.ID, author)
	require.NoError(t, err)
	_, err = svc.ApproveStandard(k.ctx, st.ID, author)
	requireCode(t, err, assess.ECodeBusinessRule, "four_eyes")
	_, err = svc.RejectStandard(k.ctx, st.ID, assess.RejectRequest{Reason: "no"}, author)
	requireCode(t, err, assess.ECodeBusinessRule, "four_eyes")
	rejected, err := svc.RejectStandard(k.ctx, st.ID, assess.RejectRequest{Reason: "Name the owner."}, approver)
	require.NoError(t, err)
	require.Equal(t, assess.StandardDraft, rejected.State)
	require.Equal(t, "Name the owner.", rejected.RejectionReason)
	require.Equal(t, approver.ID, rejected.RejectedBy)
	_, err = svc.SubmitStandard(k.ctx, st.ID, author)
	require.NoError(t, err)
	published, err := svc.ApproveStandard(k.ctx, st.ID, approver)
	require.NoError(t, err)
	require.Equal(t, assess.StandardPublished, published.State)
	require.Equal(t, "", published.RejectionReason, "approval clears the rejection")
	require.Equal(t, approver.ID, published.ApprovedBy)
	require.Equal(t, author.ID, published.SubmittedBy)
	_, err = svc.SubmitStandard(k.ctx, st.ID, author)
	require.Equal(t, assess.ECodeInvalidState, assess.ErrorCode(err), "%v", err)

	bulk := assess.BulkRequirements{Requirements: []assess.BulkRequirement{{Identifier: "R2"}}}
	for name, write := range map[string]func() error{
		"metadata": func() error {
			_, err := svc.UpdateStandard(k.ctx, st.ID, assess.StandardUpdate{Version: published.Version, Name: ptr("Renamed")}, author)
			return err
		},
		"new requirement": func() error {
			_, err := svc.CreateRequirement(k.ctx, st.ID, assess.NewRequirement{Identifier: "R2"}, author)
			return err
		},
		"requirement update": func() error {
			_, err := svc.UpdateRequirement(k.ctx, st.ID, rq.ID, assess.RequirementUpdate{Version: rq.Version, Name: ptr("x")}, author)
			return err
		},
		"requirement move": func() error {
			_, err := svc.MoveRequirement(k.ctx, st.ID, rq.ID, assess.RequirementMove{Position: 0}, author)
			return err
		},
		"requirement delete": func() error { return svc.DeleteRequirement(k.ctx, st.ID, rq.ID, author) },
		"bulk write": func() error {
			_, err := svc.WriteRequirements(k.ctx, st.ID, bulk, author)
			return err
		},
		"new level": func() error {
			_, err := svc.CreateLevel(k.ctx, st.ID, assess.NewLevel{Identifier: "L2"}, author)
			return err
		},
		"level update": func() error {
			_, err := svc.UpdateLevel(k.ctx, st.ID, lv.ID, assess.LevelUpdate{Version: lv.Version, Title: ptr("x")}, author)
			return err
		},
		"level delete": func() error { return svc.DeleteLevel(k.ctx, st.ID, lv.ID, author) },
	} {
		t.Run(name, func(t *testing.T) { requireDetail(t, write(), assess.ECodeConflict, "state", "not_draft") })
	}
	tree, err := svc.FindStandardTree(k.ctx, st.ID)
	require.NoError(t, err)
	require.Len(t, tree.Requirements, 1, "nothing was written")
	require.Len(t, tree.Levels, 1)

	web := k.tag("web")
	_, err = svc.UpdateStandard(k.ctx, st.ID, assess.StandardUpdate{Version: published.Version - 1, TagIDs: &[]string{web}}, author)
	requireDetail(t, err, assess.ECodeVersionConflict, "version", "stale")
	tagged, err := svc.UpdateStandard(k.ctx, st.ID, assess.StandardUpdate{Version: published.Version, TagIDs: &[]string{web}}, author)
	require.NoError(t, err, "tags change in any state")
	require.Equal(t, published.Version+1, tagged.Version)
	require.Equal(t, "web", tagged.Tags[0].Name)

	// The author of a draft may approve it when someone else submitted it.
	second, err := svc.CreateStandard(k.ctx, assess.NewStandard{Identifier: "std", StandardVersion: "2", Name: "Standard"}, author)
	require.NoError(t, err)
	_, err = svc.SubmitStandard(k.ctx, second.ID, approver)
	require.NoError(t, err)
	approved, err := svc.ApproveStandard(k.ctx, second.ID, author)
	require.NoError(t, err)
	require.Equal(t, assess.StandardPublished, approved.State)
}

// TestStandardRetireAndDeleteWhileInUse: what uses a standard (standardUsage) — projects,
// entities that are not archived through their policies, assessments that are not
// archived — refuses retirement with the counts and at most ten names of each kind in
// name order, unless forced; deletion is for drafts and retired standards, and a
// reference (an archived entity's policy included) refuses it with 409 in_use.
func TestStandardRetireAndDeleteWhileInUse(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	st := k.standard("std", "1", assess.StandardPublished)
	k.requirement(st, "R1")
	for i := range 11 { // made in the reverse of name order: P-10 … P-00
		p := k.project(fmt.Sprintf("P-%02d", 10-i))
		k.exec(`INSERT INTO project_standards (project_id, standard_id) VALUES ($1, $2)`, p, st)
	}
	live, archived := k.entity("Shop", assess.EntityActive), k.entity("Attic", assess.EntityArchived)
	for _, e := range []string{live, archived} {
		k.exec(`INSERT INTO compliance_policies (id, entity_id, standard_id) VALUES ($1, $2, $3)`, k.newID(assess.PrefixPolicy), e, st)
	}
	for _, s := range []assess.AssessmentState{assess.AssessmentInProgress, assess.AssessmentCancelled, assess.AssessmentArchived} {
		as := k.assessment("A "+string(s), live, "", s)
		k.exec(`INSERT INTO assessment_standards (assessment_id, standard_id) VALUES ($1, $2)`, as, st)
	}

	_, err := k.svc.Standards.RetireStandard(k.ctx, st, assess.RetireRequest{}, k.actor())
	var e *assess.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, assess.ECodeBusinessRule, e.Code)
	for _, counted := range []string{"11 project(s)", "1 entity(ies)", "2 assessment(s)"} { // not the archived ones
		require.Contains(t, e.Message, counted)
	}
	var named []string
	for _, d := range e.Details {
		require.Equal(t, "in_use", d.Code)
		if d.Field != "force" {
			named = append(named, d.Field+":"+d.Message)
		}
	}
	want := []string{}
	for i := range 10 {
		want = append(want, fmt.Sprintf("projects:P-%02d", i))
	}
	require.Equal(t, append(want, "entities:Shop"), named, "ten projects by name, the entity that is not archived")

	err = k.svc.Standards.DeleteStandard(k.ctx, st, k.actor())
	requireDetail(t, err, assess.ECodeConflict, "state", "not_deletable")
	retired, err := k.svc.Standards.RetireStandard(k.ctx, st, assess.RetireRequest{Force: true}, k.actor())
	require.NoError(t, err)
	require.Equal(t, assess.StandardRetired, retired.State)
	require.NotNil(t, retired.RetiredAt)

	// Deleting the retired standard: refused while anything refers to it.
	k.exec(`DELETE FROM assessments`)
	k.exec(`DELETE FROM compliance_policies WHERE entity_id = $1`, live)
	_, err = k.svc.Standards.RetireStandard(k.ctx, st, assess.RetireRequest{}, k.actor())
	require.Equal(t, assess.ECodeInvalidState, assess.ErrorCode(err), "retired is final: %v", err)
	err = k.svc.Standards.DeleteStandard(k.ctx, st, k.actor())
	requireCode(t, err, assess.ECodeConflict, "in_use")
	k.exec(`DELETE FROM project_standards`)
	err = k.svc.Standards.DeleteStandard(k.ctx, st, k.actor())
	requireCode(t, err, assess.ECodeConflict, "in_use") // the archived entity's policy still refers to it
	k.exec(`DELETE FROM compliance_policies`)
	require.NoError(t, k.svc.Standards.DeleteStandard(k.ctx, st, k.actor()))
	require.Equal(t, 0, k.count(`SELECT count(*) FROM requirements WHERE standard_id = $1`, st), "requirements go with it")
	_, err = k.svc.Standards.FindStandard(k.ctx, st)
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err))

	draft := k.standard("draft", "1", assess.StandardDraft)
	require.NoError(t, k.svc.Standards.DeleteStandard(k.ctx, draft, k.actor()))
	inReview := k.standard("review", "1", assess.StandardInReview)
	requireDetail(t, k.svc.Standards.DeleteStandard(k.ctx, inReview, k.actor()), assess.ECodeConflict, "state", "not_deletable")
}

// treeLine renders a requirement of the tree as "identifier@depth/children".
func treeLine(r assess.TreeRequirement) string {
	return fmt.Sprintf("%s@%d/%d", r.Identifier, r.Depth, r.ChildCount)
}

// treeOf returns the standard's tree as treeLines, depth first.
func treeOf(k *storeKit, standard string) []string {
	k.t.Helper()
	tree, err := k.svc.Standards.FindStandardTree(k.ctx, standard)
	require.NoError(k.t, err)
	out := make([]string, len(tree.Requirements))
	for i, r := range tree.Requirements {
		out[i] = treeLine(r)
	}
	return out
}

// TestStandardRequirementTreeOrder: the tree is depth first with siblings by position
// then natural order of the identifiers (V1.10 after V1.9, letters without case), each
// with its depth and child count; the requirement list pages in natural order whatever
// the positions, filtered by parent, level and search; counts on the standard come from
// SQL.
func TestStandardRequirementTreeOrder(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	svc := k.svc.Standards
	st, err := svc.CreateStandard(k.ctx, assess.NewStandard{Identifier: "std", StandardVersion: "1", Name: "Standard"}, k.actor())
	require.NoError(t, err)
	var items []assess.BulkRequirement
	for _, r := range []string{"V2", "V1", "V1.10>V1", "V1.9>V1", "V1.9.1>V1.9", "v1.a>V1", "V1.B>V1", "V10", "V3"} {
		id, parent, _ := strings.Cut(r, ">")
		items = append(items, assess.BulkRequirement{Identifier: id, ParentIdentifier: parent, Name: "Name of " + id})
	}
	res, err := svc.WriteRequirements(k.ctx, st.ID, assess.BulkRequirements{Requirements: items}, k.actor())
	require.NoError(t, err)
	require.Equal(t, assess.BulkResult{Created: 9}, res)
	require.Equal(t, []string{"V1@0/4", "V1.9@1/1", "V1.9.1@2/0", "V1.10@1/0", "v1.a@1/0", "V1.B@1/0", "V2@0/0", "V3@0/0", "V10@0/0"},
		treeOf(k, st.ID), "new requirements in natural order")

	// V10 placed first among the top level: position, then natural order.
	ids := map[string]string{}
	rows, err := k.pool.Query(k.ctx, `SELECT identifier, id FROM requirements WHERE standard_id = $1`, st.ID)
	require.NoError(t, err)
	for rows.Next() {
		var ident, id string
		require.NoError(t, rows.Scan(&ident, &id))
		ids[ident] = id
	}
	require.NoError(t, rows.Err())
	_, err = svc.MoveRequirement(k.ctx, st.ID, ids["V10"], assess.RequirementMove{Position: 0}, k.actor())
	require.NoError(t, err)
	require.Equal(t, []string{"V10@0/0", "V1@0/4", "V1.9@1/1", "V1.9.1@2/0", "V1.10@1/0", "v1.a@1/0", "V1.B@1/0", "V2@0/0", "V3@0/0"},
		treeOf(k, st.ID))

	page := func(f assess.RequirementFilter) []string {
		t.Helper()
		f.StandardID = st.ID
		p, err := svc.FindRequirements(k.ctx, f)
		require.NoError(t, err)
		out := []string{}
		for _, r := range p.Items {
			out = append(out, r.Identifier)
		}
		return out
	}
	all := []string{"V1", "V1.9", "V1.9.1", "V1.10", "v1.a", "V1.B", "V2", "V3", "V10"}
	require.Equal(t, all, page(assess.RequirementFilter{}), "natural order whatever the positions")
	var paged []string
	f := assess.RequirementFilter{PageRequest: assess.PageRequest{Limit: 4}}
	for {
		f.StandardID = st.ID
		p, err := svc.FindRequirements(k.ctx, f)
		require.NoError(t, err)
		for _, r := range p.Items {
			paged = append(paged, r.Identifier)
		}
		if p.NextCursor == "" {
			break
		}
		f.Cursor = p.NextCursor
	}
	require.Equal(t, all, paged, "pages of four")
	require.Equal(t, []string{"V1.9", "V1.10", "v1.a", "V1.B"}, page(assess.RequirementFilter{ParentID: ids["V1"]}))
	require.Equal(t, []string{"V1.9.1"}, page(assess.RequirementFilter{Q: "name of v1.9."}))

	lv, err := svc.CreateLevel(k.ctx, st.ID, assess.NewLevel{Identifier: "L1", RequirementIDs: []string{ids["V3"], ids["V1.10"]}}, k.actor())
	require.NoError(t, err)
	require.Equal(t, 2, lv.RequirementCount)
	require.Equal(t, []string{"V1.10", "V3"}, page(assess.RequirementFilter{Level: lv.ID}))
	other := k.standard("other", "1", assess.StandardDraft)
	_, err = svc.CreateLevel(k.ctx, other, assess.NewLevel{Identifier: "L1", RequirementIDs: []string{ids["V3"]}}, k.actor())
	require.Equal(t, assess.ECodeValidation, assess.ErrorCode(err), "a requirement of another standard: %v", err)

	found, err := svc.FindStandard(k.ctx, st.ID)
	require.NoError(t, err)
	require.Equal(t, 9, found.RequirementCount)
	require.Equal(t, 1, found.LevelCount)
	_, err = svc.FindRequirement(k.ctx, other, ids["V3"])
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "another standard's requirement is not under this one")
}

// TestStandardRequirementMovesAndDeletesRenumber: a move renumbers its new siblings
// 0..n-1 and closes the gap among the former ones (past the end: last); a move under
// itself or a descendant is 422 cycle; a parent of another standard is 400 naming
// parentId; an identifier is unique within its standard (409 naming identifier); a
// delete takes the subtree and renumbers.
func TestStandardRequirementMovesAndDeletesRenumber(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	svc := k.svc.Standards
	st, err := svc.CreateStandard(k.ctx, assess.NewStandard{Identifier: "std", StandardVersion: "1", Name: "Standard"}, k.actor())
	require.NoError(t, err)
	ids := map[string]string{}
	add := func(identifier, parent string, pos *int) {
		t.Helper()
		r, err := svc.CreateRequirement(k.ctx, st.ID, assess.NewRequirement{Identifier: identifier, ParentID: ids[parent], Position: pos}, k.actor())
		require.NoError(t, err)
		ids[identifier] = r.ID
	}
	add("A", "", nil)
	add("B", "", nil)
	add("C", "", ptr(0)) // placed first
	add("A.1", "A", nil)
	add("A.2", "A", nil)
	add("A.1.1", "A.1", nil)
	positions := func() map[string]int {
		t.Helper()
		out := map[string]int{}
		rows, err := k.pool.Query(k.ctx, `SELECT identifier, position FROM requirements WHERE standard_id = $1`, st.ID)
		require.NoError(t, err)
		for rows.Next() {
			var ident string
			var pos int
			require.NoError(t, rows.Scan(&ident, &pos))
			out[ident] = pos
		}
		require.NoError(t, rows.Err())
		return out
	}
	require.Equal(t, map[string]int{"C": 0, "A": 1, "B": 2, "A.1": 0, "A.2": 1, "A.1.1": 0}, positions())

	move := func(identifier, parent string, pos int) error {
		var p *string
		if parent != "" {
			p = ptr(ids[parent])
		}
		_, err := svc.MoveRequirement(k.ctx, st.ID, ids[identifier], assess.RequirementMove{ParentID: p, Position: pos}, k.actor())
		return err
	}
	require.NoError(t, move("C", "A", 1))
	require.Equal(t, map[string]int{"A": 0, "B": 1, "A.1": 0, "C": 1, "A.2": 2, "A.1.1": 0}, positions(), "new siblings renumbered, the gap closed")
	require.NoError(t, move("A.1", "", 99))
	require.Equal(t, []string{"A@0/2", "C@1/0", "A.2@1/0", "B@0/0", "A.1@0/1", "A.1.1@1/0"}, treeOf(k, st.ID), "past the end is last")

	requireDetail(t, move("A", "A", 0), assess.ECodeBusinessRule, "parentId", "cycle")
	require.NoError(t, move("A.1", "A", 0))
	requireDetail(t, move("A", "A.1.1", 0), assess.ECodeBusinessRule, "parentId", "cycle")
	foreign := k.requirement(k.standard("other", "1", assess.StandardDraft), "X")
	_, err = svc.MoveRequirement(k.ctx, st.ID, ids["B"], assess.RequirementMove{ParentID: &foreign, Position: 0}, k.actor())
	requireDetail(t, err, assess.ECodeValidation, "parentId", "unknown")
	_, err = svc.CreateRequirement(k.ctx, st.ID, assess.NewRequirement{Identifier: "D", ParentID: foreign}, k.actor())
	requireDetail(t, err, assess.ECodeValidation, "parentId", "unknown")

	_, err = svc.CreateRequirement(k.ctx, st.ID, assess.NewRequirement{Identifier: "B"}, k.actor())
	requireDetail(t, err, assess.ECodeAlreadyExists, "identifier", "taken")
	b, err := svc.FindRequirement(k.ctx, st.ID, ids["B"])
	require.NoError(t, err)
	_, err = svc.UpdateRequirement(k.ctx, st.ID, ids["B"], assess.RequirementUpdate{Version: b.Version, Identifier: ptr("C")}, k.actor())
	requireDetail(t, err, assess.ECodeAlreadyExists, "identifier", "taken")
	_, err = svc.UpdateRequirement(k.ctx, st.ID, ids["B"], assess.RequirementUpdate{Version: b.Version + 1, Name: ptr("x")}, k.actor())
	requireDetail(t, err, assess.ECodeVersionConflict, "version", "stale")

	require.Equal(t, []string{"A@0/3", "A.1@1/1", "A.1.1@2/0", "C@1/0", "A.2@1/0", "B@0/0"}, treeOf(k, st.ID))
	require.NoError(t, svc.DeleteRequirement(k.ctx, st.ID, ids["A.1"], k.actor()))
	require.Equal(t, []string{"A@0/2", "C@1/0", "A.2@1/0", "B@0/0"}, treeOf(k, st.ID), "the subtree went")
	require.Equal(t, map[string]int{"A": 0, "B": 1, "C": 0, "A.2": 1}, positions(), "the former siblings renumbered")
}

// TestStandardBulkRequirementsRules: a bulk write creates and updates by identifier in
// one change; parents may come in the same request; an unknown parent is 400 naming the
// item, parents forming a cycle are 422 cycle, and a refused write leaves nothing behind.
func TestStandardBulkRequirementsRules(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	svc := k.svc.Standards
	st, err := svc.CreateStandard(k.ctx, assess.NewStandard{Identifier: "std", StandardVersion: "1", Name: "Standard"}, k.actor())
	require.NoError(t, err)
	write := func(items ...assess.BulkRequirement) (assess.BulkResult, error) {
		return svc.WriteRequirements(k.ctx, st.ID, assess.BulkRequirements{Requirements: items}, k.actor())
	}
	res, err := write(assess.BulkRequirement{Identifier: "V1.2", ParentIdentifier: "V1", Position: ptr(0)}, assess.BulkRequirement{Identifier: "V1"},
		assess.BulkRequirement{Identifier: "V1.1", ParentIdentifier: "V1"})
	require.NoError(t, err)
	require.Equal(t, assess.BulkResult{Created: 3}, res)
	require.Equal(t, []string{"V1@0/2", "V1.2@1/0", "V1.1@1/0"}, treeOf(k, st.ID), "V1.2 placed before V1.1 by its position")

	res, err = write(assess.BulkRequirement{Identifier: "V1.0", ParentIdentifier: "V1"},
		assess.BulkRequirement{Identifier: "V1.2", ParentIdentifier: "V1", Name: "Renamed"})
	require.NoError(t, err)
	require.Equal(t, assess.BulkResult{Created: 1, Updated: 1}, res)
	require.Equal(t, []string{"V1@0/3", "V1.2@1/0", "V1.1@1/0", "V1.0@1/0"}, treeOf(k, st.ID),
		"a new one without a position goes after the existing siblings; an update keeps its place")

	before := k.count(`SELECT count(*) FROM requirements WHERE standard_id = $1`, st.ID)
	_, err = write(assess.BulkRequirement{Identifier: "V2"}, assess.BulkRequirement{Identifier: "V2.1", ParentIdentifier: "V9"})
	requireDetail(t, err, assess.ECodeValidation, "requirements[1].parentIdentifier", "unknown")
	_, err = write(assess.BulkRequirement{Identifier: "X", ParentIdentifier: "Y"}, assess.BulkRequirement{Identifier: "Y", ParentIdentifier: "X"})
	requireDetail(t, err, assess.ECodeBusinessRule, "requirements", "cycle")
	_, err = write(assess.BulkRequirement{Identifier: "V1", ParentIdentifier: "V1.2"}) // V1.2 is V1's child
	requireDetail(t, err, assess.ECodeBusinessRule, "requirements", "cycle")
	require.Equal(t, before, k.count(`SELECT count(*) FROM requirements WHERE standard_id = $1`, st.ID), "refused writes leave nothing")
	require.Equal(t, []string{"V1@0/3", "V1.2@1/0", "V1.1@1/0", "V1.0@1/0"}, treeOf(k, st.ID))
}

// TestDuplicateStandardCopiesTheTree: a duplicate is a new draft of the same identifier
// with a copy of the tree (parents, positions), the levels with their requirement sets and
// the tags, all under new ids; CycloneDX bom-refs stay with the original.
func TestDuplicateStandardCopiesTheTree(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	svc := k.svc.Standards
	web := k.tag("web")
	st, err := svc.CreateStandard(k.ctx, assess.NewStandard{Identifier: "std", StandardVersion: "1", Name: "Standard", TagIDs: []string{web}}, k.actor())
	require.NoError(t, err)
	_, err = svc.WriteRequirements(k.ctx, st.ID, assess.BulkRequirements{Requirements: []assess.BulkRequirement{
		{Identifier: "B", BOMRef: "ref-b"}, {Identifier: "A", Position: ptr(7)}, {Identifier: "B.1", ParentIdentifier: "B"}}}, k.actor())
	require.NoError(t, err)
	var b1 string
	require.NoError(t, k.pool.QueryRow(k.ctx, `SELECT id FROM requirements WHERE standard_id = $1 AND identifier = 'B.1'`, st.ID).Scan(&b1))
	_, err = svc.CreateLevel(k.ctx, st.ID, assess.NewLevel{Identifier: "L1", RequirementIDs: []string{b1}}, k.actor())
	require.NoError(t, err)
	k.exec(`UPDATE standards SET state = 'published', bom_ref = 'std-ref' WHERE id = $1`, st.ID)

	dup, err := svc.DuplicateStandard(k.ctx, st.ID, assess.DuplicateRequest{StandardVersion: "2"}, k.actor())
	require.NoError(t, err)
	require.Equal(t, assess.StandardDraft, dup.State)
	require.Equal(t, assess.SourceDuplicate, dup.Source)
	require.Equal(t, st.ID, dup.DuplicatedFrom)
	require.Equal(t, "Standard", dup.Name)
	require.Equal(t, "", dup.BOMRef)
	require.Len(t, dup.Tags, 1)
	require.Equal(t, web, dup.Tags[0].ID)
	require.Equal(t, 3, dup.RequirementCount)
	require.Equal(t, 1, dup.LevelCount)
	require.Equal(t, treeOf(k, st.ID), treeOf(k, dup.ID))

	tree, err := svc.FindStandardTree(k.ctx, dup.ID)
	require.NoError(t, err)
	for _, r := range tree.Requirements {
		require.Equal(t, "", r.BOMRef, r.Identifier)
		if r.Identifier == "B.1" {
			require.Equal(t, []string{tree.Levels[0].ID}, r.Levels, "the copy's level holds the copy's requirement")
		}
	}
	require.Equal(t, 1, tree.Levels[0].RequirementCount)
	for _, std := range []string{st.ID, dup.ID} {
		require.Equal(t, 1, k.count(`SELECT count(*) FROM level_requirements lr JOIN levels l ON l.id = lr.level_id
			JOIN requirements r ON r.id = lr.requirement_id WHERE l.standard_id = $1 AND r.standard_id = $1`, std),
			"each standard's level holds its own requirement")
	}
}
