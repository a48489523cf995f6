-- The ids of a user's roles on the user's row (issue 11, docs/performance.md).
--
-- Every read of a user shows the names of their roles. Reading the ids from user_roles
-- with a sub-select per user was more than half of the execution time of a page of 50
-- users; the page now reads them from users.role_ids. The column is kept by a trigger on
-- user_roles, in the transaction that changes the roles, so it cannot disagree with
-- user_roles, whichever code (or hand-written SQL) changes them. user_roles stays the
-- table of record: permissions, the event fan-out and the role filters use it.
ALTER TABLE users ADD COLUMN role_ids text[] NOT NULL DEFAULT '{}';

UPDATE users u SET role_ids = ARRAY(SELECT ur.role_id FROM user_roles ur WHERE ur.user_id = u.id ORDER BY ur.role_id)
WHERE EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id);

-- OLD is null for an insert and NEW for a delete: the user (or, for a moved entry, both
-- users) whose entries changed.
CREATE FUNCTION users_sync_role_ids() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE users u SET role_ids = ARRAY(SELECT ur.role_id FROM user_roles ur WHERE ur.user_id = u.id ORDER BY ur.role_id)
	WHERE u.id IN (OLD.user_id, NEW.user_id);
	RETURN NULL;
END
$$;

CREATE TRIGGER user_roles_sync_role_ids AFTER INSERT OR UPDATE OR DELETE ON user_roles
	FOR EACH ROW EXECUTE FUNCTION users_sync_role_ids();
