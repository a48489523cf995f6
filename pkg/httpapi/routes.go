package httpapi

import (
	"context"
	"maps"
	"net/http"
	"slices"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// route is one operation of the API as the route table lists it: method, path, the
// permission it requires and its named handler; doc carries the rest of its OpenAPI
// description (operation id, summary, tags, extra statuses), declared beside the handler.
type route struct {
	Method     string
	Path       string
	Permission assess.Perm
	doc        huma.Operation
	register   func(s *Server, op Op)
	upload     bool // a multipart upload streamed to its handler (see upload.go)
	// uploadFields documents the text fields an upload takes before its file part.
	uploadFields map[string]*huma.Schema
	stream       bool // a long download streamed page by page (csv_lists.go): no request deadline
}

// onStream declares a streaming download: like on, exempt from the request deadline.
func onStream[I, O any](method, path string, perm assess.Perm, handler func(context.Context, *I) (*O, error), doc huma.Operation) route {
	r := on(method, path, perm, handler, doc)
	r.stream = true
	return r
}

// on declares a route with its handler and description.
func on[I, O any](method, path string, perm assess.Perm, handler func(context.Context, *I) (*O, error), doc huma.Operation) route {
	return route{Method: method, Path: path, Permission: perm, doc: doc,
		register: func(s *Server, op Op) { register(s, op, handler) }}
}

// HTTP methods, short for the table.
const (
	httpGet    = http.MethodGet
	httpPost   = http.MethodPost
	httpPatch  = http.MethodPatch
	httpDelete = http.MethodDelete
)

// The route table: every operation of the API, so that a URL leads to its handler in one
// hop. Handlers are named handle<Resource><Action>; their descriptions (doc…) stand beside
// them in the resource's file. A test checks that this table and the OpenAPI document
// list the same operations. The table is split by area, in this file only.
func (s *Server) routes() []route {
	return slices.Concat(s.accountRoutes(), s.identityRoutes(), s.deliveryRoutes(), s.platformRoutes(),
		s.standardRoutes(), s.transferRoutes(), s.entityRoutes(), s.projectRoutes(), s.tagRoutes(),
		s.assessmentRoutes(), s.resultRoutes(), s.evidenceRoutes(), s.attachmentRoutes(), s.claimRoutes(), s.workNoteRoutes(),
		s.attestationRoutes(), s.attestationImportRoutes(), s.insightRoutes())
}

// insightRoutes lists the score history of entities and the portfolio (insight.go).
func (s *Server) insightRoutes() []route {
	return []route{
		on(httpGet, "/api/v1/entities/{id}/score-history", assess.PermAssessmentsView, s.handleScoreHistory, docScoreHistory),
		on(httpGet, "/api/v1/portfolio", assess.PermAssessmentsView, s.handlePortfolio, docPortfolio),
	}
}

// accountRoutes lists users and roles (users.go, roles.go).
func (s *Server) accountRoutes() []route {
	return []route{
		on(httpGet, "/api/v1/users", assess.PermAdminUsers, s.handleUserList, docUserList),
		on(httpGet, "/api/v1/people", assess.PermAssessmentsView, s.handlePeopleList, docPeopleList),
		on(httpPost, "/api/v1/users", assess.PermAdminUsers, s.handleUserCreate, docUserCreate),
		on(httpGet, "/api/v1/users/{id}", assess.PermAdminUsers, s.handleUserGet, docUserGet),
		on(httpPatch, "/api/v1/users/{id}", assess.PermAdminUsers, s.handleUserUpdate, docUserUpdate),
		on(httpPost, "/api/v1/users/{id}/password", assess.PermAdminUsers, s.handleUserPasswordReset, docUserPasswordReset),
		on(httpGet, "/api/v1/permissions", assess.PermAuthenticated, s.handlePermissionList, docPermissionList),
		on(httpGet, "/api/v1/roles", assess.PermAuthenticated, s.handleRoleList, docRoleList),
		on(httpPost, "/api/v1/roles", assess.PermAdminRoles, s.handleRoleCreate, docRoleCreate),
		on(httpPatch, "/api/v1/roles/{id}", assess.PermAdminRoles, s.handleRoleUpdate, docRoleUpdate),
		on(httpDelete, "/api/v1/roles/{id}", assess.PermAdminRoles, s.handleRoleDelete, docRoleDelete),
	}
}

// identityRoutes lists setup, sign-in and sessions, profile, API keys, invites and registration, password reset and the audit log (identity.go, apikeys.go, invites.go, passwordreset.go, profile.go, audit.go, setup.go).
func (s *Server) identityRoutes() []route {
	return []route{
		on(httpGet, "/api/v1/setup/status", assess.PermPublic, s.handleSetupStatus, docSetupStatus),
		on(httpPost, "/api/v1/setup", assess.PermPublic, s.handleSetupComplete, docSetupComplete),
		on(httpPost, "/api/v1/auth/login", assess.PermPublic, s.handleAuthLogin, docAuthLogin),
		on(httpPost, "/api/v1/auth/logout", assess.PermAuthenticated, s.handleAuthLogout, docAuthLogout),
		on(httpGet, "/api/v1/auth/options", assess.PermPublic, s.handleAuthOptions, docAuthOptions),
		on(httpPost, "/api/v1/auth/register", assess.PermPublic, s.handleRegistrationCreate, docRegistrationCreate),
		on(httpPost, "/api/v1/auth/password-reset", assess.PermPublic, s.handlePasswordResetRequest, docPasswordResetRequest),
		on(httpPost, "/api/v1/auth/password-reset/confirm", assess.PermPublic, s.handlePasswordResetConfirm, docPasswordResetConfirm),
		on(httpGet, "/api/v1/auth/me", assess.PermAuthenticated, s.handleMeGet, docMeGet),
		on(httpPatch, "/api/v1/auth/me", assess.PermAuthenticated, s.handleMeUpdate, docMeUpdate),
		on(httpPost, "/api/v1/auth/password", assess.PermAuthenticated, s.handleMePasswordChange, docMePasswordChange),
		on(httpGet, "/api/v1/me/api-keys", assess.PermAuthenticated, s.handleMyAPIKeyList, docMyAPIKeyList),
		on(httpPost, "/api/v1/me/api-keys", assess.PermAuthenticated, s.handleMyAPIKeyCreate, docMyAPIKeyCreate),
		on(httpDelete, "/api/v1/me/api-keys/{id}", assess.PermAuthenticated, s.handleMyAPIKeyRevoke, docMyAPIKeyRevoke),
		on(httpGet, "/api/v1/users/{id}/api-keys", assess.PermAdminSettings, s.handleUserAPIKeyList, docUserAPIKeyList),
		on(httpPost, "/api/v1/users/{id}/api-keys", assess.PermAdminSettings, s.handleUserAPIKeyCreate, docUserAPIKeyCreate),
		on(httpDelete, "/api/v1/users/{id}/api-keys/{keyId}", assess.PermAdminSettings, s.handleUserAPIKeyRevoke, docUserAPIKeyRevoke),
		on(httpGet, "/api/v1/admin/invites", assess.PermAdminUsers, s.handleInviteList, docInviteList),
		on(httpPost, "/api/v1/admin/invites", assess.PermAdminUsers, s.handleInviteCreate, docInviteCreate),
		on(httpDelete, "/api/v1/admin/invites/{id}", assess.PermAdminUsers, s.handleInviteRevoke, docInviteRevoke),
		on(httpGet, "/api/v1/audit", assess.PermAdminAudit, s.handleAuditList, docAuditList),
		onStream(httpGet, "/api/v1/audit.csv", assess.PermAdminAudit, s.handleAuditCSV, docAuditCSV),
	}
}

// deliveryRoutes lists notifications, the event catalogue, rules, webhooks, chat, delivery logs and e-mail (notifications.go, events.go, rules.go, webhooks.go, chat.go, deliveries.go, email.go).
func (s *Server) deliveryRoutes() []route {
	return []route{
		on(httpGet, "/api/v1/notifications", assess.PermAuthenticated, s.handleNotificationList, docNotificationList),
		on(httpGet, "/api/v1/notifications/unread-count", assess.PermAuthenticated, s.handleNotificationUnreadCount, docNotificationUnreadCount),
		on(httpPost, "/api/v1/notifications/{id}/read", assess.PermAuthenticated, s.handleNotificationMarkRead, docNotificationMarkRead),
		on(httpPost, "/api/v1/notifications/read-all", assess.PermAuthenticated, s.handleNotificationMarkAllRead, docNotificationMarkAllRead),
		on(httpGet, "/api/v1/notification-channels", assess.PermAuthenticated, s.handleNotificationChannelsGet, docNotificationChannelsGet),
		on(httpGet, "/api/v1/events/types", assess.PermAuthenticated, s.handleEventTypeList, docEventTypeList),
		on(httpGet, "/api/v1/notification-rules", assess.PermAuthenticated, s.handleMyNotificationRuleList, docMyNotificationRuleList),
		on(httpPost, "/api/v1/notification-rules", assess.PermAuthenticated, s.handleMyNotificationRuleCreate, docMyNotificationRuleCreate),
		on(httpPatch, "/api/v1/notification-rules/{id}", assess.PermAuthenticated, s.handleMyNotificationRuleUpdate, docMyNotificationRuleUpdate),
		on(httpDelete, "/api/v1/notification-rules/{id}", assess.PermAuthenticated, s.handleMyNotificationRuleDelete, docMyNotificationRuleDelete),
		on(httpGet, "/api/v1/admin/notification-rules", assess.PermAdminNotificationRule, s.handleGlobalNotificationRuleList, docGlobalNotificationRuleList),
		on(httpPost, "/api/v1/admin/notification-rules", assess.PermAdminNotificationRule, s.handleGlobalNotificationRuleCreate, docGlobalNotificationRuleCreate),
		on(httpPatch, "/api/v1/admin/notification-rules/{id}", assess.PermAdminNotificationRule, s.handleGlobalNotificationRuleUpdate, docGlobalNotificationRuleUpdate),
		on(httpDelete, "/api/v1/admin/notification-rules/{id}", assess.PermAdminNotificationRule, s.handleGlobalNotificationRuleDelete, docGlobalNotificationRuleDelete),
		on(httpGet, "/api/v1/admin/webhooks", assess.PermAdminWebhooks, s.handleWebhookList, docWebhookList),
		on(httpPost, "/api/v1/admin/webhooks", assess.PermAdminWebhooks, s.handleWebhookCreate, docWebhookCreate),
		on(httpGet, "/api/v1/admin/webhooks/{id}", assess.PermAdminWebhooks, s.handleWebhookGet, docWebhookGet),
		on(httpPatch, "/api/v1/admin/webhooks/{id}", assess.PermAdminWebhooks, s.handleWebhookUpdate, docWebhookUpdate),
		on(httpDelete, "/api/v1/admin/webhooks/{id}", assess.PermAdminWebhooks, s.handleWebhookDelete, docWebhookDelete),
		on(httpPost, "/api/v1/admin/webhooks/{id}/rotate-secret", assess.PermAdminWebhooks, s.handleWebhookSecretRotate, docWebhookSecretRotate),
		on(httpPost, "/api/v1/admin/webhooks/{id}/test", assess.PermAdminWebhooks, s.handleWebhookTest, docWebhookTest),
		on(httpGet, "/api/v1/admin/webhooks/{id}/deliveries", assess.PermAdminWebhooks, s.handleWebhookDeliveryList, docWebhookDeliveryList),
		on(httpGet, "/api/v1/admin/webhooks/{id}/deliveries/{deliveryId}", assess.PermAdminWebhooks, s.handleWebhookDeliveryGet, docWebhookDeliveryGet),
		on(httpPost, "/api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver", assess.PermAdminWebhooks, s.handleWebhookDeliveryRedeliver, docWebhookDeliveryRedeliver),
		on(httpGet, "/api/v1/admin/chat-destinations", assess.PermAdminIntegrations, s.handleChatDestinationList, docChatDestinationList),
		on(httpPost, "/api/v1/admin/chat-destinations", assess.PermAdminIntegrations, s.handleChatDestinationCreate, docChatDestinationCreate),
		on(httpGet, "/api/v1/admin/chat-destinations/{id}", assess.PermAdminIntegrations, s.handleChatDestinationGet, docChatDestinationGet),
		on(httpPatch, "/api/v1/admin/chat-destinations/{id}", assess.PermAdminIntegrations, s.handleChatDestinationUpdate, docChatDestinationUpdate),
		on(httpDelete, "/api/v1/admin/chat-destinations/{id}", assess.PermAdminIntegrations, s.handleChatDestinationDelete, docChatDestinationDelete),
		on(httpPost, "/api/v1/admin/chat-destinations/{id}/test", assess.PermAdminIntegrations, s.handleChatDestinationTest, docChatDestinationTest),
		on(httpGet, "/api/v1/admin/chat-destinations/{id}/deliveries", assess.PermAdminIntegrations, s.handleChatDeliveryList, docChatDeliveryList),
		on(httpGet, "/api/v1/admin/chat-destinations/{id}/deliveries/{deliveryId}", assess.PermAdminIntegrations, s.handleChatDeliveryGet, docChatDeliveryGet),
		on(httpPost, "/api/v1/admin/chat-destinations/{id}/deliveries/{deliveryId}/redeliver", assess.PermAdminIntegrations, s.handleChatDeliveryRedeliver, docChatDeliveryRedeliver),
		on(httpGet, "/api/v1/admin/email/settings", assess.PermAdminIntegrations, s.handleEmailSettingsGet, docEmailSettingsGet),
		on(httpPatch, "/api/v1/admin/email/settings", assess.PermAdminIntegrations, s.handleEmailSettingsUpdate, docEmailSettingsUpdate),
		on(httpPost, "/api/v1/admin/email/test", assess.PermAdminIntegrations, s.handleEmailTestSend, docEmailTestSend),
		on(httpGet, "/api/v1/admin/email/deliveries", assess.PermAdminIntegrations, s.handleEmailDeliveryList, docEmailDeliveryList),
		on(httpGet, "/api/v1/admin/email/deliveries/{deliveryId}", assess.PermAdminIntegrations, s.handleEmailDeliveryGet, docEmailDeliveryGet),
		on(httpPost, "/api/v1/admin/email/deliveries/{deliveryId}/redeliver", assess.PermAdminIntegrations, s.handleEmailDeliveryRedeliver, docEmailDeliveryRedeliver),
	}
}

// platformRoutes lists health (a plain handler mounted before the setup gate and the rate limiter, described here) and encryption (health.go, encryption.go).
func (s *Server) platformRoutes() []route {
	return []route{
		onHealth(httpGet, "/api/health", assess.PermPublic, s.handleHealth, docHealth),
		on(httpGet, "/api/v1/admin/encryption/status", assess.PermAdminEncryption, s.handleEncryptionStatus, docEncryptionStatus),
		on(httpPost, "/api/v1/admin/encryption/rotate", assess.PermAdminEncryption, s.handleEncryptionRotate, docEncryptionRotate),
	}
}

// standardRoutes lists standards, requirements, levels and their lifecycle (standards.go, requirements.go, levels.go).
func (s *Server) standardRoutes() []route {
	const st, rq, lv = "/api/v1/standards/{id}", "/api/v1/standards/{id}/requirements", "/api/v1/standards/{id}/levels"
	return []route{
		on(httpGet, "/api/v1/standards", assess.PermStandardsView, s.handleStandardList, docStandardList),
		onStream(httpGet, "/api/v1/standards.csv", assess.PermStandardsView, s.handleStandardCSV, docStandardCSV),
		on(httpPost, "/api/v1/standards", assess.PermStandardsCreate, s.handleStandardCreate, docStandardCreate),
		on(httpGet, st, assess.PermStandardsView, s.handleStandardGet, docStandardGet),
		on(httpPatch, st, assess.PermStandardsEdit, s.handleStandardUpdate, docStandardUpdate),
		on(httpDelete, st, assess.PermStandardsApprove, s.handleStandardDelete, docStandardDelete),
		on(httpGet, st+"/versions", assess.PermStandardsView, s.handleStandardVersions, docStandardVersions),
		on(httpPost, st+"/submit", assess.PermStandardsSubmit, s.handleStandardSubmit, docStandardSubmit),
		on(httpPost, st+"/approve", assess.PermStandardsApprove, s.handleStandardApprove, docStandardApprove),
		on(httpPost, st+"/reject", assess.PermStandardsApprove, s.handleStandardReject, docStandardReject),
		on(httpPost, st+"/retire", assess.PermStandardsApprove, s.handleStandardRetire, docStandardRetire),
		on(httpPost, st+"/duplicate", assess.PermStandardsDuplicate, s.handleStandardDuplicate, docStandardDuplicate),
		onConditional[assess.StandardTree](httpGet, st+"/tree", assess.PermStandardsView, s.handleStandardTree, docStandardTree),
		onConditional[assess.Page[assess.Requirement]](httpGet, rq, assess.PermStandardsView, s.handleRequirementList, docRequirementList),
		on(httpPost, rq, assess.PermStandardsEdit, s.handleRequirementCreate, docRequirementCreate),
		on(httpPost, rq+"/bulk", assess.PermStandardsEdit, s.handleRequirementBulk, docRequirementBulk),
		onConditional[assess.Requirement](httpGet, rq+"/{requirementId}", assess.PermStandardsView, s.handleRequirementGet, docRequirementGet),
		on(httpPatch, rq+"/{requirementId}", assess.PermStandardsEdit, s.handleRequirementUpdate, docRequirementUpdate),
		on(httpDelete, rq+"/{requirementId}", assess.PermStandardsEdit, s.handleRequirementDelete, docRequirementDelete),
		on(httpPost, rq+"/{requirementId}/move", assess.PermStandardsEdit, s.handleRequirementMove, docRequirementMove),
		onConditional[assess.Page[assess.Level]](httpGet, lv, assess.PermStandardsView, s.handleLevelList, docLevelList),
		on(httpPost, lv, assess.PermStandardsEdit, s.handleLevelCreate, docLevelCreate),
		on(httpPatch, lv+"/{levelId}", assess.PermStandardsEdit, s.handleLevelUpdate, docLevelUpdate),
		on(httpDelete, lv+"/{levelId}", assess.PermStandardsEdit, s.handleLevelDelete, docLevelDelete),
	}
}

// transferRoutes lists CycloneDX and CSV import and export and the standards feed (transfer.go, transfer_csv.go, transfer_feed.go).
func (s *Server) transferRoutes() []route {
	return []route{
		onUpload(httpPost, "/api/v1/standards/import", assess.PermStandardsImport, s.handleStandardImport, docStandardImport),
		on(httpPost, "/api/v1/standards/import-url", assess.PermStandardsImport, s.handleStandardImportURL, docStandardImportURL),
		on(httpGet, "/api/v1/standards/{id}/export", assess.PermStandardsView, s.handleStandardExport, docStandardExport),
		on(httpGet, "/api/v1/standards/{id}/export.csv", assess.PermStandardsView, s.handleStandardExportCSV, docStandardExportCSV),
		onUpload(httpPost, "/api/v1/standards/{id}/import-csv", assess.PermStandardsEdit, s.handleStandardImportCSV, docStandardImportCSV),
		on(httpGet, "/api/v1/standards/feed", assess.PermStandardsImport, s.handleStandardFeed, docStandardFeed),
		on(httpPost, "/api/v1/standards/feed/import", assess.PermStandardsImport, s.handleStandardFeedImport, docStandardFeedImport),
		on(httpPost, "/api/v1/standards/starter", assess.PermStandardsImport, s.handleStandardStarter, docStandardStarter),
	}
}

// entityRoutes lists entities, their relationship graph and compliance policies (entities.go).
func (s *Server) entityRoutes() []route {
	return []route{
		on(httpGet, "/api/v1/entities", assess.PermEntitiesView, s.handleEntityList, docEntityList),
		onStream(httpGet, "/api/v1/entities.csv", assess.PermEntitiesView, s.handleEntityCSV, docEntityCSV),
		on(httpPost, "/api/v1/entities", assess.PermEntitiesCreate, s.handleEntityCreate, docEntityCreate),
		on(httpGet, "/api/v1/entities/graph", assess.PermEntitiesView, s.handleEntityWholeGraph, docEntityWholeGraph),
		on(httpGet, "/api/v1/entities/{id}", assess.PermEntitiesView, s.handleEntityGet, docEntityGet),
		on(httpPatch, "/api/v1/entities/{id}", assess.PermEntitiesEdit, s.handleEntityUpdate, docEntityUpdate),
		on(httpDelete, "/api/v1/entities/{id}", assess.PermEntitiesDelete, s.handleEntityDelete, docEntityDelete),
		on(httpGet, "/api/v1/entities/{id}/relationships", assess.PermEntitiesView, s.handleEntityRelationshipList, docEntityRelationshipList),
		on(httpPost, "/api/v1/entities/{id}/relationships", assess.PermEntitiesEdit, s.handleEntityRelationshipAdd, docEntityRelationshipAdd),
		on(httpDelete, "/api/v1/entities/{id}/relationships/{relationshipId}", assess.PermEntitiesEdit, s.handleEntityRelationshipRemove, docEntityRelationshipRemove),
		on(httpGet, "/api/v1/entities/{id}/graph", assess.PermEntitiesView, s.handleEntityGraph, docEntityGraph),
		on(httpGet, "/api/v1/entities/{id}/policies", assess.PermEntitiesView, s.handleEntityPolicyList, docEntityPolicyList),
		on(httpPost, "/api/v1/entities/{id}/policies", assess.PermEntitiesEdit, s.handleEntityPolicyAdd, docEntityPolicyAdd),
		on(httpPatch, "/api/v1/entities/{id}/policies/{policyId}", assess.PermEntitiesEdit, s.handleEntityPolicyUpdate, docEntityPolicyUpdate),
		on(httpDelete, "/api/v1/entities/{id}/policies/{policyId}", assess.PermEntitiesEdit, s.handleEntityPolicyRemove, docEntityPolicyRemove),
	}
}

// projectRoutes lists projects and their figures (projects.go), and the demo data (demo.go).
func (s *Server) projectRoutes() []route {
	return []route{
		on(httpGet, "/api/v1/projects", assess.PermProjectsView, s.handleProjectList, docProjectList),
		onStream(httpGet, "/api/v1/projects.csv", assess.PermProjectsView, s.handleProjectCSV, docProjectCSV),
		on(httpPost, "/api/v1/projects", assess.PermProjectsCreate, s.handleProjectCreate, docProjectCreate),
		on(httpGet, "/api/v1/projects/{id}", assess.PermProjectsView, s.handleProjectGet, docProjectGet),
		on(httpPatch, "/api/v1/projects/{id}", assess.PermProjectsEdit, s.handleProjectUpdate, docProjectUpdate),
		on(httpDelete, "/api/v1/projects/{id}", assess.PermProjectsDelete, s.handleProjectDelete, docProjectDelete),
		on(httpPost, "/api/v1/projects/{id}/state", assess.PermProjectsEdit, s.handleProjectStateChange, docProjectStateChange),
		on(httpPost, "/api/v1/projects/{id}/archive", assess.PermProjectsEdit, s.handleProjectArchive, docProjectArchive),
		on(httpGet, "/api/v1/projects/{id}/figures", assess.PermProjectsView, s.handleProjectFigures, docProjectFigures),
		on(httpPost, "/api/v1/admin/demo-data", assess.PermAdminSettings, s.handleDemoDataLoad, docDemoDataLoad),
	}
}

// tagRoutes lists tags (tags.go).
func (s *Server) tagRoutes() []route {
	return []route{
		on(httpGet, "/api/v1/tags", assess.PermAuthenticated, s.handleTagList, docTagList),
		on(httpPost, "/api/v1/tags", assess.PermAdminTags, s.handleTagCreate, docTagCreate),
		on(httpPatch, "/api/v1/tags/{id}", assess.PermAdminTags, s.handleTagUpdate, docTagUpdate),
		on(httpDelete, "/api/v1/tags/{id}", assess.PermAdminTags, s.handleTagDelete, docTagDelete),
	}
}

// assessmentRoutes lists assessments, their team and state changes (assessments.go).
func (s *Server) assessmentRoutes() []route {
	const as = "/api/v1/assessments/{id}"
	return []route{
		on(httpGet, "/api/v1/assessments", assess.PermAssessmentsView, s.handleAssessmentList, docAssessmentList),
		onStream(httpGet, "/api/v1/assessments.csv", assess.PermAssessmentsView, s.handleAssessmentCSV, docAssessmentCSV),
		on(httpPost, "/api/v1/assessments", assess.PermAssessmentsCreate, s.handleAssessmentCreate, docAssessmentCreate),
		on(httpGet, as, assess.PermAssessmentsView, s.handleAssessmentGet, docAssessmentGet),
		on(httpPatch, as, assess.PermAssessmentsEdit, s.handleAssessmentUpdate, docAssessmentUpdate),
		on(httpDelete, as, assess.PermAssessmentsManage, s.handleAssessmentDelete, docAssessmentDelete),
		on(http.MethodPut, as+"/team", assess.PermAssessmentsManage, s.handleAssessmentTeam, docAssessmentTeam),
		on(httpPost, as+"/transition", assess.PermAssessmentsManage, s.handleAssessmentTransition, docAssessmentTransition),
		on(httpPost, as+"/start", assess.PermAssessmentsManage, s.handleAssessmentStart, docAssessmentStart),
		on(httpGet, as+"/completion-check", assess.PermAssessmentsView, s.handleAssessmentCompletionCheck, docAssessmentCompletionCheck),
		on(httpPost, as+"/complete", assess.PermAssessmentsManage, s.handleAssessmentComplete, docAssessmentComplete),
		on(httpPost, as+"/reopen", assess.PermAssessmentsManage, s.handleAssessmentReopen, docAssessmentReopen),
		on(httpPost, as+"/archive", assess.PermAssessmentsManage, s.handleAssessmentArchive, docAssessmentArchive),
		on(httpPost, as+"/cancel", assess.PermAssessmentsManage, s.handleAssessmentCancel, docAssessmentCancel),
		on(httpGet, as+"/report.pdf", assess.PermExportPDF, s.handleAssessmentReport, docAssessmentReport),
	}
}

// resultRoutes lists the requirements and results of assessments (results.go).
func (s *Server) resultRoutes() []route {
	return []route{
		onConditional[AssessmentRequirementList](httpGet, "/api/v1/assessments/{id}/requirements", assess.PermAssessmentsView, s.handleResultList, docResultList),
		on(httpGet, "/api/v1/assessments/{id}/requirements/{arId}", assess.PermAssessmentsView, s.handleResultGet, docResultGet),
		on(http.MethodPut, "/api/v1/assessments/{id}/requirements/{arId}", assess.PermAssessmentsEdit, s.handleResultUpdate, docResultUpdate),
		on(httpPost, "/api/v1/assessments/{id}/requirements/bulk", assess.PermAssessmentsEdit, s.handleResultBulk, docResultBulk),
	}
}

// evidenceRoutes lists evidence, its review, notes and links (evidence.go).
func (s *Server) evidenceRoutes() []route {
	const ev = "/api/v1/evidence/{id}"
	return []route{
		on(httpGet, "/api/v1/evidence", assess.PermEvidenceView, s.handleEvidenceList, docEvidenceList),
		onStream(httpGet, "/api/v1/evidence.csv", assess.PermEvidenceView, s.handleEvidenceCSV, docEvidenceCSV),
		on(httpPost, "/api/v1/evidence", assess.PermEvidenceCreate, s.handleEvidenceCreate, docEvidenceCreate),
		on(httpGet, ev, assess.PermEvidenceView, s.handleEvidenceGet, docEvidenceGet),
		on(httpPatch, ev, assess.PermEvidenceEdit, s.handleEvidenceUpdate, docEvidenceUpdate),
		on(httpDelete, ev, assess.PermEvidenceDelete, s.handleEvidenceDelete, docEvidenceDelete),
		on(httpPost, ev+"/submit", assess.PermEvidenceSubmit, s.handleEvidenceSubmit, docEvidenceSubmit),
		on(httpPost, ev+"/approve", assess.PermEvidenceReview, s.handleEvidenceApprove, docEvidenceApprove),
		on(httpPost, ev+"/reject", assess.PermEvidenceReview, s.handleEvidenceReject, docEvidenceReject),
		on(httpGet, ev+"/notes", assess.PermEvidenceView, s.handleEvidenceNoteList, docEvidenceNoteList),
		on(httpPost, ev+"/notes", assess.PermEvidenceEdit, s.handleEvidenceNoteCreate, docEvidenceNoteCreate),
		on(httpGet, ev+"/links", assess.PermEvidenceView, s.handleEvidenceLinkList, docEvidenceLinkList),
		on(httpPost, ev+"/links", assess.PermEvidenceEdit, s.handleEvidenceLinkCreate, docEvidenceLinkCreate),
		on(httpDelete, ev+"/links/{arId}", assess.PermEvidenceEdit, s.handleEvidenceLinkDelete, docEvidenceLinkDelete),
		on(httpGet, ev+"/claims", assess.PermEvidenceView, s.handleEvidenceClaimList, docEvidenceClaimList),
	}
}

// attachmentRoutes lists the files of evidence (attachments.go).
func (s *Server) attachmentRoutes() []route {
	const files, file = "/api/v1/evidence/{id}/attachments", "/api/v1/evidence/{id}/attachments/{attId}"
	return []route{
		onUpload(httpPost, files, assess.PermEvidenceCreate, s.handleAttachmentUpload, docAttachmentUpload),
		on(httpGet, files, assess.PermEvidenceView, s.handleAttachmentList, docAttachmentList),
		on(httpGet, file, assess.PermEvidenceView, s.handleAttachmentGet, docAttachmentGet),
		on(httpGet, file+"/content", assess.PermEvidenceView, s.handleAttachmentDownload, docAttachmentDownload),
		on(httpDelete, file, assess.PermEvidenceDelete, s.handleAttachmentDelete, docAttachmentDelete),
	}
}

// claimRoutes lists claims (claims.go).
func (s *Server) claimRoutes() []route {
	return []route{
		on(httpGet, "/api/v1/assessments/{id}/claims", assess.PermClaimsView, s.handleClaimList, docClaimList),
		on(httpPost, "/api/v1/assessments/{id}/claims", assess.PermClaimsCreate, s.handleClaimCreate, docClaimCreate),
		on(httpGet, "/api/v1/claims/{id}", assess.PermClaimsView, s.handleClaimGet, docClaimGet),
		on(httpPatch, "/api/v1/claims/{id}", assess.PermClaimsEdit, s.handleClaimUpdate, docClaimUpdate),
		on(httpDelete, "/api/v1/claims/{id}", assess.PermClaimsEdit, s.handleClaimDelete, docClaimDelete),
	}
}

// attestationImportRoutes lists the import of attestation documents made elsewhere
// (attestation_imports.go).
func (s *Server) attestationImportRoutes() []route {
	return []route{
		withUploadFields(onUpload(httpPost, "/api/v1/attestation-imports", assess.PermAdminImport, s.handleAttestationImport, docAttestationImport),
			map[string]*huma.Schema{"jwks": {Type: huma.TypeString, Description: "The issuer's public keys (a JWKS document as text), before the file part"}}),
		on(httpPost, "/api/v1/attestation-imports/url", assess.PermAdminImport, s.handleAttestationImportURL, docAttestationImportURL),
		on(httpGet, "/api/v1/attestation-imports", assess.PermAdminImport, s.handleAttestationImportList, docAttestationImportList),
		on(httpGet, "/api/v1/attestation-imports/{id}", assess.PermAdminImport, s.handleAttestationImportGet, docAttestationImportGet),
		on(httpGet, "/api/v1/attestation-imports/{id}/document", assess.PermAdminImport, s.handleAttestationImportDocument, docAttestationImportDocument),
	}
}

// attestationRoutes lists attestations, their signing and verification, assessors and
// the platform keys (attestations.go).
func (s *Server) attestationRoutes() []route {
	const one, slot = "/api/v1/attestations/{id}", "/api/v1/attestations/{id}/signatories/{slotId}"
	return []route{
		on(httpGet, "/api/v1/dashboard", assess.PermAuthenticated, s.handleDashboard, docDashboard),
		on(httpGet, "/api/v1/me/dashboard-layout", assess.PermAuthenticated, s.handleDashboardLayoutGet, docDashboardLayoutGet),
		on(http.MethodPut, "/api/v1/me/dashboard-layout", assess.PermAuthenticated, s.handleDashboardLayoutSave, docDashboardLayoutSave),
		on(httpDelete, "/api/v1/me/dashboard-layout", assess.PermAuthenticated, s.handleDashboardLayoutReset, docDashboardLayoutReset),
		on(httpGet, "/api/v1/search", assess.PermAuthenticated, s.handleSearch, docSearch),
		on(httpGet, "/api/v1/attestations", assess.PermAttestationsView, s.handleAttestationList, docAttestationList),
		onStream(httpGet, "/api/v1/attestations.csv", assess.PermAttestationsView, s.handleAttestationCSV, docAttestationCSV),
		on(httpPost, "/api/v1/attestations", assess.PermAttestationsCreate, s.handleAttestationCreate, docAttestationCreate),
		onUpload(httpPost, "/api/v1/attestations/verify", assess.PermAttestationsView, s.handleDocumentVerify, docDocumentVerify),
		on(httpGet, one, assess.PermAttestationsView, s.handleAttestationGet, docAttestationGet),
		on(httpPatch, one, assess.PermAttestationsEdit, s.handleAttestationUpdate, docAttestationUpdate),
		on(httpDelete, one, assess.PermAttestationsEdit, s.handleAttestationDelete, docAttestationDelete),
		on(httpGet, one+"/requirements", assess.PermAttestationsView, s.handleAttestationMap, docAttestationMap),
		on(httpPost, one+"/requirements/bulk", assess.PermAttestationsEdit, s.handleAttestationMapChange, docAttestationMapChange),
		on(httpPost, one+"/signatories", assess.PermAffirmationsManage, s.handleSignatoryAdd, docSignatoryAdd),
		on(httpDelete, slot, assess.PermAffirmationsManage, s.handleSignatoryRemove, docSignatoryRemove),
		on(httpPost, slot+"/sign", assess.PermSignaturesSign, s.handleAttestationSign, docAttestationSign),
		on(httpPost, one+"/freeze", assess.PermSignaturesSign, s.handleAttestationFreeze, docAttestationFreeze),
		on(httpPost, one+"/seal", assess.PermAffirmationsManage, s.handleAttestationSeal, docAttestationSeal),
		on(httpPost, one+"/rescind", assess.PermAffirmationsManage, s.handleAttestationRescind, docAttestationRescind),
		on(httpGet, one+"/export", assess.PermAttestationsExport, s.handleAttestationExport, docAttestationExport),
		on(httpGet, one+"/bundle", assess.PermAttestationsExport, s.handleAttestationBundle, docAttestationBundle),
		on(httpGet, one+"/report.pdf", assess.PermExportPDF, s.handleAttestationReport, docAttestationReport),
		on(httpPost, one+"/verify", assess.PermAttestationsView, s.handleAttestationVerify, docAttestationVerify),
		on(httpGet, "/api/v1/assessments/{id}/attestations/export", assess.PermExportCycloneDX, s.handleSealedExport, docSealedExport),
		on(httpGet, "/api/v1/projects/{id}/attestations/export", assess.PermExportCycloneDX, s.handleSealedExport, docSealedExport2),
		on(httpGet, "/api/v1/me/signing-keys", assess.PermSignaturesManage, s.handleSigningKeyList, docSigningKeyList),
		on(httpPost, "/api/v1/me/signing-keys", assess.PermSignaturesManage, s.handleSigningKeyAdd, docSigningKeyAdd),
		on(httpDelete, "/api/v1/me/signing-keys/{id}", assess.PermSignaturesManage, s.handleSigningKeyDelete, docSigningKeyDelete),
		on(httpPost, "/api/v1/me/signing-keys/generate", assess.PermSignaturesManage, s.handleHeldSigningKeyGenerate, docHeldSigningKeyGenerate),
		on(httpPost, "/api/v1/me/signing-keys/{id}/revoke", assess.PermSignaturesManage, s.handleSigningKeyRevoke, docSigningKeyRevoke),
		on(httpGet, "/api/v1/me/signature-image", assess.PermSignaturesManage, s.handleSignatureImageGet, docSignatureImageGet),
		on(http.MethodPut, "/api/v1/me/signature-image", assess.PermSignaturesManage, s.handleSignatureImageSet, docSignatureImageSet),
		on(httpDelete, "/api/v1/me/signature-image", assess.PermSignaturesManage, s.handleSignatureImageDelete, docSignatureImageDelete),
		on(httpGet, "/api/v1/assessors", assess.PermAttestationsView, s.handleAssessorList, docAssessorList),
		on(httpPost, "/api/v1/assessors", assess.PermAttestationsEdit, s.handleAssessorCreate, docAssessorCreate),
		on(httpPatch, "/api/v1/assessors/{id}", assess.PermAttestationsEdit, s.handleAssessorUpdate, docAssessorUpdate),
		on(httpDelete, "/api/v1/assessors/{id}", assess.PermAttestationsEdit, s.handleAssessorDelete, docAssessorDelete),
		on(httpGet, "/api/v1/platform-keys/jwks.json", assess.PermPublic, s.handlePublicKeySet, docPublicKeySet),
		on(httpGet, "/api/v1/rescissions", assess.PermPublic, s.handleRescissions, docRescissions),
		on(httpGet, "/api/v1/admin/platform-keys", assess.PermPlatformKeysRotate, s.handlePlatformKeyList, docPlatformKeyList),
		on(httpPost, "/api/v1/admin/platform-keys/rotate", assess.PermPlatformKeysRotate, s.handlePlatformKeyRotate, docPlatformKeyRotate),
	}
}

// workNoteRoutes lists work notes, mentionable users and assessment timelines (worknotes.go).
func (s *Server) workNoteRoutes() []route {
	const notes = "/api/v1/assessments/{id}/notes"
	return []route{
		on(httpGet, notes, assess.PermAssessmentsView, s.handleWorkNoteList, docWorkNoteList),
		on(httpPost, notes, assess.PermAssessmentsNotes, s.handleWorkNoteCreate, docWorkNoteCreate),
		on(httpPatch, notes+"/{noteId}", assess.PermAssessmentsNotes, s.handleWorkNoteUpdate, docWorkNoteUpdate),
		on(httpDelete, notes+"/{noteId}", assess.PermAssessmentsNotes, s.handleWorkNoteDelete, docWorkNoteDelete),
		on(httpGet, "/api/v1/assessments/{id}/mentionable", assess.PermAssessmentsView, s.handleMentionableList, docMentionableList),
		on(httpGet, "/api/v1/assessments/{id}/timeline", assess.PermAssessmentsView, s.handleTimelineList, docTimelineList),
	}
}

// onHealth lists the health probe: a plain net/http handler that New mounts outside the API
// group; the table only describes it in the document (describeHealth).
func onHealth(method, path string, perm assess.Perm, _ http.HandlerFunc, doc huma.Operation) route {
	return route{Method: method, Path: path, Permission: perm, doc: doc,
		register: func(s *Server, op Op) { s.describeHealth(op.Operation) }}
}

// registerRoutes registers every route of the table.
func (s *Server) registerRoutes() {
	for _, r := range s.routes() {
		s.registerRoute(r)
	}
}

// cloneResponses copies a declared operation's responses: the declarations are package
// values shared by every server, and huma fills in the responses as it registers (several
// servers start at once in tests, and would write to one map).
func cloneResponses(in map[string]*huma.Response) map[string]*huma.Response {
	if in == nil {
		return nil
	}
	out := make(map[string]*huma.Response, len(in))
	for status, r := range in {
		c := *r
		c.Headers = maps.Clone(r.Headers)
		if r.Content != nil {
			c.Content = make(map[string]*huma.MediaType, len(r.Content))
			for typ, m := range r.Content {
				mc := *m
				c.Content[typ] = &mc
			}
		}
		out[status] = &c
	}
	return out
}

// registerRoute registers one route; an upload's multipart body is added to its entry in
// the document afterwards, so that huma never reads the body itself.
func (s *Server) registerRoute(r route) {
	op := r.doc
	op.Method, op.Path = r.Method, r.Path
	op.Responses = cloneResponses(op.Responses)
	r.register(s, Op{Permission: r.Permission, Operation: op})
	if r.stream {
		s.streams.add(r.Method, r.Path)
	}
	if r.upload {
		s.uploads.add(r.Method, r.Path)
		item := s.API.OpenAPI().Paths[r.Path]
		for _, o := range []*huma.Operation{item.Post, item.Put} {
			if o != nil && o.OperationID == op.OperationID {
				o.RequestBody = uploadRequestBody(r.doc.Description, r.uploadFields)
			}
		}
	}
}
