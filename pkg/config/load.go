package config

import (
	"log/slog"
	"net/mail"
	"net/netip"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
)

// day is the unit of the *_DAYS variables.
const day = 24 * time.Hour

// metricsPrefixPattern is what Prometheus accepts at the start of a metric name, ending in an
// underscore so that the prefix and the name stay readable.
var metricsPrefixPattern = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*_$`)

// logLevels maps LOG_LEVEL to slog levels.
var logLevels = map[string]slog.Level{
	"error": slog.LevelError, "warn": slog.LevelWarn, "info": slog.LevelInfo, "debug": slog.LevelDebug,
}

// Load reads the configuration from the process environment. See FromEnviron.
func Load() (*Config, error) {
	return FromEnviron(os.Environ())
}

// FromEnviron builds a Config from environ, a list of KEY=VALUE strings in the form of
// os.Environ. Variables the service does not read are ignored, an empty value means the
// variable is unset, and a later entry overrides an earlier one. When any value is unusable
// it returns a *ValidationError listing every problem, and no Config.
func FromEnviron(environ []string) (*Config, error) {
	l := newLoader(environ)
	c := &Config{}
	l.loadGeneral(c)
	l.loadDatabase(c)
	l.loadMemory(c)
	l.loadStorage(c)
	l.loadEvidence(c)
	l.loadSMTP(c)
	l.loadDelivery(c)
	l.loadMetrics(c)
	l.loadEncryption(c)
	l.loadAuth(c)
	l.loadAssessments(c)
	if len(l.problems) > 0 {
		return nil, &ValidationError{Problems: l.problems}
	}
	c.settings = l.settingsReport()
	return c, nil
}

func (l *loader) loadGeneral(c *Config) {
	c.NodeEnv = Environment(l.enum("NODE_ENV", string(EnvDevelopment), string(EnvProduction), string(EnvTest)))
	c.Port = l.integer("PORT", 1, 65535, "")
	c.LogLevel = logLevels[l.enum("LOG_LEVEL", "error", "warn", "info", "debug")]
	c.CORSOrigins = l.origins("CORS_ORIGIN")
	// Unset, APP_URL is this server on this machine: links then work for a local run, and
	// boot warns that it is not an address anyone else reaches (it is written into signed
	// attestations, which cannot be corrected afterwards).
	if !l.failed("PORT") {
		l.v.SetDefault("APP_URL", "http://localhost:"+strconv.Itoa(c.Port))
	}
	c.AppURL = l.absoluteURL("APP_URL")
	c.TrustProxyHops = l.integer("TRUST_PROXY_HOPS", 0, unbounded, "")
	c.ShutdownTimeout = l.msDuration("SHUTDOWN_TIMEOUT")
	c.APIMaxBodyBytes = int64(l.integer("API_MAX_BODY_BYTES", 1024, unbounded, "bytes"))
	c.RateLimitPerMinute = l.integer("RATE_LIMIT_PER_MINUTE", 1, unbounded, "")
	c.RequestTimeout = l.msDuration("REQUEST_TIMEOUT")
	c.CredentialCacheTTL = l.msDurationOrZero("CREDENTIAL_CACHE_TTL")
	c.UnreadCountCacheTTL = l.msDurationOrZero("UNREAD_COUNT_CACHE_TTL")
	c.ResponseCacheMaxBytes = int64(l.integer("RESPONSE_CACHE_MAX_BYTES", 0, unbounded, "bytes"))
	c.BindAddress = l.raw("BIND_ADDRESS")
	if c.BindAddress != "" && c.BindAddress != "localhost" {
		if _, err := netip.ParseAddr(c.BindAddress); err != nil {
			l.refuse("BIND_ADDRESS", "must be an IP address such as 127.0.0.1, 0.0.0.0 or ::, or localhost")
		}
	}
}

func (l *loader) loadDatabase(c *Config) {
	provider := l.enum("DATABASE_PROVIDER", string(DatabasePGlite), "embedded", string(DatabasePostgres))
	if provider == "embedded" {
		provider = string(DatabasePGlite)
		l.effective["DATABASE_PROVIDER"] = provider
	}
	c.DatabaseProvider = DatabaseProvider(provider)
	c.DatabaseURL = l.raw("DATABASE_URL")
	if c.DatabaseProvider == DatabasePostgres {
		// The parser's error quotes the connection string with a best-effort redaction of
		// the password, so it is not passed on.
		if _, err := pgconn.ParseConfig(c.DatabaseURL); err != nil {
			l.refuse("DATABASE_URL", "must be a PostgreSQL connection URL such as postgres://user:password@host:5432/assay or a key=value connection string")
		}
	}
	c.PGliteDataDir = l.raw("PGLITE_DATA_DIR")
	c.PGBinDir = l.raw("PG_BIN_DIR")
	c.PGRunAsUser = l.raw("PG_RUN_AS_USER")
	maxConns := ExternalMaxConns
	if c.DatabaseProvider != DatabasePostgres {
		maxConns = EmbeddedMaxConns(runtime.GOMAXPROCS(0))
	}
	l.v.SetDefault("DB_MAX_CONNS", strconv.Itoa(maxConns))
	c.DBMaxConns = int32(l.integer("DB_MAX_CONNS", 1, 1000, ""))
	minCeiling := int(c.DBMaxConns)
	if l.failed("DB_MAX_CONNS") {
		minCeiling = 1000
	}
	c.DBMinConns = int32(l.integer("DB_MIN_CONNS", 0, minCeiling, "at most DB_MAX_CONNS"))
	c.DBStatementTimeout = l.msDuration("DB_STATEMENT_TIMEOUT")
	c.DBAcquireTimeout = l.msDuration("DB_ACQUIRE_TIMEOUT")
	c.DBConnectTimeout = l.msDuration("DB_CONNECT_TIMEOUT")
	c.DBKeepAlive = l.msDuration("DB_KEEPALIVE")
	c.MigrateOnStart = l.boolean("MIGRATE_ON_START")
	// With the embedded database there is a single process, so it runs the workers itself;
	// with an external server they usually run in cmd/worker.
	l.v.SetDefault("RUN_WORKERS", strconv.FormatBool(c.DatabaseProvider != DatabasePostgres))
	c.RunWorkers = l.boolean("RUN_WORKERS")
}

// loadMemory checks GOGC and GOMEMLIMIT as the Go runtime reads them: the runtime would
// take a mistyped GOGC for 100 without a word, and stop at a malformed GOMEMLIMIT.
func (l *loader) loadMemory(c *Config) {
	c.GOGC, c.GOMEMLIMIT = l.raw("GOGC"), l.raw("GOMEMLIMIT")
	if _, ok := parseGOGC(c.GOGC); c.GOGC != "" && !ok {
		l.refuse("GOGC", "must be off or an integer percentage such as 400")
	}
	if _, ok := parseGOMEMLIMIT(c.GOMEMLIMIT); c.GOMEMLIMIT != "" && !ok {
		l.refuse("GOMEMLIMIT", "must be off or a number of bytes with an optional unit B, KiB, MiB, GiB or TiB, such as 512MiB")
	}
}

func (l *loader) loadStorage(c *Config) {
	c.StorageProvider = StorageProvider(l.enum("STORAGE_PROVIDER", string(StorageDatabase), string(StorageS3)))
	c.UploadMaxFileSize = int64(l.integer("UPLOAD_MAX_FILE_SIZE", 1, unbounded, "bytes"))
	c.StandardsImportMaxBytes = int64(l.integer("STANDARDS_IMPORT_MAX_BYTES", 1024, 1<<30, "bytes"))
	c.StandardsFeedURL = l.absoluteURL("STANDARDS_FEED_URL")
	l.readSecretFile("S3_ACCESS_KEY_ID", "S3_ACCESS_KEY_ID_FILE")
	l.readSecretFile("S3_SECRET_ACCESS_KEY", "S3_SECRET_ACCESS_KEY_FILE")
	c.S3Bucket = l.raw("S3_BUCKET")
	c.S3Region = l.raw("S3_REGION")
	c.S3Endpoint = l.absoluteURL("S3_ENDPOINT")
	c.S3AccessKeyID = l.raw("S3_ACCESS_KEY_ID")
	c.S3SecretAccessKey = l.raw("S3_SECRET_ACCESS_KEY")
	c.S3ForcePathStyle = l.boolean("S3_FORCE_PATH_STYLE")
	if c.StorageProvider != StorageS3 {
		return
	}
	if c.S3Bucket == "" {
		l.refuse("S3_BUCKET", "required when STORAGE_PROVIDER is s3")
	}
	if l.failed("S3_ACCESS_KEY_ID_FILE") || l.failed("S3_SECRET_ACCESS_KEY_FILE") {
		return
	}
	// One half of a key pair is always a mistake; neither means ambient credentials.
	const pair = "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are used together; leave both unset to use ambient credentials"
	switch {
	case c.S3AccessKeyID != "" && c.S3SecretAccessKey == "":
		l.refuse("S3_SECRET_ACCESS_KEY", "required when S3_ACCESS_KEY_ID is set: "+pair)
	case c.S3AccessKeyID == "" && c.S3SecretAccessKey != "":
		l.refuse("S3_ACCESS_KEY_ID", "required when S3_SECRET_ACCESS_KEY is set: "+pair)
	}
}

func (l *loader) loadEvidence(c *Config) {
	c.EvidenceExpiryReminderDays = l.integer("EVIDENCE_EXPIRY_REMINDER_DAYS", 0, 365, "days; 0 sends no reminders")
}

func (l *loader) loadSMTP(c *Config) {
	c.SMTPEnabled = l.boolean("SMTP_ENABLED")
	c.SMTPHost = l.raw("SMTP_HOST")
	c.SMTPPort = l.integer("SMTP_PORT", 1, 65535, "")
	c.SMTPSecure = l.boolean("SMTP_SECURE")
	c.SMTPUser = l.raw("SMTP_USER")
	c.SMTPPass = l.raw("SMTP_PASS")
	c.SMTPFrom = l.raw("SMTP_FROM")
	c.SMTPTLSRejectUnauthorized = l.boolean("SMTP_TLS_REJECT_UNAUTHORIZED")
	c.SMTPTimeout = l.span("SMTP_TIMEOUT", 1, 300000, time.Millisecond, "milliseconds")
	c.EmailMaxRetries = l.integer("EMAIL_MAX_RETRIES", 0, 100, "")
	c.EmailDeliveryRetention = l.span("EMAIL_DELIVERY_RETENTION_DAYS", 1, 3650, day, "days")
	c.PasswordResetTTL = l.span("PASSWORD_RESET_TTL_MINUTES", 5, 10080, time.Minute, "minutes")
	if c.SMTPFrom != "" {
		if _, err := mail.ParseAddress(c.SMTPFrom); err != nil {
			l.refuse("SMTP_FROM", `must be an e-mail address such as assay@example.com or "Assay" <assay@example.com>`)
		}
	}
	// SMTP_HOST and SMTP_FROM may come from the settings an administrator stores in the
	// admin UI, so SMTP_ENABLED=true without them is not refused here; a delivery without a
	// host anywhere fails with a clear message in the e-mail delivery log.
}

func (l *loader) loadDelivery(c *Config) {
	c.WebhookEnabled = l.boolean("WEBHOOK_ENABLED")
	c.WebhookTimeout = l.span("WEBHOOK_TIMEOUT", 1, 300000, time.Millisecond, "milliseconds")
	c.WebhookMaxRetries = l.integer("WEBHOOK_MAX_RETRIES", 0, 100, "")
	c.WebhookDeliveryRetention = l.span("WEBHOOK_DELIVERY_RETENTION_DAYS", 1, 3650, day, "days")
	c.SlackEnabled = l.boolean("SLACK_ENABLED")
	c.TeamsEnabled = l.boolean("TEAMS_ENABLED")
	c.MattermostEnabled = l.boolean("MATTERMOST_ENABLED")
	c.ChatTimeout = l.span("CHAT_TIMEOUT", 1, 300000, time.Millisecond, "milliseconds")
	c.ChatDeliveryRetention = l.span("CHAT_DELIVERY_RETENTION_DAYS", 1, 3650, day, "days")
	c.ChatMaxRetries = l.integer("CHAT_MAX_RETRIES", 0, 100, "")
	c.NotificationRetention = l.span("NOTIFICATION_RETENTION_DAYS", 0, 3650, day, "days; 0 keeps them")
	c.DeliveryRetryBase = l.span("DELIVERY_RETRY_BASE_MS", 1, 3600000, time.Millisecond, "milliseconds")
	c.DeliveryDisableAfterFailures = l.integer("DELIVERY_DISABLE_AFTER_FAILURES", 0, 100000, "0 never disables")
	c.OutboundAllowNetworks = l.networks("OUTBOUND_ALLOW_NETWORKS")
}

func (l *loader) loadMetrics(c *Config) {
	c.MetricsEnabled = l.boolean("METRICS_ENABLED")
	c.MetricsToken = l.raw("METRICS_TOKEN")
	c.MetricsPrefix = l.raw("METRICS_PREFIX")
	if c.MetricsPrefix != "" && !metricsPrefixPattern.MatchString(c.MetricsPrefix) {
		l.refuse("METRICS_PREFIX", "must start with a letter or underscore, contain only letters, digits and underscores, and end with an underscore, such as cdxa_")
	}
	c.MetricsDomainRefreshInterval = l.span("METRICS_DOMAIN_REFRESH_INTERVAL", 1, 86400, time.Second, "seconds")
	c.WorkerMetricsPort = l.integer("WORKER_METRICS_PORT", 1, 65535, "")
}

func (l *loader) loadEncryption(c *Config) {
	c.MasterKey = l.hexKey("MASTER_ENCRYPTION_KEY")
	c.OldMasterKey = l.hexKey("OLD_MASTER_ENCRYPTION_KEY")
	c.RequireEncryption = l.boolean("REQUIRE_ENCRYPTION")
	if c.RequireEncryption && c.MasterKey == nil {
		l.refuse("REQUIRE_ENCRYPTION", "the service refuses to start without a valid MASTER_ENCRYPTION_KEY "+
			"(64 hexadecimal characters); set one, or set REQUIRE_ENCRYPTION=false to allow passthrough mode")
	}
}

func (l *loader) loadAuth(c *Config) {
	c.JWTSecret = l.raw("JWT_SECRET")
	if c.JWTSecret != "" && utf8.RuneCountInString(c.JWTSecret) < 32 {
		l.refuse("JWT_SECRET", "must be at least 32 characters; leave it unset to use a secret generated and stored in the database")
	}
	c.JWTExpiry = l.msDuration("JWT_EXPIRY")
	c.CookieSecure = l.cookieSecure("COOKIE_SECURE")
	c.PasswordMinLength = l.integer("PASSWORD_MIN_LENGTH", 8, 128, "characters")
	c.PasswordHIBPCheckEnabled = l.boolean("PASSWORD_HIBP_CHECK_ENABLED")
	c.PasswordHIBPTimeout = l.span("PASSWORD_HIBP_TIMEOUT_MS", 1, 60000, time.Millisecond, "milliseconds")
	c.PasswordHIBPAPIURL = l.absoluteURL("PASSWORD_HIBP_API_URL")
	c.LoginMaxFailedAttempts = l.integer("LOGIN_MAX_FAILED_ATTEMPTS", 0, unbounded, "0 disables lockout")
	c.LoginLockoutDuration = l.span("LOGIN_LOCKOUT_DURATION_MINUTES", 1, 10080, time.Minute, "minutes")
	c.RegistrationMode = RegistrationMode(l.enum("REGISTRATION_MODE",
		string(RegistrationDisabled), string(RegistrationInviteOnly), string(RegistrationOpen)))
	c.AcceptOpenRegistrationRisk = l.boolean("ACCEPT_OPEN_REGISTRATION_RISK")
	if c.IsProduction() && c.RegistrationMode == RegistrationOpen && !c.AcceptOpenRegistrationRisk &&
		!l.failed("ACCEPT_OPEN_REGISTRATION_RISK") {
		l.refuse("REGISTRATION_MODE", "open registration in production lets anyone create an account; "+
			"set ACCEPT_OPEN_REGISTRATION_RISK=true to acknowledge the risk, or use disabled or invite_only")
	}
	c.InviteRetainAfterTerminal = l.span("INVITE_RETAIN_AFTER_TERMINAL_DAYS", 1, 3650, day, "days")
	c.SessionCleanupInterval = l.span("SESSION_CLEANUP_INTERVAL_MINUTES", 0, 10080, time.Minute, "minutes; 0 disables cleanup")
	c.SessionRetainExpired = l.span("SESSION_RETAIN_EXPIRED_HOURS", 0, 87600, time.Hour, "hours")
}

func (l *loader) loadAssessments(c *Config) {
	c.AssessmentRationaleMinWords = l.integer("ASSESSMENT_RATIONALE_MIN_WORDS", 0, 1000, "words; 0: no minimum")
	c.DashboardCache = l.span("DASHBOARD_CACHE_SECONDS", 0, 3600, time.Second, "seconds; 0: computed for every request")
	c.SearchCache = l.span("SEARCH_CACHE_SECONDS", 0, 3600, time.Second, "seconds; 0: searched for every request")
}

// cookieSecure reads COOKIE_SECURE: auto, or a boolean in any accepted spelling.
func (l *loader) cookieSecure(name string) CookieSecure {
	s := l.raw(name)
	if b, ok := boolSpellings[strings.ToLower(s)]; ok {
		l.effective[name] = strconv.FormatBool(b)
		return CookieSecure(strconv.FormatBool(b))
	}
	if strings.EqualFold(s, string(CookieSecureAuto)) {
		l.effective[name] = string(CookieSecureAuto)
		return CookieSecureAuto
	}
	l.refuse(name, "must be auto or one of true, false, 1, 0, yes, no, on, off")
	return ""
}
