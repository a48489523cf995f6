package blob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/blob"
	"github.com/assay-dev/assay/pkg/blob/blobtest"
)

func newStore(t *testing.T, g *blobtest.Gateway) *blob.S3 {
	t.Helper()
	s, err := blob.NewS3(context.Background(), blob.S3Config{Bucket: g.Bucket, Region: g.Region, Endpoint: g.Endpoint,
		ForcePathStyle: true, AccessKeyID: g.AccessKey, SecretAccessKey: g.SecretKey})
	require.NoError(t, err)
	return s
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(uint64(n), 7))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestS3RoundTrip stores objects below, at and above one part (a multipart upload) in a
// real S3-compatible server and reads them back with the size and hash Put reported.
func TestS3RoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := blobtest.StartVersityGW(t)
	s := newStore(t, g)
	require.NoError(t, s.CheckHealth(ctx))
	for _, size := range []int{0, 1000, blob.MinPartSize, 2*blob.MinPartSize + 12345} {
		data := randomBytes(size)
		key := "evidence/x/" + hex.EncodeToString(data[:min(size, 4)]) + "-" + string(rune('a'+size%26))
		// A reader that hands out a few bytes at a time, as a network stream does.
		info, err := s.Put(ctx, key, iotest.HalfReader(bytes.NewReader(data)))
		require.NoError(t, err)
		sum := sha256.Sum256(data)
		require.Equal(t, assess.BlobInfo{Size: int64(size), SHA256: hex.EncodeToString(sum[:])}, info)
		rc, err := s.Get(ctx, key)
		require.NoError(t, err)
		got, err := io.ReadAll(rc)
		require.NoError(t, rc.Close())
		require.NoError(t, err)
		require.True(t, bytes.Equal(data, got), "size %d", size)
		require.NoError(t, s.Delete(ctx, key))
		_, err = s.Get(ctx, key)
		require.ErrorIs(t, err, assess.ErrBlobNotFound)
	}
	require.Empty(t, g.Objects(t))
}

// TestS3FailedUploadLeavesNothing aborts a multipart upload whose stream fails after the
// first part.
func TestS3FailedUploadLeavesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := blobtest.StartVersityGW(t)
	s := newStore(t, g)
	boom := errors.New("client went away")
	r := io.MultiReader(bytes.NewReader(randomBytes(blob.MinPartSize+10)), iotest.ErrReader(boom))
	_, err := s.Put(ctx, "evidence/broken", r)
	require.ErrorIs(t, err, boom)
	require.Empty(t, g.Objects(t))
	_, err = s.Get(ctx, "evidence/broken")
	require.ErrorIs(t, err, assess.ErrBlobNotFound)
}

// TestS3HealthWithoutBucket: health fails once the bucket is gone, and with wrong keys.
func TestS3HealthWithoutBucket(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := blobtest.StartVersityGW(t)
	wrong, err := blob.NewS3(ctx, blob.S3Config{Bucket: g.Bucket, Endpoint: g.Endpoint, ForcePathStyle: true,
		AccessKeyID: g.AccessKey, SecretAccessKey: "not-the-secret"})
	require.NoError(t, err)
	require.Error(t, wrong.CheckHealth(ctx))
	s := newStore(t, g)
	require.NoError(t, s.CheckHealth(ctx))
	g.RemoveBucket(t)
	require.Error(t, s.CheckHealth(ctx))
}
