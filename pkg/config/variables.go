package config

// variable describes one environment variable: its default as text, whether it is a secret
// (redacted in problems and in Settings) and whether its value is used exactly as given.
// Every other value has surrounding whitespace removed, because a stray space in a
// Compose file should not turn "true" into a start-up failure; secrets are kept byte for
// byte, because a password may legitimately begin or end with a space.
type variable struct {
	name     string
	def      string
	secret   bool
	verbatim bool
}

// Sources a Setting can report.
const (
	sourceDefault = "default"
	sourceEnv     = "env"
	sourceFile    = "file"
)

// redacted replaces the value of a secret in problems and settings.
const redacted = "<redacted>"

// variables lists every variable the service reads, in the order of docs/configuration.md.
// Settings reports them in this order. RUN_WORKERS and DB_MAX_CONNS have no fixed
// default: they follow DATABASE_PROVIDER (DB_MAX_CONNS also the CPUs, EmbeddedMaxConns);
// APP_URL follows PORT.
var variables = []variable{
	// General.
	{name: "NODE_ENV", def: "development"},
	{name: "PORT", def: "3001"},
	{name: "BIND_ADDRESS"},
	{name: "LOG_LEVEL", def: "info"},
	{name: "CORS_ORIGIN", def: "http://localhost:5173"},
	{name: "APP_URL"}, // http://localhost:$PORT (loadGeneral)
	{name: "TRUST_PROXY_HOPS", def: "0"},
	{name: "SHUTDOWN_TIMEOUT", def: "30s"},
	{name: "API_MAX_BODY_BYTES", def: "1048576"},
	{name: "RATE_LIMIT_PER_MINUTE", def: "600"},
	{name: "REQUEST_TIMEOUT", def: "15s"},
	{name: "CREDENTIAL_CACHE_TTL", def: "30s"},
	{name: "UNREAD_COUNT_CACHE_TTL", def: "5m"},
	{name: "RESPONSE_CACHE_MAX_BYTES", def: "33554432"},

	// Database.
	{name: "DATABASE_PROVIDER", def: "pglite"},
	{name: "DATABASE_URL", def: "postgres://postgres@localhost:5432/assay?sslmode=disable", secret: true},
	{name: "PGLITE_DATA_DIR", def: "./data/pglite"},
	{name: "PG_BIN_DIR"},
	{name: "PG_RUN_AS_USER"},
	{name: "DB_MAX_CONNS"},
	{name: "DB_MIN_CONNS", def: "0"},
	{name: "DB_STATEMENT_TIMEOUT", def: "10s"},
	{name: "DB_ACQUIRE_TIMEOUT", def: "5s"},
	{name: "DB_CONNECT_TIMEOUT", def: "5s"},
	{name: "DB_KEEPALIVE", def: "15s"},
	{name: "MIGRATE_ON_START", def: "true"},
	{name: "RUN_WORKERS"},

	// Memory: the Go runtime's own variables, read exactly as given (as the runtime does).
	{name: "GOGC", verbatim: true},
	{name: "GOMEMLIMIT", verbatim: true},

	// Storage.
	{name: "STORAGE_PROVIDER", def: "database"},
	{name: "UPLOAD_MAX_FILE_SIZE", def: "52428800"},
	{name: "STANDARDS_IMPORT_MAX_BYTES", def: "10485760"},
	{name: "STANDARDS_FEED_URL", def: "https://cyclonedx.org/standards/feed.json"},
	{name: "S3_BUCKET"},
	{name: "S3_REGION", def: "us-east-1"},
	{name: "S3_ENDPOINT"},
	{name: "S3_ACCESS_KEY_ID", secret: true, verbatim: true},
	{name: "S3_ACCESS_KEY_ID_FILE"},
	{name: "S3_SECRET_ACCESS_KEY", secret: true, verbatim: true},
	{name: "S3_SECRET_ACCESS_KEY_FILE"},
	{name: "S3_FORCE_PATH_STYLE", def: "false"},

	// Evidence.
	{name: "EVIDENCE_EXPIRY_REMINDER_DAYS", def: "14"},

	// SMTP.
	{name: "SMTP_ENABLED", def: "false"},
	{name: "SMTP_HOST"},
	{name: "SMTP_PORT", def: "587"},
	{name: "SMTP_SECURE", def: "false"},
	{name: "SMTP_USER"},
	{name: "SMTP_PASS", secret: true, verbatim: true},
	{name: "SMTP_FROM"},
	{name: "SMTP_TLS_REJECT_UNAUTHORIZED", def: "true"},
	{name: "SMTP_TIMEOUT", def: "10000"},
	{name: "EMAIL_MAX_RETRIES", def: "5"},
	{name: "EMAIL_DELIVERY_RETENTION_DAYS", def: "30"},
	{name: "PASSWORD_RESET_TTL_MINUTES", def: "60"},

	// Webhooks and chat.
	{name: "WEBHOOK_ENABLED", def: "true"},
	{name: "WEBHOOK_TIMEOUT", def: "10000"},
	{name: "WEBHOOK_MAX_RETRIES", def: "5"},
	{name: "WEBHOOK_DELIVERY_RETENTION_DAYS", def: "30"},
	{name: "SLACK_ENABLED", def: "false"},
	{name: "TEAMS_ENABLED", def: "false"},
	{name: "MATTERMOST_ENABLED", def: "false"},
	{name: "CHAT_TIMEOUT", def: "10000"},
	{name: "CHAT_DELIVERY_RETENTION_DAYS", def: "30"},
	{name: "CHAT_MAX_RETRIES", def: "5"},
	{name: "NOTIFICATION_RETENTION_DAYS", def: "90"},
	{name: "DELIVERY_RETRY_BASE_MS", def: "30000"},
	{name: "DELIVERY_DISABLE_AFTER_FAILURES", def: "20"},
	{name: "OUTBOUND_ALLOW_NETWORKS"},

	// Metrics.
	{name: "METRICS_ENABLED", def: "false"},
	{name: "METRICS_TOKEN", secret: true, verbatim: true},
	{name: "METRICS_PREFIX", def: "cdxa_"},
	{name: "METRICS_DOMAIN_REFRESH_INTERVAL", def: "60"},
	{name: "WORKER_METRICS_PORT", def: "9091"},

	// Encryption.
	{name: "MASTER_ENCRYPTION_KEY", secret: true},
	{name: "OLD_MASTER_ENCRYPTION_KEY", secret: true},
	{name: "REQUIRE_ENCRYPTION", def: "false"},

	// Authentication and sessions.
	{name: "JWT_SECRET", secret: true, verbatim: true},
	{name: "JWT_EXPIRY", def: "24h"},
	{name: "COOKIE_SECURE", def: "auto"},
	{name: "PASSWORD_MIN_LENGTH", def: "12"},
	{name: "PASSWORD_HIBP_CHECK_ENABLED", def: "false"},
	{name: "PASSWORD_HIBP_TIMEOUT_MS", def: "3000"},
	{name: "PASSWORD_HIBP_API_URL", def: "https://api.pwnedpasswords.com"},
	{name: "LOGIN_MAX_FAILED_ATTEMPTS", def: "5"},
	{name: "LOGIN_LOCKOUT_DURATION_MINUTES", def: "15"},
	{name: "REGISTRATION_MODE", def: "disabled"},
	{name: "ACCEPT_OPEN_REGISTRATION_RISK", def: "false"},
	{name: "INVITE_RETAIN_AFTER_TERMINAL_DAYS", def: "30"},
	{name: "SESSION_CLEANUP_INTERVAL_MINUTES", def: "15"},
	{name: "SESSION_RETAIN_EXPIRED_HOURS", def: "24"},

	// Assessments.
	{name: "ASSESSMENT_RATIONALE_MIN_WORDS", def: "15"},
	{name: "DASHBOARD_CACHE_SECONDS", def: "30"},
	{name: "SEARCH_CACHE_SECONDS", def: "10"},
}

// lookupVariable returns the description of name, if the service reads it.
func lookupVariable(name string) (variable, bool) {
	for _, v := range variables {
		if v.name == name {
			return v, true
		}
	}
	return variable{}, false
}
