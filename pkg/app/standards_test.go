package app_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/app"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/cyclonedx/cdxtest"
	"github.com/assay-dev/assay/pkg/notify"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

const (
	scvs  = "software-component-verification-standard-scvs-@1.0"
	asvs4 = "application-security-verification-standard-asvs-@4.0.3"
)

// standardsServer serves the shared catalogue on loopback (the feed's URLs rewritten to
// point at it) and counts the downloads of the feed.
type standardsServer struct {
	*httptest.Server
	feedReads atomic.Int32
}

func serveStandards(t *testing.T) *standardsServer {
	t.Helper()
	root := filepath.Join(cdxtest.SharedData(t), "standards")
	s := &standardsServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/feed.json" {
			http.FileServer(http.Dir(root)).ServeHTTP(w, r)
			return
		}
		s.feedReads.Add(1)
		raw, err := os.ReadFile(filepath.Join(root, "feed.json"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		raw = bytes.ReplaceAll(raw, []byte("https://raw.githubusercontent.com/CycloneDX/official-3rd-party-standards/main/standards/"), []byte(s.URL+"/"))
		w.Header().Set("Content-Type", "application/feed+json")
		_, _ = w.Write(raw)
	}))
	t.Cleanup(s.Close)
	return s
}

// clock is a settable clock for the feed cache.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// importsFixture is the imports on a store of their own, downloading from srv through the
// outbound guard (loopback allowed).
func importsFixture(t *testing.T, srv *standardsServer, now func() time.Time) *app.StandardImports {
	t.Helper()
	fetcher := notify.NewFetcher(notify.HTTPConfig{Timeout: 10 * time.Second,
		AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, UserAgent: notify.UserAgent("test")})
	store := services.New(postgres.New(pgtest.NewPool(t), nil)).Transfer
	return app.NewStandardImports(store, fetcher, app.ImportConfig{FeedURL: srv.URL + "/feed.json", MaxBytes: 10 << 20, Now: now})
}

func feedItem(t *testing.T, items []assess.FeedItem, id string) assess.FeedItem {
	t.Helper()
	i := slices.IndexFunc(items, func(it assess.FeedItem) bool { return it.ID == id })
	require.GreaterOrEqual(t, i, 0, "the feed has no item %s", id)
	return items[i]
}

// TestStandardsFeed: the feed is downloaded once per five minutes, its items carry their
// local status, and an item imports from it (404 for one it does not offer).
func TestStandardsFeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := serveStandards(t)
	clk := &clock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	imports := importsFixture(t, srv, clk.Now)

	items, err := imports.StandardsFeed(ctx)
	require.NoError(t, err)
	require.Equal(t, assess.FeedNotImported, feedItem(t, items, asvs4).Status)
	_, err = imports.StandardsFeed(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 1, srv.feedReads.Load(), "cached")

	res, err := imports.ImportFeedItem(ctx, asvs4, assess.SystemActor)
	require.NoError(t, err)
	require.Equal(t, 1, res.Created)
	require.Equal(t, assess.SourceFeed, res.Standards[0].Source)
	require.EqualValues(t, 1, srv.feedReads.Load(), "the item is found in the cached feed")
	items, err = imports.StandardsFeed(ctx)
	require.NoError(t, err)
	require.Equal(t, assess.FeedImported, feedItem(t, items, asvs4).Status)
	require.Equal(t, res.Standards[0].ID, feedItem(t, items, asvs4).ImportedID)
	require.Equal(t, assess.FeedUpdateAvailable, feedItem(t, items, "application-security-verification-standard-asvs-@5.0.0").Status)

	clk.Advance(5 * time.Minute)
	_, err = imports.StandardsFeed(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 2, srv.feedReads.Load(), "read again after five minutes")

	_, err = imports.ImportFeedItem(ctx, "no-such-standard@1", assess.SystemActor)
	requireCode(t, err, assess.ECodeNotFound)
}

// TestImportStarterStandards imports the starter set once; the second time every standard
// is listed as unchanged.
func TestImportStarterStandards(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	imports := importsFixture(t, serveStandards(t), nil)
	res, err := imports.ImportStarterStandards(ctx, assess.SystemActor)
	require.NoError(t, err)
	require.Equal(t, len(assess.StarterFeedItems), res.Created)
	again, err := imports.ImportStarterStandards(ctx, assess.SystemActor)
	require.NoError(t, err)
	require.Zero(t, again.Created)
	require.Equal(t, len(assess.StarterFeedItems), again.Unchanged)
	require.Len(t, again.Standards, len(assess.StarterFeedItems))
}

// TestImportStandardsFromURL downloads and imports a document (source import); the same
// document again is unchanged; a URL the outbound guard refuses is 422 on url.
func TestImportStandardsFromURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := serveStandards(t)
	imports := importsFixture(t, srv, nil)
	url := srv.URL + "/OWASP/SCVS/scvs-1.0.0.cdx.json"
	res, err := imports.ImportStandardsFromURL(ctx, url, assess.SystemActor)
	require.NoError(t, err)
	require.Equal(t, 1, res.Created)
	require.Equal(t, assess.FeedItemIdentifier(scvs), res.Standards[0].Identifier)
	require.Equal(t, assess.SourceImport, res.Standards[0].Source)
	again, err := imports.ImportStandardsFromURL(ctx, url, assess.SystemActor)
	require.NoError(t, err)
	require.Equal(t, 1, again.Unchanged)

	_, err = imports.ImportStandardsFromURL(ctx, "http://10.0.0.1/standard.json", assess.SystemActor)
	requireCode(t, err, assess.ECodeBusinessRule)
}

// TestImportsWithoutAFetcher: with no fetcher configured every download is 503.
func TestImportsWithoutAFetcher(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	imports := app.NewStandardImports(services.New(postgres.New(pgtest.NewPool(t), nil)).Transfer, nil,
		app.ImportConfig{FeedURL: "https://example.com/feed.json"})
	_, err := imports.StandardsFeed(ctx)
	requireCode(t, err, assess.ECodeUnavailable)
	_, err = imports.ImportFeedItem(ctx, scvs, assess.SystemActor)
	requireCode(t, err, assess.ECodeUnavailable)
	_, err = imports.ImportStarterStandards(ctx, assess.SystemActor)
	requireCode(t, err, assess.ECodeUnavailable)
	_, err = imports.ImportStandardsFromURL(ctx, "https://example.com/standard.json", assess.SystemActor)
	requireCode(t, err, assess.ECodeUnavailable)
}
