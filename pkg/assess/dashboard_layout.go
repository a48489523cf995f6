package assess

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The dashboard's layout (issue 25 item 1; docs/assessments.md, "Dashboard layout"): which
// widgets a user's dashboard shows and where, on a grid of DashboardColumns columns. Each user
// may keep one layout on the server; without one they get the default of their role. The
// layout says nothing about the figures: every widget shows only what its caller may open.

// DashboardWidget names a widget of the dashboard.
type DashboardWidget string

// The widget catalogue: every widget the dashboard page can show. The enum of
// DashboardTile.Widget lists the same names (a test holds them equal).
const (
	WidgetOpenAssessments      DashboardWidget = "openAssessments"       // key figure: open assessments
	WidgetOverdueAssessments   DashboardWidget = "overdueAssessments"    // key figure: overdue assessments
	WidgetEvidenceInReview     DashboardWidget = "evidenceInReview"      // key figure: evidence in review
	WidgetEvidenceExpiring     DashboardWidget = "evidenceExpiring"      // key figure: evidence expiring soon
	WidgetSealedAttestations   DashboardWidget = "sealedAttestations"    // key figure: sealed attestations
	WidgetAttestationsExpiring DashboardWidget = "attestationsExpiring"  // key figure: attestations expiring soon
	WidgetAssessmentPipeline   DashboardWidget = "assessmentPipeline"    // chart: assessments by state
	WidgetConformance          DashboardWidget = "conformance"           // chart: conformance by standard
	WidgetAnswers              DashboardWidget = "answers"               // chart: the finished assessments' answers by result
	WidgetEvidenceByState      DashboardWidget = "evidenceByState"       // chart: evidence by state
	WidgetAttestationsByState  DashboardWidget = "attestationsByState"   // chart: attestations by state
	WidgetUpcomingDueDates     DashboardWidget = "upcomingDueDates"      // list: the next due dates
	WidgetWeakestRequirements  DashboardWidget = "weakestRequirements"   // list: requirements most often not met
	WidgetExpiringCited        DashboardWidget = "expiringCitedEvidence" // list: cited evidence expiring
	WidgetRecentActivity       DashboardWidget = "recentActivity"        // list: the latest changes under the caller's assessments
	WidgetWelcome              DashboardWidget = "welcome"               // the welcome with the API documentation
	WidgetHealth               DashboardWidget = "health"                // the system status
)

// DashboardWidgets is the widget catalogue, in the order the page offers them.
var DashboardWidgets = []DashboardWidget{
	WidgetOpenAssessments, WidgetOverdueAssessments, WidgetEvidenceInReview, WidgetEvidenceExpiring,
	WidgetSealedAttestations, WidgetAttestationsExpiring, WidgetAssessmentPipeline, WidgetConformance,
	WidgetAnswers, WidgetEvidenceByState, WidgetAttestationsByState, WidgetUpcomingDueDates,
	WidgetWeakestRequirements, WidgetExpiringCited, WidgetRecentActivity, WidgetWelcome, WidgetHealth,
}

// The bounds of a layout. A tile spans w columns from column x (0-based) and h rows from row
// y; rows are a fixed height on the page (the tile's content scrolls within it).
const (
	DashboardColumns   = 12  // columns of the grid
	DashboardMaxRows   = 400 // y + h of every tile is at most this (room for every widget at its tallest, one under another)
	DashboardMaxHeight = 16  // rows one tile may span
	DashboardMaxTiles  = 32  // tiles of a layout the schema admits (each widget at most once, so in fact len(DashboardWidgets))
)

// DashboardTile places one widget on the grid.
type DashboardTile struct {
	Widget DashboardWidget `json:"widget" enum:"openAssessments,overdueAssessments,evidenceInReview,evidenceExpiring,sealedAttestations,attestationsExpiring,assessmentPipeline,conformance,answers,evidenceByState,attestationsByState,upcomingDueDates,weakestRequirements,expiringCitedEvidence,recentActivity,welcome,health" doc:"Which widget of the catalogue"`
	X      int             `json:"x" minimum:"0" maximum:"11" doc:"First column, 0–11"`
	Y      int             `json:"y" minimum:"0" maximum:"399" doc:"First row, from 0; y + h is at most 400"`
	W      int             `json:"w" minimum:"1" maximum:"12" doc:"Columns spanned, 1–12; x + w is at most 12"`
	H      int             `json:"h" minimum:"1" maximum:"16" doc:"Rows spanned, 1–16"`
}

// overlaps reports whether two tiles share a cell.
func (t DashboardTile) overlaps(o DashboardTile) bool {
	return t.X < o.X+o.W && o.X < t.X+t.W && t.Y < o.Y+o.H && o.Y < t.Y+t.H
}

// DashboardLayout is the layout the caller's dashboard shows: the one they saved, or the
// default of their role.
type DashboardLayout struct {
	Widgets   []DashboardTile `json:"widgets" doc:"The tiles, in reading order (by row, then column)"`
	IsDefault bool            `json:"isDefault" doc:"True when the caller has saved no layout and this is the default of their role"`
	// DefaultRole is the role whose default applies to the caller: the first they hold of
	// DashboardDefaultRoles, or "" (the general default) when they hold none of them.
	DefaultRole string     `json:"defaultRole" doc:"The role whose default layout the caller gets (the first they hold of admin, assessor, assessee, standards_manager, standards_approver); empty for the general default"`
	UpdatedAt   *time.Time `json:"updatedAt,omitempty" doc:"When the caller saved the layout; absent for a default"`
	Catalogue   []string   `json:"catalogue" doc:"Every widget the dashboard offers, in the order the page lists them"`
}

// DashboardLayoutInput is a layout to keep for the caller: it replaces the one kept before.
type DashboardLayoutInput struct {
	Widgets []DashboardTile `json:"widgets" maxItems:"32" doc:"The tiles: each widget of the catalogue at most once, within the 12-column grid, none overlapping another; an empty list is an empty dashboard"`
}

// Validate checks the layout: known widgets, each at most once, within the grid, no two
// tiles overlapping; and sorts the tiles in reading order. Every problem is one detail
// naming the tile (widgets[i]).
func (in *DashboardLayoutInput) Validate() error {
	var d []Detail
	if len(in.Widgets) > len(DashboardWidgets) {
		return validationError([]Detail{{Field: "widgets", Code: "too_many",
			Message: fmt.Sprintf("A dashboard shows at most %d widgets, each once.", len(DashboardWidgets))}})
	}
	seen := map[DashboardWidget]int{}
	for i, t := range in.Widgets {
		field := fmt.Sprintf("widgets[%d]", i)
		if !slices.Contains(DashboardWidgets, t.Widget) {
			d = append(d, Detail{Field: field + ".widget", Code: "unknown_widget",
				Message: fmt.Sprintf("There is no widget %q; the dashboard offers %s.", t.Widget, widgetList())})
			continue
		}
		if first, ok := seen[t.Widget]; ok {
			d = append(d, Detail{Field: field + ".widget", Code: "duplicate",
				Message: fmt.Sprintf("The widget %q is placed twice (also widgets[%d]).", t.Widget, first)})
			continue
		}
		seen[t.Widget] = i
		d = append(d, tileBoundsProblems(field, t)...)
	}
	if len(d) > 0 {
		return validationError(d)
	}
	for i, t := range in.Widgets {
		for j := range i {
			if t.overlaps(in.Widgets[j]) {
				d = append(d, Detail{Field: fmt.Sprintf("widgets[%d]", i), Code: "overlap",
					Message: fmt.Sprintf("The widget %q overlaps %q (widgets[%d]); tiles may not share a cell.", t.Widget, in.Widgets[j].Widget, j)})
			}
		}
	}
	if len(d) > 0 {
		return validationError(d)
	}
	SortDashboardTiles(in.Widgets)
	return nil
}

// tileBoundsProblems checks that one tile lies within the grid.
func tileBoundsProblems(field string, t DashboardTile) []Detail {
	var d []Detail
	bad := func(name, msg string) {
		d = append(d, Detail{Field: field + "." + name, Code: "out_of_range", Message: msg})
	}
	switch {
	case t.W < 1 || t.W > DashboardColumns:
		bad("w", fmt.Sprintf("A tile spans 1 to %d columns.", DashboardColumns))
	case t.X < 0 || t.X+t.W > DashboardColumns:
		bad("x", fmt.Sprintf("The tile must lie within the %d columns: x from 0 and x + w at most %d.", DashboardColumns, DashboardColumns))
	}
	switch {
	case t.H < 1 || t.H > DashboardMaxHeight:
		bad("h", fmt.Sprintf("A tile spans 1 to %d rows.", DashboardMaxHeight))
	case t.Y < 0 || t.Y+t.H > DashboardMaxRows:
		bad("y", fmt.Sprintf("The tile must lie within the first %d rows: y from 0 and y + h at most %d.", DashboardMaxRows, DashboardMaxRows))
	}
	return d
}

func widgetList() string {
	names := make([]string, len(DashboardWidgets))
	for i, w := range DashboardWidgets {
		names[i] = string(w)
	}
	return strings.Join(names, ", ")
}

// SortDashboardTiles puts tiles in reading order: by row, then column (the order a phone
// stacks them in).
func SortDashboardTiles(tiles []DashboardTile) {
	slices.SortStableFunc(tiles, func(a, b DashboardTile) int {
		if a.Y != b.Y {
			return a.Y - b.Y
		}
		return a.X - b.X
	})
}

// KnownDashboardTiles keeps the tiles of widgets the catalogue still offers, so a layout kept
// before a widget was retired still shows the others.
func KnownDashboardTiles(tiles []DashboardTile) []DashboardTile {
	return slices.DeleteFunc(tiles, func(t DashboardTile) bool { return !slices.Contains(DashboardWidgets, t.Widget) })
}

// DashboardCatalogue is the widget catalogue as the layout answers it.
func DashboardCatalogue() []string {
	out := make([]string, len(DashboardWidgets))
	for i, w := range DashboardWidgets {
		out[i] = string(w)
	}
	return out
}

// DashboardLayoutService keeps each user's dashboard layout. Every method acts for the
// signed-in caller (actor) only: nobody reads or changes another's layout.
type DashboardLayoutService interface {
	// DashboardLayout returns the caller's saved layout, or the default of their role.
	DashboardLayout(ctx context.Context, actor Actor) (DashboardLayout, error)
	// SaveDashboardLayout validates and keeps the caller's layout, and returns it.
	SaveDashboardLayout(ctx context.Context, in DashboardLayoutInput, actor Actor) (DashboardLayout, error)
	// ResetDashboardLayout forgets the caller's layout and returns the default of their role.
	ResetDashboardLayout(ctx context.Context, actor Actor) (DashboardLayout, error)
}
