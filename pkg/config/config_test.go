package config

import (
	"log/slog"
	"net/netip"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestAppURLFollowsThePort: unset, APP_URL is this server on this machine at its PORT (it
// was the web development server's address, which then went into signed attestations);
// set, it is taken as given.
func TestAppURLFollowsThePort(t *testing.T) {
	t.Parallel()
	c, err := FromEnviron([]string{"PORT=8080"})
	require.NoError(t, err)
	require.Equal(t, "http://localhost:8080", c.AppURL)
	require.False(t, c.IsSet("APP_URL"))
	c, err = FromEnviron([]string{"PORT=8080", "APP_URL=https://assay.example.com"})
	require.NoError(t, err)
	require.Equal(t, "https://assay.example.com", c.AppURL)
	require.True(t, c.IsSet("APP_URL"))
}

func TestFromEnvironDefaults(t *testing.T) {
	t.Parallel()

	c, err := FromEnviron(nil)
	require.NoError(t, err)

	want := &Config{
		NodeEnv:               EnvDevelopment,
		Port:                  3001,
		LogLevel:              slog.LevelInfo,
		CORSOrigins:           []string{"http://localhost:5173"},
		AppURL:                "http://localhost:3001",
		TrustProxyHops:        0,
		ShutdownTimeout:       30 * time.Second,
		APIMaxBodyBytes:       1048576,
		RateLimitPerMinute:    600,
		RequestTimeout:        15 * time.Second,
		CredentialCacheTTL:    30 * time.Second,
		UnreadCountCacheTTL:   5 * time.Minute,
		ResponseCacheMaxBytes: 32 << 20,

		DatabaseProvider:   DatabasePGlite,
		DatabaseURL:        "postgres://postgres@localhost:5432/assay?sslmode=disable",
		PGliteDataDir:      "./data/pglite",
		DBMaxConns:         int32(EmbeddedMaxConns(runtime.GOMAXPROCS(0))),
		DBMinConns:         0,
		DBStatementTimeout: 10 * time.Second,
		DBAcquireTimeout:   5 * time.Second,
		DBConnectTimeout:   5 * time.Second,
		DBKeepAlive:        15 * time.Second,
		MigrateOnStart:     true,
		RunWorkers:         true,

		StorageProvider:   StorageDatabase,
		UploadMaxFileSize: 52428800, StandardsImportMaxBytes: 10485760, StandardsFeedURL: "https://cyclonedx.org/standards/feed.json",
		S3Region: "us-east-1",

		SMTPPort:                  587,
		SMTPTLSRejectUnauthorized: true,
		SMTPTimeout:               10 * time.Second,
		EmailMaxRetries:           5,
		EmailDeliveryRetention:    30 * 24 * time.Hour,
		PasswordResetTTL:          time.Hour,

		WebhookEnabled:           true,
		WebhookTimeout:           10 * time.Second,
		WebhookMaxRetries:        5,
		WebhookDeliveryRetention: 30 * 24 * time.Hour,
		ChatTimeout:              10 * time.Second,
		ChatDeliveryRetention:    30 * 24 * time.Hour,
		ChatMaxRetries:           5,
		NotificationRetention:    90 * 24 * time.Hour,
		DeliveryRetryBase:        30 * time.Second,

		EvidenceExpiryReminderDays: 14,

		DeliveryDisableAfterFailures: 20,

		MetricsPrefix:                "cdxa_",
		MetricsDomainRefreshInterval: time.Minute,
		WorkerMetricsPort:            9091,

		JWTExpiry:                 24 * time.Hour,
		CookieSecure:              CookieSecureAuto,
		PasswordMinLength:         12,
		PasswordHIBPTimeout:       3 * time.Second,
		PasswordHIBPAPIURL:        "https://api.pwnedpasswords.com",
		LoginMaxFailedAttempts:    5,
		LoginLockoutDuration:      15 * time.Minute,
		RegistrationMode:          RegistrationDisabled,
		InviteRetainAfterTerminal: 30 * 24 * time.Hour,
		SessionCleanupInterval:    15 * time.Minute,
		SessionRetainExpired:      24 * time.Hour,

		AssessmentRationaleMinWords: 15,
		DashboardCache:              30 * time.Second,
		SearchCache:                 10 * time.Second,
	}
	want.settings = c.settings
	require.Equal(t, want, c)

	require.True(t, c.Embedded())
	require.False(t, c.IsProduction())
	require.False(t, c.IsTest())
	for _, s := range c.Settings() {
		require.Equal(t, "default", s.Source, s.Name)
	}
}

func TestFromEnvironReadsValues(t *testing.T) {
	t.Parallel()

	c, err := FromEnviron([]string{
		"NODE_ENV=Production",
		"PORT= 8080 ",
		"LOG_LEVEL=DEBUG",
		"CORS_ORIGIN=https://A.example.com, http://localhost:5173/,",
		"APP_URL=https://assay.example.com/base//",
		"SHUTDOWN_TIMEOUT=2 minutes",
		"DATABASE_PROVIDER=embedded",
		"DB_MAX_CONNS=5",
		"DB_MIN_CONNS=5",
		"MIGRATE_ON_START=off",
		"STORAGE_PROVIDER=s3",
		"S3_BUCKET=evidence",
		"S3_ENDPOINT=http://minio:9000",
		"S3_FORCE_PATH_STYLE=YES",
		"SMTP_ENABLED=1",
		"SMTP_HOST=mail.example.com",
		"SMTP_FROM=Assay <assay@example.com>",
		"WEBHOOK_TIMEOUT=2500",
		"METRICS_PREFIX=assay_",
		"MASTER_ENCRYPTION_KEY=" + hexKeyA,
		"REQUIRE_ENCRYPTION=true",
		"JWT_EXPIRY=7d",
		"COOKIE_SECURE=no",
		"REGISTRATION_MODE=open",
		"ACCEPT_OPEN_REGISTRATION_RISK=1",
		"SESSION_CLEANUP_INTERVAL_MINUTES=0",
		"EVIDENCE_EXPIRY_REMINDER_DAYS=0",
		"ASSESSMENT_RATIONALE_MIN_WORDS=0",
		"PORT=9090", // a later entry wins
		"UNRELATED=whatever",
		"=C:=C:\\", // Windows keeps such entries in its environment block
	})
	require.NoError(t, err)

	require.Equal(t, EnvProduction, c.NodeEnv)
	require.True(t, c.IsProduction())
	require.Equal(t, 9090, c.Port)
	require.Equal(t, slog.LevelDebug, c.LogLevel)
	require.Equal(t, []string{"https://a.example.com", "http://localhost:5173"}, c.CORSOrigins)
	require.Equal(t, "https://assay.example.com/base", c.AppURL)
	require.Equal(t, 2*time.Minute, c.ShutdownTimeout)
	require.Equal(t, DatabasePGlite, c.DatabaseProvider)
	require.True(t, c.Embedded())
	require.Equal(t, int32(5), c.DBMaxConns)
	require.Equal(t, int32(5), c.DBMinConns)
	require.False(t, c.MigrateOnStart)
	require.Equal(t, StorageS3, c.StorageProvider)
	require.Equal(t, "http://minio:9000", c.S3Endpoint)
	require.True(t, c.S3ForcePathStyle)
	require.True(t, c.SMTPEnabled)
	require.Equal(t, 2500*time.Millisecond, c.WebhookTimeout)
	require.Equal(t, "assay_", c.MetricsPrefix)
	require.Len(t, c.MasterKey, 32)
	require.Equal(t, 7*24*time.Hour, c.JWTExpiry)
	require.Equal(t, CookieSecureFalse, c.CookieSecure)
	require.False(t, c.SecureCookie(true))
	require.Equal(t, RegistrationOpen, c.RegistrationMode)
	require.Zero(t, c.SessionCleanupInterval)
	require.Zero(t, c.EvidenceExpiryReminderDays)
	require.Zero(t, c.AssessmentRationaleMinWords, "0 switches the rationale minimum off")

	settings := settingsByName(c.Settings())
	require.Equal(t, Setting{Name: "DATABASE_PROVIDER", Value: "pglite", Source: "env"}, settings["DATABASE_PROVIDER"])
	require.Equal(t, Setting{Name: "S3_FORCE_PATH_STYLE", Value: "true", Source: "env"}, settings["S3_FORCE_PATH_STYLE"])
	require.Equal(t, Setting{Name: "CORS_ORIGIN", Value: "https://a.example.com,http://localhost:5173", Source: "env"}, settings["CORS_ORIGIN"])
	require.Equal(t, Setting{Name: "SHUTDOWN_TIMEOUT", Value: "2 minutes", Source: "env"}, settings["SHUTDOWN_TIMEOUT"])
	require.Equal(t, Setting{Name: "RUN_WORKERS", Value: "true", Source: "default"}, settings["RUN_WORKERS"])
	require.Equal(t, Setting{Name: "PORT", Value: "9090", Source: "env"}, settings["PORT"])
}

func TestRunWorkersFollowsDatabaseProvider(t *testing.T) {
	t.Parallel()

	c, err := FromEnviron([]string{"DATABASE_PROVIDER=postgres"})
	require.NoError(t, err)
	require.False(t, c.RunWorkers)
	require.False(t, c.Embedded())

	c, err = FromEnviron([]string{"DATABASE_PROVIDER=postgres", "RUN_WORKERS=true"})
	require.NoError(t, err)
	require.True(t, c.RunWorkers)

	c, err = FromEnviron([]string{"RUN_WORKERS=false"})
	require.NoError(t, err)
	require.False(t, c.RunWorkers)
}

// TestDBMaxConnsFollowsProviderAndCPUs: the embedded database shares the service's CPUs,
// so its default pool is four connections per CPU, between 8 and 20; an external server
// keeps 20; a set value wins either way.
func TestDBMaxConnsFollowsProviderAndCPUs(t *testing.T) {
	t.Parallel()
	for cpus, want := range map[int]int{1: 8, 2: 8, 3: 12, 4: 16, 5: 20, 64: 20} {
		require.Equal(t, want, EmbeddedMaxConns(cpus), "%d CPUs", cpus)
	}

	c, err := FromEnviron(nil)
	require.NoError(t, err)
	want := strconv.Itoa(EmbeddedMaxConns(runtime.GOMAXPROCS(0)))
	require.Equal(t, want, strconv.Itoa(int(c.DBMaxConns)))
	require.Equal(t, Setting{Name: "DB_MAX_CONNS", Value: want, Source: "default"}, settingsByName(c.Settings())["DB_MAX_CONNS"])

	c, err = FromEnviron([]string{"DATABASE_PROVIDER=postgres"})
	require.NoError(t, err)
	require.Equal(t, int32(ExternalMaxConns), c.DBMaxConns)

	for _, provider := range []string{"pglite", "postgres"} {
		c, err = FromEnviron([]string{"DATABASE_PROVIDER=" + provider, "DB_MAX_CONNS=30"})
		require.NoError(t, err)
		require.Equal(t, int32(30), c.DBMaxConns, provider)
	}
}

func TestEmptyValueMeansUnset(t *testing.T) {
	t.Parallel()

	c, err := FromEnviron([]string{"PORT=", "LOG_LEVEL=  ", "JWT_SECRET=", "NODE_ENV=test"})
	require.NoError(t, err)
	require.Equal(t, 3001, c.Port)
	require.Equal(t, slog.LevelInfo, c.LogLevel)
	require.Empty(t, c.JWTSecret)
	require.True(t, c.IsTest())
	require.Equal(t, "default", settingsByName(c.Settings())["PORT"].Source)
}

// TestLoadReadsOnlyTheGivenEnvironment checks that Load reads the process environment and
// that FromEnviron does not: no viper instance or global state leaks between the two.
// It changes the process environment, so it cannot run in parallel.
func TestLoadReadsOnlyTheGivenEnvironment(t *testing.T) {
	t.Setenv("PORT", "4000")
	t.Setenv("LOG_LEVEL", "warn")

	c, err := Load()
	require.NoError(t, err)
	require.Equal(t, 4000, c.Port)
	require.Equal(t, slog.LevelWarn, c.LogLevel)

	c, err = FromEnviron(nil)
	require.NoError(t, err)
	require.Equal(t, 3001, c.Port)
	require.Equal(t, slog.LevelInfo, c.LogLevel)
}

func TestSecureCookie(t *testing.T) {
	t.Parallel()

	tests := []struct {
		env          []string
		https, plain bool
	}{
		{env: nil, https: true, plain: false},
		{env: []string{"NODE_ENV=production"}, https: true, plain: true},
		{env: []string{"COOKIE_SECURE=true"}, https: true, plain: true},
		{env: []string{"COOKIE_SECURE=false", "NODE_ENV=production"}, https: false, plain: false},
	}
	for _, test := range tests {
		c, err := FromEnviron(test.env)
		require.NoError(t, err)
		require.Equal(t, test.https, c.SecureCookie(true), test.env)
		require.Equal(t, test.plain, c.SecureCookie(false), test.env)
	}
}

// hexKeyA is a valid master key for tests.
const hexKeyA = "00112233445566778899aabbccddeeff00112233445566778899AABBCCDDEEFF"

func settingsByName(settings []Setting) map[string]Setting {
	m := make(map[string]Setting, len(settings))
	for _, s := range settings {
		m[s.Name] = s
	}
	return m
}

func TestDeliveryVariables(t *testing.T) {
	c, err := FromEnviron([]string{"OUTBOUND_ALLOW_NETWORKS= 127.0.0.1 , 10.20.0.0/16,::ffff:192.168.1.9", "SMTP_HOST=mail.example.com"})
	require.NoError(t, err)
	require.Equal(t, []netip.Prefix{
		netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.20.0.0/16"), netip.MustParsePrefix("192.168.1.9/32"),
	}, c.OutboundAllowNetworks)
	require.True(t, c.IsSet("SMTP_HOST"), "set by the environment")
	require.False(t, c.IsSet("SMTP_PORT"), "default only")
	require.False(t, c.IsSet("NO_SUCH_VARIABLE"))
}
