package secret_test

import (
	"context"
	"crypto/rand"
	"testing"
	"time"

	"github.com/assay-dev/assay/pkg/secret"
)

var benchSizes = []struct {
	name string
	size int
}{
	{"32B", 32},
	{"4KiB", 4 << 10},
}

// benchEachSize runs a sub-benchmark for each of benchSizes: setup gets a random
// plaintext of that size and returns the operation to time (throughput is per plaintext
// byte).
func benchEachSize(b *testing.B, setup func(b *testing.B, plaintext []byte) func() error) {
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			plaintext := make([]byte, s.size)
			_, _ = rand.Read(plaintext)
			op := setup(b, plaintext)
			b.SetBytes(int64(s.size))
			b.ReportAllocs()
			for b.Loop() {
				if err := op(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSeal(b *testing.B) {
	ctx := context.Background()
	kr, _, _ := newKeyring(b)
	benchEachSize(b, func(_ *testing.B, plaintext []byte) func() error {
		return func() error {
			_, err := kr.Seal(ctx, aadJWT, plaintext)
			return err
		}
	})
}

func BenchmarkOpen(b *testing.B) {
	ctx := context.Background()
	kr, _, _ := newKeyring(b)
	benchEachSize(b, func(b *testing.B, plaintext []byte) func() error {
		stored, err := kr.Seal(ctx, aadJWT, plaintext)
		if err != nil {
			b.Fatal(err)
		}
		return func() error {
			_, err := kr.Open(ctx, aadJWT, stored)
			return err
		}
	})
}

// BenchmarkRewrap is the per-value cost of a KEK rotation (database round trips aside).
func BenchmarkRewrap(b *testing.B) {
	ctx := context.Background()
	kr, master, _ := newKeyring(b)
	stored, err := kr.Seal(ctx, aadJWT, make([]byte, 64))
	if err != nil {
		b.Fatal(err)
	}
	_, kek2, err := secret.NewKeyVersion(master, 2, "bench", time.Now())
	if err != nil {
		b.Fatal(err)
	}
	kr.AddVersion(2, kek2)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := kr.Rewrap(ctx, aadJWT, stored, 2); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnwrapKEK is the per-version cost of loading the ledger at start-up and of
// a master rekey.
func BenchmarkUnwrapKEK(b *testing.B) {
	master := newMaster(b)
	kv, _, err := secret.NewKeyVersion(master, 1, "bench", time.Now())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := secret.UnwrapKEK(master, kv); err != nil {
			b.Fatal(err)
		}
	}
}
