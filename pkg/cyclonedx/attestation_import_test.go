package cyclonedx

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/cyclonedx/cdxtest"
)

// TestParseAttestationExamples reads the specification's example attestations into the
// neutral model: everything they declare, and a repair note for each of their defects.
func TestParseAttestationExamples(t *testing.T) {
	for _, spec := range SpecVersions {
		t.Run(spec, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(cdxtest.SharedData(t), "cyclonedx", "examples", "valid-attestation-"+spec+".json"))
			if err != nil {
				t.Fatal(err)
			}
			p, err := ParseAttestation(data)
			if err != nil {
				t.Fatal(err)
			}
			if p.SpecVersion != spec || p.SerialNumber != "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79" || p.DocVersion != 1 || len(p.SHA256) != 64 {
				t.Fatalf("identity: %+v", p)
			}
			if p.Key() != p.SerialNumber+"#1" {
				t.Errorf("key %q", p.Key())
			}
			if len(p.Standards) != 0 || len(p.Requirements) != 0 {
				t.Errorf("the examples define no standard: %+v", p.Standards)
			}
			if len(p.Targets) != 1 || p.Targets[0] != (assess.ImportTarget{BOMRef: "acme-inc", Name: "Acme Inc", Type: assess.EntityTypeOrganization}) {
				t.Errorf("targets %+v", p.Targets)
			}
			if len(p.Assessors) != 1 || p.Assessors[0].Name != "Assessors Inc" || !p.Assessors[0].ThirdParty {
				t.Errorf("assessors %+v", p.Assessors)
			}
			if len(p.Evidence) != 3 || p.Evidence[0].Expires != "2023-05-25" || p.Evidence[0].Classification != "PII" ||
				len(p.Evidence[0].Files) != 1 || !p.Evidence[0].Files[0].Inline {
				t.Errorf("evidence %+v", p.Evidence)
			}
			cl := p.Claims
			if len(cl) != 1 || !slices.Equal(cl[0].Evidence, []string{"evidence-1"}) || !slices.Equal(cl[0].CounterEvidence, []string{"counterEvidence-1"}) ||
				!slices.Equal(cl[0].Mitigations, []string{"mitigationStrategy-1"}) || len(cl[0].ExternalReferences) != 1 {
				t.Errorf("claims %+v", cl)
			}
			m := p.Attestations[0].Map
			if len(m) != 1 || m[0].Requirement != "requirement-1" || *m[0].Score != 0.8 || *m[0].Confidence != 1 ||
				!slices.Equal(m[0].Claims, []string{"claim-1"}) || len(m[0].CounterClaims) != 0 {
				t.Errorf("map %+v", m)
			}
			if a := p.Affirmation; a == nil || len(a.Signatories) != 2 || a.Signatories[0].Kind != "digital" || a.Signatories[1].Kind != "electronic" ||
				a.Signatories[1].Organization != "Acme Inc" {
				t.Errorf("affirmation %+v", p.Affirmation)
			}
			if len(p.Placeholders) != 9 || p.Placeholders[0] != "" {
				t.Errorf("placeholders %q", p.Placeholders)
			}
			var codes []string
			for _, r := range p.Repairs {
				codes = append(codes, r.Code+" "+r.Pointer)
			}
			if !slices.Contains(codes, "dangling_reference /declarations/attestations/0/map/0/counterClaims/0") {
				t.Errorf("repairs %q", codes)
			}
		})
	}
}

// TestParseAttestationRefusals: what is not an attestation document is refused with the
// pointer of the problem.
func TestParseAttestationRefusals(t *testing.T) {
	const head = `{"bomFormat":"CycloneDX","specVersion":"1.6","version":1`
	for _, c := range []struct{ doc, code, field string }{
		{`not json`, "invalid_json", "/"},
		{`{"bomFormat":"SPDX"}`, "not_cyclonedx", "/bomFormat"},
		{`{"bomFormat":"CycloneDX","specVersion":"1.5","version":1}`, "unsupported_spec_version", "/specVersion"},
		{head + `,"declarations":{"attestations":[{"map":[{"requirement":7}]}]}}`, "schema_invalid", "/declarations/attestations/0/map/0/requirement"},
		{head + `}`, "no_declarations", "/declarations/attestations"},
		{head + `,"declarations":{"attestations":[{"summary":"\u0000"}]}}`, "invalid_text", "/"},
	} {
		_, err := ParseAttestation([]byte(c.doc))
		var e *assess.Error
		if !errors.As(err, &e) || e.Code != assess.ECodeBusinessRule {
			t.Fatalf("%s: %v", c.doc, err)
		}
		found := false
		for _, d := range e.Details {
			found = found || d.Code == c.code && d.Field == c.field
		}
		if !found {
			t.Errorf("%s: want %s at %s, got %+v", c.doc, c.code, c.field, e.Details)
		}
	}
}

// TestParseAttestationOfOwnExport: a document this product writes reads back with every
// reference resolved, no repair, and the file hashes of its evidence.
func TestParseAttestationOfOwnExport(t *testing.T) {
	score := 1.0
	content := assess.AttestationContent{
		Attestation: assess.Attestation{ID: "at_1", Summary: "S", Statement: "We affirm.", EntityID: "en_1", EntityName: "Shop",
			Assessors: []assess.Assessor{{ID: "ao_1", Name: "Audit Co", ThirdParty: true}}},
		EntityType: assess.EntityTypeProduct,
		Standards: []assess.StandardContent{{Standard: assess.Standard{ID: "st_1", Name: "Std", StandardVersion: "1"},
			Requirements: []assess.Requirement{{ID: "rq_1", Identifier: "R1", Name: "One"}}}},
		Requirements:    []assess.AttestationRequirement{{ID: "ar_1", Result: "yes", Score: &score, Rationale: "Done.", ClaimIDs: []string{"cl_1"}}},
		RequirementRefs: map[string]string{"ar_1": "rq_1"},
		Claims: []assess.Claim{{ID: "cl_1", Predicate: "P", TargetEntityID: "en_1", TargetEntityName: "Shop",
			Evidence: []assess.ClaimEvidence{{ID: "ev_1"}}}},
		Evidence: []assess.AttestationEvidence{{ID: "ev_1", Name: "Report", CreatedAt: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC),
			Files: []assess.AttestationFile{{ID: "af_1", Filename: "r.pdf", SHA256: strings.Repeat("ab", 32)}}}},
	}
	data, err := BuildAttestation(AttestationSpec, content, "urn:uuid:00000000-0000-4000-8000-000000000001", time.Now(), "test")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseAttestation(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Repairs) != 0 {
		t.Errorf("repairs of our own document: %+v", p.Repairs)
	}
	if ref, ok := p.Requirements["rq_1"]; !ok || ref.Identifier != "R1" {
		t.Errorf("requirements %+v", p.Requirements)
	}
	if len(p.Targets) != 1 || p.Targets[0].Type != assess.EntityTypeProduct || p.Targets[0].BOMRef != "en_1" {
		t.Errorf("targets %+v", p.Targets)
	}
	if f := p.Evidence[0].Files; len(f) != 1 || f[0].SHA256 != strings.Repeat("ab", 32) || f[0].Name != "r.pdf" {
		t.Errorf("files %+v", f)
	}
	if p.Affirmation == nil || p.Affirmation.Statement != "We affirm." {
		t.Errorf("affirmation %+v", p.Affirmation)
	}
}
