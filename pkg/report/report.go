// Package report lays out the PDF reports of assessments and attestations
// (docs/attestations.md, "PDF reports") with maroto: a cover, the contents with page
// numbers, the figures per standard and level, the affirmation of an attestation, every
// requirement with its result and rationale, the claims and the evidence with its files'
// SHA-256. Text is set in DejaVu Sans, embedded with its licence (fonts/LICENSE), so that
// Latin, Greek and Cyrillic names render. The package is pure: the store fills an
// assess.Report and Write turns it into a PDF.
package report

import (
	"embed"
	"fmt"
	"io"
	"sync"

	"github.com/johnfercher/maroto/v2"
	"github.com/johnfercher/maroto/v2/pkg/config"
	"github.com/johnfercher/maroto/v2/pkg/consts/fontstyle"
	"github.com/johnfercher/maroto/v2/pkg/consts/pagesize"
	"github.com/johnfercher/maroto/v2/pkg/core"
	"github.com/johnfercher/maroto/v2/pkg/core/entity"
	"github.com/johnfercher/maroto/v2/pkg/props"
	"github.com/johnfercher/maroto/v2/pkg/repository"

	"github.com/assay-dev/assay/pkg/assess"
)

// MediaType is the media type of the reports.
const MediaType = "application/pdf"

// family is the font family every text of the reports is set in.
const family = "dejavu"

//go:embed fonts/DejaVuSans.ttf fonts/DejaVuSans-Bold.ttf
var fontFiles embed.FS

// fonts are the embedded faces, parsed by maroto once per process (the bytes are the
// binary's own: nothing is copied per report).
var fonts = sync.OnceValues(func() ([]*entity.CustomFont, error) {
	regular, err := fontFiles.ReadFile("fonts/DejaVuSans.ttf")
	if err != nil {
		return nil, err
	}
	bold, err := fontFiles.ReadFile("fonts/DejaVuSans-Bold.ttf")
	if err != nil {
		return nil, err
	}
	return repository.New().AddUTF8FontFromBytes(family, fontstyle.Normal, regular).
		AddUTF8FontFromBytes(family, fontstyle.Bold, bold).Load()
})

// renderMu makes one render at a time: gofpdf writes checksums into the font bytes, which
// every report shares, while it subsets the fonts (the race detector found two tests
// rendering at once; the API already renders one report at a time, pkg/httpapi/reports.go).
var renderMu sync.Mutex

// Write lays out the report r and writes the PDF to w.
func Write(w io.Writer, r assess.Report) error {
	pdf, err := Render(r)
	if err != nil {
		return err
	}
	_, err = w.Write(pdf)
	return err
}

// Render lays out the report r and returns the PDF: the document's own buffer, which the
// caller writes out without copying it. maroto cannot stream: the layout and the PDF are
// held until written (docs/performance.md measures it).
//
// A panic of the PDF library (it has had them on text it could not draw) is returned as an
// error, so that one report cannot take the caller's state with it.
func Render(r assess.Report) (pdf []byte, err error) {
	renderMu.Lock()
	defer renderMu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			pdf, err = nil, fmt.Errorf("render the report: the PDF library failed: %v", p)
		}
	}()
	m, err := layout(r)
	if err != nil {
		return nil, err
	}
	doc, err := m.Generate()
	if err != nil {
		return nil, fmt.Errorf("render the report: %w", err)
	}
	return doc.GetBytes(), nil
}

// layout places every row of the report; the contents' page numbers are written when
// the page is rendered (pager).
//
// Page streams are not compressed: gofpdf compresses each stream with a zlib writer of its
// own (about 1 MiB of tables apiece), which for a 1,000-requirement report churned some
// 40 MiB and more than doubled the peak memory of a render; uncompressed, that report is
// about 2 MiB instead of 0.2 MiB, and renders in half the time (docs/performance.md).
func layout(r assess.Report) (core.Maroto, error) {
	contentHash := ContentSHA256(r)
	r = drawable(r)
	faces, err := fonts()
	if err != nil {
		return nil, fmt.Errorf("load the report fonts: %w", err)
	}
	cfg := config.NewBuilder().WithPageSize(pagesize.A4).
		WithLeftMargin(15).WithRightMargin(15).WithTopMargin(15).WithBottomMargin(12).
		WithCustomFonts(faces).WithDefaultFont(&props.Font{Family: family, Size: 9, Color: &ink}).
		WithPageNumber(props.PageNumber{Pattern: "Page {current} of {total}", Place: props.RightBottom, Family: family, Size: 7, Color: &muted}).
		WithTitle(reportTitle(r)+": "+r.Title, true).WithAuthor("Assay", true).WithCreator("Assay", true).
		WithSubject(r.ID, true).WithCreationDate(r.GeneratedAt).WithCompression(false).
		Build()
	m := maroto.New(cfg)
	if err := m.RegisterFooter(footer(r)...); err != nil {
		return nil, err
	}
	d := &doc{m: m, r: r, contentHash: contentHash, pager: newPager(cfg, footerHeight)}
	d.cover()
	d.contents()
	d.summary()
	if r.Attestation != nil {
		d.affirmation()
	}
	d.requirements()
	d.claims()
	d.evidence()
	return m, nil
}

// reportTitle names the kind of report.
func reportTitle(r assess.Report) string {
	if r.Kind == assess.ReportOfAttestation {
		return "Attestation report"
	}
	return "Assessment report"
}
