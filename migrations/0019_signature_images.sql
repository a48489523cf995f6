-- A user's signature image, kept on the profile for electronic signatures: PNG only (the
-- service re-encodes what it is given), at most 512 KiB.
CREATE TABLE user_signature_images (
    user_id    text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    png        bytea NOT NULL CHECK (octet_length(png) BETWEEN 1 AND 524288),
    updated_at timestamptz NOT NULL DEFAULT now()
);
