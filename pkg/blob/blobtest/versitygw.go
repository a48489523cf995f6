// Package blobtest gives tests a real S3-compatible server: versitygw (built from the
// pinned tools module tools/versitygw) with its posix backend in a temporary directory,
// on a free loopback port, and a bucket created in it.
package blobtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/assay-dev/assay/pkg/tooltest"
)

// EnvBin names the versitygw binary to use instead of <repo>/bin/versitygw.
const EnvBin = "VERSITYGW_BIN"

// Gateway is a running versitygw with one bucket.
type Gateway struct {
	// Endpoint is its base URL, such as http://127.0.0.1:41234 (path-style addressing).
	Endpoint string
	// AccessKey and SecretKey are its root credentials.
	AccessKey, SecretKey string
	// Bucket was created at start.
	Bucket string
	// Region is what clients should sign with.
	Region string
	// Dir is the posix backend's root: the object key k of bucket b is the file Dir/b/k.
	Dir string
}

// StartVersityGW starts versitygw for the test and stops it at cleanup. It fails the test
// when the binary can neither be found nor built.
func StartVersityGW(t testing.TB) *Gateway {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatalf("versitygw: %v", err)
	}
	var lastErr error
	for range 3 { // a free port can be taken between the probe and the bind
		g, err := start(t, bin)
		if err == nil {
			return g
		}
		lastErr = err
	}
	t.Fatalf("versitygw: %v", lastErr)
	return nil
}

func start(t testing.TB, bin string) (*Gateway, error) {
	port := tooltest.FreePort()
	if port == 0 {
		return nil, fmt.Errorf("no free loopback port")
	}
	g := &Gateway{Endpoint: "http://127.0.0.1:" + strconv.Itoa(port), AccessKey: "test-access-" + token(4),
		SecretKey: "test-secret-" + token(12), Bucket: "evidence-" + token(4), Region: "us-east-1", Dir: t.TempDir()}
	// Metadata (part ETags and the like) in a side directory: no need for xattr support.
	meta := t.TempDir()
	cmd := exec.Command(bin, "--access", g.AccessKey, "--secret", g.SecretKey, "--region", g.Region,
		"--port", "127.0.0.1:"+strconv.Itoa(port), "--quiet", "posix", "--sidecar", meta, g.Dir)
	p, err := tooltest.Start("versitygw", cmd, g.ready)
	if err != nil {
		return nil, err
	}
	if _, err := g.Client().CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: &g.Bucket}); err != nil {
		p.Stop()
		return nil, fmt.Errorf("create bucket: %w: %s", err, p.Output())
	}
	t.Cleanup(p.Stop)
	return g, nil
}

func (g *Gateway) ready() bool {
	c, err := net.DialTimeout("tcp", g.Endpoint[len("http://"):], time.Second)
	if err != nil {
		return false
	}
	_ = c.Close()
	resp, err := http.Get(g.Endpoint + "/")
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return true
}

// Client returns an S3 client signed with the root credentials.
func (g *Gateway) Client() *s3.Client {
	return s3.New(s3.Options{Region: g.Region, BaseEndpoint: aws.String(g.Endpoint), UsePathStyle: true,
		Credentials:                credentials.NewStaticCredentialsProvider(g.AccessKey, g.SecretKey, ""),
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired})
}

// ObjectPath is the file holding the object key of the bucket.
func (g *Gateway) ObjectPath(key string) string {
	return filepath.Join(g.Dir, g.Bucket, filepath.FromSlash(key))
}

// Objects lists the keys in the bucket (files under its directory, multipart staging
// excluded).
func (g *Gateway) Objects(t testing.TB) []string {
	t.Helper()
	out, err := g.Client().ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: &g.Bucket})
	if err != nil {
		t.Fatalf("list objects: %v", err)
	}
	keys := make([]string, 0, len(out.Contents))
	for _, o := range out.Contents {
		keys = append(keys, aws.ToString(o.Key))
	}
	return keys
}

// RemoveBucket deletes the bucket and everything in it behind the server's back, as an
// operator deleting it would leave the service.
func (g *Gateway) RemoveBucket(t testing.TB) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(g.Dir, g.Bucket)); err != nil {
		t.Fatalf("remove bucket: %v", err)
	}
}

// Binary returns the versitygw binary: $VERSITYGW_BIN, or <repo>/bin/versitygw, built
// from tools/versitygw when missing.
func Binary() (string, error) {
	return tooltest.Binary(EnvBin, "versitygw", "github.com/versity/versitygw/cmd/versitygw")
}

func token(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
