package postgres

// The store is split into one small service type per aggregate, each implementing one
// assess service interface on the shared DB (pool, clock, keyring, hasher, job client and
// the transaction kit of tx.go). cmd/* wires them into the HTTP layer and the workers
// through NewServices; nothing implements more than its own aggregate.

// UserService implements assess.UserService.
type UserService struct{ *DB }

// RoleService implements assess.RoleService.
type RoleService struct{ *DB }

// IdentityService implements assess.IdentityService: first administrator, sign-in,
// sessions and one's own password.
type IdentityService struct{ *DB }

// APIKeyService implements assess.APIKeyService.
type APIKeyService struct{ *DB }

// InviteService implements assess.InviteService: invites and self-service registration.
type InviteService struct{ *DB }

// PasswordResetService implements assess.PasswordResetService.
type PasswordResetService struct{ *DB }

// AuditService implements assess.AuditService.
type AuditService struct{ *DB }

// NotificationService implements assess.NotificationService.
type NotificationService struct{ *DB }

// RuleService implements assess.RuleService.
type RuleService struct{ *DB }

// WebhookService implements assess.WebhookService.
type WebhookService struct{ *DB }

// ChatService implements assess.ChatService.
type ChatService struct{ *DB }

// DeliveryLogService implements assess.DeliveryLogService.
type DeliveryLogService struct{ *DB }

// EmailService implements assess.EmailService.
type EmailService struct{ *DB }

// DeliveryStore implements assess.DeliveryStore for the delivery workers.
type DeliveryStore struct{ *DB }

// EncryptionService implements assess.EncryptionService.
type EncryptionService struct{ *DB }

// StandardService implements assess.StandardService.
type StandardService struct{ *DB }

// StandardTransferService implements assess.StandardTransferService.
type StandardTransferService struct{ *DB }

// EntityService implements assess.EntityService.
type EntityService struct{ *DB }

// ProjectService implements assess.ProjectService.
type ProjectService struct{ *DB }

// TagService implements assess.TagService.
type TagService struct{ *DB }

// AssessmentService implements assess.AssessmentService.
type AssessmentService struct{ *DB }

// ResultService implements assess.ResultService.
type ResultService struct{ *DB }

// EvidenceService implements assess.EvidenceService.
type EvidenceService struct{ *DB }

// AttachmentService implements assess.AttachmentService.
type AttachmentService struct{ *DB }

// ClaimService implements assess.ClaimService.
type ClaimService struct{ *DB }

// WorkNoteService implements assess.WorkNoteService.
type WorkNoteService struct{ *DB }

// AttestationService implements assess.AttestationService.
type AttestationService struct{ *DB }

// PlatformKeyService implements assess.PlatformKeyService.
type PlatformKeyService struct{ *DB }

// Services are the store's services, one per aggregate, on one DB.
type Services struct {
	Users         *UserService
	Roles         *RoleService
	Identity      *IdentityService
	APIKeys       *APIKeyService
	Invites       *InviteService
	PasswordReset *PasswordResetService
	Audit         *AuditService
	Notifications *NotificationService
	Rules         *RuleService
	Webhooks      *WebhookService
	Chat          *ChatService
	Deliveries    *DeliveryLogService
	Email         *EmailService
	DeliveryStore *DeliveryStore
	Encryption    *EncryptionService
	Standards     *StandardService
	Transfer      *StandardTransferService
	Entities      *EntityService
	Projects      *ProjectService
	Tags          *TagService
	Assessments   *AssessmentService
	Results       *ResultService
	Evidence      *EvidenceService
	Attachments   *AttachmentService
	Claims        *ClaimService
	WorkNotes     *WorkNoteService
	Attestations  *AttestationService
	PlatformKeys  *PlatformKeyService
}

// NewServices returns every service of the store on db.
func NewServices(db *DB) *Services {
	return &Services{
		Users: &UserService{db}, Roles: &RoleService{db}, Identity: &IdentityService{db}, APIKeys: &APIKeyService{db},
		Invites: &InviteService{db}, PasswordReset: &PasswordResetService{db}, Audit: &AuditService{db},
		Notifications: &NotificationService{db}, Rules: &RuleService{db}, Webhooks: &WebhookService{db},
		Chat: &ChatService{db}, Deliveries: &DeliveryLogService{db}, Email: &EmailService{db},
		DeliveryStore: &DeliveryStore{db}, Encryption: &EncryptionService{db},
		Standards: &StandardService{db}, Transfer: &StandardTransferService{db}, Entities: &EntityService{db},
		Projects: &ProjectService{db}, Tags: &TagService{db},
		Assessments: &AssessmentService{db}, Results: &ResultService{db}, Evidence: &EvidenceService{db}, Attachments: &AttachmentService{db},
		Claims: &ClaimService{db}, WorkNotes: &WorkNoteService{db}, Attestations: &AttestationService{db},
		PlatformKeys: &PlatformKeyService{db},
	}
}
