package assess

// AuditAction names a kind of row in the audit log: <area>.<verb>. Every action is declared
// once, in a Change below (or as an encryption action in audit.go).
type AuditAction string

// Change is one entry of the change catalogue: the audit action a change records and, when
// the change is announced, the event type emitted with it in the same transaction. Stores
// record a change with one call (the postgres Tx.Record), so the audit row and the event
// cannot drift apart.
type Change struct {
	Action AuditAction
	Event  EventName // "" when the change is audited but not announced
}

// The change catalogue of the identity and channel features.
var (
	ChangeSetupCompleted            = Change{"setup.completed", EventUserCreated}
	ChangeUserCreated               = Change{"user.created", EventUserCreated}
	ChangeUserRegistered            = Change{"user.registered", EventUserCreated}
	ChangeUserUpdated               = Change{"user.updated", ""} // events follow what changed: see UserChangeEvents
	ChangeUserPasswordReset         = Change{"user.password_reset", ""}
	ChangeUserPasswordResetByEmail  = Change{"user.password_reset_confirmed", ""}
	ChangeUserPasswordChanged       = Change{"user.password_changed", ""}
	ChangeUserRegistrationDuplicate = Change{"user.registration_duplicate", ""}
	ChangeAuthLogin                 = Change{"auth.login", ""}
	ChangeAuthLoginFailed           = Change{"auth.login_failed", ""}
	ChangeAuthLockout               = Change{"auth.lockout", EventUserLocked}
	ChangeAuthLogout                = Change{"auth.logout", ""}
	ChangeAuthPermissionDenied      = Change{"auth.permission_denied", ""}
	ChangeAuthPasswordResetAsked    = Change{"auth.password_reset_requested", ""}
	ChangeAPIKeyCreated             = Change{"apikey.created", EventAPIKeyCreated}
	ChangeAPIKeyRevoked             = Change{"apikey.revoked", EventAPIKeyRevoked}
	ChangeInviteCreated             = Change{"invite.created", EventInviteCreated}
	ChangeInviteRevoked             = Change{"invite.revoked", EventInviteRevoked}
	ChangeRoleCreated               = Change{"role.created", EventRoleCreated}
	ChangeRoleUpdated               = Change{"role.updated", EventRoleUpdated}
	ChangeRoleDeleted               = Change{"role.deleted", EventRoleDeleted}
	ChangeRegistrationModeChanged   = Change{"config.registration_mode_changed", ""}
	ChangeWebhookCreated            = Change{"webhook.created", EventWebhookCreated}
	ChangeWebhookUpdated            = Change{"webhook.updated", EventWebhookUpdated}
	ChangeWebhookSecretRotated      = Change{"webhook.secret_rotated", EventWebhookUpdated}
	ChangeWebhookDeleted            = Change{"webhook.deleted", EventWebhookDeleted}
	ChangeWebhookDisabled           = Change{"webhook.disabled", EventWebhookDisabled}
	ChangeWebhookTested             = Change{"webhook.tested", ""} // the test event is delivered to the one destination only
	ChangeChatCreated               = Change{"chat.created", EventChatCreated}
	ChangeChatUpdated               = Change{"chat.updated", EventChatUpdated}
	ChangeChatDeleted               = Change{"chat.deleted", EventChatDeleted}
	ChangeChatDisabled              = Change{"chat.disabled", EventChatDisabled}
	ChangeChatTested                = Change{"chat.tested", ""}
	ChangeRuleCreated               = Change{"notification_rule.created", ""}
	ChangeRuleUpdated               = Change{"notification_rule.updated", ""}
	ChangeRuleDeleted               = Change{"notification_rule.deleted", ""}
	ChangeEmailSettingsUpdated      = Change{"email.settings_updated", ""}
	ChangeEmailTestSent             = Change{"email.test_sent", ""}
	ChangeDeliveryRedelivered       = Change{"delivery.redelivered", ""}
	ChangeKeyUnavailable            = Change{AuditKeyUnavailable, ""}
	ChangeKEKCreated                = Change{AuditKEKCreated, ""}
	ChangeKEKRotated                = Change{AuditKEKRotated, ""}
	ChangeMasterRekeyed             = Change{AuditMasterRekeyed, ""}
	ChangeSecretsMigrated           = Change{AuditSecretsMigrated, ""}
)

// The change catalogue of entities, their relationships and compliance policies.
var (
	ChangeEntityCreated             = Change{"entity.created", EventEntityCreated}
	ChangeEntityUpdated             = Change{"entity.updated", EventEntityUpdated}
	ChangeEntityDeleted             = Change{"entity.deleted", EventEntityDeleted}
	ChangeEntityRelationshipAdded   = Change{"entity.relationship_added", EventEntityRelationshipAdded}
	ChangeEntityRelationshipRemoved = Change{"entity.relationship_removed", EventEntityRelationshipRemoved}
	ChangeEntityPolicyAdded         = Change{"entity.policy_added", EventEntityPolicyAdded}
	ChangeEntityPolicyUpdated       = Change{"entity.policy_updated", EventEntityPolicyUpdated}
	ChangeEntityPolicyRemoved       = Change{"entity.policy_removed", EventEntityPolicyRemoved}
)

// The change catalogue of standards, requirements and levels: every content change of a
// draft announces standard.updated, once per request.
var (
	ChangeStandardCreated    = Change{"standard.created", EventStandardCreated}
	ChangeStandardDuplicated = Change{"standard.duplicated", EventStandardCreated}
	ChangeStandardUpdated    = Change{"standard.updated", EventStandardUpdated}
	ChangeStandardSubmitted  = Change{"standard.submitted", EventStandardSubmitted}
	ChangeStandardApproved   = Change{"standard.approved", EventStandardApproved}
	ChangeStandardRejected   = Change{"standard.rejected", EventStandardRejected}
	ChangeStandardRetired    = Change{"standard.retired", EventStandardRetired}
	ChangeStandardDeleted    = Change{"standard.deleted", EventStandardDeleted}
	ChangeRequirementCreated = Change{"requirement.created", EventStandardUpdated}
	ChangeRequirementUpdated = Change{"requirement.updated", EventStandardUpdated}
	ChangeRequirementMoved   = Change{"requirement.moved", EventStandardUpdated}
	ChangeRequirementDeleted = Change{"requirement.deleted", EventStandardUpdated}
	ChangeRequirementsBulk   = Change{"requirement.bulk_written", EventStandardUpdated}
	ChangeLevelCreated       = Change{"level.created", EventStandardUpdated}
	ChangeLevelUpdated       = Change{"level.updated", EventStandardUpdated}
	ChangeLevelDeleted       = Change{"level.deleted", EventStandardUpdated}
)

// The change catalogue of projects, tags and the demo data. Tags are administrators'
// configuration: audited, not announced (the records they label announce their own changes).
var (
	ChangeProjectCreated      = Change{"project.created", EventProjectCreated}
	ChangeProjectUpdated      = Change{"project.updated", EventProjectUpdated}
	ChangeProjectStateChanged = Change{"project.state_changed", EventProjectStateChanged}
	ChangeProjectArchived     = Change{"project.archived", EventProjectArchived}
	ChangeProjectRestored     = Change{"project.restored", EventProjectUpdated}
	ChangeProjectDeleted      = Change{"project.deleted", EventProjectDeleted}
	ChangeTagCreated          = Change{"tag.created", ""}
	ChangeTagUpdated          = Change{"tag.updated", ""}
	ChangeTagDeleted          = Change{"tag.deleted", ""}
	ChangeDemoDataLoaded      = Change{"demo_data.loaded", ""}
)

// The change catalogue of standard transfers (CycloneDX and CSV imports).
var (
	ChangeStandardImported    = Change{"standard.imported", EventStandardImported}
	ChangeStandardCSVImported = Change{"standard.csv_imported", ""} // requirements upserted into a draft from CSV
)
