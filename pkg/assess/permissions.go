package assess

import "slices"

// Perm is a permission key: <resource>.<action>. Every key is declared once below, with
// its description and category in Permissions; operations, object-level rules, built-in
// roles and the event catalogue name these constants, never a bare string.
type Perm string

// PermPublic marks an operation that needs no credential at all (health, setup status,
// sign-in). It is the value of x-required-permission for such operations.
const PermPublic Perm = "public"

// PermAuthenticated marks an operation any signed-in caller may use (for example reading
// their own profile): a credential is required but no permission key.
const PermAuthenticated Perm = "authenticated"

// The permission keys of the catalogue.
const (
	PermProjectsView          Perm = "projects.view"
	PermProjectsCreate        Perm = "projects.create"
	PermProjectsEdit          Perm = "projects.edit"
	PermProjectsDelete        Perm = "projects.delete"
	PermStandardsView         Perm = "standards.view"
	PermStandardsImport       Perm = "standards.import"
	PermStandardsCreate       Perm = "standards.create"
	PermStandardsEdit         Perm = "standards.edit"
	PermStandardsSubmit       Perm = "standards.submit"
	PermStandardsApprove      Perm = "standards.approve"
	PermStandardsDuplicate    Perm = "standards.duplicate"
	PermEntitiesView          Perm = "entities.view"
	PermEntitiesCreate        Perm = "entities.create"
	PermEntitiesEdit          Perm = "entities.edit"
	PermEntitiesDelete        Perm = "entities.delete"
	PermAssessmentsView       Perm = "assessments.view"
	PermAssessmentsViewAll    Perm = "assessments.view_all"
	PermAssessmentsCreate     Perm = "assessments.create"
	PermAssessmentsEdit       Perm = "assessments.edit"
	PermAssessmentsManage     Perm = "assessments.manage"
	PermAssessmentsNotes      Perm = "assessments.notes"
	PermEvidenceView          Perm = "evidence.view"
	PermEvidenceViewAll       Perm = "evidence.view_all"
	PermEvidenceCreate        Perm = "evidence.create"
	PermEvidenceEdit          Perm = "evidence.edit"
	PermEvidenceReview        Perm = "evidence.review"
	PermEvidenceSubmit        Perm = "evidence.submit"
	PermEvidenceDelete        Perm = "evidence.delete"
	PermClaimsView            Perm = "claims.view"
	PermClaimsCreate          Perm = "claims.create"
	PermClaimsEdit            Perm = "claims.edit"
	PermAttestationsView      Perm = "attestations.view"
	PermAttestationsCreate    Perm = "attestations.create"
	PermAttestationsEdit      Perm = "attestations.edit"
	PermAttestationsExport    Perm = "attestations.export"
	PermSignaturesManage      Perm = "signatures.manage"
	PermSignaturesSign        Perm = "signatures.sign"
	PermAffirmationsManage    Perm = "affirmations.manage"
	PermPlatformKeysRotate    Perm = "platform_keys.rotate"
	PermExportPDF             Perm = "export.pdf"
	PermExportCycloneDX       Perm = "export.cyclonedx"
	PermAdminUsers            Perm = "admin.users"
	PermAdminRoles            Perm = "admin.roles"
	PermAdminSettings         Perm = "admin.settings"
	PermAdminWebhooks         Perm = "admin.webhooks"
	PermAdminIntegrations     Perm = "admin.integrations"
	PermAdminEncryption       Perm = "admin.encryption"
	PermAdminNotificationRule Perm = "admin.notification_rules"
	PermAdminTags             Perm = "admin.tags"
	PermAdminImport           Perm = "admin.import"
	PermAdminAudit            Perm = "admin.audit"
)

// Permission is one key of the catalogue as the API lists it.
type Permission struct {
	Key         Perm   `json:"key"`
	Category    string `json:"category"`
	Description string `json:"description"`
	// Pending marks a key declared for a feature that is not built yet: roles can grant it,
	// but no operation requires it. A test keeps this honest in both directions.
	Pending bool `json:"-"`
}

// Permissions is the catalogue of every permission key the service knows. Operations name
// the key they require in x-required-permission; roles grant keys from this list.
var Permissions = []Permission{
	{PermProjectsView, "projects", "See projects", false},
	{PermProjectsCreate, "projects", "Create projects", false},
	{PermProjectsEdit, "projects", "Edit and archive projects", false},
	{PermProjectsDelete, "projects", "Delete projects", false},
	{PermStandardsView, "standards", "See standards and their requirements", false},
	{PermStandardsImport, "standards", "Import standards", false},
	{PermStandardsCreate, "standards", "Create standards", false},
	{PermStandardsEdit, "standards", "Edit draft standards, requirements and levels", false},
	{PermStandardsSubmit, "standards", "Submit standards for approval", false},
	{PermStandardsApprove, "standards", "Approve, reject, retire and delete standards", false},
	{PermStandardsDuplicate, "standards", "Duplicate a standard into a new draft version", false},
	{PermEntitiesView, "entities", "See entities", false},
	{PermEntitiesCreate, "entities", "Create entities", false},
	{PermEntitiesEdit, "entities", "Edit entities, relationships and policies", false},
	{PermEntitiesDelete, "entities", "Delete entities", false},
	{PermAssessmentsView, "assessments", "See the assessments one takes part in", false},
	{PermAssessmentsViewAll, "assessments", "See every assessment", false},
	{PermAssessmentsCreate, "assessments", "Create assessments", false},
	{PermAssessmentsEdit, "assessments", "Record results and rationales", false},
	{PermAssessmentsManage, "assessments", "Change assessment states and teams", false},
	{PermAssessmentsNotes, "assessments", "Write work notes", false},
	{PermEvidenceView, "evidence", "See the evidence of one's assessments", false},
	{PermEvidenceViewAll, "evidence", "See all evidence", false},
	{PermEvidenceCreate, "evidence", "Create evidence and upload files", false},
	{PermEvidenceEdit, "evidence", "Edit evidence", false},
	{PermEvidenceReview, "evidence", "Approve or reject evidence", false},
	{PermEvidenceSubmit, "evidence", "Submit evidence for review", false},
	{PermEvidenceDelete, "evidence", "Delete evidence and attachments", false},
	{PermClaimsView, "claims", "See claims", false},
	{PermClaimsCreate, "claims", "Create claims", false},
	{PermClaimsEdit, "claims", "Edit and delete claims", false},
	{PermAttestationsView, "attestations", "See attestations", false},
	{PermAttestationsCreate, "attestations", "Create attestations", false},
	{PermAttestationsEdit, "attestations", "Edit attestations", false},
	{PermAttestationsExport, "attestations", "Export attestations", false},
	{PermSignaturesManage, "signatures", "Manage one's signing keys", false},
	{PermSignaturesSign, "signatures", "Sign attestations", false},
	{PermAffirmationsManage, "affirmations", "Manage signatory slots, seal and rescind attestations", false},
	{PermPlatformKeysRotate, "platform", "Rotate the platform signing key", false},
	{PermExportPDF, "export", "Export PDF reports", false},
	{PermExportCycloneDX, "export", "Export the sealed attestations of assessments and projects", false},
	{PermAdminUsers, "admin", "Manage users and invites", false},
	{PermAdminRoles, "admin", "Manage roles", false},
	{PermAdminSettings, "admin", "Manage settings and other users' API keys", false},
	{PermAdminWebhooks, "admin", "Manage webhooks", false},
	{PermAdminIntegrations, "admin", "Manage chat and mail integrations", false},
	{PermAdminEncryption, "admin", "Manage encryption keys", false},
	{PermAdminNotificationRule, "admin", "Manage global notification rules", false},
	{PermAdminTags, "admin", "Manage tags", false},
	{PermAdminImport, "admin", "Import attestation documents made elsewhere", false},
	{PermAdminAudit, "admin", "Read the audit log", false},
}

// GrantablePermissions are the keys of the catalogue whose feature exists: what the role
// editor offers and roles may hold. Pending keys are neither listed nor granted.
func GrantablePermissions() []Permission {
	out := make([]Permission, 0, len(Permissions))
	for _, p := range Permissions {
		if !p.Pending {
			out = append(out, p)
		}
	}
	return out
}

// Grantable reports whether key is in the catalogue and not pending.
func Grantable(key Perm) bool {
	return slices.ContainsFunc(Permissions, func(p Permission) bool { return p.Key == key && !p.Pending })
}

// KnownPermission reports whether key is in the catalogue.
func KnownPermission(key Perm) bool {
	return slices.ContainsFunc(Permissions, func(p Permission) bool { return p.Key == key })
}

// BuiltinRole is a role the service defines; it cannot be deleted and its permission set
// is maintained by the service (custom roles are for other sets).
type BuiltinRole struct {
	Name        string
	Description string
	Permissions []Perm
}

// Names of the built-in roles.
const (
	RoleAdmin             = "admin"
	RoleAssessor          = "assessor"
	RoleAssessee          = "assessee"
	RoleStandardsManager  = "standards_manager"
	RoleStandardsApprover = "standards_approver"
)

// BuiltinRoles returns the built-in roles with their permission sets.
func BuiltinRoles() []BuiltinRole {
	all := make([]Perm, 0, len(Permissions))
	for _, p := range GrantablePermissions() {
		all = append(all, p.Key)
	}
	roles := []BuiltinRole{
		{RoleAdmin, "Administrator: every permission", all},
		{RoleAssessor, "Runs assessments, records results, claims and attestations", []Perm{
			PermProjectsView, PermStandardsView, PermEntitiesView, PermAssessmentsView, PermAssessmentsCreate,
			PermAssessmentsEdit, PermAssessmentsManage, PermAssessmentsNotes, PermEvidenceView, PermEvidenceCreate,
			PermEvidenceEdit, PermEvidenceSubmit, PermEvidenceReview, PermClaimsView, PermClaimsCreate, PermClaimsEdit, PermAttestationsView,
			PermAttestationsCreate, PermAttestationsEdit, PermAttestationsExport, PermSignaturesManage, PermSignaturesSign,
			PermExportPDF, PermExportCycloneDX}},
		{RoleAssessee, "Answers assessments and provides evidence", []Perm{
			PermProjectsView, PermStandardsView, PermEntitiesView, PermAssessmentsView, PermAssessmentsNotes,
			PermEvidenceView, PermEvidenceCreate, PermEvidenceEdit, PermEvidenceSubmit, PermClaimsView, PermAttestationsView}},
		{RoleStandardsManager, "Authors standards", []Perm{
			PermStandardsView, PermStandardsCreate, PermStandardsEdit, PermStandardsSubmit, PermStandardsDuplicate}},
		{RoleStandardsApprover, "Approves standards", []Perm{PermStandardsView, PermStandardsApprove}},
	}
	for i := range roles {
		roles[i].Permissions = slices.DeleteFunc(roles[i].Permissions, func(p Perm) bool { return !Grantable(p) })
	}
	return roles
}
