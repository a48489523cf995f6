package httpapi

import (
	"context"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// The dashboard's figures (docs/assessments.md, "Dashboard").

var tagDashboard = []string{"Dashboard"}

var docDashboard = huma.Operation{OperationID: "getDashboard", Summary: "The caller's dashboard", Tags: tagDashboard,
	Description: "Where things stand, counting only what the caller may open (the object-level rule of assessments and " +
		"evidence applies to every figure): assessments by state and overdue; evidence by state, in review, expiring " +
		"within expiringDays and expired; attestations by state, sealed and expiring; conformance per standard of the " +
		"finished assessments; the next due dates; the requirements most often not met; evidence that a sealed " +
		"attestation cites and that expires soon or has expired. Any signed-in caller."}

func (s *Server) handleDashboard(ctx context.Context, _ *struct{}) (*body[assess.Dashboard], error) {
	d, err := s.dep.Dashboard.Dashboard(ctx, requestActor(ctx))
	return reply(d), err
}
