package postgres_test

import (
	"cmp"
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/datagen"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestDashboardAgreesWithGroundTruth (issue 25): on generated data shaped like real use, every
// dashboard figure equals a ground truth computed here from the raw rows in Go — for an
// administrator, who sees everything, and for a participant, who sees about a tenth (and
// nothing of the rest: no figure may count another team's work).
func TestDashboardAgreesWithGroundTruth(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	pool := pgtest.NewPool(t)
	db := postgres.New(pool, func() time.Time { return now })
	svc := testServices(db)
	require.NoError(t, svc.Roles.SyncBuiltinRoles(ctx))
	sizes := datagen.Small
	sizes.Now = now
	sum, err := datagen.Generate(ctx, pool, sizes)
	require.NoError(t, err)
	require.Equal(t, sizes.Assessments, sum.Assessments)
	require.InDelta(t, sizes.Results, sum.Results, float64(sizes.Results)/100)
	sealSome(t, pool, now)

	admin := assess.Actor{ID: "u_admin", Principal: &assess.Principal{User: assess.User{ID: "u_admin", Active: true},
		Permissions: []string{string(assess.PermAssessmentsViewAll), string(assess.PermEvidenceViewAll)}}}
	participant := assess.Actor{ID: sum.ParticipantID, Principal: &assess.Principal{User: assess.User{ID: sum.ParticipantID, Active: true},
		Permissions: []string{string(assess.PermAssessmentsView), string(assess.PermEvidenceView)}}}

	truth := loadTruth(t, pool, now)
	for name, actor := range map[string]assess.Actor{"administrator": admin, "participant": participant} {
		t.Run(name, func(t *testing.T) {
			got, err := svc.Dashboard.Dashboard(ctx, actor)
			require.NoError(t, err)
			want := truth.dashboard(name == "participant", sum.ParticipantID)
			require.Equal(t, want.Assessments, got.Assessments)
			require.Equal(t, want.Evidence, got.Evidence)
			require.Equal(t, want.Attestations, got.Attestations)
			require.Equal(t, want.Upcoming, got.Upcoming)
			require.Equal(t, want.ExpiringCited, got.ExpiringCited)
			require.Equal(t, len(want.Conformance), len(got.Conformance))
			for i := range want.Conformance {
				w, g := want.Conformance[i], got.Conformance[i]
				require.Equal(t, w.StandardID, g.StandardID)
				require.Equal(t, []int{w.Assessments, w.Yes, w.Partial, w.No, w.NotApplicable}, []int{g.Assessments, g.Yes, g.Partial, g.No, g.NotApplicable}, w.Name)
				require.InDelta(t, *w.AverageScore, *g.AverageScore, 0.005, w.Name)
			}
			require.Equal(t, len(want.WeakestRequirements), len(got.WeakestRequirements))
			for i := range want.WeakestRequirements {
				w, g := want.WeakestRequirements[i], got.WeakestRequirements[i]
				require.Equal(t, []any{w.RequirementID, w.Answered, w.No, w.Partial}, []any{g.RequirementID, g.Answered, g.No, g.Partial})
				require.InDelta(t, w.Score, g.Score, 0.005)
			}
			if name == "participant" {
				require.Less(t, got.Assessments.Total, sizes.Assessments/5, "a tenth of the assessments, and those their evidence ties them to")
				require.Greater(t, got.Assessments.Total, sizes.Assessments/20)
			} else {
				require.Equal(t, sizes.Assessments, got.Assessments.Total)
				// The data makes every figure non-trivial, so agreement means something.
				require.NotZero(t, got.Assessments.Overdue)
				require.NotZero(t, got.Evidence.Expiring)
				require.NotZero(t, got.Attestations.Sealed)
				require.NotZero(t, got.Attestations.Expiring)
				require.Len(t, got.Upcoming, 10)
				require.Len(t, got.WeakestRequirements, 10)
				require.NotEmpty(t, got.ExpiringCited)
				require.Len(t, got.Conformance, 4)
			}
		})
	}
}

// sealSome marks a few attestations of complete assessments as sealed, with evidence their
// claims cite expiring within the window, past it and long after.
func sealSome(t *testing.T, pool *pgxPool, now time.Time) {
	t.Helper()
	ctx := context.Background()
	rows, err := pool.Query(ctx, `SELECT a.id, (SELECT array_agg(c.id ORDER BY c.id) FROM claims c
			WHERE c.assessment_id = a.id AND EXISTS (SELECT 1 FROM claim_evidence ce WHERE ce.claim_id = c.id))
		FROM assessments a WHERE a.state = 'complete' AND EXISTS (SELECT 1 FROM claims c JOIN claim_evidence ce ON ce.claim_id = c.id
			WHERE c.assessment_id = a.id) ORDER BY a.id LIMIT 12`)
	require.NoError(t, err)
	type row struct {
		id     string
		claims []string
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
		var x row
		return x, r.Scan(&x.id, &x.claims)
	})
	require.NoError(t, err)
	require.NotEmpty(t, list)
	for i, a := range list {
		id := assess.NewID(assess.PrefixAttestation, now)
		state, until := "sealed", now.AddDate(0, 0, 10+i*20)
		if i%4 == 3 {
			state = "draft"
		}
		var doc any = []byte(`{}`)
		if state == "draft" {
			doc = nil
		}
		_, err := pool.Exec(ctx, `INSERT INTO attestations (id, assessment_id, statement, state, document, valid_until) VALUES ($1, $2, 'We affirm.', $3, $4, $5)`,
			id, a.id, state, doc, until)
		require.NoError(t, err)
		_, err = pool.Exec(ctx, `INSERT INTO attestation_claims (attestation_id, claim_id) SELECT $1, unnest($2::text[])`, id, a.claims)
		require.NoError(t, err)
		// Some of the evidence they cite expires soon, some has expired.
		_, err = pool.Exec(ctx, `UPDATE evidence SET valid_until = $2 WHERE id IN (SELECT evidence_id FROM claim_evidence WHERE claim_id = $1)`,
			a.claims[0], now.AddDate(0, 0, (i%5)*9-12))
		require.NoError(t, err)
	}
}

type pgxPool = pgxpool.Pool

// truthData is every row the dashboard reads, loaded plainly.
type truthData struct {
	today        string
	assessments  []tAssessment
	members      map[string][]string // assessment → users
	evidence     []tEvidence
	links        map[string][]string // evidence → assessments it is linked to
	cites        map[string][]string // evidence → assessments whose claims cite it
	results      []tResult
	standards    map[string][2]string // id → name, version
	scores       map[[2]string]*float64
	requirements map[string][3]string // id → identifier, name, standard
	attestations []tAttestation
	citedBy      map[string][]string // attestation → evidence its claims cite
}

type tAssessment struct {
	id, title, entity, state, due string
	standards                     []string
}
type tEvidence struct{ id, name, state, author, reviewer, until string }
type tResult struct{ assessment, requirement, standard, result string }
type tAttestation struct{ id, assessment, state, until string }

func loadTruth(t *testing.T, pool *pgxPool, now time.Time) *truthData {
	t.Helper()
	ctx := context.Background()
	d := &truthData{today: now.Format(time.DateOnly), members: map[string][]string{}, links: map[string][]string{}, cites: map[string][]string{},
		standards: map[string][2]string{}, scores: map[[2]string]*float64{}, requirements: map[string][3]string{}, citedBy: map[string][]string{}}
	each := func(sql string, scan func(pgx.Rows) error) {
		rows, err := pool.Query(ctx, sql)
		require.NoError(t, err)
		defer rows.Close()
		for rows.Next() {
			require.NoError(t, scan(rows))
		}
		require.NoError(t, rows.Err())
	}
	each(`SELECT a.id, a.title, en.name, a.state, coalesce(to_char(a.due_date, 'YYYY-MM-DD'), ''),
		ARRAY(SELECT standard_id FROM assessment_standards s WHERE s.assessment_id = a.id) FROM assessments a JOIN entities en ON en.id = a.entity_id`,
		func(r pgx.Rows) error {
			var a tAssessment
			err := r.Scan(&a.id, &a.title, &a.entity, &a.state, &a.due, &a.standards)
			d.assessments = append(d.assessments, a)
			return err
		})
	each(`SELECT assessment_id, user_id FROM assessment_members`, func(r pgx.Rows) error {
		var a, u string
		err := r.Scan(&a, &u)
		d.members[a] = append(d.members[a], u)
		return err
	})
	each(`SELECT id, name, state, author_id, coalesce(reviewer_id, ''), coalesce(to_char(valid_until, 'YYYY-MM-DD'), '') FROM evidence`, func(r pgx.Rows) error {
		var e tEvidence
		err := r.Scan(&e.id, &e.name, &e.state, &e.author, &e.reviewer, &e.until)
		d.evidence = append(d.evidence, e)
		return err
	})
	each(`SELECT evidence_id, assessment_id FROM assessment_requirement_evidence`, func(r pgx.Rows) error {
		var e, a string
		err := r.Scan(&e, &a)
		d.links[e] = append(d.links[e], a)
		return err
	})
	each(`SELECT ce.evidence_id, c.assessment_id FROM claim_evidence ce JOIN claims c ON c.id = ce.claim_id`, func(r pgx.Rows) error {
		var e, a string
		err := r.Scan(&e, &a)
		d.cites[e] = append(d.cites[e], a)
		return err
	})
	each(`SELECT assessment_id, requirement_id, standard_id, coalesce(result, '') FROM assessment_requirements`, func(r pgx.Rows) error {
		var x tResult
		err := r.Scan(&x.assessment, &x.requirement, &x.standard, &x.result)
		d.results = append(d.results, x)
		return err
	})
	each(`SELECT id, name, standard_version FROM standards`, func(r pgx.Rows) error {
		var id, name, v string
		err := r.Scan(&id, &name, &v)
		d.standards[id] = [2]string{name, v}
		return err
	})
	each(`SELECT assessment_id, standard_id, conformance_score::float8 FROM assessment_standards`, func(r pgx.Rows) error {
		var a, s string
		var score *float64
		err := r.Scan(&a, &s, &score)
		d.scores[[2]string{a, s}] = score
		return err
	})
	each(`SELECT id, identifier, name, standard_id FROM requirements`, func(r pgx.Rows) error {
		var id, ident, name, st string
		err := r.Scan(&id, &ident, &name, &st)
		d.requirements[id] = [3]string{ident, name, st}
		return err
	})
	each(`SELECT id, assessment_id, state, coalesce(to_char(valid_until, 'YYYY-MM-DD'), '') FROM attestations`, func(r pgx.Rows) error {
		var x tAttestation
		err := r.Scan(&x.id, &x.assessment, &x.state, &x.until)
		d.attestations = append(d.attestations, x)
		return err
	})
	each(`SELECT ac.attestation_id, ce.evidence_id FROM attestation_claims ac JOIN claim_evidence ce ON ce.claim_id = ac.claim_id`, func(r pgx.Rows) error {
		var a, e string
		err := r.Scan(&a, &e)
		d.citedBy[a] = append(d.citedBy[a], e)
		return err
	})
	return d
}

// dashboard computes the figures from the rows: the participant rule written out plainly
// (a member of the assessment, or author or reviewer of evidence linked to it; evidence is
// theirs, or linked to or cited in an assessment they see).
func (d *truthData) dashboard(restricted bool, user string) assess.Dashboard {
	sees := map[string]bool{}
	for _, a := range d.assessments {
		sees[a.id] = !restricted || slices.Contains(d.members[a.id], user)
	}
	if restricted {
		for _, e := range d.evidence {
			if e.author == user || e.reviewer == user {
				for _, a := range d.links[e.id] {
					sees[a] = true
				}
			}
		}
	}
	seesEvidence := func(e tEvidence) bool {
		if !restricted || e.author == user || e.reviewer == user {
			return true
		}
		return slices.ContainsFunc(d.links[e.id], func(a string) bool { return sees[a] }) ||
			slices.ContainsFunc(d.cites[e.id], func(a string) bool { return sees[a] })
	}
	until := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC).AddDate(0, 0, assess.DashboardExpiringDays).Format(time.DateOnly)
	var out assess.Dashboard
	open := func(state string) bool { return state != "complete" && state != "archived" && state != "cancelled" }
	finished := func(state string) bool { return state == "complete" || state == "archived" }

	counts := map[string]int{}
	var due []assess.DueAssessment
	byID := map[string]tAssessment{}
	for _, a := range d.assessments {
		byID[a.id] = a
		if !sees[a.id] {
			continue
		}
		counts[a.state]++
		out.Assessments.Total++
		if a.due != "" && open(a.state) {
			if a.due < d.today {
				out.Assessments.Overdue++
			}
			due = append(due, assess.DueAssessment{ID: a.id, Title: a.title, EntityName: a.entity, State: a.state, DueDate: a.due, Overdue: a.due < d.today})
		}
	}
	for _, s := range []string{"new", "pending", "in_progress", "on_hold", "complete", "archived", "cancelled"} {
		out.Assessments.ByState = append(out.Assessments.ByState, assess.StateCount{State: s, Count: counts[s]})
	}
	slices.SortFunc(due, func(a, b assess.DueAssessment) int {
		return cmp.Or(cmp.Compare(a.DueDate, b.DueDate), cmp.Compare(a.ID, b.ID))
	})
	out.Upcoming = due[:min(10, len(due))]

	counts = map[string]int{}
	byEvidence := map[string]tEvidence{}
	for _, e := range d.evidence {
		byEvidence[e.id] = e
		if !seesEvidence(e) {
			continue
		}
		counts[e.state]++
		out.Evidence.Total++
		if e.state != "expired" && e.until != "" && e.until >= d.today && e.until <= until {
			out.Evidence.Expiring++
		}
	}
	for _, s := range []string{"in_progress", "in_review", "claimed", "expired"} {
		out.Evidence.ByState = append(out.Evidence.ByState, assess.StateCount{State: s, Count: counts[s]})
	}
	out.Evidence.InReview, out.Evidence.Expired = counts["in_review"], counts["expired"]

	counts = map[string]int{}
	var cited []assess.CitedEvidence
	for _, t := range d.attestations {
		if !sees[t.assessment] {
			continue
		}
		counts[t.state]++
		out.Attestations.Total++
		if t.state == "sealed" && t.until >= d.today && t.until <= until {
			out.Attestations.Expiring++
		}
		if t.state != "sealed" {
			continue
		}
		for _, id := range d.citedBy[t.id] {
			e := byEvidence[id]
			if e.until != "" && e.until <= until && seesEvidence(e) {
				cited = append(cited, assess.CitedEvidence{ID: e.id, Name: e.name, ValidUntil: e.until, Expired: e.until < d.today,
					AttestationID: t.id, Assessment: byID[t.assessment].title})
			}
		}
	}
	for _, s := range []string{"draft", "signing", "sealed", "rescinded", "imported"} {
		out.Attestations.ByState = append(out.Attestations.ByState, assess.StateCount{State: s, Count: counts[s]})
	}
	out.Attestations.Sealed = counts["sealed"]
	slices.SortFunc(cited, func(a, b assess.CitedEvidence) int {
		return cmp.Or(cmp.Compare(a.ValidUntil, b.ValidUntil), cmp.Compare(a.ID, b.ID), cmp.Compare(a.AttestationID, b.AttestationID))
	})
	cited = slices.CompactFunc(cited, func(a, b assess.CitedEvidence) bool { return a.ID == b.ID })
	out.ExpiringCited = cited[:min(10, len(cited))]

	// Conformance and the weakest requirements, over the finished assessments.
	conf := map[string]*assess.StandardConformance{}
	sums := map[string][]float64{}
	for _, a := range d.assessments {
		if !sees[a.id] || !finished(a.state) {
			continue
		}
		for _, s := range a.standards {
			c := conf[s]
			if c == nil {
				c = &assess.StandardConformance{StandardID: s, Name: d.standards[s][0], StandardVersion: d.standards[s][1]}
				conf[s] = c
			}
			c.Assessments++
			if score := d.scores[[2]string{a.id, s}]; score != nil {
				sums[s] = append(sums[s], *score)
			}
		}
	}
	type tally struct {
		answered, no, partial int
		points                float64
	}
	weak := map[string]*tally{}
	for _, r := range d.results {
		a := byID[r.assessment]
		if !sees[a.id] || !finished(a.state) {
			continue
		}
		c := conf[r.standard]
		switch r.result {
		case "yes":
			c.Yes++
		case "partial":
			c.Partial++
		case "no":
			c.No++
		case "not_applicable":
			c.NotApplicable++
		}
		if r.result == "yes" || r.result == "partial" || r.result == "no" {
			w := weak[r.requirement]
			if w == nil {
				w = &tally{}
				weak[r.requirement] = w
			}
			w.answered++
			switch r.result {
			case "yes":
				w.points++
			case "partial":
				w.partial++
				w.points += 0.5
			case "no":
				w.no++
			}
		}
	}
	for s, c := range conf {
		if n := int64(len(sums[s])); n > 0 {
			// Exactly as numeric: the scores are whole hundredths; their mean rounded half up.
			var total int64
			for _, v := range sums[s] {
				total += int64(math.Round(v * 100))
			}
			avg := float64((2*total+n)/(2*n)) / 100
			c.AverageScore = &avg
		}
		out.Conformance = append(out.Conformance, *c)
	}
	slices.SortFunc(out.Conformance, func(a, b assess.StandardConformance) int {
		return cmp.Or(cmp.Compare(b.Assessments, a.Assessments), cmp.Compare(a.Name, b.Name), cmp.Compare(a.StandardID, b.StandardID))
	})
	out.Conformance = out.Conformance[:min(20, len(out.Conformance))]
	for id, w := range weak {
		if w.no+w.partial == 0 {
			continue
		}
		rq := d.requirements[id]
		out.WeakestRequirements = append(out.WeakestRequirements, assess.RequirementRisk{RequirementID: id, Identifier: rq[0], Name: rq[1],
			StandardID: rq[2], StandardName: d.standards[rq[2]][0], Answered: w.answered, No: w.no, Partial: w.partial,
			Score: math.Round(100*w.points/float64(w.answered)*100) / 100})
	}
	slices.SortFunc(out.WeakestRequirements, func(a, b assess.RequirementRisk) int {
		return cmp.Or(cmp.Compare(a.Score, b.Score), cmp.Compare(b.Answered, a.Answered), cmp.Compare(a.RequirementID, b.RequirementID))
	})
	out.WeakestRequirements = out.WeakestRequirements[:min(10, len(out.WeakestRequirements))]
	if out.Upcoming == nil {
		out.Upcoming = []assess.DueAssessment{}
	}
	if out.ExpiringCited == nil {
		out.ExpiringCited = []assess.CitedEvidence{}
	}
	return out
}
