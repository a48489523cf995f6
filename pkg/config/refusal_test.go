package config

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFromEnvironRefuses(t *testing.T) {
	t.Parallel()

	missing := filepath.Join(t.TempDir(), "does-not-exist")
	dir := t.TempDir()
	const shortSecret = "tooShortSecret-abc"

	tests := []struct {
		name string
		env  []string
		// variable must be named by a problem; value, when set, must be that problem's value.
		variable, value string
		// mention must appear somewhere in the error.
		mention string
	}{
		{name: "port not a number", env: []string{"PORT=abc"}, variable: "PORT", value: "abc", mention: "between 1 and 65535"},
		{name: "port too high", env: []string{"PORT=70000"}, variable: "PORT", value: "70000"},
		{name: "port in hex", env: []string{"PORT=0x50"}, variable: "PORT", value: "0x50"},
		{name: "log level", env: []string{"LOG_LEVEL=loud"}, variable: "LOG_LEVEL", value: "loud", mention: "error, warn, info, debug"},
		{name: "password too short", env: []string{"PASSWORD_MIN_LENGTH=7"}, variable: "PASSWORD_MIN_LENGTH", value: "7"},
		{name: "rationale minimum negative", env: []string{"ASSESSMENT_RATIONALE_MIN_WORDS=-1"}, variable: "ASSESSMENT_RATIONALE_MIN_WORDS", value: "-1"},
		{name: "rationale minimum too high", env: []string{"ASSESSMENT_RATIONALE_MIN_WORDS=1001"}, variable: "ASSESSMENT_RATIONALE_MIN_WORDS", value: "1001"},
		{name: "dashboard cache negative", env: []string{"DASHBOARD_CACHE_SECONDS=-1"}, variable: "DASHBOARD_CACHE_SECONDS", value: "-1"},
		{name: "search cache too long", env: []string{"SEARCH_CACHE_SECONDS=3601"}, variable: "SEARCH_CACHE_SECONDS", value: "3601"},
		{name: "password too long", env: []string{"PASSWORD_MIN_LENGTH=129"}, variable: "PASSWORD_MIN_LENGTH", value: "129"},
		{name: "jwt secret short", env: []string{"JWT_SECRET=" + shortSecret}, variable: "JWT_SECRET", value: redacted, mention: "32 characters"},
		{name: "jwt expiry", env: []string{"JWT_EXPIRY=forever"}, variable: "JWT_EXPIRY", value: "forever"},
		{name: "jwt expiry zero", env: []string{"JWT_EXPIRY=0"}, variable: "JWT_EXPIRY", value: "0"},
		{name: "jwt expiry negative", env: []string{"JWT_EXPIRY=-1h"}, variable: "JWT_EXPIRY", value: "-1h"},
		{name: "shutdown timeout", env: []string{"SHUTDOWN_TIMEOUT=30 sec s"}, variable: "SHUTDOWN_TIMEOUT", value: "30 sec s"},
		{name: "encryption required without key", env: []string{"REQUIRE_ENCRYPTION=true"}, variable: "REQUIRE_ENCRYPTION", value: "true", mention: "MASTER_ENCRYPTION_KEY"},
		{name: "encryption required with short key", env: []string{"REQUIRE_ENCRYPTION=yes", "MASTER_ENCRYPTION_KEY=" + hexKeyA[:63]}, variable: "REQUIRE_ENCRYPTION", mention: "MASTER_ENCRYPTION_KEY="},
		{name: "master key not hex", env: []string{"MASTER_ENCRYPTION_KEY=" + strings.Repeat("g", 64)}, variable: "MASTER_ENCRYPTION_KEY", value: redacted, mention: "64 hexadecimal"},
		{name: "old master key too long", env: []string{"OLD_MASTER_ENCRYPTION_KEY=" + hexKeyA + "00"}, variable: "OLD_MASTER_ENCRYPTION_KEY", value: redacted},
		{name: "open registration in production", env: []string{"NODE_ENV=production", "REGISTRATION_MODE=open"}, variable: "REGISTRATION_MODE", value: "open", mention: "ACCEPT_OPEN_REGISTRATION_RISK"},
		{name: "open registration acknowledged with a bad boolean", env: []string{"NODE_ENV=production", "REGISTRATION_MODE=open", "ACCEPT_OPEN_REGISTRATION_RISK=sure"}, variable: "ACCEPT_OPEN_REGISTRATION_RISK", value: "sure"},
		{name: "registration mode", env: []string{"REGISTRATION_MODE=everyone"}, variable: "REGISTRATION_MODE", value: "everyone"},
		{name: "secret key file missing", env: []string{"S3_SECRET_ACCESS_KEY_FILE=" + missing}, variable: "S3_SECRET_ACCESS_KEY_FILE", value: missing, mention: "no such file or directory"},
		{name: "secret key file is a directory", env: []string{"S3_SECRET_ACCESS_KEY_FILE=" + dir, "STORAGE_PROVIDER=s3", "S3_BUCKET=b"}, variable: "S3_SECRET_ACCESS_KEY_FILE", value: dir, mention: "is a directory"},
		{name: "access key file missing", env: []string{"S3_ACCESS_KEY_ID_FILE=" + missing}, variable: "S3_ACCESS_KEY_ID_FILE", value: missing},
		{name: "s3 without bucket", env: []string{"STORAGE_PROVIDER=s3"}, variable: "S3_BUCKET", value: "", mention: "STORAGE_PROVIDER is s3"},
		{name: "s3 with half a key pair", env: []string{"STORAGE_PROVIDER=s3", "S3_BUCKET=b", "S3_ACCESS_KEY_ID=AKIA"}, variable: "S3_SECRET_ACCESS_KEY", value: ""},
		{name: "s3 endpoint relative", env: []string{"S3_ENDPOINT=minio:9000"}, variable: "S3_ENDPOINT", value: "minio:9000"},
		{name: "evidence reminder negative", env: []string{"EVIDENCE_EXPIRY_REMINDER_DAYS=-1"}, variable: "EVIDENCE_EXPIRY_REMINDER_DAYS", value: "-1", mention: "between 0 and 365"},
		{name: "evidence reminder too far", env: []string{"EVIDENCE_EXPIRY_REMINDER_DAYS=366"}, variable: "EVIDENCE_EXPIRY_REMINDER_DAYS", value: "366"},
		{name: "storage provider", env: []string{"STORAGE_PROVIDER=disk"}, variable: "STORAGE_PROVIDER", value: "disk"},
		{name: "bad boolean", env: []string{"SMTP_ENABLED=maybe"}, variable: "SMTP_ENABLED", value: "maybe", mention: "true, false, 1, 0, yes, no, on, off"},
		{name: "outbound networks", env: []string{"OUTBOUND_ALLOW_NETWORKS=127.0.0.1,intranet"}, variable: "OUTBOUND_ALLOW_NETWORKS", value: "127.0.0.1,intranet", mention: "CIDR"},
		{name: "disable threshold negative", env: []string{"DELIVERY_DISABLE_AFTER_FAILURES=-1"}, variable: "DELIVERY_DISABLE_AFTER_FAILURES", value: "-1"},
		{name: "bad boolean 2", env: []string{"METRICS_ENABLED=enabled"}, variable: "METRICS_ENABLED", value: "enabled"},
		{name: "bad boolean 3", env: []string{"MIGRATE_ON_START=2"}, variable: "MIGRATE_ON_START", value: "2"},
		{name: "cors wildcard", env: []string{"CORS_ORIGIN=*"}, variable: "CORS_ORIGIN", value: "*", mention: "credentials"},
		{name: "cors wildcard in a list", env: []string{"CORS_ORIGIN=https://a.example.com,*"}, variable: "CORS_ORIGIN"},
		{name: "cors origin with path", env: []string{"CORS_ORIGIN=https://a.example.com/app"}, variable: "CORS_ORIGIN"},
		{name: "cors origin without scheme", env: []string{"CORS_ORIGIN=a.example.com"}, variable: "CORS_ORIGIN"},
		{name: "cors empty list", env: []string{"CORS_ORIGIN=,"}, variable: "CORS_ORIGIN", value: ","},
		{name: "app url relative", env: []string{"APP_URL=/assay"}, variable: "APP_URL", value: "/assay"},
		{name: "app url ftp", env: []string{"APP_URL=ftp://example.com"}, variable: "APP_URL"},
		{name: "smtp bad sender", env: []string{"SMTP_FROM=not an address"}, variable: "SMTP_FROM", value: "not an address"},
		{name: "metrics prefix", env: []string{"METRICS_PREFIX=9bad"}, variable: "METRICS_PREFIX", value: "9bad"},
		{name: "metrics prefix without underscore", env: []string{"METRICS_PREFIX=assay"}, variable: "METRICS_PREFIX", value: "assay"},
		{name: "database provider", env: []string{"DATABASE_PROVIDER=mysql"}, variable: "DATABASE_PROVIDER", value: "mysql", mention: "pglite, embedded, postgres"},
		{name: "database url", env: []string{"DATABASE_PROVIDER=postgres", "DATABASE_URL=postgres://u:hunter2@host:notaport/db"}, variable: "DATABASE_URL", value: redacted},
		{name: "cookie secure", env: []string{"COOKIE_SECURE=maybe"}, variable: "COOKIE_SECURE", value: "maybe"},
		{name: "node env", env: []string{"NODE_ENV=staging"}, variable: "NODE_ENV", value: "staging"},
		{name: "min conns above max", env: []string{"DB_MAX_CONNS=4", "DB_MIN_CONNS=5"}, variable: "DB_MIN_CONNS", value: "5", mention: "between 0 and 4"},
		{name: "max conns", env: []string{"DB_MAX_CONNS=0"}, variable: "DB_MAX_CONNS", value: "0"},
		{name: "body cap", env: []string{"API_MAX_BODY_BYTES=1023"}, variable: "API_MAX_BODY_BYTES", value: "1023", mention: "at least 1024"},
		{name: "rate limit", env: []string{"RATE_LIMIT_PER_MINUTE=0"}, variable: "RATE_LIMIT_PER_MINUTE", value: "0"},
		{name: "proxy hops", env: []string{"TRUST_PROXY_HOPS=-1"}, variable: "TRUST_PROXY_HOPS", value: "-1"},
		{name: "webhook timeout", env: []string{"WEBHOOK_TIMEOUT=300001"}, variable: "WEBHOOK_TIMEOUT", value: "300001"},
		{name: "webhook timeout in ms format", env: []string{"WEBHOOK_TIMEOUT=10s"}, variable: "WEBHOOK_TIMEOUT", value: "10s"},
		{name: "chat retention", env: []string{"CHAT_DELIVERY_RETENTION_DAYS=0"}, variable: "CHAT_DELIVERY_RETENTION_DAYS", value: "0"},
		{name: "metrics refresh", env: []string{"METRICS_DOMAIN_REFRESH_INTERVAL=86401"}, variable: "METRICS_DOMAIN_REFRESH_INTERVAL", value: "86401"},
		{name: "lockout", env: []string{"LOGIN_LOCKOUT_DURATION_MINUTES=0"}, variable: "LOGIN_LOCKOUT_DURATION_MINUTES", value: "0"},
		{name: "session retention", env: []string{"SESSION_RETAIN_EXPIRED_HOURS=87601"}, variable: "SESSION_RETAIN_EXPIRED_HOURS", value: "87601"},
		{name: "upload size", env: []string{"UPLOAD_MAX_FILE_SIZE=0"}, variable: "UPLOAD_MAX_FILE_SIZE", value: "0"},
		{name: "bind address", env: []string{"BIND_ADDRESS=my host"}, variable: "BIND_ADDRESS", value: "my host"},
		{name: "request timeout", env: []string{"REQUEST_TIMEOUT=0"}, variable: "REQUEST_TIMEOUT", value: "0"},
		{name: "statement timeout", env: []string{"DB_STATEMENT_TIMEOUT=soon"}, variable: "DB_STATEMENT_TIMEOUT", value: "soon"},
		{name: "gogc mistyped", env: []string{"GOGC=40O"}, variable: "GOGC", value: "40O", mention: "off or an integer"},
		{name: "gogc upper case off", env: []string{"GOGC=OFF"}, variable: "GOGC", value: "OFF"},
		{name: "gogc with a space", env: []string{"GOGC=400 "}, variable: "GOGC", value: "400 "},
		{name: "gomemlimit unit", env: []string{"GOMEMLIMIT=512MB"}, variable: "GOMEMLIMIT", value: "512MB", mention: "KiB, MiB, GiB or TiB"},
		{name: "gomemlimit decimal", env: []string{"GOMEMLIMIT=1.5GiB"}, variable: "GOMEMLIMIT", value: "1.5GiB"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			t.Parallel()

			c, err := FromEnviron(test.env)
			require.Nil(t, c)
			var verr *ValidationError
			require.True(t, errors.As(err, &verr), "want a *ValidationError, got %v", err)
			msg := err.Error()
			require.True(t, strings.HasPrefix(msg, "invalid configuration:\n  "), msg)

			p, ok := findProblem(verr, test.variable)
			require.True(t, ok, "no problem names %s in:\n%s", test.variable, msg)
			require.NotEmpty(t, p.Accepted)
			if test.value != "" {
				require.Equal(t, test.value, p.Value)
				require.Contains(t, msg, test.variable+"="+`"`+test.value+`"`)
			}
			require.Contains(t, msg, test.mention)
			require.NotContains(t, msg, shortSecret)
			require.NotContains(t, msg, "hunter2")
			require.NotContains(t, msg, strings.Repeat("g", 64))
			require.NotContains(t, msg, hexKeyA[:63])
		})
	}
}

func TestOpenRegistration(t *testing.T) {
	t.Parallel()

	for _, env := range [][]string{
		{"NODE_ENV=production", "REGISTRATION_MODE=open", "ACCEPT_OPEN_REGISTRATION_RISK=1"},
		{"NODE_ENV=production", "REGISTRATION_MODE=open", "ACCEPT_OPEN_REGISTRATION_RISK=true"},
		{"NODE_ENV=development", "REGISTRATION_MODE=open"},
		{"NODE_ENV=test", "REGISTRATION_MODE=open"},
		{"NODE_ENV=production", "REGISTRATION_MODE=invite_only"},
	} {
		c, err := FromEnviron(env)
		require.NoError(t, err, env)
		require.NotNil(t, c)
	}
}

func TestFromEnvironReportsEveryProblem(t *testing.T) {
	t.Parallel()

	_, err := FromEnviron([]string{
		"PORT=abc",
		"LOG_LEVEL=loud",
		"COOKIE_SECURE=maybe",
		"STORAGE_PROVIDER=s3",
		"REQUIRE_ENCRYPTION=1",
	})
	var verr *ValidationError
	require.ErrorAs(t, err, &verr)
	var names []string
	for _, p := range verr.Problems {
		names = append(names, p.Variable)
	}
	require.Equal(t, []string{"PORT", "LOG_LEVEL", "S3_BUCKET", "REQUIRE_ENCRYPTION", "COOKIE_SECURE"}, names)
	require.Equal(t, len(names)+1, strings.Count(err.Error(), "\n")+1)
	require.Contains(t, err.Error(), "\n  PORT=\"abc\": must be an integer between 1 and 65535\n")
}

func findProblem(err *ValidationError, variable string) (Problem, bool) {
	for _, p := range err.Problems {
		if p.Variable == variable {
			return p, true
		}
	}
	return Problem{}, false
}
