package postgres_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestTimelineAndAuditNameTheirTargets: the timeline and the audit log name what a change
// was about and link to its page, instead of showing its id. A change records the name
// the record had (so a deleted record still reads well, without a link); rows written
// before names were recorded get the record's current name, read in the same query.
func TestTimelineAndAuditNameTheirTargets(t *testing.T) {
	t.Parallel()
	w := newEvidenceWorkspace(t)
	annU := w.user("ann", assess.RoleAssessor)
	ann := signedIn(w.eventsFixture, annU)
	as, ars := w.assessmentWith("Shop review", assess.AssessmentInProgress)
	w.member(as, annU, assess.RoleInAssessmentAssessor)

	sbom := w.evidence(ann, assess.NewEvidence{Name: "SBOM", RequirementIDs: []string{ars[0]}})
	scratch := w.evidence(ann, assess.NewEvidence{Name: "Scratch", RequirementIDs: []string{ars[1]}})
	_, err := w.svc.Evidence.LinkEvidence(w.ctx, sbom.ID, assess.NewEvidenceLink{AssessmentRequirementID: ars[2]}, ann)
	require.NoError(t, err)
	require.NoError(t, w.svc.Evidence.UnlinkEvidence(w.ctx, scratch.ID, ars[1], ann))
	scratch, err = w.svc.Evidence.FindEvidence(w.ctx, scratch.ID, ann)
	require.NoError(t, err)
	require.NoError(t, w.svc.Evidence.DeleteEvidence(w.ctx, scratch.ID, scratch.Version, ann))
	yes := assess.ResultYes
	_, err = w.svc.Results.RecordResult(w.ctx, as, ars[0], assess.ResultUpdate{Version: 1, Result: &yes,
		Rationale: "The bill of materials lists every component we ship, with versions and licences, checked on each release."}, ann)
	require.NoError(t, err)
	// A row as written before names were recorded: the current name stands in.
	w.exec(`INSERT INTO audit_log (actor, action, target_type, target_id, details, scope_id)
		VALUES ($1, 'evidence.linked', 'evidence', $2, '{}', $3)`, annU.ID, sbom.ID, as)

	page, err := w.svc.WorkNotes.FindTimeline(w.ctx, as, assess.TimelineFilter{}, w.adminSignedIn())
	require.NoError(t, err)
	var got []string
	for _, e := range page.Items {
		got = append(got, fmt.Sprintf("%s %s %q %s", e.Action, e.TargetType, e.TargetName, e.TargetLink))
	}
	require.Equal(t, []string{
		fmt.Sprintf(`evidence.linked evidence "SBOM" /evidence/%s`, sbom.ID),
		fmt.Sprintf(`assessment.result_recorded assessment_requirement "V1" /assessments/%s?tab=requirements&requirement=%s`, as, ars[0]),
		`evidence.unlinked evidence "Scratch" `, // deleted since: the recorded name, no link
		fmt.Sprintf(`evidence.linked evidence "SBOM" /evidence/%s`, sbom.ID),
		`evidence.linked evidence "Scratch" `,
		fmt.Sprintf(`evidence.linked evidence "SBOM" /evidence/%s`, sbom.ID),
	}, got)
	require.Equal(t, "V3", page.Items[3].Details["requirement"], "a link names the requirement by its identifier")

	audit, err := w.svc.Audit.FindAudit(w.ctx, assess.AuditFilter{Action: "evidence."})
	require.NoError(t, err)
	byAction := map[string]assess.AuditRecord{}
	for _, r := range audit.Items {
		if _, seen := byAction[r.Action]; !seen {
			byAction[r.Action] = r
		}
	}
	require.Equal(t, "Scratch", byAction["evidence.deleted"].TargetName)
	require.Empty(t, byAction["evidence.deleted"].TargetLink)
	require.Equal(t, "SBOM", byAction["evidence.linked"].TargetName)
	require.Equal(t, "/evidence/"+sbom.ID, byAction["evidence.linked"].TargetLink)
	audit, err = w.svc.Audit.FindAudit(w.ctx, assess.AuditFilter{Action: "assessment.result_recorded"})
	require.NoError(t, err)
	require.Equal(t, "V1", audit.Items[0].TargetName)
	require.Equal(t, "/assessments/"+as+"?tab=requirements&requirement="+ars[0], audit.Items[0].TargetLink)
}
