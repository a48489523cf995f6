// Package datagen fills a database with data shaped like an organisation's real use of the
// product, at any size: users with built-in roles, entities, projects, assessments started on
// real standards (or generated ones of the same sizes) in every state with their teams,
// results and rationales, evidence linked to requirements, claims citing it, and the scores
// of the finished ones. The dashboards, search and list pages are measured and checked on it
// (issues 25 and 27; docs/performance.md, "Data at scale").
//
// Rows go in with COPY, so a million requirement results take seconds; the ids are real ids
// of their kind (assess.NewIDs), every row passes the schema's checks, and one participant
// account (Participant) is on the team of about a tenth of the assessments, so the rule of
// who sees what is exercised at scale. The random choices come from Sizes.Seed: the same
// sizes and seed give the same shape.
package datagen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/cyclonedx"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/catalogue"
)

// Participant is the username of the account on the team of every tenth assessment (as an
// assessor) and of nothing else: the "participant who sees about a tenth".
const Participant = "gen-participant"

// Sizes says how much to generate.
type Sizes struct {
	Users       int
	Entities    int
	Projects    int
	Assessments int
	Results     int // requirement rows over all started assessments (about)
	Evidence    int
	Claims      int
	Audit       int // audit log rows (the timelines of the assessments, and sign-ins)
	Notes       int // work notes on assessments
	Seed        uint64
	// ParticipantID, when set, is an existing user (with the assessor role) put on the team of
	// every tenth assessment instead of a new Participant account: make bench's own
	// participant then sees a tenth of the generated data.
	ParticipantID string
	StandardsDir  string // CycloneDX standards to start assessments on (*.cdx.json below it); "": generated standards
	Now           time.Time
}

// Small is a size for tests: every kind of row, in seconds.
var Small = Sizes{Users: 60, Entities: 40, Projects: 8, Assessments: 300, Results: 15000, Evidence: 1500, Claims: 3000, Audit: 6000, Notes: 600, Seed: 1}

// Large is the size of the insight and scale issues' "done means".
var Large = Sizes{Users: 2000, Entities: 1000, Projects: 200, Assessments: 10000, Results: 1000000, Evidence: 100000, Claims: 300000,
	Audit: 300000, Notes: 30000, Seed: 1}

// Scaled is a dataset of the scale issue (27): n rows in each of the biggest tables —
// requirement results, audit log, claims — and the rest in Large's proportions (a hundred
// results per assessment, a tenth as many evidence and notes as results). Scaled(1_000_000)
// is Large with a million claims and audit rows; Scaled(1_000) has ten assessments.
func Scaled(n int) Sizes {
	return Sizes{Users: max(n/500, 20), Entities: max(n/1000, 10), Projects: max(n/5000, 3), Assessments: max(n/100, 10),
		Results: n, Evidence: max(n/10, 20), Claims: n, Audit: n, Notes: max(n/10, 10), Seed: 1}
}

// Summary counts what Generate wrote.
type Summary struct {
	Users, Entities, Projects, Standards, Assessments, Results, Evidence, Claims, Audit, Notes, Policies int
	ParticipantID                                                                                        string
	Seconds                                                                                              float64
}

// AssessmentStates is the share of assessments in each state, in per mille.
var AssessmentStates = []struct {
	State    assess.AssessmentState
	PerMille int
}{
	{assess.AssessmentNew, 80}, {assess.AssessmentPending, 40}, {assess.AssessmentInProgress, 380}, {assess.AssessmentOnHold, 40},
	{assess.AssessmentComplete, 360}, {assess.AssessmentArchived, 50}, {assess.AssessmentCancelled, 50},
}

type gen struct {
	ctx  context.Context
	pool *pgxpool.Pool
	rng  *rand.Rand
	now  time.Time
	s    Sizes
	out  Summary

	users       []string
	assessors   []string // users holding the assessor role
	assessees   []string
	entities    []string
	projects    []string
	standards   []standardRef
	assessments []genAssessment
	rows        [][]string // assessment index → its requirement rows
	evidenceOf  [][]string // assessment index → the evidence linked to it
	evidenceNo  [][]int32  // the same evidence's numbers (evidenceName)
	claimsOf    [][]string // assessment index → its claims
	claimsNo    [][]int32  // the same claims' numbers (claimName)
	notesOf     [][]string // assessment index → its work notes
	actors      []string   // every generated user and the participant (sign-ins of the audit log)
}

type standardRef struct {
	id           string
	requirements []string // leaf-first order as the catalogue lists them
	identifiers  []string // the requirements' identifiers, in the same order
}

type genAssessment struct {
	id, entity, project string
	state               assess.AssessmentState
	standard            int
	team                []string
}

// Generate writes the data into the database behind pool (migrated, set up or not).
func Generate(ctx context.Context, pool *pgxpool.Pool, s Sizes) (Summary, error) {
	start := time.Now()
	if s.Now.IsZero() {
		s.Now = time.Now()
	}
	g := &gen{ctx: ctx, pool: pool, rng: rand.New(rand.NewPCG(s.Seed, s.Seed^0x9e3779b97f4a7c15)), now: s.Now, s: s}
	for _, step := range []func() error{g.people, g.catalogue, g.standardsStep, g.assessmentsStep, g.scopeStep, g.resultsStep, g.evidenceStep, g.claimsStep,
		g.notesStep, g.auditStep, g.scores} {
		if err := step(); err != nil {
			return g.out, err
		}
	}
	if _, err := pool.Exec(ctx, "ANALYZE"); err != nil {
		return g.out, err
	}
	g.out.Seconds = time.Since(start).Seconds()
	return g.out, nil
}

func (g *gen) copy(table string, cols []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	_, err := g.pool.CopyFrom(g.ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(rows))
	if err != nil {
		return fmt.Errorf("datagen: copy %s: %w", table, err)
	}
	return nil
}

func (g *gen) pick(list []string) string { return list[g.rng.IntN(len(list))] }

// people writes the users (a third assessors, the rest assessees, every tenth also a
// standards manager) and the participant.
func (g *gen) people() error {
	roles := map[string]string{}
	rows, err := g.pool.Query(g.ctx, `SELECT name, id FROM roles`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var name, id string
		if err := rows.Scan(&name, &id); err != nil {
			return err
		}
		roles[name] = id
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if roles[assess.RoleAssessor] == "" || roles[assess.RoleAssessee] == "" {
		return errors.New("datagen: the built-in roles are missing (start the server on the database once, or seed roles)")
	}
	n := max(g.s.Users, 3)
	own := 1 // the participant's account, unless Sizes names one
	if g.s.ParticipantID != "" {
		own = 0
		g.out.ParticipantID = g.s.ParticipantID
	}
	g.users = assess.NewIDs(assess.PrefixUser, g.now, n+own)
	var users, links [][]any
	for i, id := range g.users {
		name := fmt.Sprintf("gen-user-%06d", i)
		role := roles[assess.RoleAssessee]
		if i == n {
			name, role = Participant, roles[assess.RoleAssessor]
			g.out.ParticipantID = id
		} else if i%3 == 0 {
			role = roles[assess.RoleAssessor]
			g.assessors = append(g.assessors, id)
		} else {
			g.assessees = append(g.assessees, id)
		}
		users = append(users, []any{id, name, name + "@example.com", displayName(i), g.now, g.now})
		links = append(links, []any{id, role})
		if i%10 == 5 {
			links = append(links, []any{id, roles[assess.RoleStandardsManager]})
		}
	}
	g.users = g.users[:n] // the participant is on no team but its own tenth
	g.actors = append(slices.Clone(g.users), g.out.ParticipantID)
	if err := g.copy("users", []string{"id", "username", "email", "display_name", "created_at", "updated_at"}, users); err != nil {
		return err
	}
	g.out.Users = len(users)
	return g.copy("user_roles", []string{"user_id", "role_id"}, links)
}

var (
	givenNames = []string{"Ada", "Björn", "Chloé", "Dmitri", "Eleni", "Farah", "Gustav", "Hana", "Ілля", "Jana", "Kai", "Λυδία", "Mateo", "Nora", "Olu", "Priya"}
	surnames   = []string{"Schmidt", "Okafor", "Nakamura", "Papadopoulou", "Kowalski", "Johansson", "Дмитриева", "García", "Nguyen", "Müller"}
)

func displayName(i int) string {
	return givenNames[i%len(givenNames)] + " " + surnames[(i/len(givenNames))%len(surnames)]
}

// catalogue writes entities of every type and projects.
func (g *gen) catalogue() error {
	types := assess.EntityTypes
	g.entities = assess.NewIDs(assess.PrefixEntity, g.now, max(g.s.Entities, 1))
	var rows [][]any
	for i, id := range g.entities {
		typ := types[i%len(types)]
		rows = append(rows, []any{id, fmt.Sprintf("%s %04d", entityWord(typ), i), "Generated " + string(typ) + ".", string(typ), g.now, g.now})
	}
	if err := g.copy("entities", []string{"id", "name", "description", "entity_type", "created_at", "updated_at"}, rows); err != nil {
		return err
	}
	g.out.Entities = len(rows)
	g.projects = assess.NewIDs(assess.PrefixProject, g.now, g.s.Projects)
	rows = nil
	states := []string{"new", "in_progress", "in_progress", "on_hold", "complete", "operational"}
	for i, id := range g.projects {
		due := g.now.AddDate(0, 0, g.rng.IntN(360)-90)
		rows = append(rows, []any{id, fmt.Sprintf("Programme %03d", i), "Generated project.", states[i%len(states)], g.pick(g.assessors), due, g.now, g.now})
	}
	g.out.Projects = len(rows)
	return g.copy("projects", []string{"id", "name", "description", "state", "owner_id", "due_date", "created_at", "updated_at"}, rows)
}

func entityWord(t assess.EntityType) string {
	w := strings.ReplaceAll(string(t), "_", " ")
	return strings.ToUpper(w[:1]) + w[1:]
}

// standardsStep imports the CycloneDX standards of StandardsDir, or generates four of the
// sizes of real ones (ASVS, SSDF, SAMM, SCVS).
func (g *gen) standardsStep() error {
	if g.s.StandardsDir != "" {
		return g.realStandards()
	}
	for k, size := range []int{442, 220, 120, 90} {
		id := assess.NewID(assess.PrefixStandard, g.now)
		if _, err := g.pool.Exec(g.ctx, `INSERT INTO standards (id, identifier, standard_version, name, description, state, source)
			VALUES ($1, $2, '1.0', $3, 'A generated standard.', 'published', 'import')`, id, fmt.Sprintf("generated-standard-%d", k+1),
			fmt.Sprintf("Generated Standard %d", k+1)); err != nil {
			return err
		}
		ref := standardRef{id: id, requirements: assess.NewIDs(assess.PrefixRequirement, g.now, size)}
		var rows [][]any
		for i, rq := range ref.requirements {
			ident := fmt.Sprintf("G%d.%d.%d", k+1, i/10+1, i%10+1)
			ref.identifiers = append(ref.identifiers, ident)
			rows = append(rows, []any{rq, id, ident, assess.NaturalKey(ident), requirementName(i), requirementText(i), i})
		}
		if err := g.copy("requirements", []string{"id", "standard_id", "identifier", "natural_key", "name", "description", "position"}, rows); err != nil {
			return err
		}
		g.standards = append(g.standards, ref)
	}
	g.out.Standards = len(g.standards)
	return nil
}

// evidenceName and claimName are the names of the k-th piece of evidence and claim.
func evidenceName(k int) string {
	return fmt.Sprintf("%s report %06d", strings.ToUpper(topics[k%len(topics)][:1])+topics[k%len(topics)][1:], k)
}

func claimName(k int) string { return fmt.Sprintf("Claim %06d", k) }

// jsonObject is the JSON object of the given keys, each followed by its string value.
func jsonObject(kv ...string) string {
	m := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m) // a map of strings always encodes
	return string(b)
}

var topics = []string{"session tokens", "password storage", "input validation", "access control", "logging", "encryption at rest",
	"dependency updates", "secrets in source control", "backup restores", "incident response", "threat modelling", "code review"}

func requirementName(i int) string { return "Verify " + topics[i%len(topics)] }

func requirementText(i int) string {
	return fmt.Sprintf("Verify that %s are handled as the organisation's policy requires (control %d).", topics[i%len(topics)], i+1)
}

func (g *gen) realStandards() error {
	var files []string
	err := filepath.WalkDir(g.s.StandardsDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".cdx.json") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		return err
	}
	slices.Sort(files)
	db := postgres.New(g.pool, nil)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		imports, err := cyclonedx.Parse(data)
		if err != nil {
			continue // not every file of a catalogue is a standard this product reads
		}
		err = db.Change(g.ctx, assess.SystemActor, func(tx *postgres.Tx) error {
			for _, imp := range imports {
				st, _, err := catalogue.ImportStandardTx(g.ctx, tx, imp, assess.SourceImport)
				if err != nil {
					return err
				}
				ref := standardRef{id: st.ID}
				rows, err := tx.Query(g.ctx, `SELECT id, identifier FROM requirements r WHERE standard_id = $1
					AND NOT EXISTS (SELECT 1 FROM requirements c WHERE c.parent_id = r.id) ORDER BY natural_key`, st.ID)
				if err != nil {
					return err
				}
				var id, ident string
				if _, err := pgx.ForEachRow(rows, []any{&id, &ident}, func() error {
					ref.requirements, ref.identifiers = append(ref.requirements, id), append(ref.identifiers, ident)
					return nil
				}); err != nil {
					return err
				}
				if len(ref.requirements) > 0 && !slices.ContainsFunc(g.standards, func(s standardRef) bool { return s.id == st.ID }) {
					g.standards = append(g.standards, ref)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if len(g.standards) == 0 {
		return fmt.Errorf("datagen: no CycloneDX standard found under %s", g.s.StandardsDir)
	}
	g.out.Standards = len(g.standards)
	return nil
}

// drawState draws an assessment state by AssessmentStates.
func (g *gen) drawState() assess.AssessmentState {
	n := g.rng.IntN(1000)
	for _, s := range AssessmentStates {
		if n < s.PerMille {
			return s.State
		}
		n -= s.PerMille
	}
	return assess.AssessmentInProgress
}

func started(s assess.AssessmentState) bool {
	return s != assess.AssessmentNew && s != assess.AssessmentPending
}

// assessmentsStep writes the assessments with their standard, dates and teams (two assessors
// and two assessees; the participant as an assessor of every tenth).
func (g *gen) assessmentsStep() error {
	ids := assess.NewIDs(assess.PrefixAssessment, g.now, g.s.Assessments)
	var rows, standards, members [][]any
	for i, id := range ids {
		a := genAssessment{id: id, entity: g.entities[i%len(g.entities)], state: g.drawState(), standard: i % len(g.standards)}
		if len(g.projects) > 0 && i%4 != 3 {
			a.project = g.projects[i%len(g.projects)]
		}
		a.team = []string{g.pick(g.assessors), g.pick(g.assessees)}
		if extra := g.pick(g.assessees); i%3 == 0 && !slices.Contains(a.team, extra) {
			a.team = append(a.team, extra)
		}
		if i%10 == 0 {
			a.team = append(a.team, g.out.ParticipantID)
		}
		g.assessments = append(g.assessments, a)
		created := g.now.AddDate(0, 0, -g.rng.IntN(540))
		var startedAt, endedAt, project any
		if a.project != "" {
			project = a.project
		}
		if started(a.state) {
			startedAt = created.Add(time.Duration(g.rng.IntN(72)) * time.Hour)
		}
		if assess.AssessmentReadOnly(a.state) {
			endedAt = created.AddDate(0, 0, 20+g.rng.IntN(100))
		}
		due := g.now.AddDate(0, 0, g.rng.IntN(300)-120)
		title := fmt.Sprintf("%s review %05d", topics[i%len(topics)], i)
		rows = append(rows, []any{id, strings.ToUpper(title[:1]) + title[1:], "Generated assessment.", a.entity, project, string(a.state),
			due, startedAt, endedAt, a.team[0], created, created})
		standards = append(standards, []any{id, g.standards[a.standard].id, 0})
		for j, u := range a.team {
			role := "assessee"
			if j == 0 || u == g.out.ParticipantID {
				role = "assessor"
			}
			members = append(members, []any{id, u, role})
		}
	}
	if err := g.copy("assessments", []string{"id", "title", "description", "entity_id", "project_id", "state", "due_date", "started_at",
		"ended_at", "created_by", "created_at", "updated_at"}, rows); err != nil {
		return err
	}
	g.out.Assessments = len(rows)
	if err := g.copy("assessment_standards", []string{"assessment_id", "standard_id", "position"}, standards); err != nil {
		return err
	}
	return g.copy("assessment_members", []string{"assessment_id", "user_id", "role"}, members)
}

// resultsStep writes the requirement rows of the started assessments: about Results over all,
// each assessment the first requirements of its standard; finished ones answered throughout,
// those in progress about half.
func (g *gen) resultsStep() error {
	left := 0 // started assessments not yet given rows
	for _, a := range g.assessments {
		if started(a.state) {
			left++
		}
	}
	g.rows = make([][]string, len(g.assessments))
	results := []string{"yes", "yes", "yes", "partial", "no", "not_applicable"}
	var batch [][]any
	flush := func() error {
		err := g.copy("assessment_requirements", []string{"id", "assessment_id", "requirement_id", "standard_id", "result", "rationale",
			"rationale_words", "answered_by", "answered_at", "created_at", "updated_at"}, batch)
		batch = batch[:0]
		return err
	}
	for i, a := range g.assessments {
		if !started(a.state) {
			continue
		}
		// An even share of what is left, so that smaller standards' shortfall moves on.
		per := int(math.Ceil(float64(g.s.Results-g.out.Results) / float64(left)))
		left--
		st := g.standards[a.standard]
		n := min(per, len(st.requirements))
		if n <= 0 {
			break
		}
		ids := assess.NewIDs(assess.PrefixAssessmentRequirement, g.now, n)
		g.rows[i] = ids
		answered := assess.AssessmentFinished(a.state)
		for j, id := range ids {
			var result, by, at any
			rationale := ""
			if answered || g.rng.IntN(2) == 0 {
				result = results[g.rng.IntN(len(results))]
				rationale = fmt.Sprintf("Checked %s in the review of %s; the findings are in the linked report.", topics[j%len(topics)], a.id[len(a.id)-6:])
				by, at = a.team[0], g.now.AddDate(0, 0, -g.rng.IntN(200))
			}
			batch = append(batch, []any{id, a.id, st.requirements[j], st.id, result, rationale, len(strings.Fields(rationale)), by, at, g.now, g.now})
		}
		g.out.Results += n
		if len(batch) >= 50000 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// evidenceStep writes evidence by team members of started assessments, in every state, each
// linked to one to three requirement rows of its assessment.
func (g *gen) evidenceStep() error {
	g.evidenceOf, g.evidenceNo = make([][]string, len(g.assessments)), make([][]int32, len(g.assessments))
	withRows := make([]int, 0, len(g.assessments))
	for i := range g.assessments {
		if len(g.rows[i]) > 0 {
			withRows = append(withRows, i)
		}
	}
	if len(withRows) == 0 || g.s.Evidence == 0 {
		return nil
	}
	ids := assess.NewIDs(assess.PrefixEvidence, g.now, g.s.Evidence)
	states := []string{"in_progress", "in_review", "claimed", "claimed", "expired"}
	var ev, links [][]any
	for k, id := range ids {
		i := withRows[k%len(withRows)]
		a := g.assessments[i]
		state := states[g.rng.IntN(len(states))]
		author := a.team[g.rng.IntN(len(a.team))]
		var reviewer, submitted any
		if state != "in_progress" {
			reviewer, submitted = a.team[0], g.now.AddDate(0, 0, -g.rng.IntN(60))
		}
		until := g.now.AddDate(0, 0, g.rng.IntN(400)-30)
		if state == "expired" {
			until = g.now.AddDate(0, 0, -1-g.rng.IntN(200))
		}
		ev = append(ev, []any{id, evidenceName(k), "Generated evidence.", state, author, reviewer, submitted, until, g.now, g.now})
		g.evidenceOf[i], g.evidenceNo[i] = append(g.evidenceOf[i], id), append(g.evidenceNo[i], int32(k))
		seen := map[string]bool{}
		for range 1 + g.rng.IntN(3) {
			row := g.rows[i][g.rng.IntN(len(g.rows[i]))]
			if !seen[row] {
				seen[row] = true
				links = append(links, []any{row, id, a.id, author, g.now})
			}
		}
	}
	if err := g.copy("evidence", []string{"id", "name", "description", "state", "author_id", "reviewer_id", "submitted_at", "valid_until",
		"created_at", "updated_at"}, ev); err != nil {
		return err
	}
	g.out.Evidence = len(ev)
	return g.copy("assessment_requirement_evidence", []string{"assessment_requirement_id", "evidence_id", "assessment_id", "linked_by", "created_at"}, links)
}

// claimsStep writes claims of started assessments about one or two of their requirements,
// each citing one piece of evidence of the same assessment when it has some; in batches, so
// that a million claims need no more memory than fifty thousand.
func (g *gen) claimsStep() error {
	g.claimsOf, g.claimsNo = make([][]string, len(g.assessments)), make([][]int32, len(g.assessments))
	if g.s.Claims == 0 {
		return nil
	}
	var withRows []int
	for i := range g.assessments {
		if len(g.rows[i]) > 0 {
			withRows = append(withRows, i)
		}
	}
	if len(withRows) == 0 {
		return nil
	}
	ids := assess.NewIDs(assess.PrefixClaim, g.now, g.s.Claims)
	var claims, cev, creq [][]any
	flush := func() error {
		if err := g.copy("claims", []string{"id", "assessment_id", "name", "target_entity_id", "predicate", "created_by", "created_at", "updated_at"}, claims); err != nil {
			return err
		}
		if err := g.copy("claim_evidence", []string{"claim_id", "evidence_id", "kind"}, cev); err != nil {
			return err
		}
		err := g.copy("claim_requirements", []string{"claim_id", "assessment_requirement_id"}, creq)
		claims, cev, creq = claims[:0], cev[:0], creq[:0]
		return err
	}
	for k, id := range ids {
		i := withRows[k%len(withRows)]
		a := g.assessments[i]
		g.claimsOf[i], g.claimsNo[i] = append(g.claimsOf[i], id), append(g.claimsNo[i], int32(k))
		claims = append(claims, []any{id, a.id, claimName(k), a.entity,
			fmt.Sprintf("The %s control of %s is in place.", topics[k%len(topics)], a.id[len(a.id)-6:]), a.team[0], g.now, g.now})
		if evs := g.evidenceOf[i]; len(evs) > 0 {
			cev = append(cev, []any{id, evs[g.rng.IntN(len(evs))], "evidence"})
		}
		first := g.rng.IntN(len(g.rows[i]))
		creq = append(creq, []any{id, g.rows[i][first]})
		if second := g.rng.IntN(len(g.rows[i])); second != first {
			creq = append(creq, []any{id, g.rows[i][second]})
		}
		g.out.Claims++
		if len(claims) >= 50000 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// scopeStep writes what projects and entities name: each project's standards and entities
// (those of its assessments) and a compliance policy for each entity on the standard of its
// first assessment.
func (g *gen) scopeStep() error {
	type pair struct{ a, b string }
	seen := map[pair]bool{}
	var projectStandards, projectEntities, policies [][]any
	for _, a := range g.assessments {
		st := g.standards[a.standard].id
		if a.project != "" {
			if k := (pair{a.project, "s" + st}); !seen[k] {
				seen[k] = true
				projectStandards = append(projectStandards, []any{a.project, st})
			}
			if k := (pair{a.project, "e" + a.entity}); !seen[k] {
				seen[k] = true
				projectEntities = append(projectEntities, []any{a.project, a.entity})
			}
		}
		if k := (pair{a.entity, "p"}); !seen[k] {
			seen[k] = true
			policies = append(policies, []any{assess.NewID(assess.PrefixPolicy, g.now), a.entity, st,
				"Assessed against this standard every year.", g.now, g.now})
		}
	}
	if err := g.copy("project_standards", []string{"project_id", "standard_id"}, projectStandards); err != nil {
		return err
	}
	if err := g.copy("project_entities", []string{"project_id", "entity_id"}, projectEntities); err != nil {
		return err
	}
	g.out.Policies = len(policies)
	return g.copy("compliance_policies", []string{"id", "entity_id", "standard_id", "description", "created_at", "updated_at"}, policies)
}

// notesStep writes the work notes of started assessments, by their team members.
func (g *gen) notesStep() error {
	g.notesOf = make([][]string, len(g.assessments))
	var withRows []int
	for i := range g.assessments {
		if len(g.rows[i]) > 0 {
			withRows = append(withRows, i)
		}
	}
	if len(withRows) == 0 || g.s.Notes == 0 {
		return nil
	}
	ids := assess.NewIDs(assess.PrefixWorkNote, g.now, g.s.Notes)
	rows := make([][]any, 0, len(ids))
	for k, id := range ids {
		i := withRows[k%len(withRows)]
		a := g.assessments[i]
		g.notesOf[i] = append(g.notesOf[i], id)
		at := g.now.AddDate(0, 0, -g.rng.IntN(200))
		rows = append(rows, []any{id, a.id, a.team[g.rng.IntN(len(a.team))],
			fmt.Sprintf("Looked at the %s evidence again; two questions for the team before we answer the rest.", topics[k%len(topics)]), at, at})
	}
	g.out.Notes = len(rows)
	return g.copy("work_notes", []string{"id", "assessment_id", "author_id", "content", "created_at", "updated_at"}, rows)
}

// auditStep writes the audit log: mostly changes under assessments (their timelines) —
// results recorded, evidence linked, claims and notes added, state changes — with their
// real targets and the details the service records, and a tenth sign-ins; written in the
// order of their times, as the service appends them.
func (g *gen) auditStep() error {
	if g.s.Audit == 0 {
		return nil
	}
	type row struct {
		at                                         time.Time
		actor, action, typ, target, details, scope string
	}
	var withRows []int
	for i := range g.assessments {
		if len(g.rows[i]) > 0 {
			withRows = append(withRows, i)
		}
	}
	results := []string{"yes", "partial", "no", "not_applicable"}
	rows := make([]row, 0, g.s.Audit)
	for len(rows) < g.s.Audit {
		at := g.now.Add(-time.Duration(g.rng.Int64N(int64(540 * 24 * time.Hour))))
		n := g.rng.IntN(100)
		if n < 10 || len(withRows) == 0 {
			u := g.pick(g.actors)
			rows = append(rows, row{at, u, string(assess.ChangeAuthLogin.Action), "user", u, `{"method": "password"}`, ""})
			continue
		}
		i := withRows[g.rng.IntN(len(withRows))]
		a := g.assessments[i]
		actor := a.team[g.rng.IntN(len(a.team))]
		j := g.rng.IntN(len(g.rows[i]))
		ar, ident := g.rows[i][j], g.standards[a.standard].identifiers[j]
		switch {
		case n < 65:
			rows = append(rows, row{at, actor, string(assess.ChangeAssessmentResultRecorded.Action), "assessment_requirement", ar,
				jsonObject("identifier", ident, "result", results[g.rng.IntN(len(results))]), a.id})
		case n < 77 && len(g.evidenceOf[i]) > 0:
			e := g.rng.IntN(len(g.evidenceOf[i]))
			rows = append(rows, row{at, actor, string(assess.ChangeEvidenceLinked.Action), "evidence", g.evidenceOf[i][e],
				jsonObject("assessmentId", a.id, "requirementId", ar, "requirement", ident, "name", evidenceName(int(g.evidenceNo[i][e]))), a.id})
		case n < 87 && len(g.claimsOf[i]) > 0:
			c := g.rng.IntN(len(g.claimsOf[i]))
			rows = append(rows, row{at, actor, string(assess.ChangeClaimCreated.Action), "claim", g.claimsOf[i][c],
				jsonObject("name", claimName(int(g.claimsNo[i][c]))), a.id})
		case n < 94 && len(g.notesOf[i]) > 0:
			rows = append(rows, row{at, actor, string(assess.ChangeAssessmentNoteAdded.Action), "work_note", g.notesOf[i][g.rng.IntN(len(g.notesOf[i]))], `{}`, a.id})
		default:
			rows = append(rows, row{at, a.team[0], string(assess.ChangeAssessmentStateChanged.Action), "assessment", a.id,
				fmt.Sprintf(`{"from": "new", "to": %q}`, a.state), a.id})
		}
	}
	slices.SortFunc(rows, func(x, y row) int { return x.at.Compare(y.at) })
	batch := make([][]any, 0, 50000)
	for k, r := range rows {
		batch = append(batch, []any{r.at, r.actor, r.action, r.typ, r.target, r.details, r.scope})
		if len(batch) == cap(batch) || k == len(rows)-1 {
			if err := g.copy("audit_log", []string{"occurred_at", "actor", "action", "target_type", "target_id", "details", "scope_id"}, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	g.out.Audit = len(rows)
	return nil
}

// scores computes the conformance of the finished assessments as completing them does
// (yes 1, partial ½, no 0, not applicable left out; whole hundredths), per standard and overall.
func (g *gen) scores() error {
	_, err := g.pool.Exec(g.ctx, `
		WITH per AS (SELECT ar.assessment_id, ar.standard_id,
			round(100.0 * sum(CASE ar.result WHEN 'yes' THEN 1 WHEN 'partial' THEN 0.5 ELSE 0 END)
				/ nullif(count(*) FILTER (WHERE ar.result <> 'not_applicable'), 0), 2) AS score
			FROM assessment_requirements ar JOIN assessments a ON a.id = ar.assessment_id
			WHERE a.state IN ('complete', 'archived') GROUP BY ar.assessment_id, ar.standard_id)
		UPDATE assessment_standards s SET conformance_score = per.score FROM per
		WHERE s.assessment_id = per.assessment_id AND s.standard_id = per.standard_id`)
	if err != nil {
		return err
	}
	_, err = g.pool.Exec(g.ctx, `
		WITH per AS (SELECT ar.assessment_id,
			round(100.0 * sum(CASE ar.result WHEN 'yes' THEN 1 WHEN 'partial' THEN 0.5 ELSE 0 END)
				/ nullif(count(*) FILTER (WHERE ar.result <> 'not_applicable'), 0), 2) AS score
			FROM assessment_requirements ar JOIN assessments a ON a.id = ar.assessment_id
			WHERE a.state IN ('complete', 'archived') GROUP BY ar.assessment_id)
		UPDATE assessments a SET conformance_score = per.score FROM per WHERE a.id = per.assessment_id`)
	return err
}
