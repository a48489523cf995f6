package assess

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestDashboardLayoutValidate(t *testing.T) {
	t.Parallel()
	tile := func(w DashboardWidget, x, y, width, h int) DashboardTile { return DashboardTile{w, x, y, width, h} }
	tooMany := make([]DashboardTile, 0, len(DashboardWidgets)+1)
	for i, w := range append(slices.Clone(DashboardWidgets), WidgetHealth) {
		tooMany = append(tooMany, tile(w, 0, 2*i, 1, 1))
	}
	for _, tc := range []struct {
		name   string
		tiles  []DashboardTile
		field  string // of the first detail; "" when valid
		code   string
		reason string
	}{
		{"empty is an empty dashboard", []DashboardTile{}, "", "", ""},
		{"absent is empty too", nil, "", "", ""},
		{"side by side", []DashboardTile{tile(WidgetHealth, 6, 0, 6, 4), tile(WidgetWelcome, 0, 0, 6, 4)}, "", "", ""},
		{"the whole width and the last row", []DashboardTile{tile(WidgetHealth, 0, DashboardMaxRows-DashboardMaxHeight, 12, DashboardMaxHeight)}, "", "", ""},
		{"unknown widget", []DashboardTile{tile("weather", 0, 0, 2, 2)}, "widgets[0].widget", "unknown_widget", ""},
		{"empty widget name", []DashboardTile{tile("", 0, 0, 2, 2)}, "widgets[0].widget", "unknown_widget", ""},
		{"a widget twice", []DashboardTile{tile(WidgetHealth, 0, 0, 2, 2), tile(WidgetHealth, 0, 4, 2, 2)}, "widgets[1].widget", "duplicate", ""},
		{"past the last column", []DashboardTile{tile(WidgetHealth, 8, 0, 6, 2)}, "widgets[0].x", "out_of_range", ""},
		{"negative column", []DashboardTile{tile(WidgetHealth, -1, 0, 6, 2)}, "widgets[0].x", "out_of_range", ""},
		{"no width", []DashboardTile{tile(WidgetHealth, 0, 0, 0, 2)}, "widgets[0].w", "out_of_range", ""},
		{"wider than the grid", []DashboardTile{tile(WidgetHealth, 0, 0, 13, 2)}, "widgets[0].w", "out_of_range", ""},
		{"no height", []DashboardTile{tile(WidgetHealth, 0, 0, 2, 0)}, "widgets[0].h", "out_of_range", ""},
		{"taller than a tile may be", []DashboardTile{tile(WidgetHealth, 0, 0, 2, DashboardMaxHeight+1)}, "widgets[0].h", "out_of_range", ""},
		{"negative row", []DashboardTile{tile(WidgetHealth, 0, -1, 2, 2)}, "widgets[0].y", "out_of_range", ""},
		{"below the last row", []DashboardTile{tile(WidgetHealth, 0, DashboardMaxRows-1, 2, 2)}, "widgets[0].y", "out_of_range", ""},
		{"overlapping", []DashboardTile{tile(WidgetHealth, 0, 0, 6, 4), tile(WidgetWelcome, 5, 3, 6, 4)}, "widgets[1]", "overlap", "welcome"},
		{"touching is not overlapping", []DashboardTile{tile(WidgetHealth, 0, 0, 6, 4), tile(WidgetWelcome, 6, 3, 6, 4), tile(WidgetConformance, 0, 4, 6, 4)}, "", "", ""},
		{"more tiles than widgets", tooMany, "widgets", "too_many", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := DashboardLayoutInput{Widgets: slices.Clone(tc.tiles)}
			err := in.Validate()
			if tc.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != ECodeValidation || len(e.Details) == 0 {
				t.Fatalf("want validation_failed with details, got %v", err)
			}
			if d := e.Details[0]; d.Field != tc.field || d.Code != tc.code || !strings.Contains(d.Message, tc.reason) {
				t.Fatalf("want %s %s, got %+v", tc.field, tc.code, d)
			}
		})
	}
}

func TestDashboardLayoutValidateSortsInReadingOrder(t *testing.T) {
	t.Parallel()
	in := DashboardLayoutInput{Widgets: []DashboardTile{{WidgetHealth, 6, 4, 6, 2}, {WidgetWelcome, 0, 4, 6, 2}, {WidgetConformance, 3, 0, 6, 4}}}
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	var got []DashboardWidget
	for _, tl := range in.Widgets {
		got = append(got, tl.Widget)
	}
	if want := []DashboardWidget{WidgetConformance, WidgetWelcome, WidgetHealth}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

// The schema's enum (what clients are told) and the catalogue (what Validate accepts) agree.
func TestDashboardWidgetEnumIsTheCatalogue(t *testing.T) {
	t.Parallel()
	f, _ := reflect.TypeFor[DashboardTile]().FieldByName("Widget")
	if got, want := f.Tag.Get("enum"), strings.Join(DashboardCatalogue(), ","); got != want {
		t.Fatalf("enum %q\nwant %q", got, want)
	}
	f, _ = reflect.TypeFor[DashboardLayoutInput]().FieldByName("Widgets")
	if f.Tag.Get("maxItems") != "32" || len(DashboardWidgets) > DashboardMaxTiles {
		t.Fatalf("maxItems %s, %d widgets", f.Tag.Get("maxItems"), len(DashboardWidgets))
	}
	// Every widget at its tallest, one under another, still fits: a layout the page compacts
	// upwards is always within the rows.
	if DashboardMaxHeight*len(DashboardWidgets) > DashboardMaxRows {
		t.Fatalf("%d widgets of %d rows do not fit in %d rows", len(DashboardWidgets), DashboardMaxHeight, DashboardMaxRows)
	}
	f, _ = reflect.TypeFor[DashboardTile]().FieldByName("Y")
	if f.Tag.Get("maximum") != strconv.Itoa(DashboardMaxRows-1) {
		t.Fatalf("y maximum %s, want %d", f.Tag.Get("maximum"), DashboardMaxRows-1)
	}
}

func TestDefaultDashboardLayouts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		roles []string
		role  string
		has   DashboardWidget // a widget only this default shows among the ones compared
		lacks DashboardWidget
	}{
		{[]string{RoleAdmin}, RoleAdmin, WidgetHealth, WidgetEvidenceByState},
		{[]string{RoleAssessor}, RoleAssessor, WidgetEvidenceByState, WidgetWelcome},
		{[]string{RoleAssessee}, RoleAssessee, WidgetEvidenceByState, WidgetConformance},
		{[]string{RoleStandardsManager}, RoleStandardsManager, WidgetConformance, WidgetUpcomingDueDates},
		{[]string{RoleStandardsApprover}, RoleStandardsApprover, WidgetConformance, WidgetOpenAssessments},
		// The recent activity is for those who work on assessments, not for the authors of standards.
		{[]string{RoleAssessor}, RoleAssessor, WidgetRecentActivity, WidgetHealth},
		{[]string{RoleAssessee}, RoleAssessee, WidgetRecentActivity, WidgetAssessmentPipeline},
		{[]string{RoleStandardsManager}, RoleStandardsManager, WidgetWeakestRequirements, WidgetRecentActivity},
		{[]string{"auditor"}, "", WidgetHealth, WidgetEvidenceByState},
		{nil, "", WidgetWelcome, WidgetEvidenceByState},
		// Several roles: the first of DashboardDefaultRoles decides, whatever the order held.
		{[]string{RoleAssessee, RoleAssessor}, RoleAssessor, WidgetAssessmentPipeline, WidgetWelcome},
		{[]string{RoleStandardsManager, RoleAdmin}, RoleAdmin, WidgetOverdueAssessments, WidgetEvidenceByState},
		{[]string{"auditor", RoleStandardsManager, RoleAssessee}, RoleAssessee, WidgetUpcomingDueDates, WidgetConformance},
	} {
		role, tiles := DefaultDashboardLayout(tc.roles)
		if role != tc.role {
			t.Errorf("%v: role %q, want %q", tc.roles, role, tc.role)
		}
		in := DashboardLayoutInput{Widgets: slices.Clone(tiles)}
		if err := in.Validate(); err != nil {
			t.Errorf("%v: the default is not a valid layout: %v", tc.roles, err)
		}
		if !slices.Equal(in.Widgets, tiles) {
			t.Errorf("%v: the default is not in reading order", tc.roles)
		}
		widgets := make([]DashboardWidget, len(tiles))
		for i, tl := range tiles {
			widgets[i] = tl.Widget
		}
		if !slices.Contains(widgets, tc.has) || slices.Contains(widgets, tc.lacks) {
			t.Errorf("%v: %v should show %s and not %s", tc.roles, widgets, tc.has, tc.lacks)
		}
	}
	// Each call answers its own copy: a caller changing it changes no one else's default.
	_, a := DefaultDashboardLayout([]string{RoleAssessor})
	a[0].X = 99
	if _, b := DefaultDashboardLayout([]string{RoleAssessor}); b[0].X == 99 {
		t.Fatal("the default was shared")
	}
}

func TestKnownDashboardTilesDropsRetiredWidgets(t *testing.T) {
	t.Parallel()
	got := KnownDashboardTiles([]DashboardTile{{"retired", 0, 0, 2, 2}, {WidgetHealth, 2, 0, 2, 2}})
	if len(got) != 1 || got[0].Widget != WidgetHealth {
		t.Fatalf("got %v", got)
	}
}
