package httpapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestETagListMatches(t *testing.T) {
	t.Parallel()
	const tag = `"0123abcd"`
	for _, c := range []struct {
		header string
		want   bool
	}{
		{`"0123abcd"`, true},
		{`W/"0123abcd"`, true}, // If-None-Match compares weakly
		{` "0123abcd" `, true},
		{`"x", "0123abcd"`, true},
		{`"x",W/"0123abcd"`, true},
		{`"a,b", "0123abcd"`, true}, // a comma inside a quoted tag is part of it
		{`*`, true},
		{` * `, true},
		{``, false},
		{`"0123abc"`, false},
		{`0123abcd`, false}, // unquoted: not an entity tag
		{`"0123abcd`, false},
		{`w/"0123abcd"`, false}, // the weak prefix is case-sensitive
		{`"x" "0123abcd"`, false},
		{`"x", *`, false}, // * stands alone
		{`W/`, false},
	} {
		require.Equal(t, c.want, etagListMatches(c.header, tag), "If-None-Match: %s", c.header)
	}
}

func TestAnswerCacheStaysWithinItsBound(t *testing.T) {
	t.Parallel()
	entry := func(key string, n int) *encodedJSON {
		return &encodedJSON{key: key, json: bytes.Repeat([]byte("x"), n)}
	}
	c := newAnswerCache(10_000)
	for i := range 20 {
		c.put(entry(fmt.Sprint("k", i), 1_000))
		_, size := c.stats()
		require.LessOrEqual(t, size, int64(10_000))
	}
	n, _ := c.stats()
	require.Equal(t, 8, n, "1,000 bytes and the overhead each: eight fit")
	_, ok := c.get("k11")
	require.False(t, ok, "the oldest entries left first")
	_, ok = c.get("k12")
	require.True(t, ok)

	c.put(entry("k20", 1_000)) // k13, not k12 (just used), leaves
	_, ok = c.get("k12")
	require.True(t, ok, "a recently used entry stays")
	_, ok = c.get("k13")
	require.False(t, ok, "the least recently used one leaves")

	c.put(entry("k12", 2_000)) // replacing an entry counts its new size only
	got, _ := c.get("k12")
	require.Len(t, got.json, 2_000)
	_, size := c.stats()
	require.LessOrEqual(t, size, int64(10_000))

	require.False(t, c.fits(2_500), "more than a quarter of the bound is not kept")
	c.put(entry("huge", 2_500))
	_, ok = c.get("huge")
	require.False(t, ok)

	off := newAnswerCache(0)
	off.put(entry("k", 10))
	_, ok = off.get("k")
	require.False(t, ok, "a bound of 0 keeps nothing")
}

func TestCompressedIsWhatClientsUnzip(t *testing.T) {
	t.Parallel()
	require.Nil(t, compressed([]byte(`{"small":true}`)), "below gzipMinBytes nothing is compressed")
	data := bytes.Repeat([]byte(`{"identifier":"V1.2.3","name":"Verify that"},`), 100)
	zr, err := gzip.NewReader(bytes.NewReader(compressed(data)))
	require.NoError(t, err)
	back, err := io.ReadAll(zr)
	require.NoError(t, err)
	require.Equal(t, data, back)
}

func TestAnswerCacheReadsOnceForConcurrentRequests(t *testing.T) {
	t.Parallel()
	c := newAnswerCache(1 << 20)
	var reads atomic.Int32
	release := make(chan struct{})
	read := func(context.Context) (*encodedJSON, error) {
		reads.Add(1)
		<-release
		return &encodedJSON{key: "k", json: []byte(`{"read":true}`)}, nil
	}
	request := func() *encodedJSON { // as Server.encoded asks
		if e, ok := c.get("k"); ok {
			return e
		}
		e, err := c.fill(context.Background(), "k", read)
		require.NoError(t, err)
		return e
	}
	var wg sync.WaitGroup
	wg.Go(func() { request() })
	require.Eventually(t, func() bool { return reads.Load() == 1 }, time.Second, time.Millisecond)
	for range 7 {
		wg.Go(func() { require.JSONEq(t, `{"read":true}`, string(request().json)) })
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	require.Equal(t, int32(1), reads.Load(), "one read for the eight requests")

	failing := errors.New("the client went away")
	first := true
	var mu sync.Mutex
	flaky := func(context.Context) (*encodedJSON, error) {
		mu.Lock()
		defer mu.Unlock()
		if first {
			first = false
			return nil, failing
		}
		return &encodedJSON{key: "f", json: []byte(`{}`)}, nil
	}
	_, err := c.fill(context.Background(), "f", flaky)
	require.ErrorIs(t, err, failing)
	e, err := c.fill(context.Background(), "f", flaky)
	require.NoError(t, err, "a failed read is not kept: the next request reads again")
	require.Equal(t, "{}", string(e.json))
}
