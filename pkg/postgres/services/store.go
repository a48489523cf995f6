// Package services composes the store: every area's services on one DB (New), and the
// demo data, which writes to several areas in one transaction. It is the one package that
// imports the areas; cmd/* and tests build the store through it.
package services

import (
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/catalogue"
	"github.com/assay-dev/assay/pkg/postgres/delivery"
	"github.com/assay-dev/assay/pkg/postgres/identity"
	"github.com/assay-dev/assay/pkg/postgres/work"
	"time"
)

// Services are the store's services, one per aggregate, on one DB.
type Services struct {
	Users         *identity.UserService
	Roles         *identity.RoleService
	Identity      *identity.IdentityService
	APIKeys       *identity.APIKeyService
	Invites       *identity.InviteService
	PasswordReset *identity.PasswordResetService
	Audit         *postgres.AuditService
	Notifications *delivery.NotificationService
	Rules         *delivery.RuleService
	Webhooks      *delivery.WebhookService
	Chat          *delivery.ChatService
	Deliveries    *delivery.DeliveryLogService
	Email         *delivery.EmailService
	DeliveryStore *delivery.DeliveryStore
	Encryption    *postgres.EncryptionService
	Standards     *catalogue.StandardService
	Transfer      *catalogue.StandardTransferService
	Entities      *work.EntityService
	Projects      *work.ProjectService
	Tags          *catalogue.TagService
	Assessments   *work.AssessmentService
	Results       *work.ResultService
	Evidence      *work.EvidenceService
	Attachments   *work.AttachmentService
	Claims        *work.ClaimService
	WorkNotes     *work.WorkNoteService
	Attestations  *work.AttestationService
	PlatformKeys  *work.PlatformKeyService
	Reports       *work.ReportService
	Demo          *DemoService
	Dashboard     *work.DashboardService
	Search        *work.SearchService
	Insight       *work.InsightService
	DomainMetrics *DomainMetricsService
	// AttestationImports writes imported attestation documents (attestation_import.go).
	AttestationImports *AttestationImportService
	// DashboardLayouts keeps each user's dashboard layout.
	DashboardLayouts *work.DashboardLayoutService
}

// Config is what the areas' services need besides the DB.
type Config struct {
	Identity *identity.Config // account policies and the password hasher
	// RationaleMinWords is the fewest words of a result's rationale
	// (ASSESSMENT_RATIONALE_MIN_WORDS; 0: no minimum); shorter ones count as missing when
	// an assessment is completed.
	RationaleMinWords int
	Attestations      work.AttestationConfig // what attestation documents need
	// DashboardCacheTTL is how long a computed dashboard is served again (0: 30 s;
	// negative: never, each request computes it).
	DashboardCacheTTL time.Duration
	// SearchCacheTTL is how long a search's answer is served again to the same scope and
	// query (0: 10 s; negative: never).
	SearchCacheTTL time.Duration
}

// DefaultConfig is the configuration of an installation that sets nothing.
func DefaultConfig() Config {
	return Config{Identity: identity.DefaultConfig(), RationaleMinWords: assess.DefaultRationaleMinWords}
}

// New returns every service of the store on db with the default configuration.
func New(db *postgres.DB) *Services { return NewWith(db, DefaultConfig()) }

// NewWith returns every service of the store on db with cfg.
func NewWith(db *postgres.DB, cfg Config) *Services {
	if cfg.Identity == nil {
		cfg.Identity = identity.DefaultConfig()
	}
	identitySvc := identity.NewIdentityService(db, cfg.Identity)
	if cfg.Attestations.ConfirmPasswordFunc == nil {
		cfg.Attestations.ConfirmPasswordFunc = identitySvc.ConfirmPassword
	}
	return &Services{
		Users: identity.NewUserService(db, cfg.Identity), Roles: identity.NewRoleService(db), Identity: identitySvc, APIKeys: identity.NewAPIKeyService(db),
		Invites: identity.NewInviteService(db, cfg.Identity), PasswordReset: identity.NewPasswordResetService(db, cfg.Identity), Audit: postgres.NewAuditService(db),
		Notifications: delivery.NewNotificationService(db), Rules: delivery.NewRuleService(db), Webhooks: delivery.NewWebhookService(db),
		Chat: delivery.NewChatService(db), Deliveries: delivery.NewDeliveryLogService(db), Email: delivery.NewEmailService(db),
		DeliveryStore: delivery.NewDeliveryStore(db), Encryption: postgres.NewEncryptionService(db),
		Standards: catalogue.NewStandardService(db), Transfer: catalogue.NewStandardTransferService(db), Entities: work.NewEntityService(db),
		Projects: work.NewProjectService(db), Tags: catalogue.NewTagService(db),
		Assessments: work.NewAssessmentService(db, cfg.RationaleMinWords), Results: work.NewResultService(db, cfg.RationaleMinWords), Evidence: work.NewEvidenceService(db), Attachments: work.NewAttachmentService(db),
		Claims: work.NewClaimService(db), WorkNotes: work.NewWorkNoteService(db), Attestations: work.NewAttestationService(db, cfg.Attestations),
		PlatformKeys: work.NewPlatformKeyService(db), Reports: work.NewReportService(db, cfg.Attestations), AttestationImports: &AttestationImportService{db}, DomainMetrics: &DomainMetricsService{db},
		DashboardLayouts: work.NewDashboardLayoutService(db), Demo: &DemoService{db},
		Dashboard: work.NewDashboardService(db, cfg.DashboardCacheTTL), Search: work.NewSearchService(db, cfg.SearchCacheTTL),
		Insight: work.NewInsightService(db),
	}
}
