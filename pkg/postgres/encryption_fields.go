package postgres

// EncryptedField names one table column that holds a secret. The registry below is the
// one place that lists them: encrypt-secrets, rotation, rekey and the status counts all
// walk it. A feature that stores a secret adds its column here and reads and writes it
// through the keyring with AAD(id).
type EncryptedField struct {
	Kind     string // shown in the status counts
	Table    string
	Column   string
	IDColumn string // unique, text-comparable key of a row
	Filter   string // optional SQL condition selecting the secret rows of Table
}

// AAD is the associated data bound into a row's ciphertext, so it opens only there.
func (f EncryptedField) AAD(id string) string { return f.Table + "/" + f.Column + "/" + id }

// The secret columns of events and deliveries. E-mail parameters are stored only for
// direct e-mails (invite, password reset, test), and an empty SMTP password means none.
var (
	WebhookURLField    = EncryptedField{Kind: "webhook_url", Table: "webhooks", Column: "url", IDColumn: "id"}
	WebhookSecretField = EncryptedField{Kind: "webhook_secret", Table: "webhooks", Column: "secret", IDColumn: "id"}
	ChatURLField       = EncryptedField{Kind: "chat_url", Table: "chat_destinations", Column: "url", IDColumn: "id"}
	EmailParamsField   = EncryptedField{Kind: "email_params", Table: "deliveries", Column: "params", IDColumn: "id", Filter: "params IS NOT NULL"}
	SmtpPasswordField  = EncryptedField{Kind: "smtp_password", Table: "smtp_settings", Column: "password", IDColumn: "id", Filter: "password <> ''"}
)

// EncryptedFields is the registry of every secret-holding column.
var EncryptedFields = []EncryptedField{
	{Kind: "jwt_secret", Table: "app_config", Column: "value", IDColumn: "key", Filter: "key = 'jwt_secret'"},
	{Kind: "api_key_hash", Table: "api_keys", Column: "secret_hash", IDColumn: "id"},
	WebhookURLField,
	WebhookSecretField,
	ChatURLField,
	EmailParamsField,
	SmtpPasswordField,
	PlatformKeyField,
	HeldSigningKeyField,
}

func (f EncryptedField) where() string {
	if f.Filter == "" {
		return "TRUE"
	}
	return "(" + f.Filter + ")"
}

var PlatformKeyField = EncryptedField{Kind: "platform_signing_key", Table: "platform_keys", Column: "private_key", IDColumn: "id"}

// HeldSigningKeyField is the private key of a signing key the service holds for a user
// (PKCS#8 PEM); a revoked key has none.
var HeldSigningKeyField = EncryptedField{Kind: "held_signing_key", Table: "user_signing_keys", Column: "private_key", IDColumn: "id", Filter: "held"}
