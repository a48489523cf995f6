package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// Files of evidence (docs/assessments.md "Attachments and storage"). An upload streams to
// the provider of new uploads under a fresh key, and only then is the attachment recorded;
// the key is queued for the blob collector before the first byte is stored and taken off
// the queue by the recording transaction, so nothing an interrupted upload stored stays
// behind. Every read of the bytes is checked against the SHA-256 recorded at upload.

// AttachmentStore is what the attachment flows need of the store (pkg/postgres
// AttachmentService): the records of files and the garbage queue of stored objects.
type AttachmentStore interface {
	// FindAttachments, GetAttachment and DeleteAttachment are those of
	// assess.AttachmentService: they touch no provider (the delete trigger queues S3
	// objects for the collector).
	FindAttachments(ctx context.Context, evidenceID string, actor assess.Actor) ([]assess.Attachment, error)
	GetAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) (assess.Attachment, error)
	DeleteAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) error
	// CheckAttachable tells whether actor may add a file to the evidence now (404, 409).
	CheckAttachable(ctx context.Context, evidenceID string, actor assess.Actor) error
	// RecordAttachment records a stored file and takes its key off the queue in one
	// transaction, checking visibility and the lock again; the evidence's file with the
	// same bytes, if any, instead (created false, the key left queued); 503 when the key
	// is no longer queued.
	RecordAttachment(ctx context.Context, att assess.StoredAttachment, actor assess.Actor) (assess.Attachment, bool, error)
	// FindStoredAttachment returns a file's record with its storage key (404 when actor
	// may not see it).
	FindStoredAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) (assess.StoredAttachment, error)
	// RecordIntegrityFailure writes the audit row of a failed integrity check.
	RecordIntegrityFailure(ctx context.Context, att assess.StoredAttachment, problem string, actor assess.Actor) error
	BlobQueue
}

// BlobQueue is the store's queue of stored objects to delete from their provider
// (blob_garbage).
type BlobQueue interface {
	// QueueBlob queues an object, due after delay (or moves a queued object's due time).
	QueueBlob(ctx context.Context, provider, key string, delay time.Duration) error
	// UnqueueBlob takes an object off the queue.
	UnqueueBlob(ctx context.Context, provider, key string) error
	// SweepBlobGarbage holds up to limit due objects while remove deletes each one no
	// attachment references, takes them off the queue, and leaves those remove failed for
	// due again after retry. It returns how many remove deleted.
	SweepBlobGarbage(ctx context.Context, limit int, retry time.Duration,
		remove func(ctx context.Context, provider, key string) error) (int, error)
}

// Attachments implements assess.AttachmentService and assess.BlobCollector: the files of
// evidence, with their bytes at the storage providers and their records in the store.
type Attachments struct {
	store AttachmentStore
	cfg   StorageConfig
}

// NewAttachments returns the attachment flows on store with the providers of cfg.
func NewAttachments(store AttachmentStore, cfg StorageConfig) (*Attachments, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &Attachments{store: store, cfg: cfg}, nil
}

// FindAttachments implements assess.AttachmentService.
func (a *Attachments) FindAttachments(ctx context.Context, evidenceID string, actor assess.Actor) ([]assess.Attachment, error) {
	return a.store.FindAttachments(ctx, evidenceID, actor)
}

// GetAttachment implements assess.AttachmentService.
func (a *Attachments) GetAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) (assess.Attachment, error) {
	return a.store.GetAttachment(ctx, evidenceID, id, actor)
}

// DeleteAttachment implements assess.AttachmentService.
func (a *Attachments) DeleteAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) error {
	return a.store.DeleteAttachment(ctx, evidenceID, id, actor)
}

// AddAttachment implements assess.AttachmentService. Visibility and the lock are checked
// before a byte is stored and again when the attachment is recorded; the type is decided
// from the first bytes before the rest streams to the provider.
func (a *Attachments) AddAttachment(ctx context.Context, evidenceID string, up assess.AttachmentUpload, actor assess.Actor) (assess.Attachment, bool, error) {
	if err := a.store.CheckAttachable(ctx, evidenceID, actor); err != nil {
		return assess.Attachment{}, false, err
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
	provider := a.cfg.Provider
	blobs, err := a.cfg.provider(provider)
	if err != nil {
		return assess.Attachment{}, false, err
	}
	key := "evidence/" + evidenceID + "/" + randomKey()
	if err := a.store.QueueBlob(ctx, provider, key, a.cfg.UploadGrace); err != nil {
		return assess.Attachment{}, false, err
	}
	info, err := blobs.Put(ctx, key, io.MultiReader(bytes.NewReader(head), up.Content))
	if err != nil {
		a.discardUpload(ctx, blobs, provider, key)
		return assess.Attachment{}, false, err
	}
	att, created, err := a.store.RecordAttachment(ctx, assess.StoredAttachment{StorageKey: key, Attachment: assess.Attachment{
		EvidenceID: evidenceID, Filename: filename, ContentType: contentType, SizeBytes: info.Size, SHA256: info.SHA256,
		Provider: provider}}, actor)
	if err != nil || !created {
		a.discardUpload(ctx, blobs, provider, key)
	}
	return att, created, err
}

// discardUpload deletes what an upload stored and its queue entry, now; what fails here
// stays queued, due at once, for the collector.
func (a *Attachments) discardUpload(ctx context.Context, blobs assess.BlobStore, provider, key string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := blobs.Delete(ctx, key); err != nil {
		a.cfg.Logger.WarnContext(ctx, "discarding an upload failed; the blob collector retries",
			slog.String("provider", provider), slog.String("key", key), slog.String("error", err.Error()))
		_ = a.store.QueueBlob(ctx, provider, key, 0)
		return
	}
	_ = a.store.UnqueueBlob(ctx, provider, key)
}

// OpenAttachment implements assess.AttachmentService. The bytes are copied from the
// provider into an unlinked temporary file while their SHA-256 is computed; only when it
// matches the recorded one is the file returned (positioned at its start), so no byte of
// a corrupted object reaches the caller and memory does not grow with the file.
func (a *Attachments) OpenAttachment(ctx context.Context, evidenceID, id string, actor assess.Actor) (assess.AttachmentContent, error) {
	att, err := a.store.FindStoredAttachment(ctx, evidenceID, id, actor)
	if err != nil {
		return assess.AttachmentContent{}, err
	}
	blobs, err := a.cfg.provider(att.Provider)
	if err != nil {
		return assess.AttachmentContent{}, err
	}
	f, problem, err := spoolVerified(ctx, blobs, att)
	if err != nil {
		return assess.AttachmentContent{}, err
	}
	if problem != "" {
		return assess.AttachmentContent{}, a.integrityFailure(ctx, actor, att, problem)
	}
	return assess.AttachmentContent{Attachment: att.Attachment, Body: f}, nil
}

// spoolVerified copies the object of a into a temporary file (removed from the directory
// at once: it disappears when closed) and checks size and SHA-256. problem says what did
// not match ("" when all did); the file is returned only then.
func spoolVerified(ctx context.Context, blobs assess.BlobStore, a assess.StoredAttachment) (f *os.File, problem string, err error) {
	rc, err := blobs.Get(ctx, a.StorageKey)
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
func (a *Attachments) integrityFailure(ctx context.Context, actor assess.Actor, att assess.StoredAttachment, problem string) error {
	ctx = context.WithoutCancel(ctx) // recorded even when the client has gone
	if err := a.store.RecordIntegrityFailure(ctx, att, problem, actor); err != nil {
		a.cfg.Logger.ErrorContext(ctx, "recording a failed attachment integrity check failed", "error", err.Error())
	}
	a.cfg.Logger.ErrorContext(ctx, "attachment failed its integrity check", "attachment", att.ID, "evidence", att.EvidenceID,
		"provider", att.Provider, "problem", problem)
	return &assess.Error{Code: assess.ECodeIntegrity, Message: "The stored file does not match the SHA-256 recorded at upload; it is not served.",
		Details: []assess.Detail{{Field: "sha256", Code: "mismatch", Message: problem}}}
}

// randomKey is the unique part of a storage key.
func randomKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

var _ assess.AttachmentService = (*Attachments)(nil)
