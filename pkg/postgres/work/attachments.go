package work

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// The records of evidence files (docs/assessments.md "Attachments and storage"). The
// flows that move the bytes — an upload streamed to a provider, a download checked
// against its SHA-256, the blob collector — are pkg/app's: the store keeps the records,
// checks who may add a file and when (CheckAttachable, again in RecordAttachment), and
// keeps the garbage queue of stored objects (blobqueue.go). The database provider's
// objects are rows too (ChunkStore, blobchunks.go).

const attachmentColumns = `a.id, a.evidence_id, a.filename, a.content_type, a.size_bytes, a.sha256, a.provider,
	a.storage_key, a.created_at, u.id, u.username, u.display_name`

const attachmentFrom = ` FROM evidence_attachments a LEFT JOIN users u ON u.id = a.uploaded_by`

func scanAttachment(row pgx.Row) (assess.StoredAttachment, error) {
	var a assess.StoredAttachment
	var uid, uname, udisplay *string
	err := row.Scan(&a.ID, &a.EvidenceID, &a.Filename, &a.ContentType, &a.SizeBytes, &a.SHA256, &a.Provider,
		&a.StorageKey, &a.CreatedAt, &uid, &uname, &udisplay)
	if uid != nil {
		a.UploadedBy = &assess.UserRef{ID: *uid, Username: deref(uname), DisplayName: deref(udisplay)}
	}
	return a, err
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

var errAttachmentNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "Attachment not found."}

// findAttachment reads attachment id of evidence evidenceID (visibility checked by the
// caller); with lock, the row is locked for update.
func findAttachment(ctx context.Context, q postgres.Querier, evidenceID, id string, lock bool) (assess.StoredAttachment, error) {
	if !assess.ValidID(assess.PrefixAttachment, id) {
		return assess.StoredAttachment{}, errAttachmentNotFound
	}
	sql := "SELECT " + attachmentColumns + attachmentFrom + " WHERE a.id = $1 AND a.evidence_id = $2"
	if lock {
		sql += " FOR UPDATE OF a"
	}
	a, err := scanAttachment(q.QueryRow(ctx, sql, id, evidenceID))
	if errors.Is(err, pgx.ErrNoRows) {
		return a, errAttachmentNotFound
	}
	return a, err
}

// unlockedEvidence checks that actor may see evidence id (404) and that its files accept
// changes: not locked (409 with the lock reason), and not in review (409 in_review: the
// reviewer judges the files that were submitted).
func unlockedEvidence(ctx context.Context, q postgres.Querier, actor assess.Actor, id string) error {
	if err := postgres.EvidenceVisible(ctx, q, actor, id); err != nil {
		return err
	}
	if tx, ok := q.(*postgres.Tx); ok {
		// Within a change the evidence row is locked, so that the change cannot race what
		// locks the evidence (approval, review) or its deletion. The change bumps the
		// evidence's version, so it takes the lock of that update now: under a shared lock,
		// two files added at once each waited for the other's to bump the version (a
		// deadlock, TestFilesAddedAndRemovedAtOnceDoNotDeadlock).
		if _, err := tx.Exec(ctx, "SELECT 1 FROM evidence WHERE id = $1 FOR NO KEY UPDATE", id); err != nil {
			return err
		}
	}
	var state assess.EvidenceState
	if err := q.QueryRow(ctx, "SELECT state FROM evidence WHERE id = $1", id).Scan(&state); err == nil && state == assess.EvidenceInReview {
		return assess.ErrEvidenceInReview
	}
	return evidenceLockError(ctx, q, id)
}

// FindAttachments lists the files of evidence evidenceID, oldest first (pkg/app serves
// it as assess.AttachmentService).
func (s *AttachmentService) FindAttachments(ctx context.Context, evidenceID string, actor assess.Actor) ([]assess.Attachment, error) {
	if err := postgres.EvidenceVisible(ctx, s.db.Pool, actor, evidenceID); err != nil {
		return nil, err
	}
	rows, err := s.db.Pool.Query(ctx, "SELECT "+attachmentColumns+attachmentFrom+" WHERE a.evidence_id = $1 ORDER BY a.id", evidenceID)
	if err != nil {
		return nil, err
	}
	out := []assess.Attachment{}
	for rows.Next() {
		a, err := scanAttachment(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, a.Attachment)
	}
	return out, rows.Err()
}

// GetAttachment returns one file's record.
func (s *AttachmentService) GetAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) (assess.Attachment, error) {
	if err := postgres.EvidenceVisible(ctx, s.db.Pool, actor, evidenceID); err != nil {
		return assess.Attachment{}, err
	}
	a, err := findAttachment(ctx, s.db.Pool, evidenceID, id, false)
	return a.Attachment, err
}

// CheckAttachable tells whether actor may add a file to evidence evidenceID now: 404 when
// they may not see it, 409 when its files are locked or in review. The application layer
// asks before a byte is stored; RecordAttachment checks again.
func (s *AttachmentService) CheckAttachable(ctx context.Context, evidenceID string, actor assess.Actor) error {
	return postgres.DBError(unlockedEvidence(ctx, s.db.Pool, actor, evidenceID))
}

// RecordAttachment records a file whose bytes are stored (att without an id: the store
// gives it one) and takes its storage key off the garbage queue, in one transaction with
// the audit row and the event; the evidence's version is bumped. When the evidence has the
// same bytes already, it returns that attachment with created false and records nothing
// (the key stays queued: the caller discards the bytes). A key no longer queued — the
// blob collector took it after the upload outlasted its grace — is 503: the bytes may be
// gone.
func (s *AttachmentService) RecordAttachment(ctx context.Context, att assess.StoredAttachment, actor assess.Actor) (assess.Attachment, bool, error) {
	if att.ID == "" {
		att.ID = assess.NewID(assess.PrefixAttachment, s.db.Now())
	}
	var out assess.Attachment
	created := false
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		var err error
		out, created, err = recordAttachment(ctx, tx, att)
		return err
	})
	return out, created, err
}

// recordAttachment records an uploaded file, or returns the attachment of the same
// evidence with the same bytes (created false).
func recordAttachment(ctx context.Context, tx *postgres.Tx, att assess.StoredAttachment) (assess.Attachment, bool, error) {
	if err := unlockedEvidence(ctx, tx, tx.Actor, att.EvidenceID); err != nil {
		return assess.Attachment{}, false, err
	}
	var uploader *string
	if tx.Actor.Principal != nil {
		uploader = &tx.Actor.ID
	}
	tag, err := tx.Exec(ctx, `INSERT INTO evidence_attachments (id, evidence_id, filename, content_type, size_bytes, sha256,
		provider, storage_key, uploaded_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (evidence_id, sha256) DO NOTHING`,
		att.ID, att.EvidenceID, att.Filename, att.ContentType, att.SizeBytes, att.SHA256, att.Provider, att.StorageKey, uploader, tx.Now)
	if err != nil {
		return assess.Attachment{}, false, err
	}
	if tag.RowsAffected() == 0 { // the same bytes are attached already
		var id string
		if err := tx.QueryRow(ctx, "SELECT id FROM evidence_attachments WHERE evidence_id = $1 AND sha256 = $2",
			att.EvidenceID, att.SHA256).Scan(&id); err != nil {
			return assess.Attachment{}, false, err
		}
		existing, err := findAttachment(ctx, tx, att.EvidenceID, id, false)
		return existing.Attachment, false, err
	}
	// Off the collector's queue; when the collector took the key already (the upload
	// outlasted UploadGrace), the bytes may be gone and the upload fails.
	tag, err = tx.Exec(ctx, "DELETE FROM blob_garbage WHERE provider = $1 AND storage_key = $2", att.Provider, att.StorageKey)
	if err != nil {
		return assess.Attachment{}, false, err
	}
	if tag.RowsAffected() == 0 {
		return assess.Attachment{}, false, &assess.Error{Code: assess.ECodeUnavailable, Message: "The upload took too long; send it again."}
	}
	stored, err := findAttachment(ctx, tx, att.EvidenceID, att.ID, false)
	if err != nil {
		return assess.Attachment{}, false, err
	}
	if err := tx.BumpVersion(ctx, "evidence", att.EvidenceID); err != nil { // an approval of the version before is stale
		return assess.Attachment{}, false, err
	}
	return stored.Attachment, true, tx.Record(ctx, assess.ChangeEvidenceAttachmentAdded, attachmentTarget(stored.Attachment),
		attachmentDetails(stored.Attachment), attachmentEvent(ctx, tx, stored.Attachment))
}

// DeleteAttachment removes a file's record. The row's delete trigger removes database
// chunks at once and queues an S3 object for the blob collector.
func (s *AttachmentService) DeleteAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := unlockedEvidence(ctx, tx, actor, evidenceID); err != nil {
			return err
		}
		a, err := findAttachment(ctx, tx, evidenceID, id, true)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM evidence_attachments WHERE id = $1", id); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "evidence", evidenceID); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeEvidenceAttachmentRemoved, attachmentTarget(a.Attachment),
			attachmentDetails(a.Attachment), attachmentEvent(ctx, tx, a.Attachment))
	})
}

// FindStoredAttachment returns a file's record with its storage key, for a download: 404
// when actor may not see the evidence or it has no such file.
func (s *AttachmentService) FindStoredAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) (assess.StoredAttachment, error) {
	if err := postgres.EvidenceVisible(ctx, s.db.Pool, actor, evidenceID); err != nil {
		return assess.StoredAttachment{}, postgres.DBError(err)
	}
	a, err := findAttachment(ctx, s.db.Pool, evidenceID, id, false)
	return a, postgres.DBError(err)
}

// RecordIntegrityFailure writes the audit row of a download whose stored bytes did not
// match the recorded size or SHA-256 (problem: size, sha256 or missing).
func (s *AttachmentService) RecordIntegrityFailure(ctx context.Context, a assess.StoredAttachment, problem string, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		details := attachmentDetails(a.Attachment)
		details["problem"] = problem
		details["provider"] = a.Provider
		return tx.Record(ctx, assess.ChangeEvidenceAttachmentCorrupt, attachmentTarget(a.Attachment), details, assess.NewEvent{})
	})
}

func attachmentTarget(a assess.Attachment) postgres.Target {
	return postgres.Target{Type: "evidence_attachment", ID: a.ID}
}

func attachmentDetails(a assess.Attachment) map[string]any {
	return map[string]any{"evidenceId": a.EvidenceID, "filename": a.Filename, "contentType": a.ContentType,
		"sizeBytes": a.SizeBytes, "sha256": a.SHA256}
}

// attachmentEvent is the event of an added or removed file: recipients limited to those
// who may see the evidence.
func attachmentEvent(ctx context.Context, tx *postgres.Tx, a assess.Attachment) assess.NewEvent {
	var name string
	_ = tx.QueryRow(ctx, "SELECT name FROM evidence WHERE id = $1", a.EvidenceID).Scan(&name)
	return assess.NewEvent{Data: assess.AttachmentEvent{EvidenceID: a.EvidenceID, EvidenceName: name, Attachment: a},
		Summary: a.Filename, Link: "/evidence/" + a.EvidenceID, EvidenceID: a.EvidenceID}
}
