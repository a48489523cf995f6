package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// NotificationRulePage is one page of notification rules.
type NotificationRulePage struct {
	Items      []assess.NotificationRule `json:"items"`
	NextCursor string                    `json:"nextCursor,omitempty"`
	HasMore    bool                      `json:"hasMore"`
}

type ruleIDInput struct {
	ID string `path:"id" maxLength:"64"`
}

// ruleScope describes the two sets of rule endpoints, which differ in path, permission,
// wording and whose rules they reach.
type ruleScope struct {
	scope, path, idSuffix, noun, tag string
	permission                       assess.Perm
	description                      string
	owner                            func(context.Context) string
}

func (s *Server) registerRules() {
	s.registerRuleScope(ruleScope{
		scope: assess.RulePersonal, path: "/api/v1/notification-rules", permission: assess.PermAuthenticated,
		idSuffix: "MyNotificationRule", noun: "one's personal notification rule", tag: "Notification rules",
		description: "Personal rules send the caller, in-app and/or by e-mail, the events they select among those the " +
			"caller may receive: the caller holds the type's permission, or the event concerns them. A rule asking " +
			"for a type the caller may not receive is refused with 422; webhook, chat, role and address targets " +
			"belong to global rules. Another user's rule is a 404.",
		owner: func(ctx context.Context) string { return assess.PrincipalFrom(ctx).User.ID },
	})
	s.registerRuleScope(ruleScope{
		scope: assess.RuleGlobal, path: "/api/v1/admin/notification-rules", permission: assess.PermAdminNotificationRule,
		idSuffix: "GlobalNotificationRule", noun: "a global notification rule", tag: "Notification rules",
		description: "Global rules send the events they select to the members of `roles` (in-app and/or e-mail, " +
			"each only where the member may receive the type), to the addresses in `emails`, and to the webhook " +
			"and chat destinations named in `channels`. `warnings` tells why a chosen channel would not deliver now.",
		owner: func(context.Context) string { return "" },
	})
}

func (s *Server) registerRuleScope(rs ruleScope) {
	tags := []string{rs.tag}
	register(s, Op{Permission: rs.permission, Operation: huma.Operation{
		OperationID: "list" + rs.idSuffix + "s", Method: http.MethodGet, Path: rs.path,
		Summary: "List " + plural(rs.noun), Tags: tags, Description: rs.description + " Newest first, cursor-paginated.",
	}}, func(ctx context.Context, in *listInput) (*struct{ Body NotificationRulePage }, error) {
		rules, next, err := s.dep.Rules.FindRules(ctx, rs.scope, rs.owner(ctx), in.Cursor, in.Limit)
		if err != nil {
			return nil, err
		}
		if rules == nil {
			rules = []assess.NotificationRule{}
		}
		return &struct{ Body NotificationRulePage }{Body: NotificationRulePage{Items: rules, NextCursor: next, HasMore: next != ""}}, nil
	})
	register(s, Op{Permission: rs.permission, Operation: huma.Operation{
		OperationID: "create" + rs.idSuffix, Method: http.MethodPost, Path: rs.path, DefaultStatus: http.StatusCreated,
		Summary: "Create " + rs.noun, Tags: tags, Errors: []int{http.StatusUnprocessableEntity},
		Description: rs.description + " Enabled unless `enabled` is false.",
	}}, func(ctx context.Context, in *struct{ Body assess.NewNotificationRule }) (*struct{ Body assess.NotificationRule }, error) {
		r, err := s.dep.Rules.CreateRule(ctx, rs.scope, rs.owner(ctx), in.Body, requestActor(ctx))
		return &struct{ Body assess.NotificationRule }{Body: r}, err
	})
	register(s, Op{Permission: rs.permission, Operation: huma.Operation{
		OperationID: "update" + rs.idSuffix, Method: http.MethodPatch, Path: rs.path + "/{id}",
		Summary: "Update " + rs.noun, Tags: tags,
		Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
		Description: "Absent fields stay. Send the version last read; a stale one gets 409 version_conflict. The same " +
			"rules as at creation apply to the result (422).",
	}}, func(ctx context.Context, in *struct {
		ID   string `path:"id" maxLength:"64"`
		Body assess.NotificationRuleUpdate
	}) (*struct{ Body assess.NotificationRule }, error) {
		r, err := s.dep.Rules.UpdateRule(ctx, rs.scope, rs.owner(ctx), in.ID, in.Body, requestActor(ctx))
		return &struct{ Body assess.NotificationRule }{Body: r}, err
	})
	register(s, Op{Permission: rs.permission, Operation: huma.Operation{
		OperationID: "delete" + rs.idSuffix, Method: http.MethodDelete, Path: rs.path + "/{id}", DefaultStatus: http.StatusNoContent,
		Summary: "Delete " + rs.noun, Tags: tags, Errors: []int{http.StatusNotFound},
	}}, func(ctx context.Context, in *ruleIDInput) (*struct{}, error) {
		return nil, s.dep.Rules.DeleteRule(ctx, rs.scope, rs.owner(ctx), in.ID, requestActor(ctx))
	})
}

// plural turns "one's personal notification rule" into "one's personal notification
// rules" and "a global notification rule" into "global notification rules".
func plural(noun string) string {
	if len(noun) > 2 && noun[:2] == "a " {
		noun = noun[2:]
	}
	return noun + "s"
}
