-- Keys held by the service are kept (docs/attestations.md, "Keys held by the service").
-- Verification judges a held key's signatures by its row (its public key, and when it was
-- revoked), and the public rescission list lists the revoked ones from it. The API never
-- deletes a held key (409 held_key), but a user's row deleted in SQL cascaded to their keys
-- (migration 0018), and a revocation deleted with its row left the rescission list: offline
-- verifiers would again accept what the key signed after it was revoked. A held key's row
-- now refuses every delete, also the cascade from its user, so such a user cannot be
-- deleted (deactivate them instead). A user's own public keys still go with the user.
CREATE FUNCTION user_signing_keys_keep_held() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'held signing key % of user % is kept: verification and the rescission list judge its signatures by it',
        OLD.id, OLD.user_id
        USING ERRCODE = 'restrict_violation',
              HINT = 'deactivate the user instead of deleting them';
END;
$$;

CREATE TRIGGER user_signing_keys_keep_held
    BEFORE DELETE ON user_signing_keys
    FOR EACH ROW WHEN (OLD.held)
    EXECUTE FUNCTION user_signing_keys_keep_held();
