package httpapi

import (
	"context"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Each user's dashboard layout (docs/assessments.md, "Dashboard layout").

var docDashboardLayoutGet = huma.Operation{OperationID: "getDashboardLayout", Summary: "My dashboard layout", Tags: tagDashboard,
	Description: "The widgets of the caller's dashboard and where they stand on its 12-column grid: the layout the caller " +
		"saved, or (isDefault) the default of their role — the first they hold of admin, assessor, assessee, " +
		"standards_manager and standards_approver, else the general default. catalogue lists every widget the dashboard " +
		"offers. The layout only arranges widgets: each shows what the caller may open and nothing else. Any signed-in caller."}

func (s *Server) handleDashboardLayoutGet(ctx context.Context, _ *struct{}) (*body[assess.DashboardLayout], error) {
	l, err := s.dep.DashboardLayouts.DashboardLayout(ctx, requestActor(ctx))
	return reply(l), err
}

var docDashboardLayoutSave = huma.Operation{OperationID: "saveDashboardLayout", Summary: "Keep my dashboard layout", Tags: tagDashboard,
	Description: "Replaces the caller's layout and answers it. Each tile places a widget of the catalogue (at most once) on " +
		"the grid: x 0–11 and w 1–12 with x + w ≤ 12, y from 0 and h 1–16 with y + h ≤ 400; tiles may not overlap. " +
		"An empty list keeps an empty dashboard. Anything else is 400 validation_failed with a detail per tile " +
		"(widgets[i]). Any signed-in caller, for their own dashboard only."}

func (s *Server) handleDashboardLayoutSave(ctx context.Context, in *body[assess.DashboardLayoutInput]) (*body[assess.DashboardLayout], error) {
	l, err := s.dep.DashboardLayouts.SaveDashboardLayout(ctx, in.Body, requestActor(ctx))
	return reply(l), err
}

var docDashboardLayoutReset = huma.Operation{OperationID: "resetDashboardLayout", Summary: "Go back to the default dashboard layout", Tags: tagDashboard,
	Description: "Forgets the caller's layout and answers the default of their role (isDefault). Without a saved layout " +
		"it changes nothing. Any signed-in caller, for their own dashboard only."}

func (s *Server) handleDashboardLayoutReset(ctx context.Context, _ *struct{}) (*body[assess.DashboardLayout], error) {
	l, err := s.dep.DashboardLayouts.ResetDashboardLayout(ctx, requestActor(ctx))
	return reply(l), err
}
