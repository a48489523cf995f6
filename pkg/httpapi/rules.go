package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Notification rules come in two scopes with the same operations: personal rules (the
// caller's own, /notification-rules) and global rules (/admin/notification-rules).

var tagRules = []string{"Notification rules"}

type rulePage = body[assess.Page[assess.NotificationRule]]

const personalRulesDescription = "Personal rules send the caller, in-app and/or by e-mail, the events they select among " +
	"those the caller may receive: the caller holds the type's permission, or the event concerns them. A rule asking " +
	"for a type the caller may not receive is refused with 422; webhook, chat, role and address targets " +
	"belong to global rules. Another user's rule is a 404."

const globalRulesDescription = "Global rules send the events they select to the members of `roles` (in-app and/or e-mail, " +
	"each only where the member may receive the type), to the addresses in `emails`, and to the webhook " +
	"and chat destinations named in `channels`. `warnings` tells why a chosen channel would not deliver now."

const ruleUpdateDescription = "Absent fields stay. Send the version last read; a stale one gets 409 version_conflict. The same " +
	"rules as at creation apply to the result (422)."

var docMyNotificationRuleList = huma.Operation{OperationID: "listMyNotificationRules", Summary: "List one's personal notification rules",
	Tags: tagRules, Description: personalRulesDescription + " Newest first, cursor-paginated."}

func (s *Server) handleMyNotificationRuleList(ctx context.Context, in *assess.NotificationRuleFilter) (*rulePage, error) {
	page, err := s.dep.Rules.FindRules(ctx, assess.RulePersonal, callerID(ctx), *in)
	return reply(page), err
}

var docMyNotificationRuleCreate = huma.Operation{OperationID: "createMyNotificationRule", Summary: "Create one's personal notification rule",
	Tags: tagRules, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusUnprocessableEntity},
	Description: personalRulesDescription + " Enabled unless `enabled` is false."}

func (s *Server) handleMyNotificationRuleCreate(ctx context.Context, in *body[assess.NewNotificationRule]) (*body[assess.NotificationRule], error) {
	r, err := s.dep.Rules.CreateRule(ctx, assess.RulePersonal, callerID(ctx), in.Body, requestActor(ctx))
	return reply(r), err
}

var docMyNotificationRuleUpdate = huma.Operation{OperationID: "updateMyNotificationRule", Summary: "Update one's personal notification rule",
	Tags: tagRules, Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: ruleUpdateDescription}

func (s *Server) handleMyNotificationRuleUpdate(ctx context.Context, in *idBody[assess.NotificationRuleUpdate]) (*body[assess.NotificationRule], error) {
	r, err := s.dep.Rules.UpdateRule(ctx, assess.RulePersonal, callerID(ctx), in.ID, in.Body, requestActor(ctx))
	return reply(r), err
}

var docMyNotificationRuleDelete = huma.Operation{OperationID: "deleteMyNotificationRule", Summary: "Delete one's personal notification rule",
	Tags: tagRules, DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound}}

func (s *Server) handleMyNotificationRuleDelete(ctx context.Context, in *idInput) (*struct{}, error) {
	return nil, s.dep.Rules.DeleteRule(ctx, assess.RulePersonal, callerID(ctx), in.ID, requestActor(ctx))
}

var docGlobalNotificationRuleList = huma.Operation{OperationID: "listGlobalNotificationRules", Summary: "List global notification rules",
	Tags: tagRules, Description: globalRulesDescription + " Newest first, cursor-paginated."}

func (s *Server) handleGlobalNotificationRuleList(ctx context.Context, in *assess.NotificationRuleFilter) (*rulePage, error) {
	page, err := s.dep.Rules.FindRules(ctx, assess.RuleGlobal, "", *in)
	return reply(page), err
}

var docGlobalNotificationRuleCreate = huma.Operation{OperationID: "createGlobalNotificationRule", Summary: "Create a global notification rule",
	Tags: tagRules, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusUnprocessableEntity},
	Description: globalRulesDescription + " Enabled unless `enabled` is false."}

func (s *Server) handleGlobalNotificationRuleCreate(ctx context.Context, in *body[assess.NewNotificationRule]) (*body[assess.NotificationRule], error) {
	r, err := s.dep.Rules.CreateRule(ctx, assess.RuleGlobal, "", in.Body, requestActor(ctx))
	return reply(r), err
}

var docGlobalNotificationRuleUpdate = huma.Operation{OperationID: "updateGlobalNotificationRule", Summary: "Update a global notification rule",
	Tags: tagRules, Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: ruleUpdateDescription}

func (s *Server) handleGlobalNotificationRuleUpdate(ctx context.Context, in *idBody[assess.NotificationRuleUpdate]) (*body[assess.NotificationRule], error) {
	r, err := s.dep.Rules.UpdateRule(ctx, assess.RuleGlobal, "", in.ID, in.Body, requestActor(ctx))
	return reply(r), err
}

var docGlobalNotificationRuleDelete = huma.Operation{OperationID: "deleteGlobalNotificationRule", Summary: "Delete a global notification rule",
	Tags: tagRules, DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound}}

func (s *Server) handleGlobalNotificationRuleDelete(ctx context.Context, in *idInput) (*struct{}, error) {
	return nil, s.dep.Rules.DeleteRule(ctx, assess.RuleGlobal, "", in.ID, requestActor(ctx))
}
