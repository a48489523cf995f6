// Package config reads Assay's configuration from environment variables, validates every
// value at start-up and reports all problems at once. It is the only package that imports
// viper, and only the commands under cmd/ import it: components receive plain values or
// their own small Config structs, never this one.
//
// docs/configuration.md is the operator reference for every variable listed here.
package config

import (
	"log/slog"
	"net/netip"
	"time"
)

// Environment is the value of NODE_ENV. The name is kept from the original service so that
// existing deployments keep working.
type Environment string

// The environments NODE_ENV accepts.
const (
	EnvDevelopment Environment = "development"
	EnvProduction  Environment = "production"
	EnvTest        Environment = "test"
)

// DatabaseProvider selects the database: an embedded PostgreSQL managed by the service, or an
// external PostgreSQL server.
type DatabaseProvider string

// The database providers DATABASE_PROVIDER accepts. "embedded" is read as DatabasePGlite.
const (
	DatabasePGlite   DatabaseProvider = "pglite"
	DatabasePostgres DatabaseProvider = "postgres"
)

// StorageProvider selects where evidence files are stored.
type StorageProvider string

// The storage providers STORAGE_PROVIDER accepts.
const (
	StorageDatabase StorageProvider = "database"
	StorageS3       StorageProvider = "s3"
)

// CookieSecure is the value of COOKIE_SECURE, which decides the Secure attribute of the
// session cookie.
type CookieSecure string

// The values COOKIE_SECURE accepts. Boolean spellings are read as CookieSecureTrue or
// CookieSecureFalse.
const (
	CookieSecureAuto  CookieSecure = "auto"
	CookieSecureTrue  CookieSecure = "true"
	CookieSecureFalse CookieSecure = "false"
)

// RegistrationMode is the value of REGISTRATION_MODE: who may create an account.
type RegistrationMode string

// The registration modes REGISTRATION_MODE accepts.
const (
	RegistrationDisabled   RegistrationMode = "disabled"
	RegistrationInviteOnly RegistrationMode = "invite_only"
	RegistrationOpen       RegistrationMode = "open"
)

// Config is the validated configuration of one process. Durations given in the environment
// as numbers of milliseconds, seconds, minutes, hours or days are converted to time.Duration.
type Config struct {
	// NodeEnv is NODE_ENV.
	NodeEnv Environment
	// Port is the HTTP listening port (PORT).
	Port int
	// BindAddress is the address the server listens on (BIND_ADDRESS); empty means every
	// interface.
	BindAddress string
	// RequestTimeout bounds each API request (REQUEST_TIMEOUT); uploads are exempt.
	RequestTimeout time.Duration
	// CredentialCacheTTL is how long a resolved session or API key is kept in memory
	// (CREDENTIAL_CACHE_TTL; "0" turns the cache off). Changes invalidate at once.
	CredentialCacheTTL time.Duration
	// UnreadCountCacheTTL is how long a user's unread-notification count is kept in
	// memory (UNREAD_COUNT_CACHE_TTL; "0" turns the cache off). Changes invalidate it.
	UnreadCountCacheTTL time.Duration
	// ResponseCacheMaxBytes bounds the encoded answers of published standards and assessment
	// workspaces kept in memory (RESPONSE_CACHE_MAX_BYTES; 0 keeps none).
	ResponseCacheMaxBytes int64
	// LogLevel is the minimum level logged (LOG_LEVEL).
	LogLevel slog.Level
	// CORSOrigins are the origins allowed to make credentialed cross-origin requests
	// (CORS_ORIGIN), each scheme://host[:port] in lower case.
	CORSOrigins []string
	// AppURL is the public base URL used in links, without a trailing slash (APP_URL).
	AppURL string
	// TrustProxyHops is the number of reverse proxies trusted for X-Forwarded-* (TRUST_PROXY_HOPS).
	TrustProxyHops int
	// ShutdownTimeout bounds the graceful shutdown (SHUTDOWN_TIMEOUT).
	ShutdownTimeout time.Duration
	// APIMaxBodyBytes caps JSON request bodies (API_MAX_BODY_BYTES).
	APIMaxBodyBytes int64
	// RateLimitPerMinute is the request budget of each credential (RATE_LIMIT_PER_MINUTE).
	RateLimitPerMinute int

	// DatabaseProvider is DATABASE_PROVIDER; "embedded" is normalised to DatabasePGlite.
	DatabaseProvider DatabaseProvider
	// DatabaseURL is the connection string used with DatabasePostgres (DATABASE_URL). It may
	// hold a password: never log it.
	DatabaseURL string
	// PGliteDataDir is the embedded database's directory (PGLITE_DATA_DIR).
	PGliteDataDir string
	// PGBinDir holds the PostgreSQL binaries for the embedded database; empty means look
	// them up (PG_BIN_DIR).
	PGBinDir string
	// PGRunAsUser is the OS user that runs the embedded server when the service runs as root
	// (PG_RUN_AS_USER).
	PGRunAsUser string
	// DBMaxConns is the pool's maximum size (DB_MAX_CONNS); by default EmbeddedMaxConns
	// with the embedded database, ExternalMaxConns with an external one.
	DBMaxConns int32
	// DBStatementTimeout is the server-side statement_timeout of every connection
	// (DB_STATEMENT_TIMEOUT).
	DBStatementTimeout time.Duration
	// DBAcquireTimeout bounds the wait for a free pooled connection (DB_ACQUIRE_TIMEOUT).
	DBAcquireTimeout time.Duration
	// DBConnectTimeout bounds opening a connection (DB_CONNECT_TIMEOUT).
	DBConnectTimeout time.Duration
	// DBKeepAlive is the TCP keep-alive period of database connections (DB_KEEPALIVE).
	DBKeepAlive time.Duration
	// DBMinConns is the pool's minimum size (DB_MIN_CONNS).
	DBMinConns int32
	// MigrateOnStart applies pending migrations at start-up (MIGRATE_ON_START).
	MigrateOnStart bool
	// RunWorkers runs the background workers inside the server process (RUN_WORKERS); its
	// default depends on DatabaseProvider and has been resolved here.
	RunWorkers bool

	// GOGC and GOMEMLIMIT are the Go runtime's variables as set, "" when unset; valid as the
	// runtime reads them. MemoryPolicy decides the garbage collector's settings from them.
	GOGC, GOMEMLIMIT string

	// StorageProvider is STORAGE_PROVIDER.
	StorageProvider StorageProvider
	// UploadMaxFileSize is the largest evidence upload in bytes (UPLOAD_MAX_FILE_SIZE).
	UploadMaxFileSize int64
	// StandardsImportMaxBytes caps an imported CycloneDX or CSV document, uploaded or
	// downloaded (STANDARDS_IMPORT_MAX_BYTES).
	StandardsImportMaxBytes int64
	// StandardsFeedURL is the public standards feed the catalogue offers imports from
	// (STANDARDS_FEED_URL).
	StandardsFeedURL string
	// S3Bucket is S3_BUCKET, set whenever StorageProvider is StorageS3.
	S3Bucket string
	// S3Region is S3_REGION.
	S3Region string
	// S3Endpoint is a custom endpoint for S3-compatible services; empty means AWS (S3_ENDPOINT).
	S3Endpoint string
	// S3AccessKeyID comes from S3_ACCESS_KEY_ID_FILE or S3_ACCESS_KEY_ID; empty means ambient
	// credentials.
	S3AccessKeyID string
	// S3SecretAccessKey comes from S3_SECRET_ACCESS_KEY_FILE or S3_SECRET_ACCESS_KEY.
	S3SecretAccessKey string
	// S3ForcePathStyle selects path-style addressing (S3_FORCE_PATH_STYLE).
	S3ForcePathStyle bool

	// EvidenceExpiryReminderDays is how many days before its valid-until day evidence is
	// announced as expiring, once (EVIDENCE_EXPIRY_REMINDER_DAYS); 0 sends no reminders.
	EvidenceExpiryReminderDays int

	// SMTPEnabled switches the e-mail channel on (SMTP_ENABLED).
	SMTPEnabled bool
	// SMTPHost is the mail server (SMTP_HOST), set whenever SMTPEnabled.
	SMTPHost string
	// SMTPPort is SMTP_PORT.
	SMTPPort int
	// SMTPSecure selects implicit TLS instead of STARTTLS (SMTP_SECURE).
	SMTPSecure bool
	// SMTPUser is SMTP_USER; empty means no authentication.
	SMTPUser string
	// SMTPPass is SMTP_PASS.
	SMTPPass string
	// SMTPFrom is the sender address (SMTP_FROM), set whenever SMTPEnabled.
	SMTPFrom string
	// SMTPTLSRejectUnauthorized verifies the server's certificate (SMTP_TLS_REJECT_UNAUTHORIZED).
	SMTPTLSRejectUnauthorized bool
	// SMTPTimeout bounds one SMTP conversation (SMTP_TIMEOUT, milliseconds).
	SMTPTimeout time.Duration
	// EmailMaxRetries is the number of retries of a failed e-mail (EMAIL_MAX_RETRIES).
	EmailMaxRetries int
	// EmailDeliveryRetention is how long the e-mail delivery log is kept
	// (EMAIL_DELIVERY_RETENTION_DAYS).
	EmailDeliveryRetention time.Duration
	// PasswordResetTTL is the lifetime of an e-mailed password-reset link
	// (PASSWORD_RESET_TTL_MINUTES).
	PasswordResetTTL time.Duration

	// WebhookEnabled switches webhook deliveries on (WEBHOOK_ENABLED).
	WebhookEnabled bool
	// WebhookTimeout is the HTTP timeout of one webhook delivery (WEBHOOK_TIMEOUT).
	WebhookTimeout time.Duration
	// WebhookMaxRetries is the number of retries of a failed delivery (WEBHOOK_MAX_RETRIES).
	WebhookMaxRetries int
	// WebhookDeliveryRetention is how long the webhook delivery log is kept
	// (WEBHOOK_DELIVERY_RETENTION_DAYS).
	WebhookDeliveryRetention time.Duration
	// SlackEnabled switches Slack deliveries on (SLACK_ENABLED).
	SlackEnabled bool
	// TeamsEnabled switches Microsoft Teams deliveries on (TEAMS_ENABLED).
	TeamsEnabled bool
	// MattermostEnabled switches Mattermost deliveries on (MATTERMOST_ENABLED).
	MattermostEnabled bool
	// ChatTimeout is the HTTP timeout of one chat delivery (CHAT_TIMEOUT).
	ChatTimeout time.Duration
	// ChatDeliveryRetention is how long the chat delivery log is kept
	// (CHAT_DELIVERY_RETENTION_DAYS).
	ChatDeliveryRetention time.Duration
	// NotificationRetention is how long a read in-app notification is kept; unread ones
	// stay. 0 keeps them all (NOTIFICATION_RETENTION_DAYS).
	NotificationRetention time.Duration
	// ChatMaxRetries is the number of retries of a failed chat delivery (CHAT_MAX_RETRIES).
	ChatMaxRetries int
	// DeliveryRetryBase is the first retry delay of webhook, chat and e-mail deliveries;
	// each further retry waits four times longer, with jitter (DELIVERY_RETRY_BASE_MS).
	DeliveryRetryBase time.Duration
	// DeliveryDisableAfterFailures turns a webhook or chat destination off after this many
	// consecutive failed deliveries; 0 never does (DELIVERY_DISABLE_AFTER_FAILURES).
	DeliveryDisableAfterFailures int
	// OutboundAllowNetworks lists the private, loopback or link-local networks deliveries
	// may reach anyway (OUTBOUND_ALLOW_NETWORKS, comma-separated CIDRs or addresses).
	OutboundAllowNetworks []netip.Prefix

	// MetricsEnabled serves /metrics (METRICS_ENABLED).
	MetricsEnabled bool
	// MetricsToken is the bearer token scrapers must send; empty means no authentication
	// (METRICS_TOKEN).
	MetricsToken string
	// MetricsPrefix is prepended to every metric name (METRICS_PREFIX).
	MetricsPrefix string
	// MetricsDomainRefreshInterval is how often the domain gauges are recomputed
	// (METRICS_DOMAIN_REFRESH_INTERVAL).
	MetricsDomainRefreshInterval time.Duration
	// WorkerMetricsPort is where a stand-alone worker serves /metrics when MetricsEnabled
	// (WORKER_METRICS_PORT).
	WorkerMetricsPort int

	// MasterKey is the decoded 32-byte MASTER_ENCRYPTION_KEY; nil means passthrough mode.
	MasterKey []byte
	// OldMasterKey is the decoded OLD_MASTER_ENCRYPTION_KEY, used only to re-key.
	OldMasterKey []byte
	// RequireEncryption refuses to start without a master key (REQUIRE_ENCRYPTION); it has
	// been enforced by the time a Config exists.
	RequireEncryption bool

	// JWTSecret signs session tokens (JWT_SECRET); empty means use the secret stored in the
	// database, generating it on first run.
	JWTSecret string
	// JWTExpiry is the session token lifetime (JWT_EXPIRY).
	JWTExpiry time.Duration
	// CookieSecure is COOKIE_SECURE; see SecureCookie.
	CookieSecure CookieSecure
	// PasswordMinLength is the shortest password accepted (PASSWORD_MIN_LENGTH).
	PasswordMinLength int
	// PasswordHIBPCheckEnabled checks new passwords against the breached-password range
	// service (PASSWORD_HIBP_CHECK_ENABLED).
	PasswordHIBPCheckEnabled bool
	// PasswordHIBPTimeout bounds that check, which passes on timeout (PASSWORD_HIBP_TIMEOUT_MS).
	PasswordHIBPTimeout time.Duration
	// PasswordHIBPAPIURL is the base URL of the range service; {URL}/range/{first five
	// SHA-1 hex characters} is queried (PASSWORD_HIBP_API_URL; a mirror or a test server).
	PasswordHIBPAPIURL string
	// LoginMaxFailedAttempts locks an account after this many consecutive failed sign-ins;
	// 0 disables lockout (LOGIN_MAX_FAILED_ATTEMPTS).
	LoginMaxFailedAttempts int
	// LoginLockoutDuration is how long a lock lasts (LOGIN_LOCKOUT_DURATION_MINUTES).
	LoginLockoutDuration time.Duration
	// RegistrationMode is REGISTRATION_MODE.
	RegistrationMode RegistrationMode
	// AcceptOpenRegistrationRisk acknowledges open registration in production
	// (ACCEPT_OPEN_REGISTRATION_RISK).
	AcceptOpenRegistrationRisk bool
	// InviteRetainAfterTerminal is how long a consumed, revoked or expired invite is kept
	// (INVITE_RETAIN_AFTER_TERMINAL_DAYS).
	InviteRetainAfterTerminal time.Duration
	// SessionCleanupInterval is the period of the session cleanup job; 0 disables it
	// (SESSION_CLEANUP_INTERVAL_MINUTES).
	SessionCleanupInterval time.Duration
	// SessionRetainExpired is how long expired sessions are kept (SESSION_RETAIN_EXPIRED_HOURS).
	SessionRetainExpired time.Duration

	// AssessmentRationaleMinWords is the fewest words the rationale of a result needs; 0
	// sets no minimum (ASSESSMENT_RATIONALE_MIN_WORDS).
	AssessmentRationaleMinWords int
	// DashboardCache is how long a computed dashboard is served again to the same scope
	// (DASHBOARD_CACHE_SECONDS; 0: never).
	DashboardCache time.Duration
	// SearchCache is how long a search's answer is served again to the same scope and query
	// (SEARCH_CACHE_SECONDS; 0: never).
	SearchCache time.Duration

	// settings is the report returned by Settings, built while loading.
	settings []Setting
}

// Embedded reports whether the service manages its own embedded PostgreSQL.
func (c *Config) Embedded() bool { return c.DatabaseProvider == DatabasePGlite }

// IsProduction reports whether NODE_ENV is production.
func (c *Config) IsProduction() bool { return c.NodeEnv == EnvProduction }

// IsTest reports whether NODE_ENV is test, which, among other things, turns off the
// sign-in rate limit.
func (c *Config) IsTest() bool { return c.NodeEnv == EnvTest }

// SecureCookie reports whether the session cookie gets the Secure attribute for a request
// that arrived over HTTPS (requestHTTPS) or not. With COOKIE_SECURE=auto that is the case
// for HTTPS requests and always in production.
func (c *Config) SecureCookie(requestHTTPS bool) bool {
	switch c.CookieSecure {
	case CookieSecureTrue:
		return true
	case CookieSecureFalse:
		return false
	default:
		return requestHTTPS || c.IsProduction()
	}
}

// IsSet reports whether the environment (or a *_FILE variable) gave name a value, as
// opposed to the default. Settings an administrator can also store in the database (SMTP)
// use it so that the environment wins only where it says something.
func (c *Config) IsSet(name string) bool {
	for _, s := range c.settings {
		if s.Name == name {
			return s.Source != sourceDefault
		}
	}
	return false
}

// ExternalMaxConns is the default pool size with an external PostgreSQL server: across a
// network a connection spends much of its time waiting on round trips, not on CPU.
const ExternalMaxConns = 20

// EmbeddedMaxConns is the default pool size when the database runs on the same CPUs as
// the service (the embedded database): four connections per CPU, at least 8 and at most
// ExternalMaxConns. More connections than that only put more queries on the same cores at
// once, which costs database CPU and tail latency (measured with make bench on 2 cores:
// a pool of 8 against 20 gave the same throughput with 5–25 % less database time per
// request and 20–30 % lower p99; 4 starved creates waiting on their commits;
// docs/performance.md).
func EmbeddedMaxConns(cpus int) int {
	return min(max(4*cpus, 8), ExternalMaxConns)
}
