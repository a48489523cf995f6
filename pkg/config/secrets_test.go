package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSecretFileOverridesPlainVariable(t *testing.T) {
	t.Parallel()

	dir := t.TempDir()
	idFile := filepath.Join(dir, "access-key-id")
	secretFile := filepath.Join(dir, "secret-access-key")
	require.NoError(t, os.WriteFile(idFile, []byte("AKIAFROMFILE\n"), 0o600))
	require.NoError(t, os.WriteFile(secretFile, []byte("s3cr3t from file \r\n\n"), 0o600))

	c, err := FromEnviron([]string{
		"STORAGE_PROVIDER=s3",
		"S3_BUCKET=evidence",
		"S3_ACCESS_KEY_ID=AKIAFROMENV",
		"S3_SECRET_ACCESS_KEY=plain-secret-from-env",
		"S3_ACCESS_KEY_ID_FILE=" + idFile,
		"S3_SECRET_ACCESS_KEY_FILE=" + secretFile,
	})
	require.NoError(t, err)
	require.Equal(t, "AKIAFROMFILE", c.S3AccessKeyID)
	require.Equal(t, "s3cr3t from file", c.S3SecretAccessKey)

	settings := settingsByName(c.Settings())
	require.Equal(t, Setting{Name: "S3_ACCESS_KEY_ID", Value: "<redacted>", Source: "file", Secret: true}, settings["S3_ACCESS_KEY_ID"])
	require.Equal(t, Setting{Name: "S3_SECRET_ACCESS_KEY", Value: "<redacted>", Source: "file", Secret: true}, settings["S3_SECRET_ACCESS_KEY"])
	require.Equal(t, Setting{Name: "S3_SECRET_ACCESS_KEY_FILE", Value: secretFile, Source: "env"}, settings["S3_SECRET_ACCESS_KEY_FILE"])
	for _, s := range c.Settings() {
		require.NotContains(t, s.Value, "AKIA", s.Name)
		require.NotContains(t, s.Value, "s3cr3t", s.Name)
		require.NotContains(t, s.Value, "plain-secret", s.Name)
	}
}

func TestSecretFileRefusedWhateverTheStorageProvider(t *testing.T) {
	t.Parallel()

	empty := filepath.Join(t.TempDir(), "empty")
	require.NoError(t, os.WriteFile(empty, []byte("\n"), 0o600))

	_, err := FromEnviron([]string{"STORAGE_PROVIDER=database", "S3_ACCESS_KEY_ID_FILE=" + empty})
	require.ErrorContains(t, err, "S3_ACCESS_KEY_ID_FILE=")
	require.ErrorContains(t, err, "not empty")
}

func TestSettingsNeverShowSecrets(t *testing.T) {
	t.Parallel()

	secrets := map[string]string{
		"DATABASE_URL":              "postgres://assay:pg-password-1@db:5432/assay",
		"S3_ACCESS_KEY_ID":          "access-key-id-2",
		"S3_SECRET_ACCESS_KEY":      "secret-access-key-3",
		"SMTP_PASS":                 " smtp password 4 ",
		"METRICS_TOKEN":             "metrics-token-5",
		"MASTER_ENCRYPTION_KEY":     hexKeyA,
		"OLD_MASTER_ENCRYPTION_KEY": strings.Repeat("ab", 32),
		"JWT_SECRET":                "a-jwt-secret-that-is-long-enough-6",
	}
	env := []string{"DATABASE_PROVIDER=postgres", "STORAGE_PROVIDER=s3", "S3_BUCKET=b"}
	for name, value := range secrets {
		env = append(env, name+"="+value)
	}

	c, err := FromEnviron(env)
	require.NoError(t, err)
	require.Equal(t, " smtp password 4 ", c.SMTPPass, "secrets are used exactly as given")

	settings := c.Settings()
	require.Len(t, settings, len(variables))
	for _, s := range settings {
		if _, ok := secrets[s.Name]; ok {
			require.True(t, s.Secret, s.Name)
			require.Equal(t, "<redacted>", s.Value, s.Name)
			require.Equal(t, "env", s.Source, s.Name)
		}
		for _, plain := range secrets {
			require.NotContains(t, s.Value, strings.TrimSpace(plain), s.Name)
		}
		require.NotContains(t, strings.ToLower(s.Value), strings.ToLower(hexKeyA[:16]), s.Name)
	}

	// Unset secrets show as empty, so an operator can tell "not configured" from "hidden".
	c, err = FromEnviron(nil)
	require.NoError(t, err)
	byName := settingsByName(c.Settings())
	require.Equal(t, Setting{Name: "JWT_SECRET", Value: "", Source: "default", Secret: true}, byName["JWT_SECRET"])
	require.Equal(t, Setting{Name: "MASTER_ENCRYPTION_KEY", Value: "", Source: "default", Secret: true}, byName["MASTER_ENCRYPTION_KEY"])

	// Settings returns a copy.
	c.Settings()[0].Value = "changed"
	require.NotEqual(t, "changed", c.Settings()[0].Value)
}
