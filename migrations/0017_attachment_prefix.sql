-- Evidence attachments move from the identifier prefix at_ to af_ ("attachment file"):
-- the interface specification reserves at_ for attestations (docs/assessments.md
-- "Attachment ids"). Every attachment id is rewritten, keeping its 26 characters, and so
-- is every place the store recorded one:
--
--   evidence_attachments.id      the primary key (no foreign key references it);
--   audit_log.target_id          rows whose target_type is 'evidence_attachment' (added,
--                                removed, integrity failed), also of files deleted since;
--   events.data #> '{attachment,id}'  the payload of evidence.attachment_added and
--                                evidence.attachment_removed; a webhook delivery renders
--                                its payload from the event row when it is sent.
--
-- Nothing else holds an attachment id: storage keys are evidence/<evidence id>/<random>
-- (blob_chunks, blob_garbage and S3 objects stay as they are), an event's link names the
-- evidence, notifications and chat and e-mail deliveries carry the file name, not the id,
-- and uploads take no Idempotency-Key. Only these positions are rewritten, never free text:
-- a file name, an evidence name or a note may well contain something shaped like an old id.

ALTER TABLE evidence_attachments DROP CONSTRAINT evidence_attachments_id_check;

UPDATE evidence_attachments SET id = 'af_' || substr(id, 4) WHERE id LIKE 'at\_%';

ALTER TABLE evidence_attachments ADD CONSTRAINT evidence_attachments_id_check CHECK (id LIKE 'af\_%');

-- The action index finds the rows; the audit log is the largest table written here.
UPDATE audit_log SET target_id = 'af_' || substr(target_id, 4)
WHERE action IN ('evidence.attachment_added', 'evidence.attachment_removed', 'evidence.attachment_integrity_failed')
    AND target_type = 'evidence_attachment' AND target_id ~ '^at_[0-9a-z]{26}$';

UPDATE events SET data = jsonb_set(data, '{attachment,id}', to_jsonb('af_' || substr(data #>> '{attachment,id}', 4)))
WHERE type IN ('evidence.attachment_added', 'evidence.attachment_removed')
    AND data #>> '{attachment,id}' ~ '^at_[0-9a-z]{26}$';
