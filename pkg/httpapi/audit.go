package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// AuditPage is one page of the audit log.
type AuditPage struct {
	Items      []assess.AuditRecord `json:"items"`
	NextCursor string               `json:"nextCursor,omitempty"`
	HasMore    bool                 `json:"hasMore"`
}

func (s *Server) registerAudit() {
	register(s, Op{Permission: assess.PermAdminAudit, Operation: huma.Operation{
		OperationID: "listAudit", Method: http.MethodGet, Path: "/api/v1/audit",
		Summary: "Read the audit log", Tags: []string{"Administration"},
		Description: "Security events and changes, newest first: who did what to which record, when, from where (IP, " +
			"request id). Filter by action (exact, or a prefix such as `auth.`), actor, target and time range.",
	}}, func(ctx context.Context, in *assess.AuditFilter) (*struct{ Body AuditPage }, error) {
		recs, next, err := s.dep.Audit.FindAudit(ctx, *in)
		if err != nil {
			return nil, err
		}
		if recs == nil {
			recs = []assess.AuditRecord{}
		}
		return &struct{ Body AuditPage }{Body: AuditPage{Items: recs, NextCursor: next, HasMore: next != ""}}, nil
	})
}
