package postgres

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// Files of evidence (docs/assessments.md "Attachments and storage"). An upload streams to
// the provider of new uploads under a fresh key, and only then is the attachment recorded;
// the key is queued for the blob collector before the first byte is stored and taken off
// the queue by the recording transaction, so nothing an interrupted upload stored stays
// behind. Every read of the bytes is checked against the SHA-256 recorded at upload.

const attachmentColumns = `a.id, a.evidence_id, a.filename, a.content_type, a.size_bytes, a.sha256, a.provider,
	a.storage_key, a.created_at, u.id, u.username, u.display_name`

const attachmentFrom = ` FROM evidence_attachments a LEFT JOIN users u ON u.id = a.uploaded_by`

// storedAttachment is an attachment with where its bytes are.
type storedAttachment struct {
	assess.Attachment
	key string
}

func scanAttachment(row pgx.Row) (storedAttachment, error) {
	var a storedAttachment
	var uid, uname, udisplay *string
	err := row.Scan(&a.ID, &a.EvidenceID, &a.Filename, &a.ContentType, &a.SizeBytes, &a.SHA256, &a.Provider,
		&a.key, &a.CreatedAt, &uid, &uname, &udisplay)
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
func findAttachment(ctx context.Context, q querier, evidenceID, id string, lock bool) (storedAttachment, error) {
	if !assess.ValidID(assess.PrefixAttachment, id) {
		return storedAttachment{}, errAttachmentNotFound
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
func unlockedEvidence(ctx context.Context, q querier, actor assess.Actor, id string) error {
	if err := evidenceVisible(ctx, q, actor, id); err != nil {
		return err
	}
	if tx, ok := q.(*Tx); ok {
		// Within a change the evidence row is locked, so that the change cannot race what
		// locks the evidence (approval, a claim citing it) or its deletion.
		if _, err := tx.Exec(ctx, "SELECT 1 FROM evidence WHERE id = $1 FOR SHARE", id); err != nil {
			return err
		}
	}
	var state assess.EvidenceState
	if err := q.QueryRow(ctx, "SELECT state FROM evidence WHERE id = $1", id).Scan(&state); err == nil && state == assess.EvidenceInReview {
		return assess.ErrEvidenceInReview
	}
	return evidenceLockError(ctx, q, id)
}

// FindAttachments implements assess.AttachmentService.
func (s *AttachmentService) FindAttachments(ctx context.Context, evidenceID string, actor assess.Actor) ([]assess.Attachment, error) {
	if err := evidenceVisible(ctx, s.pool, actor, evidenceID); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, "SELECT "+attachmentColumns+attachmentFrom+" WHERE a.evidence_id = $1 ORDER BY a.id", evidenceID)
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

// GetAttachment implements assess.AttachmentService.
func (s *AttachmentService) GetAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) (assess.Attachment, error) {
	if err := evidenceVisible(ctx, s.pool, actor, evidenceID); err != nil {
		return assess.Attachment{}, err
	}
	a, err := findAttachment(ctx, s.pool, evidenceID, id, false)
	return a.Attachment, err
}

// AddAttachment implements assess.AttachmentService. Visibility and the lock are checked
// before a byte is stored and again when the attachment is recorded; the type is decided
// from the first bytes before the rest streams to the provider.
func (s *AttachmentService) AddAttachment(ctx context.Context, evidenceID string, up assess.AttachmentUpload, actor assess.Actor) (assess.Attachment, bool, error) {
	if err := unlockedEvidence(ctx, s.pool, actor, evidenceID); err != nil {
		return assess.Attachment{}, false, dbError(err)
	}
	head := make([]byte, assess.SniffLength)
	n, err := io.ReadFull(up.Content, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return assess.Attachment{}, false, err
	}
	head = head[:n]
	filename := assess.CleanAttachmentFilename(up.Filename)
	contentType, err := assess.DetectAttachmentType(head, filename, up.DeclaredType)
	if err != nil {
		return assess.Attachment{}, false, err
	}
	provider := s.uploadProvider()
	store, err := s.blobStore(provider)
	if err != nil {
		return assess.Attachment{}, false, err
	}
	key := "evidence/" + evidenceID + "/" + randomKey()
	if err := s.queueUpload(ctx, provider, key); err != nil {
		return assess.Attachment{}, false, dbError(err)
	}
	info, err := store.Put(ctx, key, io.MultiReader(bytes.NewReader(head), up.Content))
	if err != nil {
		s.discardUpload(ctx, store, provider, key)
		return assess.Attachment{}, false, err
	}
	att := storedAttachment{Attachment: assess.Attachment{ID: assess.NewID(assess.PrefixAttachment, s.now()), EvidenceID: evidenceID,
		Filename: filename, ContentType: contentType, SizeBytes: info.Size, SHA256: info.SHA256, Provider: provider}, key: key}
	created := false
	err = s.change(ctx, actor, func(tx *Tx) error {
		var err error
		att.Attachment, created, err = recordAttachment(ctx, tx, att)
		return err
	})
	if err != nil || !created {
		s.discardUpload(ctx, store, provider, key)
	}
	return att.Attachment, created, err
}

// recordAttachment records an uploaded file, or returns the attachment of the same
// evidence with the same bytes (created false).
func recordAttachment(ctx context.Context, tx *Tx, att storedAttachment) (assess.Attachment, bool, error) {
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
		att.ID, att.EvidenceID, att.Filename, att.ContentType, att.SizeBytes, att.SHA256, att.Provider, att.key, uploader, tx.Now)
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
	tag, err = tx.Exec(ctx, "DELETE FROM blob_garbage WHERE provider = $1 AND storage_key = $2", att.Provider, att.key)
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

// DeleteAttachment implements assess.AttachmentService. The row's delete trigger removes
// database chunks at once and queues an S3 object for the blob collector.
func (s *AttachmentService) DeleteAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) error {
	return s.change(ctx, actor, func(tx *Tx) error {
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

// OpenAttachment implements assess.AttachmentService. The bytes are copied from the
// provider into an unlinked temporary file while their SHA-256 is computed; only when it
// matches the recorded one is the file returned (positioned at its start), so no byte of
// a corrupted object reaches the caller and memory does not grow with the file.
func (s *AttachmentService) OpenAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) (assess.AttachmentContent, error) {
	a, err := s.readableAttachment(ctx, evidenceID, id, actor)
	if err != nil {
		return assess.AttachmentContent{}, err
	}
	store, err := s.blobStore(a.Provider)
	if err != nil {
		return assess.AttachmentContent{}, err
	}
	f, problem, err := spoolVerified(ctx, store, a)
	if err != nil {
		return assess.AttachmentContent{}, err
	}
	if problem != "" {
		return assess.AttachmentContent{}, s.integrityFailure(ctx, actor, a, problem)
	}
	return assess.AttachmentContent{Attachment: a.Attachment, Body: f}, nil
}

func (s *AttachmentService) readableAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) (storedAttachment, error) {
	if err := evidenceVisible(ctx, s.pool, actor, evidenceID); err != nil {
		return storedAttachment{}, dbError(err)
	}
	a, err := findAttachment(ctx, s.pool, evidenceID, id, false)
	return a, dbError(err)
}

// spoolVerified copies the object of a into a temporary file (removed from the directory
// at once: it disappears when closed) and checks size and SHA-256. problem says what did
// not match ("" when all did); the file is returned only then.
func spoolVerified(ctx context.Context, store assess.BlobStore, a storedAttachment) (f *os.File, problem string, err error) {
	rc, err := store.Get(ctx, a.key)
	if errors.Is(err, assess.ErrBlobNotFound) {
		return nil, "missing", nil
	}
	if err != nil {
		return nil, "", err
	}
	defer rc.Close()
	f, err = os.CreateTemp("", "assay-attachment-*")
	if err != nil {
		return nil, "", err
	}
	_ = os.Remove(f.Name())
	keep := false
	defer func() {
		if !keep {
			_ = f.Close()
		}
	}()
	h := sha256.New()
	// One byte more than recorded is enough to tell a longer object.
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(rc, a.SizeBytes+1))
	switch {
	case err != nil:
		return nil, "", err
	case n != a.SizeBytes:
		return nil, "size", nil
	case hex.EncodeToString(h.Sum(nil)) != a.SHA256:
		return nil, "sha256", nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, "", err
	}
	keep = true
	return f, "", nil
}

// integrityFailure records a failed check in the audit log and returns the client's
// error: integrity_error (500), with no byte of the object.
func (s *AttachmentService) integrityFailure(ctx context.Context, actor assess.Actor, a storedAttachment, problem string) error {
	ctx = context.WithoutCancel(ctx) // recorded even when the client has gone
	err := s.change(ctx, actor, func(tx *Tx) error {
		details := attachmentDetails(a.Attachment)
		details["problem"] = problem
		details["provider"] = a.Provider
		return tx.Record(ctx, assess.ChangeEvidenceAttachmentCorrupt, attachmentTarget(a.Attachment), details, assess.NewEvent{})
	})
	if err != nil {
		s.storageLogger().ErrorContext(ctx, "recording a failed attachment integrity check failed", "error", err.Error())
	}
	s.storageLogger().ErrorContext(ctx, "attachment failed its integrity check", "attachment", a.ID, "evidence", a.EvidenceID,
		"provider", a.Provider, "problem", problem)
	return &assess.Error{Code: assess.ECodeIntegrity, Message: "The stored file does not match the SHA-256 recorded at upload; it is not served.",
		Details: []assess.Detail{{Field: "sha256", Code: "mismatch", Message: problem}}}
}

func attachmentTarget(a assess.Attachment) Target {
	return Target{Type: "evidence_attachment", ID: a.ID}
}

func attachmentDetails(a assess.Attachment) map[string]any {
	return map[string]any{"evidenceId": a.EvidenceID, "filename": a.Filename, "contentType": a.ContentType,
		"sizeBytes": a.SizeBytes, "sha256": a.SHA256}
}

// attachmentEvent is the event of an added or removed file: recipients limited to those
// who may see the evidence.
func attachmentEvent(ctx context.Context, tx *Tx, a assess.Attachment) assess.NewEvent {
	var name string
	_ = tx.QueryRow(ctx, "SELECT name FROM evidence WHERE id = $1", a.EvidenceID).Scan(&name)
	return assess.NewEvent{Data: assess.AttachmentEvent{EvidenceID: a.EvidenceID, EvidenceName: name, Attachment: a},
		Summary: a.Filename, Link: "/evidence/" + a.EvidenceID, EvidenceID: a.EvidenceID}
}

// randomKey is the unique part of a storage key.
func randomKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

var _ assess.AttachmentService = (*AttachmentService)(nil)
