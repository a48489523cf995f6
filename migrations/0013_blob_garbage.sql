-- Stored bytes that no attachment references any more wait here until the blob collector
-- (a periodic job) deletes them from their provider; nothing is left behind in a bucket or
-- in blob_chunks when an attachment or its evidence is deleted.
--
-- Two kinds of rows: an object of a deleted attachment (due at once), and an upload in
-- flight, queued before its first byte is stored and taken off the queue in the
-- transaction that records the attachment — so the bytes of an upload the process never
-- finished (a crash, a lost connection) are collected once it is due.
CREATE TABLE blob_garbage (
    provider    text NOT NULL CHECK (provider IN ('database', 's3')),
    storage_key text NOT NULL,
    due_at      timestamptz NOT NULL DEFAULT now(),
    attempts    int NOT NULL DEFAULT 0,
    last_error  text NOT NULL DEFAULT '',
    PRIMARY KEY (provider, storage_key)
);
CREATE INDEX blob_garbage_due_idx ON blob_garbage (due_at);

-- The index the provider-and-key look-ups of the collector use.
CREATE INDEX evidence_attachments_storage_idx ON evidence_attachments (provider, storage_key);

-- Deleting an attachment (directly or with its evidence) deletes the chunks of a database
-- object in the same transaction, and queues an S3 object for the collector.
CREATE FUNCTION evidence_attachment_deleted() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.provider = 'database' THEN
        DELETE FROM blob_chunks WHERE blob_key = OLD.storage_key;
    ELSE
        INSERT INTO blob_garbage (provider, storage_key) VALUES (OLD.provider, OLD.storage_key)
            ON CONFLICT (provider, storage_key) DO UPDATE SET due_at = now();
    END IF;
    RETURN OLD;
END
$$;

CREATE TRIGGER evidence_attachments_collect AFTER DELETE ON evidence_attachments
    FOR EACH ROW EXECUTE FUNCTION evidence_attachment_deleted();
