package assess

import "slices"

// Permission is one key of the catalogue: <resource>.<action>.
type Permission struct {
	Key         string `json:"key"`
	Category    string `json:"category"`
	Description string `json:"description"`
}

// Permissions is the catalogue of every permission key the service knows. Operations name
// the key they require in x-required-permission; roles grant keys from this list.
var Permissions = []Permission{
	{"projects.view", "projects", "See projects"},
	{"projects.create", "projects", "Create projects"},
	{"projects.edit", "projects", "Edit and archive projects"},
	{"projects.delete", "projects", "Delete projects"},
	{"standards.view", "standards", "See standards and their requirements"},
	{"standards.import", "standards", "Import standards"},
	{"standards.create", "standards", "Create standards"},
	{"standards.edit", "standards", "Edit draft standards, requirements and levels"},
	{"standards.submit", "standards", "Submit standards for approval"},
	{"standards.approve", "standards", "Approve, reject, retire and delete standards"},
	{"standards.duplicate", "standards", "Duplicate a standard into a new draft version"},
	{"entities.view", "entities", "See entities"},
	{"entities.create", "entities", "Create entities"},
	{"entities.edit", "entities", "Edit entities, relationships and policies"},
	{"entities.delete", "entities", "Delete entities"},
	{"assessments.view", "assessments", "See the assessments one takes part in"},
	{"assessments.view_all", "assessments", "See every assessment"},
	{"assessments.create", "assessments", "Create assessments"},
	{"assessments.edit", "assessments", "Record results and rationales"},
	{"assessments.manage", "assessments", "Change assessment states and teams"},
	{"assessments.notes", "assessments", "Write work notes"},
	{"evidence.view", "evidence", "See the evidence of one's assessments"},
	{"evidence.view_all", "evidence", "See all evidence"},
	{"evidence.create", "evidence", "Create evidence and upload files"},
	{"evidence.edit", "evidence", "Edit evidence"},
	{"evidence.review", "evidence", "Approve or reject evidence"},
	{"evidence.submit", "evidence", "Submit evidence for review"},
	{"evidence.delete", "evidence", "Delete evidence and attachments"},
	{"claims.view", "claims", "See claims"},
	{"claims.create", "claims", "Create claims"},
	{"claims.edit", "claims", "Edit and delete claims"},
	{"attestations.view", "attestations", "See attestations"},
	{"attestations.create", "attestations", "Create attestations"},
	{"attestations.edit", "attestations", "Edit attestations"},
	{"attestations.export", "attestations", "Export attestations"},
	{"signatures.manage", "signatures", "Manage one's signing keys"},
	{"signatures.sign", "signatures", "Sign affirmations"},
	{"affirmations.manage", "affirmations", "Manage affirmations and signatory slots"},
	{"platform_keys.rotate", "platform", "Rotate the platform signing key"},
	{"export.pdf", "export", "Export PDF reports"},
	{"export.cyclonedx", "export", "Export CycloneDX documents"},
	{"admin.users", "admin", "Manage users and invites"},
	{"admin.roles", "admin", "Manage roles"},
	{"admin.settings", "admin", "Manage settings and other users' API keys"},
	{"admin.webhooks", "admin", "Manage webhooks"},
	{"admin.integrations", "admin", "Manage chat and mail integrations"},
	{"admin.encryption", "admin", "Manage encryption keys"},
	{"admin.notification_rules", "admin", "Manage global notification rules"},
	{"admin.tags", "admin", "Manage tags"},
	{"admin.import", "admin", "Import attestations"},
	{"admin.audit", "admin", "Read the audit log"},
}

// KnownPermission reports whether key is in the catalogue.
func KnownPermission(key string) bool {
	return slices.ContainsFunc(Permissions, func(p Permission) bool { return p.Key == key })
}

// BuiltinRole is a role the service defines; it cannot be deleted and its permission set
// is maintained by the service (custom roles are for other sets).
type BuiltinRole struct {
	Name        string
	Description string
	Permissions []string
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
	all := make([]string, 0, len(Permissions))
	for _, p := range Permissions {
		all = append(all, p.Key)
	}
	return []BuiltinRole{
		{RoleAdmin, "Administrator: every permission", all},
		{RoleAssessor, "Runs assessments, records results, claims and attestations", []string{
			"projects.view", "standards.view", "entities.view", "assessments.view", "assessments.create",
			"assessments.edit", "assessments.manage", "assessments.notes", "evidence.view", "evidence.create",
			"evidence.edit", "evidence.review", "claims.view", "claims.create", "claims.edit", "attestations.view",
			"attestations.create", "attestations.edit", "attestations.export", "signatures.manage", "signatures.sign",
			"export.pdf", "export.cyclonedx"}},
		{RoleAssessee, "Answers assessments and provides evidence", []string{
			"projects.view", "standards.view", "entities.view", "assessments.view", "assessments.notes",
			"evidence.view", "evidence.create", "evidence.submit", "claims.view", "attestations.view"}},
		{RoleStandardsManager, "Authors standards", []string{
			"standards.view", "standards.create", "standards.edit", "standards.submit", "standards.duplicate"}},
		{RoleStandardsApprover, "Approves standards", []string{"standards.view", "standards.approve"}},
	}
}
