-- Indexes of the request hot path (issue 11, docs/performance.md).
--
-- The user list's default order is (lower(username), id): with this index a page is read
-- in order straight from the index, and the keyset condition of the next page is one
-- index range (users_username_key alone leaves an incremental sort on id per page).
CREATE INDEX users_username_order_idx ON users (lower(username), id);

-- The unread count of a user: an index-only scan of the user's entries. One key column
-- deduplicates (one entry per user and page, however many notifications), so a count of
-- a thousand unread reads two pages instead of the twenty of notifications_unread_idx.
CREATE INDEX notifications_unread_user_idx ON notifications (user_id) WHERE read_at IS NULL;
