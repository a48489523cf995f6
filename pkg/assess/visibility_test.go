package assess

import (
	"slices"
	"testing"
)

// userWith is a signed-in actor holding keys.
func userWith(keys ...Perm) Actor {
	p := &Principal{User: User{ID: "us_1"}}
	for _, k := range keys {
		p.Permissions = append(p.Permissions, string(k))
	}
	slices.Sort(p.Permissions)
	return Actor{ID: "us_1", Principal: p}
}

// TestCanSeeAssessment: participants and holders of assessments.view_all see an
// assessment; evidence.view_all does not widen it; the service and the command line see
// everything, anonymous callers nothing.
func TestCanSeeAssessment(t *testing.T) {
	plain, viewAll := userWith(PermAssessmentsView), userWith(PermAssessmentsView, PermAssessmentsViewAll)
	evAll := userWith(PermAssessmentsView, PermEvidenceViewAll)
	for _, c := range []struct {
		name  string
		actor Actor
		ties  AssessmentTies
		want  bool
	}{
		{"outsider", plain, AssessmentTies{}, false},
		{"assessor or assessee", plain, AssessmentTies{Member: true}, true},
		{"author or reviewer of linked evidence", plain, AssessmentTies{EvidencePerson: true}, true},
		{"both", plain, AssessmentTies{Member: true, EvidencePerson: true}, true},
		{"assessments.view_all", viewAll, AssessmentTies{}, true},
		{"evidence.view_all does not widen it", evAll, AssessmentTies{}, false},
		{"the service", SystemActor, AssessmentTies{}, true},
		{"the command line", Actor{ID: "cli:root"}, AssessmentTies{}, true},
		{"anonymous", Actor{}, AssessmentTies{}, false},
	} {
		if got := CanSeeAssessment(c.actor, c.ties); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCanSeeEvidence: author, reviewer, participants of an assessment it is linked to or
// cited in, and holders of evidence.view_all or assessments.view_all.
func TestCanSeeEvidence(t *testing.T) {
	plain := userWith(PermEvidenceView)
	for _, c := range []struct {
		name  string
		actor Actor
		ties  EvidenceTies
		want  bool
	}{
		{"outsider", plain, EvidenceTies{}, false},
		{"author", plain, EvidenceTies{Author: true}, true},
		{"reviewer", plain, EvidenceTies{Reviewer: true}, true},
		{"participant of a linked assessment", plain, EvidenceTies{InLinkedAssessment: true}, true},
		{"participant of an assessment whose claim cites it", plain, EvidenceTies{InCitingAssessment: true}, true},
		{"evidence.view_all", userWith(PermEvidenceView, PermEvidenceViewAll), EvidenceTies{}, true},
		{"assessments.view_all", userWith(PermEvidenceView, PermAssessmentsViewAll), EvidenceTies{}, true},
		{"the service", SystemActor, EvidenceTies{}, true},
		{"anonymous", Actor{}, EvidenceTies{}, false},
	} {
		if got := CanSeeEvidence(c.actor, c.ties); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
