package reporttest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The second reader of the reports: poppler (Debian poppler-utils), the PDF library of
// most Linux desktops and of many converters, through its command-line tools pdfinfo and
// pdftotext. Without them the test fails, on a developer's machine as in CI: a test that
// skips quietly proves nothing (scripts/test.sh installs them).

// Poppler is what poppler reads in a PDF: the fields pdfinfo prints and the text of each
// page as pdftotext extracts it.
type Poppler struct {
	// Info holds the fields pdfinfo prints ("Pages", "Title", "Page size", …), by name.
	Info map[string]string
	// Pages holds the text of each page, in reading order, one line per line of text.
	Pages []string
}

// ReadWithPoppler writes data to a temporary file and reads it with pdfinfo and
// pdftotext. Either tool failing, or complaining on stderr (poppler reports the syntax
// errors it recovers from there), fails the test.
func ReadWithPoppler(t testing.TB, data []byte) Poppler {
	t.Helper()
	for _, tool := range []string{"pdfinfo", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to read the reports with poppler (Debian poppler-utils; scripts/test.sh installs it): %v", tool, err)
		}
	}
	path := filepath.Join(t.TempDir(), "report.pdf")
	require.NoError(t, os.WriteFile(path, data, 0o600))

	info := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(runPoppler(t, "pdfinfo", "-enc", "UTF-8", path)))
	for sc.Scan() {
		if name, value, ok := strings.Cut(sc.Text(), ":"); ok {
			info[name] = strings.TrimSpace(value)
		}
	}
	require.NoError(t, sc.Err())

	text := string(runPoppler(t, "pdftotext", "-enc", "UTF-8", path, "-"))
	// pdftotext ends every page with a form feed.
	pages := strings.Split(text, "\f")
	require.Empty(t, strings.TrimSpace(pages[len(pages)-1]), "pdftotext ends the last page with a form feed")
	return Poppler{Info: info, Pages: pages[:len(pages)-1]}
}

// runPoppler runs one poppler tool and returns its standard output.
func runPoppler(t testing.TB, name string, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "%s: %s", name, stderr.String())
	require.Empty(t, stderr.String(), "%s reports no error in the document", name)
	return stdout.Bytes()
}
