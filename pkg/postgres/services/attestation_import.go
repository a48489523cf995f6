package services

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/catalogue"
	"github.com/assay-dev/assay/pkg/postgres/work"
)

// The import of CycloneDX attestation documents (docs/attestations.md, "Importing
// attestations"). It writes to the catalogue (standards, entities) and to the work
// (assessors, an assessment, evidence, claims, the attestation) in one transaction, so it
// lives in the composition package. A dry run is the same transaction rolled back: what it
// reports is exactly what the import would do.

// AttestationImportService implements assess.AttestationImportService.
type AttestationImportService struct{ db *postgres.DB }

var errImportNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "Attestation import not found."}

// errDryRun rolls a dry run's transaction back.
var errDryRun = errors.New("dry run")

// importRun is one import in progress.
type importRun struct {
	tx   *postgres.Tx
	plan assess.AttestationImportPlan
	out  *assess.AttestationImport
	dry  bool

	standards    []string          // plan index → standard id
	requirements map[string]string // document requirement ref → requirement id
	reqStandard  map[string]string // requirement id → standard id
	entities     map[string]string // target bom-ref → entity id
	entity       string            // the assessment's entity
	entityName   string
	assessors    map[string]string // assessor bom-ref → assessor id
	evidence     map[string]string // evidence bom-ref → evidence id
	claims       map[string]string // claim bom-ref → claim id
	rows         map[string]string // requirement id → assessment requirement id
	validUntil   string            // the earliest expiry of the evidence, YYYY-MM-DD
}

// ImportAttestation implements assess.AttestationImportService.
func (s *AttestationImportService) ImportAttestation(ctx context.Context, n assess.NewAttestationImport, actor assess.Actor) (assess.AttestationImport, error) {
	var out assess.AttestationImport
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 24))`, "attestation-import:"+n.Plan.Key()); err != nil {
			return err
		}
		prior, err := s.findByKey(ctx, tx, n.Plan.Key())
		if err == nil && prior.SHA256 != n.Plan.SHA256 {
			return &assess.Error{Code: assess.ECodeConflict, Message: fmt.Sprintf("Another document with serial number %s and version %d was imported before (%s); "+
				"a changed document needs a new version number.", n.Plan.SerialNumber, n.Plan.DocVersion, prior.ID),
				Details: []assess.Detail{{Field: "version", Code: "already_imported", Message: "Import " + prior.ID + " holds this serial number and version."}}}
		}
		if err == nil {
			out = prior
			out.AlreadyImported, out.DryRun = true, n.DryRun
			return nil
		}
		if !errors.Is(err, errImportNotFound) {
			return err
		}
		out = assess.AttestationImport{DryRun: n.DryRun, SerialNumber: n.Plan.SerialNumber, DocVersion: n.Plan.DocVersion,
			SpecVersion: n.Plan.SpecVersion, SHA256: n.Plan.SHA256, Source: n.Source, Filename: n.Filename,
			Records: []assess.ImportedRecord{}, Repairs: slices.Clone(n.Plan.Repairs), Signatures: n.Signatures,
			ImportedBy: importer(actor), CreatedAt: tx.Now}
		if out.Repairs == nil {
			out.Repairs = []assess.ImportRepair{}
		}
		r := &importRun{tx: tx, plan: n.Plan, out: &out, dry: n.DryRun, requirements: map[string]string{}, reqStandard: map[string]string{},
			entities: map[string]string{}, assessors: map[string]string{}, evidence: map[string]string{}, claims: map[string]string{},
			rows: map[string]string{}}
		if err := r.run(ctx, n); err != nil {
			return err
		}
		if n.DryRun {
			r.blankCreatedIDs()
			return errDryRun
		}
		return nil
	})
	if errors.Is(err, errDryRun) {
		err = nil
	}
	return out, err
}

func (r *importRun) run(ctx context.Context, n assess.NewAttestationImport) error {
	tx := r.tx
	r.out.ID = assess.NewID(assess.PrefixAttestationImport, tx.Now)
	// The import row first: every record below names it.
	if _, err := tx.Exec(ctx, `INSERT INTO attestation_imports (id, import_key, serial_number, doc_version, sha256, spec_version,
		source, filename, document, signatures, report, imported_by, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, '{}', $11, $12)`,
		r.out.ID, r.plan.Key(), r.plan.SerialNumber, r.plan.DocVersion, r.plan.SHA256, r.plan.SpecVersion, n.Source, n.Filename,
		n.Document, n.Signatures.State, tx.Actor.ID, tx.Now); err != nil {
		return err
	}
	steps := []func(context.Context) error{r.importStandards, r.resolveRequirements, r.importTargets, r.importAssessors,
		r.createAssessment, r.importEvidence, r.importClaims, r.createAttestation}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return err
		}
	}
	report, err := json.Marshal(r.out)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE attestation_imports SET report = $2 WHERE id = $1`, r.out.ID, report); err != nil {
		return err
	}
	_, err = work.RecordAttestation(ctx, tx, assess.ChangeAttestationImported, r.out.AttestationID, map[string]any{
		"import": r.out.ID, "serialNumber": r.plan.SerialNumber, "source": n.Source, "signatures": n.Signatures.State,
		"created": r.out.Created, "linked": r.out.Linked, "repairs": len(r.out.Repairs)})
	return err
}

// record notes a record created or linked.
func (r *importRun) record(kind, id, name, ref string, created bool) {
	rec := assess.ImportedRecord{Kind: kind, ID: id, Name: name, Outcome: "linked", Ref: ref}
	counts := &r.out.Linked
	if created {
		rec.Outcome, counts = "created", &r.out.Created
	}
	r.out.Records = append(r.out.Records, rec)
	switch kind {
	case "standard":
		counts.Standards++
	case "entity":
		counts.Entities++
	case "assessor":
		counts.Assessors++
	case "assessment":
		counts.Assessments++
	case "evidence":
		counts.Evidence++
	case "claim":
		counts.Claims++
	case "attestation":
		counts.Attestations++
	}
}

func (r *importRun) repair(ptr, code, msg string) {
	r.out.Repairs = append(r.out.Repairs, assess.ImportRepair{Pointer: ptr, Code: code, Message: msg})
}

// blankCreatedIDs empties the ids of what a dry run created: they were rolled back.
func (r *importRun) blankCreatedIDs() {
	r.out.ID, r.out.AssessmentID, r.out.AttestationID = "", "", ""
	for i := range r.out.Records {
		if r.out.Records[i].Outcome == "created" {
			r.out.Records[i].ID = ""
		}
	}
}

// importStandards links each standard of the document by identifier and version, or creates
// it as an imported, published standard.
func (r *importRun) importStandards(ctx context.Context) error {
	for _, imp := range r.plan.Standards {
		st, outcome, err := catalogue.ImportStandardTx(ctx, r.tx, imp, assess.SourceImport)
		if err != nil {
			return err
		}
		r.standards = append(r.standards, st.ID)
		r.record("standard", st.ID, strings.TrimSpace(st.Name+" "+st.StandardVersion), imp.BOMRef, outcome == assess.ImportCreated)
		if outcome == assess.ImportCreated {
			r.out.Created.Requirements += len(imp.Requirements)
		}
	}
	return nil
}

// resolveRequirements finds the requirement of every map entry: in the standard the document
// defines it in (by identifier, so a standard that existed already serves); else, for a
// document without definitions, the one requirement of the catalogue with that bom-ref; else
// in a standard made for the document's undefined requirements.
func (r *importRun) resolveRequirements(ctx context.Context) error {
	var undefined []string
	for _, a := range r.plan.Attestations {
		for _, m := range a.Map {
			if _, done := r.requirements[m.Requirement]; done || slices.Contains(undefined, m.Requirement) {
				continue
			}
			if ref, ok := r.plan.Requirements[m.Requirement]; ok {
				var id string
				err := r.tx.QueryRow(ctx, `SELECT id FROM requirements WHERE standard_id = $1 AND identifier = $2`,
					r.standards[ref.Standard], ref.Identifier).Scan(&id)
				if err == nil {
					r.requirements[m.Requirement], r.reqStandard[id] = id, r.standards[ref.Standard]
					continue
				}
				if !errors.Is(err, pgx.ErrNoRows) {
					return err
				}
				// The standard existed with other requirements: fall through to the catalogue.
			}
			rows, err := r.tx.Query(ctx, `SELECT r.id, r.standard_id, r.identifier, s.name FROM requirements r JOIN standards s ON s.id = r.standard_id
				WHERE r.bom_ref = $1 OR r.id = $1 LIMIT 2`, m.Requirement)
			if err != nil {
				return err
			}
			type hit struct{ id, standard, identifier, standardName string }
			hits, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (hit, error) {
				var h hit
				return h, row.Scan(&h.id, &h.standard, &h.identifier, &h.standardName)
			})
			if err != nil {
				return err
			}
			if len(hits) == 1 {
				h := hits[0]
				r.requirements[m.Requirement], r.reqStandard[h.id] = h.id, h.standard
				r.repair("/declarations/attestations", "missing_definitions", fmt.Sprintf(
					"The requirement %q is not defined in the document; it was linked to %s of %s, which has that reference.", m.Requirement, h.identifier, h.standardName))
				continue
			}
			undefined = append(undefined, m.Requirement)
		}
	}
	if len(undefined) == 0 {
		return nil
	}
	return r.undefinedRequirements(ctx, undefined)
}

// undefinedRequirements makes a standard of the requirements the document names but does
// not define, named after the document, so the attestation keeps its map.
func (r *importRun) undefinedRequirements(ctx context.Context, refs []string) error {
	doc := cmp.Or(r.plan.SerialNumber, "sha256:"+r.plan.SHA256[:16])
	imp := assess.StandardImport{Identifier: assess.StandardIdentifier("Imported requirements " + doc), StandardVersion: fmt.Sprint(r.plan.DocVersion),
		Name: "Requirements of imported attestation " + doc, ExternalReferences: []assess.ExternalReference{},
		Description: "The document named these requirements without defining them (no definitions.standards); each is identified by the reference the document used."}
	if len(imp.Name) > 500 {
		imp.Name = imp.Name[:500]
	}
	for _, ref := range refs {
		id := ref
		if len([]rune(id)) > 200 {
			id = string([]rune(id)[:200])
		}
		imp.Requirements = append(imp.Requirements, assess.RequirementImport{Identifier: id, Name: id, BOMRef: ref,
			OpenCRE: []string{}, ExternalReferences: []assess.ExternalReference{}, Properties: []assess.Property{}})
	}
	imp.Levels = []assess.LevelImport{}
	if err := imp.Validate("/declarations/attestations"); err != nil {
		return err
	}
	st, outcome, err := catalogue.ImportStandardTx(ctx, r.tx, imp, assess.SourceImport)
	if err != nil {
		return err
	}
	r.standards = append(r.standards, st.ID)
	r.record("standard", st.ID, st.Name, "", outcome == assess.ImportCreated)
	if outcome == assess.ImportCreated {
		r.out.Created.Requirements += len(refs)
	}
	r.repair("/definitions", "missing_definitions", fmt.Sprintf(
		"The document does not define %d requirement(s) its attestations name; they were placed in the standard %q, identified by their references.", len(refs), st.Name))
	for _, ref := range refs {
		var id string
		err := r.tx.QueryRow(ctx, `SELECT id FROM requirements WHERE standard_id = $1 AND bom_ref = $2`, st.ID, ref).Scan(&id)
		if err != nil {
			return err
		}
		r.requirements[ref], r.reqStandard[id] = id, st.ID
	}
	return nil
}

// importTargets links each target to the entity of the same name and type, or creates it; the
// first target is the assessment's entity (organisations first, then components, services).
func (r *importRun) importTargets(ctx context.Context) error {
	targets := r.plan.Targets
	if len(targets) == 0 {
		name := "Unknown target"
		if len(r.plan.Assessors) > 0 && r.plan.Title != "" {
			name = r.plan.Title
		}
		targets = []assess.ImportTarget{{Name: name, Type: assess.EntityTypeOrganization,
			Description: "The imported attestation " + cmp.Or(r.plan.SerialNumber, r.plan.SHA256) + " declares no target."}}
		r.repair("/declarations/targets", "missing_target", fmt.Sprintf("The document declares no target; the assessment is about the entity %q.", name))
	}
	for _, t := range targets {
		id, created, err := r.entityFor(ctx, t)
		if err != nil {
			return err
		}
		if t.BOMRef != "" {
			r.entities[t.BOMRef] = id
		}
		if r.entity == "" {
			r.entity, r.entityName = id, t.Name
		}
		r.record("entity", id, t.Name, t.BOMRef, created)
	}
	return nil
}

func (r *importRun) entityFor(ctx context.Context, t assess.ImportTarget) (string, bool, error) {
	var id string
	err := r.tx.QueryRow(ctx, `SELECT id FROM entities WHERE lower(name) = lower($1) AND entity_type = $2 ORDER BY id LIMIT 1`, t.Name, t.Type).Scan(&id)
	if err == nil {
		return id, false, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", false, err
	}
	id = assess.NewID(assess.PrefixEntity, r.tx.Now)
	_, err = r.tx.Exec(ctx, `INSERT INTO entities (id, name, description, entity_type, bom_ref, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $6)`, id, t.Name, t.Description, t.Type, t.BOMRef, r.tx.Now)
	return id, true, err
}

// importAssessors links each assessor organisation by name or records it.
func (r *importRun) importAssessors(ctx context.Context) error {
	for _, a := range r.plan.Assessors {
		var id string
		err := r.tx.QueryRow(ctx, `SELECT id FROM assessors WHERE lower(name) = lower($1)`, a.Name).Scan(&id)
		created := errors.Is(err, pgx.ErrNoRows)
		switch {
		case created:
			id = assess.NewID(assess.PrefixAssessor, r.tx.Now)
			if _, err := r.tx.Exec(ctx, `INSERT INTO assessors (id, name, url, third_party, description, created_at, updated_at)
				VALUES ($1, $2, $3, $4, $5, $6, $6)`, id, a.Name, a.URL, a.ThirdParty, "Recorded by an attestation import.", r.tx.Now); err != nil {
				return err
			}
		case err != nil:
			return err
		}
		if a.BOMRef != "" {
			r.assessors[a.BOMRef] = id
		}
		r.record("assessor", id, a.Name, a.BOMRef, created)
	}
	return nil
}

// resultOf is the result a conformance score stands for: 1 yes, 0 no, between partial; no
// score not applicable (how this product exports a not-applicable requirement).
func resultOf(score *float64) assess.Result {
	switch {
	case score == nil:
		return assess.ResultNotApplicable
	case *score >= 1:
		return assess.ResultYes
	case *score <= 0:
		return assess.ResultNo
	}
	return assess.ResultPartial
}

// meanScore is the mean of the scores on 0–100 with two decimals, or nil.
func meanScore(scores []float64) *float64 {
	if len(scores) == 0 {
		return nil
	}
	var sum float64
	for _, s := range scores {
		sum += s
	}
	v := math.Round(sum/float64(len(scores))*10000) / 100
	return &v
}

// createAssessment writes the complete, read-only assessment the attestation is about: its
// standards and a requirement row per map entry, with the result the score stands for.
func (r *importRun) createAssessment(ctx context.Context) error {
	tx := r.tx
	id := assess.NewID(assess.PrefixAssessment, tx.Now)
	r.out.AssessmentID = id
	title := cmp.Or(r.plan.Title, firstSummary(r.plan.Attestations), "Imported attestation of "+r.entityName)
	if len([]rune(title)) > 300 {
		title = string([]rune(title)[:300])
	}
	when := tx.Now
	if r.plan.Timestamp != nil {
		when = *r.plan.Timestamp
	}
	desc := fmt.Sprintf("Imported from the CycloneDX attestation %s (version %d).", cmp.Or(r.plan.SerialNumber, "sha256:"+r.plan.SHA256), r.plan.DocVersion)
	if _, err := tx.Exec(ctx, `INSERT INTO assessments (id, title, description, entity_id, state, started_at, ended_at, completion_evidence,
		created_by, import_id, created_at, updated_at) VALUES ($1, $2, $3, $4, 'complete', $5, $5, 'none', $6, $7, $8, $8)`,
		id, title, desc, r.entity, when, tx.Actor.ID, r.out.ID, tx.Now); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ($1, $2, 'assessor')`, id, tx.Actor.ID); err != nil {
		return err
	}
	r.record("assessment", id, title, "", true)
	scores := map[string][]float64{} // standard → scores
	var all []float64
	for ai, a := range r.plan.Attestations {
		for mi, m := range a.Map {
			reqID := r.requirements[m.Requirement]
			if _, dup := r.rows[reqID]; dup {
				r.repair(fmt.Sprintf("/declarations/attestations/%d/map/%d", ai, mi), "duplicate_reference",
					fmt.Sprintf("The requirement %q is mapped twice; the first entry was kept.", m.Requirement))
				continue
			}
			rowID := assess.NewID(assess.PrefixAssessmentRequirement, tx.Now)
			r.rows[reqID] = rowID
			res := resultOf(m.Score)
			rationale := m.Rationale
			if _, err := tx.Exec(ctx, `INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id, result, rationale,
				rationale_words, answered_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
				rowID, id, reqID, r.reqStandard[reqID], res, rationale, len(strings.Fields(rationale)), when, tx.Now); err != nil {
				return err
			}
			if m.Score != nil {
				scores[r.reqStandard[reqID]] = append(scores[r.reqStandard[reqID]], *m.Score)
				all = append(all, *m.Score)
			}
		}
	}
	used := make([]string, 0, len(r.standards))
	for _, st := range r.standards {
		if slices.Contains(used, st) {
			continue
		}
		used = append(used, st)
		if _, err := tx.Exec(ctx, `INSERT INTO assessment_standards (assessment_id, standard_id, position, conformance_score) VALUES ($1, $2, $3, $4)`,
			id, st, len(used)-1, meanScore(scores[st])); err != nil {
			return err
		}
	}
	_, err := tx.Exec(ctx, `UPDATE assessments SET conformance_score = $2 WHERE id = $1`, id, meanScore(all))
	return err
}

func firstSummary(as []assess.ImportAttestationEntry) string {
	for _, a := range as {
		if s := strings.TrimSpace(a.Summary); s != "" {
			return s
		}
	}
	return ""
}

// importEvidence writes each evidence descriptor as claimed evidence of the importer, with
// the files it names as references; linked to the requirements whose claims cite it.
func (r *importRun) importEvidence(ctx context.Context) error {
	tx := r.tx
	for _, e := range r.plan.Evidence {
		id := assess.NewID(assess.PrefixEvidence, tx.Now)
		files := e.Files
		if files == nil {
			files = []assess.ExternalFile{}
		}
		desc := e.Description
		if e.PropertyName != "" && e.PropertyName != e.Name {
			desc = strings.TrimSpace(desc + "\n\nProperty: " + e.PropertyName)
		}
		var collected, until any
		if e.Created != "" {
			collected = e.Created
		}
		if e.Expires != "" {
			until = e.Expires
		}
		// Claimed, as the document's claims cite it; expired already when its day has passed
		// (the expiry job would only announce that to the importer, once per record).
		state := "claimed"
		if e.Expires != "" && e.Expires < tx.Now.UTC().Format(time.DateOnly) {
			state = "expired"
		}
		if e.Expires != "" && (r.validUntil == "" || e.Expires < r.validUntil) {
			r.validUntil = e.Expires
		}
		if _, err := tx.Exec(ctx, `INSERT INTO evidence (id, name, description, classification, bom_ref, state, author_id, collected_on,
			valid_until, external_files, import_id, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
			id, e.Name, desc, clipText(e.Classification, 300), clipText(e.BOMRef, 1000), state, tx.Actor.ID, collected, until, files, r.out.ID, tx.Now); err != nil {
			return err
		}
		r.evidence[e.BOMRef] = id
		r.record("evidence", id, e.Name, e.BOMRef, true)
	}
	return nil
}

// importClaims writes the claims with their evidence, targets and requirements.
func (r *importRun) importClaims(ctx context.Context) error {
	tx := r.tx
	counter := map[string]bool{}  // claims only ever named as counter-claims
	reqs := map[string][]string{} // claim ref → requirement rows
	for _, a := range r.plan.Attestations {
		for _, m := range a.Map {
			row := r.rows[r.requirements[m.Requirement]]
			for _, c := range m.Claims {
				counter[c] = false
				reqs[c] = appendNew(reqs[c], row)
			}
			for _, c := range m.CounterClaims {
				if _, seen := counter[c]; !seen {
					counter[c] = true
				}
				reqs[c] = appendNew(reqs[c], row)
			}
		}
	}
	for _, c := range r.plan.Claims {
		id := assess.NewID(assess.PrefixClaim, tx.Now)
		var target string
		var targetEntity any
		if e, ok := r.entities[c.Target]; ok {
			targetEntity = e
		} else if c.Target != "" {
			target = clipText(c.Target, 1000)
		} else {
			targetEntity = r.entity
		}
		refs := c.ExternalReferences
		if refs == nil {
			refs = []assess.ExternalReference{}
		}
		name := clipText(firstLineOf(c.Predicate), 300)
		if _, err := tx.Exec(ctx, `INSERT INTO claims (id, assessment_id, name, bom_ref, target, target_entity_id, predicate, reasoning,
			is_counter_claim, external_references, created_by, import_id, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
			id, r.out.AssessmentID, name, clipText(c.BOMRef, 1000), target, targetEntity, clipText(c.Predicate, 10000), c.Reasoning,
			counter[c.BOMRef], refs, tx.Actor.ID, r.out.ID, tx.Now); err != nil {
			return err
		}
		r.claims[c.BOMRef] = id
		r.record("claim", id, name, c.BOMRef, true)
		for kind, evs := range map[string][]string{"evidence": c.Evidence, "counter_evidence": c.CounterEvidence, "mitigation": c.Mitigations} {
			for _, ev := range evs {
				if _, err := tx.Exec(ctx, `INSERT INTO claim_evidence (claim_id, evidence_id, kind) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
					id, r.evidence[ev], kind); err != nil {
					return err
				}
			}
		}
		for _, row := range reqs[c.BOMRef] {
			if _, err := tx.Exec(ctx, `INSERT INTO claim_requirements (claim_id, assessment_requirement_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, id, row); err != nil {
				return err
			}
			if counter[c.BOMRef] {
				continue
			}
			for _, ev := range slices.Concat(c.Evidence, c.Mitigations) {
				if _, err := tx.Exec(ctx, `INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id, linked_by, created_at)
					VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, row, r.evidence[ev], r.out.AssessmentID, tx.Actor.ID, tx.Now); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// createAttestation writes the imported attestation: the document's bytes, its assessors,
// claims, map scores and signatories as the document states them.
func (r *importRun) createAttestation(ctx context.Context) error {
	tx := r.tx
	id := assess.NewID(assess.PrefixAttestation, tx.Now)
	r.out.AttestationID = id
	var summaries []string
	var scores []float64
	for _, a := range r.plan.Attestations {
		if s := strings.TrimSpace(a.Summary); s != "" && !slices.Contains(summaries, s) {
			summaries = append(summaries, s)
		}
		for _, m := range a.Map {
			if m.Score != nil {
				scores = append(scores, *m.Score)
			}
		}
	}
	statement := ""
	if r.plan.Affirmation != nil {
		statement = r.plan.Affirmation.Statement
	}
	var doc []byte
	if err := tx.QueryRow(ctx, `SELECT document FROM attestation_imports WHERE id = $1`, r.out.ID).Scan(&doc); err != nil {
		return err
	}
	var until any
	if r.validUntil != "" {
		until = r.validUntil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO attestations (id, assessment_id, summary, statement, state, document, score, import_id,
		valid_until, created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, 'imported', $5, $6, $7, $8, $9, $10, $10)`,
		id, r.out.AssessmentID, clipText(strings.Join(summaries, "\n\n"), 2000), statement, doc, meanScore(scores), r.out.ID, until, tx.Actor.ID, tx.Now); err != nil {
		return err
	}
	r.record("attestation", id, cmp.Or(firstSummary(r.plan.Attestations), "Attestation"), "", true)
	position := 0
	for _, a := range r.plan.Attestations {
		as, ok := r.assessors[a.Assessor]
		if !ok {
			continue
		}
		if tag, err := tx.Exec(ctx, `INSERT INTO attestation_assessors (attestation_id, assessor_id, position) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			id, as, position); err != nil {
			return err
		} else if tag.RowsAffected() == 1 {
			position++
		}
	}
	for _, cl := range r.claims {
		if _, err := tx.Exec(ctx, `INSERT INTO attestation_claims (attestation_id, claim_id) VALUES ($1, $2)`, id, cl); err != nil {
			return err
		}
	}
	for _, a := range r.plan.Attestations {
		for _, m := range a.Map {
			row := r.rows[r.requirements[m.Requirement]]
			if _, err := tx.Exec(ctx, `INSERT INTO attestation_requirements (attestation_id, assessment_requirement_id, score_override, confidence,
				confidence_rationale) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, id, row, m.Score, m.Confidence, m.ConfidenceRationale); err != nil {
				return err
			}
		}
	}
	if r.plan.Affirmation == nil {
		return nil
	}
	signedAt := tx.Now
	if r.plan.Timestamp != nil {
		signedAt = *r.plan.Timestamp
	}
	for i, s := range r.plan.Affirmation.Signatories {
		org := cmp.Or(s.Organization, r.entityName)
		var kind, at any
		if s.Kind != "" {
			kind, at = s.Kind, signedAt
		}
		if _, err := tx.Exec(ctx, `INSERT INTO attestation_signatories (id, attestation_id, position, title, organization, kind, signed_at,
			signer_name, signer_role, signer_org) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			assess.NewID(assess.PrefixSignatory, tx.Now), id, i, cmp.Or(s.Role, s.Name, "Signatory"), org, kind, at, s.Name, s.Role, s.Organization); err != nil {
			return err
		}
	}
	return nil
}

func importer(actor assess.Actor) assess.UserRef {
	ref := assess.UserRef{ID: actor.ID}
	if p := actor.Principal; p != nil {
		ref.Username, ref.DisplayName = p.User.Username, p.User.DisplayName
	}
	return ref
}

func appendNew(list []string, v string) []string {
	if v == "" || slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

func firstLineOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return cmp.Or(s, "Imported claim")
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n])
}

const importSelect = `SELECT i.id, i.report, i.created_at, coalesce(u.id, ''), coalesce(u.username, ''), coalesce(u.display_name, '')
	FROM attestation_imports i LEFT JOIN users u ON u.id = i.imported_by`

func scanImport(row pgx.Row) (assess.AttestationImport, error) {
	var out assess.AttestationImport
	var id string
	var report []byte
	var created time.Time
	var by assess.UserRef
	if err := row.Scan(&id, &report, &created, &by.ID, &by.Username, &by.DisplayName); err != nil {
		return out, err
	}
	if err := json.Unmarshal(report, &out); err != nil {
		return out, fmt.Errorf("attestation import %s: report: %w", id, err)
	}
	out.ID, out.CreatedAt, out.ImportedBy, out.DryRun, out.AlreadyImported = id, created.UTC(), by, false, false
	return out, nil
}

func (s *AttestationImportService) findByKey(ctx context.Context, q postgres.Querier, key string) (assess.AttestationImport, error) {
	out, err := scanImport(q.QueryRow(ctx, importSelect+` WHERE i.import_key = $1`, key))
	if errors.Is(err, pgx.ErrNoRows) {
		return out, errImportNotFound
	}
	return out, err
}

// FindAttestationImports implements assess.AttestationImportService: newest first.
func (s *AttestationImportService) FindAttestationImports(ctx context.Context, f assess.AttestationImportFilter, _ assess.Actor) (assess.Page[assess.AttestationImport], error) {
	l := postgres.NewList("attestation imports", importSelect, postgres.NewestFirst("i.id"))
	return postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanImport, func(i assess.AttestationImport) []any { return []any{i.ID} })
}

// FindAttestationImport implements assess.AttestationImportService.
func (s *AttestationImportService) FindAttestationImport(ctx context.Context, id string, _ assess.Actor) (assess.AttestationImport, error) {
	out, err := scanImport(s.db.Pool.QueryRow(ctx, importSelect+` WHERE i.id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return out, errImportNotFound
	}
	return out, postgres.DBError(err)
}

// AttestationImportDocument implements assess.AttestationImportService: the bytes as they came.
func (s *AttestationImportService) AttestationImportDocument(ctx context.Context, id string, _ assess.Actor) (assess.AttestationDocument, error) {
	var d assess.AttestationDocument
	var filename string
	err := s.db.Pool.QueryRow(ctx, `SELECT document, filename FROM attestation_imports WHERE id = $1`, id).Scan(&d.Bytes, &filename)
	if errors.Is(err, pgx.ErrNoRows) {
		return d, errImportNotFound
	}
	d.Filename = cmp.Or(filename, id+".cdx.json")
	return d, postgres.DBError(err)
}
