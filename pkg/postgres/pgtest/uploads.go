package pgtest

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/assay-dev/assay/pkg/assess"
)

// Fixtures for the tests of evidence files, shared by the store's (the records and the
// database provider) and the application layer's (the upload and download flows).

// NewEvidence adds a user, author, and a piece of evidence "E" of theirs to the database
// of pool and returns the evidence's id: the least a file needs.
func NewEvidence(t testing.TB, pool *pgxpool.Pool) string {
	t.Helper()
	ctx := context.Background()
	if _, err := pool.Exec(ctx, "INSERT INTO users (id, username, email) VALUES ('u_author', 'author', 'author@example.com')"); err != nil {
		t.Fatalf("pgtest: author: %v", err)
	}
	ev := assess.NewID(assess.PrefixEvidence, time.Now())
	if _, err := pool.Exec(ctx, "INSERT INTO evidence (id, name, author_id) VALUES ($1, 'E', 'u_author')", ev); err != nil {
		t.Fatalf("pgtest: evidence: %v", err)
	}
	return ev
}

// StalledBody is an upload from a client that sends its first bytes, stalls until the
// test releases it, and then sends the rest. Tests of the database provider use it to
// show that an upload holds no pooled connection while it waits for the client.
type StalledBody struct {
	r       io.Reader
	reached chan struct{}
	release chan struct{}
	once    sync.Once
}

// NewStalledBody returns a body sending first, stalling, then sending rest. The end of
// the test releases it at the latest: create it after the pool it uploads into, so that
// the release comes before the pool's close, which waits for the upload's connection.
func NewStalledBody(t testing.TB, first []byte, rest string) *StalledBody {
	b := &StalledBody{reached: make(chan struct{}), release: make(chan struct{})}
	b.r = io.MultiReader(bytes.NewReader(first), stall{b}, strings.NewReader(rest))
	t.Cleanup(b.Release)
	return b
}

func (b *StalledBody) Read(p []byte) (int, error) { return b.r.Read(p) }

// Reached is closed once the upload waits for the stalled bytes.
func (b *StalledBody) Reached() <-chan struct{} { return b.reached }

// Release lets the client send the rest; calling it again does nothing.
func (b *StalledBody) Release() { b.once.Do(func() { close(b.release) }) }

// stall is the pause of a StalledBody: its one read waits for the release and ends.
type stall struct{ b *StalledBody }

func (s stall) Read([]byte) (int, error) {
	close(s.b.reached)
	<-s.b.release
	return 0, io.EOF
}
