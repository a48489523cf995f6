package report

import (
	"strconv"

	"github.com/johnfercher/go-tree/node"
	"github.com/johnfercher/maroto/v2/pkg/components/text"
	"github.com/johnfercher/maroto/v2/pkg/core"
	"github.com/johnfercher/maroto/v2/pkg/core/entity"
	"github.com/johnfercher/maroto/v2/pkg/props"
)

// The sections of a report, in the order of the contents.
const (
	secSummary      = "Summary"
	secAffirmation  = "Affirmation and signatures"
	secRequirements = "Requirements and results"
	secClaims       = "Claims"
	secEvidence     = "Evidence"
)

// pager follows maroto's pagination as rows are added, so that the contents can name the
// page each section starts on in one layout. maroto (v2.3.3, pinned) places rows when
// they are added: a row goes on the current page when its height, the heights above it
// and the footer fit the page's useful height (<=), else it starts the next page; adding a
// page (AddPages) first closes a page that holds anything. A row's height is known once
// maroto has placed it (it keeps it). TestAssessmentReport and TestReportPageCounts read
// the contents back from the PDF and fail if this ever disagrees with maroto.
type pager struct {
	height  float64 // the page's useful height: the page less the top and bottom margins
	footer  float64
	page    int     // the current page, from 1
	current float64 // the height of the rows on it
	starts  map[string]int
}

func newPager(cfg *entity.Config, footer float64) *pager {
	return &pager{height: cfg.Dimensions.Height - cfg.Margins.Top - cfg.Margins.Bottom, footer: footer, page: 1, starts: map[string]int{}}
}

// placed records a row maroto has just placed.
func (p *pager) placed(r core.Row) {
	h := r.GetHeight(nil, nil) // kept by maroto when it placed the row: no provider needed
	if h+p.current+p.footer <= p.height {
		p.current += h
		return
	}
	p.page++
	p.current = h
}

// pageBreak records AddPages.
func (p *pager) pageBreak() {
	if p.current != 0 {
		p.page++
		p.current = 0
	}
}

// start records that section starts on the current page.
func (p *pager) start(section string) {
	if _, ok := p.starts[section]; !ok {
		p.starts[section] = p.page
	}
}

// pageRef is the page number of a section in the contents: laid out as a placeholder of
// three digits, written when the page is rendered, after every row has been placed.
type pageRef struct {
	pager   *pager
	section string
	prop    props.Text
	cfg     *entity.Config
}

func (r *pageRef) text(value string) core.Component {
	t := text.New(value, r.prop)
	t.SetConfig(r.cfg)
	return t
}

func (r *pageRef) SetConfig(cfg *entity.Config) { r.cfg = cfg }

func (r *pageRef) GetStructure() *node.Node[core.Structure] {
	return node.New(core.Structure{Type: "assay-page-ref", Value: r.section})
}

func (r *pageRef) GetHeight(provider core.Provider, cell *entity.Cell) float64 {
	return r.text("000").GetHeight(provider, cell)
}

func (r *pageRef) Render(provider core.Provider, cell *entity.Cell) {
	value := "—"
	if p, ok := r.pager.starts[r.section]; ok {
		value = strconv.Itoa(p)
	}
	r.text(value).Render(provider, cell)
}
