package httpapi

import (
	"context"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var docAuditList = huma.Operation{OperationID: "listAudit", Summary: "Read the audit log", Tags: []string{"Administration"},
	Description: "Security events and changes, newest first: who did what to which record, when, from where (IP, " +
		"request id). Filter by action (exact, or a prefix such as `auth.`), actor, target and time range."}

func (s *Server) handleAuditList(ctx context.Context, in *assess.AuditFilter) (*body[assess.Page[assess.AuditRecord]], error) {
	page, err := s.dep.Audit.FindAudit(ctx, *in)
	return reply(page), err
}
