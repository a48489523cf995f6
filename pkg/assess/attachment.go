package assess

import (
	"context"
	"errors"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Storage providers: where the bytes of an attachment are kept. Every attachment records
// its provider and key, so files stay readable after STORAGE_PROVIDER changes.
const (
	StorageDatabase = "database"
	StorageS3       = "s3"
)

// BlobStore keeps the bytes of evidence files under keys the store chooses. Put streams:
// memory does not grow with the size of the object. Implementations: the database
// provider (pkg/postgres ChunkStore, chunked rows) and S3 (pkg/blob).
type BlobStore interface {
	// Put stores the bytes r yields under key, computing their size and SHA-256 while
	// they stream. A failed Put removes what it stored as far as it can; the caller still
	// Deletes the key, and the blob collector removes what neither could (the key is
	// queued before the first byte).
	Put(ctx context.Context, key string, r io.Reader) (BlobInfo, error)
	// Get streams the object stored under key; ErrBlobNotFound when there is none.
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes the object under key; deleting what is not there succeeds.
	Delete(ctx context.Context, key string) error
	// CheckHealth tells whether the store can be reached (a HEAD on the bucket with S3).
	CheckHealth(ctx context.Context) error
}

// BlobInfo is what Put measured of the bytes it stored.
type BlobInfo struct {
	Size   int64
	SHA256 string // lower-case hex
}

// ErrBlobNotFound is BlobStore.Get's answer for a key with no object. For an attachment
// whose record exists it means lost data, and is treated as a failed integrity check.
var ErrBlobNotFound = errors.New("stored object not found")

// AttachmentUpload is a file being attached to a piece of evidence: its name and the
// content type the client declared (a claim checked against the bytes, never stored) and
// the stream of its bytes.
type AttachmentUpload struct {
	Filename     string
	DeclaredType string
	Content      io.Reader
}

// AttachmentContent is a file ready to be served: its record and its bytes, already
// checked against the stored SHA-256. Body supports seeking (range requests); the caller
// closes it.
type AttachmentContent struct {
	Attachment
	Body io.ReadSeekCloser
}

// StoredAttachment is an attachment with the key its bytes are stored under at its
// provider: what the application layer (pkg/app) reads and writes through a BlobStore.
// The key is never shown by the API.
type StoredAttachment struct {
	Attachment
	StorageKey string `json:"-"`
}

// AttachmentService stores and serves the files of evidence (pkg/app Attachments, on the
// records of pkg/postgres AttachmentService and the BlobStore providers). Evidence the
// caller may not see is 404 on every operation; adding and deleting obey the evidence's
// retention lock (ErrEvidenceLocked).
type AttachmentService interface {
	// AddAttachment streams up.Content to the configured storage provider. The same bytes
	// attached to the same evidence again return the existing attachment with created
	// false, and nothing new is stored.
	AddAttachment(ctx context.Context, evidenceID string, up AttachmentUpload, actor Actor) (att Attachment, created bool, err error)
	// FindAttachments lists the files of a piece of evidence, oldest first.
	FindAttachments(ctx context.Context, evidenceID string, actor Actor) ([]Attachment, error)
	// GetAttachment returns one file's record.
	GetAttachment(ctx context.Context, evidenceID, id string, actor Actor) (Attachment, error)
	// OpenAttachment returns the file's bytes after checking them against the stored
	// SHA-256 without holding them in memory; a mismatch is an integrity_error, recorded
	// in the audit log, and no byte is returned.
	OpenAttachment(ctx context.Context, evidenceID, id string, actor Actor) (AttachmentContent, error)
	// DeleteAttachment removes a file; its bytes are deleted from the provider by the
	// blob collector.
	DeleteAttachment(ctx context.Context, evidenceID, id string, actor Actor) error
}

// BlobCollector deletes the stored bytes that no attachment references any more: those of
// deleted attachments (and deleted evidence) and those an interrupted upload left behind.
// The periodic job of jobs/workers calls it (pkg/app Attachments implements it).
type BlobCollector interface {
	// CollectBlobGarbage deletes up to limit queued objects that are due and returns how
	// many it deleted.
	CollectBlobGarbage(ctx context.Context, limit int) (int, error)
}

// maxFilenameRunes is the longest stored attachment name (the column allows 255).
const maxFilenameRunes = 255

// CleanAttachmentFilename makes a client's file name safe to store and to show: the last
// path element only, control and format characters (CR, LF, NUL, bidi overrides) turned
// into "_", spaces trimmed, at most 255 characters (the extension kept when cutting). An
// empty result becomes "file".
func CleanAttachmentFilename(name string) string {
	name = strings.ToValidUTF8(name, "_")
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return '_'
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if name == "" || name == "." || name == ".." {
		return "file"
	}
	if utf8.RuneCountInString(name) <= maxFilenameRunes {
		return name
	}
	ext := ""
	if i := strings.LastIndexByte(name, '.'); i > 0 && utf8.RuneCountInString(name[i:]) <= 16 {
		name, ext = name[:i], name[i:]
	}
	runes := []rune(name)
	return string(runes[:maxFilenameRunes-utf8.RuneCountInString(ext)]) + ext
}
