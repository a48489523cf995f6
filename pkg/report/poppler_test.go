package report_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/report/reporttest"
)

// TestReportReadsInPoppler (issue 24, "Done means"): poppler's pdfinfo and pdftotext, the
// tools of Debian poppler-utils, read the report of a 70- and of a 1,000-requirement
// assessment without an error: pdfinfo counts the pages the footers announce (a few for 70
// requirements, many more for 1,000) and the metadata title, and pdftotext finds on the
// cover the score, the entity's Greek name and the assessors' and assessees' Greek and
// Cyrillic names, every page's "Page i of n", the last requirement and, on the last page,
// the evidence file's SHA-256.
func TestReportReadsInPoppler(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ requirements, minPages, maxPages int }{{70, 6, 12}, {1000, 45, 90}} {
		t.Run(fmt.Sprintf("%d requirements", c.requirements), func(t *testing.T) {
			t.Parallel()
			r := sampleReport(c.requirements)
			read := reporttest.ReadWithPoppler(t, render(t, r))

			n, err := strconv.Atoi(read.Info["Pages"])
			require.NoError(t, err, "pdfinfo prints the page count: %v", read.Info)
			require.GreaterOrEqual(t, n, c.minPages)
			require.LessOrEqual(t, n, c.maxPages)
			require.Len(t, read.Pages, n, "pdftotext extracts as many pages as pdfinfo counts")
			for i, p := range read.Pages {
				require.Contains(t, p, fmt.Sprintf("Page %d of %d", i+1, n))
			}
			require.Contains(t, read.Info["Page size"], "(A4)")
			require.Equal(t, "Assessment report: "+r.Title, read.Info["Title"])

			cover := read.Pages[0]
			require.Regexp(t, regexp.MustCompile(`(?m)^Score\s+50\.00 %$`), cover)
			for _, name := range []string{greekEntity, greekAssessor, cyrillicName, latinName} {
				require.Contains(t, cover, name)
			}
			all := strings.Join(read.Pages, "\n")
			last := r.Requirements[len(r.Requirements)-1]
			require.Contains(t, all, last.Identifier+"\n"+last.Name)
			require.Contains(t, all, "Checked by "+cyrillicName)
			require.Contains(t, read.Pages[n-1], evidenceHash, "the evidence, with its file's SHA-256, closes the report")
			require.Contains(t, read.Pages[n-1], "pentest-Ελλάδα.pdf")
		})
	}
}
