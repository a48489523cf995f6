package blob

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/assay-dev/assay/pkg/assess"
)

// MinPartSize is the smallest part S3 accepts in a multipart upload (but the last).
const MinPartSize = 5 << 20

// S3Config configures the S3 provider (STORAGE_PROVIDER=s3 and the S3_* variables).
type S3Config struct {
	// Bucket holds the objects; it must exist (S3_BUCKET).
	Bucket string
	// Region of the bucket (S3_REGION; default us-east-1).
	Region string
	// Endpoint is the base URL of an S3-compatible service; empty means AWS (S3_ENDPOINT).
	Endpoint string
	// ForcePathStyle addresses the bucket in the path instead of the host name, as most
	// S3-compatible services want (S3_FORCE_PATH_STYLE).
	ForcePathStyle bool
	// AccessKeyID and SecretAccessKey are static credentials (S3_ACCESS_KEY_ID and
	// S3_SECRET_ACCESS_KEY or their *_FILE twins); both empty means the ambient chain of the
	// AWS SDK (environment, shared files, web identity, instance or task role).
	AccessKeyID, SecretAccessKey string
	// PartSize is the size of one part of a multipart upload, and so the memory one upload
	// holds (default and minimum MinPartSize).
	PartSize int64
	// HealthTimeout bounds the bucket HEAD of CheckHealth (default 2 s).
	HealthTimeout time.Duration
}

// S3 stores objects in one bucket. It implements assess.BlobStore.
type S3 struct {
	client *s3.Client
	cfg    S3Config
}

// NewS3 returns the provider for cfg. It does not contact the service: CheckHealth does.
func NewS3(ctx context.Context, cfg S3Config) (*S3, error) {
	if cfg.Bucket == "" {
		return nil, errors.New("s3 storage: a bucket is required")
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	cfg.PartSize = max(cfg.PartSize, MinPartSize)
	if cfg.HealthTimeout <= 0 {
		cfg.HealthTimeout = 2 * time.Second
	}
	opts := []func(*awsconfig.LoadOptions) error{awsconfig.WithRegion(cfg.Region)}
	if cfg.AccessKeyID != "" || cfg.SecretAccessKey != "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(cfg.AccessKeyID, cfg.SecretAccessKey, "")))
	}
	ac, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("s3 storage: %w", err)
	}
	client := s3.NewFromConfig(ac, func(o *s3.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
		o.UsePathStyle = cfg.ForcePathStyle
		// Checksums only where the API requires them: S3-compatible services differ in
		// their support of the newer default ones, and the service checks SHA-256 itself.
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
	return &S3{client: client, cfg: cfg}, nil
}

// Put implements assess.BlobStore. Content smaller than one part is sent with one
// PutObject; larger content as a multipart upload, one part in memory at a time. A failed
// upload is aborted, so nothing is left under key.
func (s *S3) Put(ctx context.Context, key string, r io.Reader) (assess.BlobInfo, error) {
	hr := &hashingReader{r: r, h: sha256.New()}
	buf := make([]byte, s.cfg.PartSize)
	n, err := io.ReadFull(hr, buf)
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		_, err = s.client.PutObject(ctx, &s3.PutObjectInput{Bucket: &s.cfg.Bucket, Key: &key,
			Body: bytes.NewReader(buf[:n]), ContentLength: aws.Int64(int64(n))})
		if err != nil {
			return assess.BlobInfo{}, fmt.Errorf("s3 put %s: %w", key, err)
		}
		return hr.info(), nil
	case err != nil:
		return assess.BlobInfo{}, err
	}
	if err := s.putMultipart(ctx, key, hr, buf); err != nil {
		return assess.BlobInfo{}, err
	}
	return hr.info(), nil
}

// putMultipart uploads buf (a full first part) and the rest of r as parts of one upload.
func (s *S3) putMultipart(ctx context.Context, key string, r io.Reader, buf []byte) (err error) {
	up, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &s.cfg.Bucket, Key: &key})
	if err != nil {
		return fmt.Errorf("s3 create multipart upload %s: %w", key, err)
	}
	defer func() {
		if err != nil { // abort even when ctx ended: the parts would be kept (and billed) otherwise
			actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			_, _ = s.client.AbortMultipartUpload(actx, &s3.AbortMultipartUploadInput{Bucket: &s.cfg.Bucket, Key: &key, UploadId: up.UploadId})
		}
	}()
	var parts []types.CompletedPart
	n := len(buf)
	for num := int32(1); ; num++ {
		res, err := s.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: &s.cfg.Bucket, Key: &key, UploadId: up.UploadId,
			PartNumber: aws.Int32(num), Body: bytes.NewReader(buf[:n]), ContentLength: aws.Int64(int64(n))})
		if err != nil {
			return fmt.Errorf("s3 upload part %d of %s: %w", num, key, err)
		}
		parts = append(parts, types.CompletedPart{ETag: res.ETag, PartNumber: aws.Int32(num)})
		n, err = io.ReadFull(r, buf)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return err
		}
	}
	_, err = s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: &s.cfg.Bucket, Key: &key,
		UploadId: up.UploadId, MultipartUpload: &types.CompletedMultipartUpload{Parts: parts}})
	if err != nil {
		return fmt.Errorf("s3 complete multipart upload %s: %w", key, err)
	}
	return nil
}

// Get implements assess.BlobStore.
func (s *S3) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.cfg.Bucket, Key: &key})
	if err != nil {
		var nsk *types.NoSuchKey
		if errors.As(err, &nsk) {
			return nil, assess.ErrBlobNotFound
		}
		return nil, fmt.Errorf("s3 get %s: %w", key, err)
	}
	return out.Body, nil
}

// Delete implements assess.BlobStore; S3 answers success for a missing key too.
func (s *S3) Delete(ctx context.Context, key string) error {
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.cfg.Bucket, Key: &key}); err != nil {
		return fmt.Errorf("s3 delete %s: %w", key, err)
	}
	return nil
}

// CheckHealth implements assess.BlobStore with a HEAD on the bucket.
func (s *S3) CheckHealth(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.HealthTimeout)
	defer cancel()
	_, err := s.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &s.cfg.Bucket})
	if err != nil {
		var api smithy.APIError
		if errors.As(err, &api) {
			return fmt.Errorf("s3 bucket %s: %s", s.cfg.Bucket, api.ErrorCode())
		}
		return fmt.Errorf("s3 bucket %s: %w", s.cfg.Bucket, err)
	}
	return nil
}

// hashingReader computes the size and SHA-256 of what is read through it.
type hashingReader struct {
	r io.Reader
	h hash.Hash
	n int64
}

func (h *hashingReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.h.Write(p[:n])
	h.n += int64(n)
	return n, err
}

func (h *hashingReader) info() assess.BlobInfo {
	return assess.BlobInfo{Size: h.n, SHA256: hex.EncodeToString(h.h.Sum(nil))}
}

var _ assess.BlobStore = (*S3)(nil)
