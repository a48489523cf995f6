package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// The recipe of docs/ci-evidence.md, run as written (the first sh block of the file) with
// curl and jq against a real server: a pipeline's API key attaches an SBOM to a
// requirement of an assessment and hands it to a reviewer. A change to the API that breaks
// the documented recipe fails here.
func TestCIRecipeRunsAsDocumented(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to run the documented recipe (scripts/test.sh installs it): %v", tool, err)
		}
	}
	doc, err := os.ReadFile("../../docs/ci-evidence.md")
	require.NoError(t, err)
	block := regexp.MustCompile("(?s)```sh\n(.*?)```").FindSubmatch(doc)
	require.NotNil(t, block, "docs/ci-evidence.md has a sh block")

	w := newAssessmentWorld(t)
	a := newAssessment(t, w.assessorC, map[string]any{"title": "CI", "entityId": w.shop,
		"standards": []map[string]any{{"standardId": w.asvs}}, "assesseeIds": []string{w.assessee.ID}})
	move(t, w.assessorC, a, "start", 200)
	sbom := filepath.Join(t.TempDir(), "bom.cdx.json")
	require.NoError(t, os.WriteFile(sbom, []byte(`{"bomFormat":"CycloneDX","specVersion":"1.6","version":1,"components":[]}`), 0o600))

	cmd := exec.Command("bash", "-c", string(block[1]))
	cmd.Env = append(os.Environ(), "ASSAY_URL="+w.ts.url, "ASSAY_API_KEY="+w.ts.newAPIKey(t, w.assesseeC),
		"ASSESSMENT_ID="+a["id"].(string), "REQUIREMENT=V1.2", "REVIEWER_ID="+w.assessor.ID, "SBOM_FILE="+sbom,
		"CI_PIPELINE_ID=4711")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the recipe fails:\n%s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, 2, "the recipe prints the file's hash and the state:\n%s", out)
	require.Regexp(t, `^[0-9a-f]{64}$`, lines[0])
	require.Equal(t, string(assess.EvidenceInReview), lines[1])

	// The evidence is linked to V1.2, holds the SBOM, and waits for the assessor.
	ev := items(t, w.assessorC.get(t, "/api/v1/evidence?assessment="+a["id"].(string), 200))
	require.Len(t, ev, 1)
	require.Equal(t, "in_review", ev[0]["state"])
	require.Equal(t, w.assessor.ID, ev[0]["reviewer"].(map[string]any)["id"])
	files := items(t, w.assessorC.get(t, "/api/v1/evidence/"+ev[0]["id"].(string)+"/attachments", 200))
	require.Len(t, files, 1)
	require.Equal(t, "application/vnd.cyclonedx+json", files[0]["contentType"])
	require.Equal(t, lines[0], files[0]["sha256"])
}
