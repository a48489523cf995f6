package app_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/app"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/cyclonedx/cdxtest"
	"github.com/assay-dev/assay/pkg/notify"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
	"github.com/assay-dev/assay/standards/starter"
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
// outbound guard (loopback allowed), with no starter documents.
func importsFixture(t *testing.T, srv *standardsServer, now func() time.Time) *app.StandardImports {
	t.Helper()
	return starterImports(t, srv.URL+"/feed.json", nil, now)
}

// starterImports is the imports on a store of their own with the feed at feedURL (loopback
// allowed) and the starter documents of starterFS.
func starterImports(t *testing.T, feedURL string, starterFS fs.FS, now func() time.Time) *app.StandardImports {
	t.Helper()
	fetcher := notify.NewFetcher(notify.HTTPConfig{Timeout: 10 * time.Second,
		AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, UserAgent: notify.UserAgent("test")})
	store := services.New(postgres.New(pgtest.NewPool(t), nil)).Transfer
	return app.NewStandardImports(store, fetcher, app.ImportConfig{FeedURL: feedURL, MaxBytes: 10 << 20, Starter: starterFS, Now: now})
}

// catalogueFS is the shared copy of the CycloneDX catalogue's standards/ folder: it holds
// the starter documents as a release binary does (starter.Files()).
func catalogueFS(t *testing.T) fs.FS {
	t.Helper()
	return os.DirFS(filepath.Join(cdxtest.SharedData(t), "standards"))
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

// TestImportStarterStandards imports the starter set from the documents built in; the
// second time every standard is listed as unchanged; and the feed then shows each starter
// item as imported.
func TestImportStarterStandards(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := serveStandards(t)
	imports := starterImports(t, srv.URL+"/feed.json", catalogueFS(t), nil)
	res, err := imports.ImportStarterStandards(ctx, assess.SystemActor)
	require.NoError(t, err)
	require.Equal(t, 4, res.Created)
	require.Zero(t, srv.feedReads.Load(), "the documents built in need no feed")
	again, err := imports.ImportStarterStandards(ctx, assess.SystemActor)
	require.NoError(t, err)
	require.Zero(t, again.Created)
	require.Equal(t, 4, again.Unchanged)
	require.Len(t, again.Standards, 4)
	items, err := imports.StandardsFeed(ctx)
	require.NoError(t, err)
	for i, d := range starter.Manifest() {
		it := feedItem(t, items, d.FeedItemID)
		require.Equal(t, assess.FeedImported, it.Status, d.FeedItemID)
		require.Equal(t, res.Standards[i].ID, it.ImportedID, d.FeedItemID)
	}
}

// closedPort returns a loopback address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// TestImportStarterStandardsOffline: with no network at all (the feed at a closed loopback
// port) the starter set imports from the documents built in — the four standards,
// published, source feed — and a second call lists them as present; the feed meanwhile says
// in words that it cannot be reached.
func TestImportStarterStandardsOffline(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	imports := starterImports(t, "http://"+closedPort(t)+"/feed.json", catalogueFS(t), nil)
	_, err := imports.StandardsFeed(ctx)
	requireDetail(t, err, "feed", "feed_unreachable", "The standards feed at 127.0.0.1 could not be reached: the connection was refused.")

	res, err := imports.ImportStarterStandards(ctx, assess.SystemActor)
	require.NoError(t, err)
	require.Equal(t, 4, res.Created)
	var got []string
	for _, st := range res.Standards {
		require.Equal(t, assess.ImportCreated, st.Outcome)
		require.Equal(t, assess.SourceFeed, st.Source)
		require.Equal(t, assess.StandardPublished, st.State)
		got = append(got, st.Identifier+"@"+st.StandardVersion)
	}
	require.Equal(t, []string{
		"application-security-verification-standard-asvs@5.0.0",
		"secure-software-development-framework-ssdf-version-1-1@1.1",
		"owasp-software-assurance-maturity-model-samm@2.1.0",
		"software-component-verification-standard-scvs@1.0",
	}, got)
	for i, d := range starter.Manifest() {
		require.Equal(t, assess.FeedItemIdentifier(d.FeedItemID), res.Standards[i].Identifier, "the feed item %s matches its document", d.FeedItemID)
	}

	again, err := imports.ImportStarterStandards(ctx, assess.SystemActor)
	require.NoError(t, err)
	require.Zero(t, again.Created)
	require.Equal(t, 4, again.Unchanged)
	for i, st := range again.Standards {
		require.Equal(t, assess.ImportUnchanged, st.Outcome)
		require.Equal(t, res.Standards[i].ID, st.ID)
	}
}

// TestImportStarterStandardsFromTheFeed: a binary built without the starter documents
// imports them from the feed, as before they were built in: those the feed shows as
// imported are listed as unchanged, the others downloaded; with the feed unreachable the
// answer is feed_unreachable, in words, and nothing is imported.
func TestImportStarterStandardsFromTheFeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := serveStandards(t)
	for name, fsys := range map[string]fs.FS{"no folder": nil, "an empty folder": fstest.MapFS{}} {
		t.Run(name, func(t *testing.T) {
			imports := starterImports(t, srv.URL+"/feed.json", fsys, nil)
			_, err := imports.ImportFeedItem(ctx, scvs, assess.SystemActor)
			require.NoError(t, err)
			res, err := imports.ImportStarterStandards(ctx, assess.SystemActor)
			require.NoError(t, err)
			require.Equal(t, 3, res.Created)
			require.Equal(t, 1, res.Unchanged)
			require.Len(t, res.Standards, 4)
			again, err := imports.ImportStarterStandards(ctx, assess.SystemActor)
			require.NoError(t, err)
			require.Zero(t, again.Created)
			require.Equal(t, 4, again.Unchanged)
		})
	}

	offline := starterImports(t, "http://"+closedPort(t)+"/feed.json", fstest.MapFS{}, nil)
	_, err := offline.ImportStarterStandards(ctx, assess.SystemActor)
	requireDetail(t, err, "feed", "feed_unreachable", "The standards feed at 127.0.0.1 could not be reached: the connection was refused.")
}

// TestImportStarterStandardsPartlyBuiltIn: the documents built in whose SHA-256 is the
// manifest's import from the binary, the rest (missing, or changed) from the feed, all in
// one import.
func TestImportStarterStandardsPartlyBuiltIn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	catalogue := catalogueFS(t)
	m := starter.Manifest()
	samm, err := fs.ReadFile(catalogue, m[2].Path)
	require.NoError(t, err)
	changed := bytes.Clone(samm)
	changed[len(changed)/2] ^= 1
	asvs5, err := fs.ReadFile(catalogue, m[0].Path)
	require.NoError(t, err)
	srv := serveStandards(t)
	imports := starterImports(t, srv.URL+"/feed.json", fstest.MapFS{m[0].Path: {Data: asvs5}, m[2].Path: {Data: changed}}, nil)
	res, err := imports.ImportStarterStandards(ctx, assess.SystemActor)
	require.NoError(t, err)
	require.Equal(t, 4, res.Created)
	require.EqualValues(t, 1, srv.feedReads.Load(), "the three others come from the feed")
	var got []string
	for _, st := range res.Standards {
		got = append(got, st.Identifier)
	}
	require.ElementsMatch(t, []string{assess.FeedItemIdentifier(m[0].FeedItemID), assess.FeedItemIdentifier(m[1].FeedItemID),
		assess.FeedItemIdentifier(m[2].FeedItemID), assess.FeedItemIdentifier(m[3].FeedItemID)}, got)
}

// requireDetail checks a 422 answer: its message, and the code and field of its detail.
func requireDetail(t *testing.T, err error, field, code, message string) {
	t.Helper()
	var e *assess.Error
	require.True(t, errors.As(err, &e), "want *assess.Error, got %v", err)
	require.Equal(t, assess.ECodeBusinessRule, e.Code, e.Message)
	require.Equal(t, message, e.Message)
	require.Len(t, e.Details, 1)
	require.Equal(t, field, e.Details[0].Field)
	require.Equal(t, code, e.Details[0].Code)
	require.NotContains(t, e.Details[0].Message, "dial")
}

// TestFeedFailuresInWords: a feed, a feed item's document or a document by URL that cannot
// be downloaded is answered in words naming what and where: feed_unreachable from the
// feed (the client can offer the file upload), fetch_failed for an import by URL.
func TestFeedFailuresInWords(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/feed.json" {
			http.NotFound(w, r)
			return
		}
		_, _ = fmt.Fprintf(w, `{"version":"https://jsonfeed.org/version/1.1","title":"t","items":[{"id":"gone-standard@1",
			"title":"Gone Standard","attachments":[{"url":%q,"mime_type":"application/vnd.cyclonedx+json"}]}]}`, srv.URL+"/gone.cdx.json")
	}))
	t.Cleanup(srv.Close)
	fetcher := notify.NewFetcher(notify.HTTPConfig{Timeout: 5 * time.Second,
		AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, UserAgent: notify.UserAgent("test")})
	store := services.New(postgres.New(pgtest.NewPool(t), nil)).Transfer
	newImports := func(feedURL string, f assess.DocumentFetcher) *app.StandardImports {
		return app.NewStandardImports(store, f, app.ImportConfig{FeedURL: feedURL})
	}

	_, err := newImports(srv.URL+"/nothing.json", fetcher).StandardsFeed(ctx)
	requireDetail(t, err, "feed", "feed_unreachable", "The standards feed at 127.0.0.1 could not be reached: it answered HTTP 404 Not Found.")

	_, err = newImports(srv.URL+"/feed.json", notify.NewFetcher(notify.HTTPConfig{})).StandardsFeed(ctx)
	requireDetail(t, err, "feed", "feed_unreachable", "The standards feed at 127.0.0.1 could not be reached: "+
		"plain http is accepted only for networks in OUTBOUND_ALLOW_NETWORKS; use https.")

	imports := newImports(srv.URL+"/feed.json", fetcher)
	_, err = imports.ImportFeedItem(ctx, "gone-standard@1", assess.SystemActor)
	requireDetail(t, err, "itemId", "feed_unreachable", "The document of Gone Standard 1 at 127.0.0.1 could not be downloaded: it answered HTTP 404 Not Found.")

	_, err = imports.ImportStandardsFromURL(ctx, srv.URL+"/gone.cdx.json", assess.SystemActor)
	requireDetail(t, err, "url", "fetch_failed", "The document at 127.0.0.1 could not be downloaded: it answered HTTP 404 Not Found.")
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

// TestImportsWithoutAFetcher: with no fetcher configured every download is 503, the
// starter set's too when the documents are not built in; built in, it imports.
func TestImportsWithoutAFetcher(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := services.New(postgres.New(pgtest.NewPool(t), nil)).Transfer
	_, err := app.NewStandardImports(store, nil, app.ImportConfig{FeedURL: "https://example.com/feed.json"}).
		ImportStarterStandards(ctx, assess.SystemActor)
	requireCode(t, err, assess.ECodeUnavailable)
	imports := app.NewStandardImports(store, nil, app.ImportConfig{FeedURL: "https://example.com/feed.json", Starter: catalogueFS(t)})
	_, err = imports.StandardsFeed(ctx)
	requireCode(t, err, assess.ECodeUnavailable)
	_, err = imports.ImportFeedItem(ctx, scvs, assess.SystemActor)
	requireCode(t, err, assess.ECodeUnavailable)
	_, err = imports.ImportStandardsFromURL(ctx, "https://example.com/standard.json", assess.SystemActor)
	requireCode(t, err, assess.ECodeUnavailable)
	res, err := imports.ImportStarterStandards(ctx, assess.SystemActor)
	require.NoError(t, err, "the starter set built in needs no download")
	require.Equal(t, 4, res.Created)
}
