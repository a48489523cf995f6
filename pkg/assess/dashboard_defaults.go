package assess

import "slices"

// The default dashboard layouts (docs/assessments.md, "Dashboard layout"): what a user who
// has saved no layout sees, chosen by the roles they hold. Each is the page for that work:
// administrators get every part of the page as it was before layouts (which is also the
// general default, for users holding only custom roles), with the recent activity; assessors
// their work queue, what changed on it and the risks; assessees their due dates, evidence and
// what changed; standards people conformance, the answers behind it and the requirements
// most often not met.

// DashboardDefaultRoles are the roles with a default layout of their own, in the order that
// decides for a user holding several: the first wins.
var DashboardDefaultRoles = []string{RoleAdmin, RoleAssessor, RoleAssessee, RoleStandardsManager, RoleStandardsApprover}

// keyFigures is the row of the six key figures, two columns each.
func keyFigures() []DashboardTile {
	ws := []DashboardWidget{WidgetOpenAssessments, WidgetOverdueAssessments, WidgetEvidenceInReview,
		WidgetEvidenceExpiring, WidgetSealedAttestations, WidgetAttestationsExpiring}
	tiles := make([]DashboardTile, len(ws))
	for i, w := range ws {
		tiles[i] = DashboardTile{Widget: w, X: 2 * i, Y: 0, W: 2, H: 2}
	}
	return tiles
}

// dashboardDefaults are the default layouts by role; "" is the general default.
var dashboardDefaults = map[string]func() []DashboardTile{
	"": func() []DashboardTile {
		return append(keyFigures(),
			DashboardTile{WidgetAssessmentPipeline, 0, 2, 4, 7}, DashboardTile{WidgetConformance, 4, 2, 4, 7},
			DashboardTile{WidgetAnswers, 8, 2, 4, 7},
			DashboardTile{WidgetUpcomingDueDates, 0, 9, 6, 7}, DashboardTile{WidgetWeakestRequirements, 6, 9, 6, 7},
			DashboardTile{WidgetRecentActivity, 0, 16, 6, 7}, DashboardTile{WidgetExpiringCited, 6, 16, 6, 7},
			DashboardTile{WidgetWelcome, 0, 23, 6, 7}, DashboardTile{WidgetHealth, 6, 23, 6, 7})
	},
	RoleAssessor: func() []DashboardTile {
		return append(keyFigures(),
			DashboardTile{WidgetUpcomingDueDates, 0, 2, 6, 7}, DashboardTile{WidgetRecentActivity, 6, 2, 6, 7},
			DashboardTile{WidgetAssessmentPipeline, 0, 9, 6, 7}, DashboardTile{WidgetWeakestRequirements, 6, 9, 6, 7},
			DashboardTile{WidgetConformance, 0, 16, 6, 7}, DashboardTile{WidgetEvidenceByState, 6, 16, 6, 7},
			DashboardTile{WidgetExpiringCited, 0, 23, 12, 5})
	},
	RoleAssessee: func() []DashboardTile {
		return []DashboardTile{
			{WidgetOpenAssessments, 0, 0, 3, 2}, {WidgetOverdueAssessments, 3, 0, 3, 2},
			{WidgetEvidenceInReview, 6, 0, 3, 2}, {WidgetEvidenceExpiring, 9, 0, 3, 2},
			{WidgetUpcomingDueDates, 0, 2, 6, 7}, {WidgetEvidenceByState, 6, 2, 6, 7},
			{WidgetRecentActivity, 0, 9, 6, 7}, {WidgetWelcome, 6, 9, 6, 7},
		}
	},
	RoleStandardsManager: standardsDefault,
	// Approvers read the same figures as the authors of standards.
	RoleStandardsApprover: standardsDefault,
}

func standardsDefault() []DashboardTile {
	return []DashboardTile{
		{WidgetConformance, 0, 0, 4, 7}, {WidgetAnswers, 4, 0, 4, 7}, {WidgetWeakestRequirements, 8, 0, 4, 7},
		{WidgetWelcome, 0, 7, 6, 7}, {WidgetHealth, 6, 7, 6, 7},
	}
}

// DefaultDashboardLayout is the layout of a user holding roles who has saved none: the
// default of the first of DashboardDefaultRoles they hold (administrators get the general
// one), or the general default. It answers the role it chose ("" for the general default).
func DefaultDashboardLayout(roles []string) (role string, tiles []DashboardTile) {
	for _, r := range DashboardDefaultRoles {
		if slices.Contains(roles, r) {
			role = r
			break
		}
	}
	build, ok := dashboardDefaults[role]
	if !ok {
		build = dashboardDefaults[""]
	}
	tiles = build()
	SortDashboardTiles(tiles)
	return role, tiles
}
