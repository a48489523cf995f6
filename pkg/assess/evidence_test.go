package assess

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestEvidenceLifecycle checks every from × to pair of the evidence state machine: the
// author submits (in_progress → in_review), the reviewer approves (→ claimed) or rejects
// (→ in_progress), every state but expired expires, and expired evidence is renewed (→
// in_progress). Every other move is refused with invalid_state_transition listing the
// allowed targets.
func TestEvidenceLifecycle(t *testing.T) {
	all := []EvidenceState{EvidenceInProgress, EvidenceInReview, EvidenceClaimed, EvidenceExpired}
	allowed := map[EvidenceState][]EvidenceState{
		EvidenceInProgress: {EvidenceInReview, EvidenceExpired},
		EvidenceInReview:   {EvidenceClaimed, EvidenceInProgress, EvidenceExpired},
		EvidenceClaimed:    {EvidenceExpired},
		EvidenceExpired:    {EvidenceInProgress},
	}
	checkLifecycle(t, EvidenceLifecycle, all, allowed)
}

// detailFields returns the fields a validation error names.
func detailFields(err error) []string {
	var e *Error
	if !errors.As(err, &e) {
		return nil
	}
	var out []string
	for _, d := range e.Details {
		out = append(out, d.Field+":"+d.Code)
	}
	return out
}

// requireValidation fails the test unless err is nil where want is (the input is
// accepted), or else a validation error whose details name exactly want (field:code).
func requireValidation(t *testing.T, err error, want []string) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("refused: %v", err)
		}
		return
	}
	if ErrorCode(err) != ECodeValidation || !slices.Equal(detailFields(err), want) {
		t.Fatalf("got %v (%v), want %v", err, detailFields(err), want)
	}
}

func TestNewEvidenceValidate(t *testing.T) {
	long := strings.Repeat("x", 301)
	cases := []struct {
		name string
		in   NewEvidence
		want []string // field:code, nil for valid
	}{
		{"minimal", NewEvidence{Name: " SBOM "}, nil},
		{"full", NewEvidence{Name: "Pen test", Description: "d", Classification: "internal",
			CollectedOn: "2025-01-02", ValidFrom: "2025-01-01", ValidUntil: "2025-12-31"}, nil},
		{"same day validity", NewEvidence{Name: "n", ValidFrom: "2025-01-01", ValidUntil: "2025-01-01"}, nil},
		{"300 characters", NewEvidence{Name: strings.Repeat("é", 300)}, nil},
		{"blank name", NewEvidence{Name: "  "}, []string{"name:required"}},
		{"long name", NewEvidence{Name: long}, []string{"name:too_long"}},
		{"control character", NewEvidence{Name: "a\x07b"}, []string{"name:invalid"}},
		{"newline in name", NewEvidence{Name: "a\nb"}, []string{"name:invalid"}},
		{"long description", NewEvidence{Name: "n", Description: strings.Repeat("d", 10001)}, []string{"description:too_long"}},
		{"long classification", NewEvidence{Name: "n", Classification: strings.Repeat("c", 101)}, []string{"classification:too_long"}},
		{"control in classification", NewEvidence{Name: "n", Classification: "a\tb"}, []string{"classification:invalid"}},
		{"bad collectedOn", NewEvidence{Name: "n", CollectedOn: "2025-13-01"}, []string{"collectedOn:invalid"}},
		{"bad validFrom", NewEvidence{Name: "n", ValidFrom: "01.02.2025"}, []string{"validFrom:invalid"}},
		{"bad validUntil", NewEvidence{Name: "n", ValidUntil: "2025-02-30"}, []string{"validUntil:invalid"}},
		{"until before from", NewEvidence{Name: "n", ValidFrom: "2025-02-01", ValidUntil: "2025-01-31"}, []string{"validUntil:before_valid_from"}},
		{"several", NewEvidence{Name: "", ValidUntil: "x"}, []string{"name:required", "validUntil:invalid"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { requireValidation(t, tc.in.Validate(), tc.want) })
	}
	ne := NewEvidence{Name: "  SBOM  ", TagIDs: []string{"b", " a", "b", ""}, RequirementIDs: []string{}}
	if err := ne.Validate(); err != nil || ne.Name != "SBOM" || !slices.Equal(ne.TagIDs, []string{"a", "b"}) {
		t.Fatalf("normalised to %+v, %v", ne, err)
	}
}

func TestEvidenceUpdateValidate(t *testing.T) {
	p := func(s string) *string { return &s }
	cases := []struct {
		name string
		in   EvidenceUpdate
		want []string
	}{
		{"nothing", EvidenceUpdate{Version: 1}, nil},
		{"clear dates", EvidenceUpdate{Version: 1, ValidFrom: p(""), ValidUntil: p(" "), CollectedOn: p("")}, nil},
		{"name", EvidenceUpdate{Version: 1, Name: p(" x ")}, nil},
		{"blank name", EvidenceUpdate{Version: 1, Name: p(" ")}, []string{"name:required"}},
		{"control name", EvidenceUpdate{Version: 1, Name: p("a\x00")}, []string{"name:invalid"}},
		{"bad date", EvidenceUpdate{Version: 1, ValidUntil: p("tomorrow")}, []string{"validUntil:invalid"}},
		{"long classification", EvidenceUpdate{Version: 1, Classification: p(strings.Repeat("c", 101))}, []string{"classification:too_long"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { requireValidation(t, tc.in.Validate(), tc.want) })
	}
}

func TestEvidenceReviewInputs(t *testing.T) {
	if err := (&EvidenceSubmit{Version: 1, ReviewerID: " "}).Validate(); !slices.Equal(detailFields(err), []string{"reviewerId:required"}) {
		t.Errorf("submit without reviewer: %v", err)
	}
	if err := (&EvidenceReject{Version: 1, Note: " \n "}).Validate(); !slices.Equal(detailFields(err), []string{"note:required"}) {
		t.Errorf("reject without note: %v", err)
	}
	if err := (&EvidenceReject{Version: 1, Note: strings.Repeat("n", 10001)}).Validate(); !slices.Equal(detailFields(err), []string{"note:too_long"}) {
		t.Errorf("reject with a long note: %v", err)
	}
	if err := (&NewEvidenceNote{Content: ""}).Validate(); !slices.Equal(detailFields(err), []string{"content:required"}) {
		t.Errorf("empty note: %v", err)
	}
	if err := (&NewEvidenceNote{Content: strings.Repeat("n", 10000)}).Validate(); err != nil {
		t.Errorf("note of 10000: %v", err)
	}
}

func TestEvidenceRenews(t *testing.T) {
	for _, tc := range []struct {
		until string
		want  bool
	}{{"", true}, {"2025-06-01", true}, {"2025-06-02", true}, {"2025-05-31", false}} {
		if got := EvidenceRenews(tc.until, "2025-06-01"); got != tc.want {
			t.Errorf("EvidenceRenews(%q) = %v", tc.until, got)
		}
	}
}

func TestErrEvidenceLocked(t *testing.T) {
	for _, r := range []string{LockClaimed, LockLinkedToClaim, LockAssessmentTerminal} {
		var e *Error
		if !errors.As(ErrEvidenceLocked(r), &e) || e.Code != ECodeConflict || e.Details[0].Code != r || e.Message == "" {
			t.Errorf("%s: %+v", r, e)
		}
	}
}

// TestEvidenceLock: each reason alone, and the contract's order when several hold.
func TestEvidenceLock(t *testing.T) {
	sealedAttestation := []AttestationState{AttestationDraft, AttestationSealed}
	for _, c := range []struct {
		name  string
		facts EvidenceLockFacts
		want  string
	}{
		{"nothing holds it", EvidenceLockFacts{State: EvidenceInProgress}, ""},
		{"in review is not a lock", EvidenceLockFacts{State: EvidenceInReview}, ""},
		{"expired is not a lock", EvidenceLockFacts{State: EvidenceExpired, AssessmentStates: []AssessmentState{AssessmentInProgress}}, ""},
		{"approved", EvidenceLockFacts{State: EvidenceClaimed}, LockClaimed},
		{"cited by a claim", EvidenceLockFacts{State: EvidenceInProgress, CitedByClaim: true}, LockLinkedToClaim},
		{"cited in a draft attestation only", EvidenceLockFacts{State: EvidenceInProgress, CitedByClaim: true,
			AttestationStates: []AttestationState{AttestationDraft}}, LockLinkedToClaim},
		{"cited in an attestation being signed", EvidenceLockFacts{State: EvidenceInProgress, CitedByClaim: true,
			AttestationStates: []AttestationState{AttestationSigning}}, LockAffirmationSealed},
		{"cited in a rescinded attestation", EvidenceLockFacts{State: EvidenceInProgress, CitedByClaim: true,
			AttestationStates: []AttestationState{AttestationRescinded}}, LockAffirmationSealed},
		{"a sealed attestation comes before approval", EvidenceLockFacts{State: EvidenceClaimed, CitedByClaim: true,
			AttestationStates: sealedAttestation, AssessmentStates: []AssessmentState{AssessmentComplete}}, LockAffirmationSealed},
		{"approval comes before a claim", EvidenceLockFacts{State: EvidenceClaimed, CitedByClaim: true}, LockClaimed},
		{"a claim comes before a finished assessment", EvidenceLockFacts{State: EvidenceInReview, CitedByClaim: true,
			AssessmentStates: []AssessmentState{AssessmentArchived}}, LockLinkedToClaim},
		{"linked to open assessments only", EvidenceLockFacts{State: EvidenceInProgress, AssessmentStates: []AssessmentState{AssessmentNew,
			AssessmentPending, AssessmentInProgress, AssessmentOnHold}}, ""},
		{"linked to a complete assessment", EvidenceLockFacts{State: EvidenceInProgress,
			AssessmentStates: []AssessmentState{AssessmentInProgress, AssessmentComplete}}, LockAssessmentTerminal},
		{"linked to an archived assessment", EvidenceLockFacts{State: EvidenceInProgress,
			AssessmentStates: []AssessmentState{AssessmentArchived}}, LockAssessmentTerminal},
		{"linked to a cancelled assessment", EvidenceLockFacts{State: EvidenceInProgress,
			AssessmentStates: []AssessmentState{AssessmentCancelled}}, LockAssessmentTerminal},
	} {
		if got := EvidenceLock(c.facts); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
