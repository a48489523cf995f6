package report

import (
	"github.com/johnfercher/maroto/v2/pkg/components/col"
	"github.com/johnfercher/maroto/v2/pkg/components/line"
	"github.com/johnfercher/maroto/v2/pkg/components/page"
	"github.com/johnfercher/maroto/v2/pkg/components/row"
	"github.com/johnfercher/maroto/v2/pkg/components/text"
	"github.com/johnfercher/maroto/v2/pkg/consts/align"
	"github.com/johnfercher/maroto/v2/pkg/consts/border"
	"github.com/johnfercher/maroto/v2/pkg/consts/fontstyle"
	"github.com/johnfercher/maroto/v2/pkg/core"
	"github.com/johnfercher/maroto/v2/pkg/props"

	"github.com/assay-dev/assay/pkg/assess"
)

// The palette.
var (
	ink    = props.Color{Red: 33, Green: 37, Blue: 41}
	muted  = props.Color{Red: 108, Green: 117, Blue: 125}
	accent = props.Color{Red: 23, Green: 92, Blue: 143}
	rule   = props.Color{Red: 206, Green: 212, Blue: 218}
	shade  = props.Color{Red: 241, Green: 243, Blue: 245}
	good   = props.Color{Red: 25, Green: 135, Blue: 84}
	warn   = props.Color{Red: 176, Green: 112, Blue: 0}
	bad    = props.Color{Red: 187, Green: 45, Blue: 59}
)

// resultColors colour each result's label.
var resultColors = map[string]*props.Color{
	string(assess.ResultYes): &good, string(assess.ResultPartial): &warn, string(assess.ResultNo): &bad,
}

// doc is a report being laid out: the document, the data, and the pagination so far.
type doc struct {
	m           core.Maroto
	r           assess.Report // its text drawable (drawable)
	contentHash string        // ContentSHA256 of the report as given
	pager       *pager
}

// add places rows on the document.
func (d *doc) add(rows ...core.Row) {
	for _, r := range rows {
		d.m.AddRows(r)
		d.pager.placed(r)
	}
}

// Text styles.
func body() props.Text { return props.Text{Size: 9, Top: 0.6, Bottom: 0.6} }

func small() props.Text { return props.Text{Size: 7.5, Color: &muted, Top: 0.5, Bottom: 0.5} }

func bold(size float64) props.Text {
	return props.Text{Size: size, Style: fontstyle.Bold, Top: 0.6, Bottom: 0.6}
}

func indented(p props.Text, left float64) props.Text {
	p.Left = left
	return p
}

// newPage starts a page with rows.
func (d *doc) newPage(rows ...core.Row) {
	d.m.AddPages(page.New())
	d.pager.pageBreak()
	d.add(rows...)
}

// heading starts a section: its title, on a new page or (keep) on the current one when
// about keep millimetres are left below it; the contents name its page.
func (d *doc) heading(section string, newPage bool, keep float64) {
	title := row.New().Add(text.NewCol(12, section, props.Text{Size: 14, Style: fontstyle.Bold, Color: &accent, Top: 2, Bottom: 2}))
	if newPage {
		d.newPage(title)
	} else {
		d.keepTogether(keep, title)
	}
	d.pager.start(section)
}

// keepTogether adds a heading row on the current page when room for about below
// millimetres of what follows is left after it, else on a new page.
func (d *doc) keepTogether(below float64, heading core.Row) {
	if d.m.FitlnCurrentPage(below) {
		d.add(heading)
		return
	}
	d.newPage(heading)
}

// subheading is a smaller title inside a section, kept with what follows.
func (d *doc) subheading(s string) {
	d.keepTogether(25, row.New().Add(text.NewCol(12, oneLine(s), props.Text{Size: 11, Style: fontstyle.Bold, Top: 3, Bottom: 1.5})))
}

// para adds s as paragraphs in style p.
func (d *doc) para(s string, p props.Text) {
	for _, par := range paragraphs(s) {
		d.add(text.NewAutoRow(par, p))
	}
}

// field adds a label and its value on one row; an empty value leaves the row out.
func (d *doc) field(label, value string) {
	if value == "" {
		return
	}
	d.add(row.New().Add(
		text.NewCol(3, label, props.Text{Size: 8.5, Style: fontstyle.Bold, Color: &muted, Top: 0.8, Bottom: 0.8}),
		text.NewCol(9, oneLine(value), props.Text{Size: 9, Top: 0.8, Bottom: 0.8}),
	))
}

// gap adds vertical space.
func (d *doc) gap(h float64) { d.add(row.New(h)) }

// separator adds a thin rule.
func (d *doc) separator() {
	d.add(line.NewRow(2, props.Line{Color: &rule, Thickness: 0.2}))
}

// tableRow is a row of cells of the given sizes, ruled below; head shades it; figures
// aligns the cells after the first to the right.
func tableRow(sizes []int, cells []string, p props.Text, head, figures bool) core.Row {
	cols := make([]core.Col, len(sizes))
	for i, size := range sizes {
		cp := p
		if i > 0 && figures {
			cp.Align = align.Right
		}
		cp.Left, cp.Right = 1, 1
		cols[i] = text.NewCol(size, oneLine(cells[i]), cp)
	}
	style := &props.Cell{BorderType: border.Bottom, BorderColor: &rule, BorderThickness: 0.1}
	if head {
		style.BackgroundColor = &shade
	}
	return row.New().Add(cols...).WithStyle(style)
}

// footerHeight is the height of the footer, in millimetres.
const footerHeight = 8

// footer names the report on every page; maroto adds the page number beside it.
func footer(r assess.Report) []core.Row {
	return []core.Row{row.New(footerHeight).Add(text.NewCol(9, "Assay · "+reportTitle(r)+" · "+r.ID,
		props.Text{Size: 7, Color: &muted, Top: 4}))}
}

// sections lists the sections this report has, in order.
func (d *doc) sections() []string {
	out := []string{secSummary}
	if d.r.Attestation != nil {
		out = append(out, secAffirmation)
	}
	return append(out, secRequirements, secClaims, secEvidence)
}

// contents is the table of contents, on a page of its own after the cover.
func (d *doc) contents() {
	rows := []core.Row{row.New().Add(text.NewCol(12, "Contents", props.Text{Size: 14, Style: fontstyle.Bold, Color: &accent, Top: 2, Bottom: 4}))}
	for _, s := range d.sections() {
		rows = append(rows, row.New().Add(
			text.NewCol(10, s, props.Text{Size: 10, Top: 1.5, Bottom: 1.5}),
			col.New(2).Add(&pageRef{pager: d.pager, section: s, prop: props.Text{Size: 10, Top: 1.5, Bottom: 1.5, Align: align.Right}}),
		).WithStyle(&props.Cell{BorderType: border.Bottom, BorderColor: &rule, BorderThickness: 0.1}))
	}
	d.newPage(rows...)
}
