package work

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// chunkSize is the size of one blob_chunks row: what an upload to the database provider
// holds in memory at a time.
const chunkSize = 1 << 20

// ChunkStore is the database storage provider (STORAGE_PROVIDER=database): an object is
// the sequence of its blob_chunks rows, seq 0, 1, … (an empty object is one empty chunk,
// so that it exists). It implements assess.BlobStore; pkg/app streams files through it as
// through S3.
type ChunkStore struct{ db *postgres.DB }

// NewChunkStore returns the database storage provider on db.
func NewChunkStore(db *postgres.DB) ChunkStore { return ChunkStore{db: db} }

// Put implements assess.BlobStore: each chunk is stored by a statement of its own as soon
// as its bytes have arrived, so an upload holds a pooled connection only while it stores
// a chunk, never while it waits for a slow client (with one transaction around the stream,
// DB_MAX_CONNS slow uploads would take the pool from every other request). A failed upload
// deletes what it stored; what it cannot delete (the database went away) nothing
// references, and the caller's Delete or the blob collector removes it (pkg/app queues
// its key in blob_garbage before the first byte).
func (s ChunkStore) Put(ctx context.Context, key string, r io.Reader) (assess.BlobInfo, error) {
	info, err := s.put(ctx, key, r)
	if err != nil {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		_ = s.Delete(dctx, key)
	}
	return info, err
}

func (s ChunkStore) put(ctx context.Context, key string, r io.Reader) (assess.BlobInfo, error) {
	h := sha256.New()
	buf := make([]byte, chunkSize)
	var size int64
	for seq := 0; ; seq++ {
		n, err := io.ReadFull(r, buf)
		last := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
		if err != nil && !last {
			return assess.BlobInfo{}, err
		}
		if n > 0 || seq == 0 {
			h.Write(buf[:n])
			size += int64(n)
			if _, err := s.db.Pool.Exec(ctx, "INSERT INTO blob_chunks (blob_key, seq, data) VALUES ($1, $2, $3)", key, seq, buf[:n]); err != nil {
				return assess.BlobInfo{}, fmt.Errorf("store chunk %d of %s: %w", seq, key, err)
			}
		}
		if last {
			break
		}
	}
	return assess.BlobInfo{Size: size, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// Get implements assess.BlobStore: the chunks are read one query at a time, so a reader
// holds one chunk in memory.
func (s ChunkStore) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	var exists bool
	if err := s.db.Pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM blob_chunks WHERE blob_key = $1)", key).Scan(&exists); err != nil {
		return nil, err
	}
	if !exists {
		return nil, assess.ErrBlobNotFound
	}
	return &chunkReader{ctx: ctx, db: s.db, key: key}, nil
}

// Delete implements assess.BlobStore.
func (s ChunkStore) Delete(ctx context.Context, key string) error {
	_, err := s.db.Pool.Exec(ctx, "DELETE FROM blob_chunks WHERE blob_key = $1", key)
	return err
}

// CheckHealth implements assess.BlobStore: the database's own check.
func (s ChunkStore) CheckHealth(ctx context.Context) error { return s.db.CheckHealth(ctx) }

// chunkReader reads an object chunk by chunk in seq order; a missing seq ends it.
type chunkReader struct {
	ctx  context.Context
	db   *postgres.DB
	key  string
	seq  int
	data []byte
	done bool
}

func (c *chunkReader) Read(p []byte) (int, error) {
	for len(c.data) == 0 {
		if c.done {
			return 0, io.EOF
		}
		err := c.db.Pool.QueryRow(c.ctx, "SELECT data FROM blob_chunks WHERE blob_key = $1 AND seq = $2", c.key, c.seq).Scan(&c.data)
		if errors.Is(err, pgx.ErrNoRows) {
			c.done = true
			continue
		}
		if err != nil {
			return 0, err
		}
		c.seq++
	}
	n := copy(p, c.data)
	c.data = c.data[n:]
	return n, nil
}

func (c *chunkReader) Close() error { return nil }

var _ assess.BlobStore = ChunkStore{}
