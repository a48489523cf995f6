-- Signing keys held by the service for users who cannot keep one (docs/attestations.md,
-- "Keys held by the service"). They live beside the public keys users keep on their
-- profile: held is true, private_key is the PKCS#8 PEM sealed through the keyring (the
-- encrypted field user_signing_keys/private_key/<id>). A revocation destroys the private
-- key (NULL) and keeps the row, so verification can still tell signatures made before the
-- revocation (valid) from those claiming a later time (invalid).
ALTER TABLE user_signing_keys
    ADD COLUMN held        boolean NOT NULL DEFAULT false,
    ADD COLUMN private_key text,
    ADD COLUMN revoked_at  timestamptz,
    ADD COLUMN revoked_by  text REFERENCES users (id) ON DELETE SET NULL,
    ADD CONSTRAINT user_signing_keys_private_held CHECK (private_key IS NULL OR held),
    ADD CONSTRAINT user_signing_keys_revoked_destroyed CHECK (revoked_at IS NULL OR (held AND private_key IS NULL)),
    ADD CONSTRAINT user_signing_keys_held_usable CHECK (NOT held OR revoked_at IS NOT NULL OR private_key IS NOT NULL);

-- Verification looks revoked held keys up by thumbprint.
CREATE INDEX user_signing_keys_revoked_idx ON user_signing_keys (key_id) WHERE revoked_at IS NOT NULL;
