package httpapi

import (
	"context"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var docDemoDataLoad = huma.Operation{OperationID: "loadDemoData", Summary: "Load the demo organisation", Tags: tagAdministration,
	Description: "Creates, in one transaction, a demo organisation (Acme Corp: business units, teams, products, a " +
		"service and a vendor with their relationships), tags, two projects (one in progress, linked to the " +
		"published standards present) and one demo account per built-in role other than admin. The accounts are " +
		"created deactivated and without a password: an administrator sets a password and activates one to use it. " +
		"Loading again creates nothing and answers `alreadyLoaded: true`."}

func (s *Server) handleDemoDataLoad(ctx context.Context, _ *struct{}) (*body[assess.DemoDataSummary], error) {
	sum, err := s.dep.Demo.LoadDemoData(ctx, requestActor(ctx))
	return reply(sum), err
}
