package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// Fixture factories for the end-to-end tests. They reach the server through its HTTP API
// only, as a user would, so they keep working whatever the store does underneath.

// adminJSON is the first administrator that ts.admin sets up.
const adminJSON = `{"username":"admin","email":"admin@example.com","displayName":"Ada Admin","password":"correct horse battery"}`

// fixturePassword is the password of every account newUser creates.
const fixturePassword = "long enough password"

// user is an account a fixture created or signed in as.
type user struct {
	ID       string
	Username string
	Email    string
	Password string
	Roles    []string
}

// apiClient calls the API as one principal: a browser session (a cookie jar, with the
// Origin header browsers send) or an API key (a header on every request). It holds no
// *testing.T: each call takes the test it fails, so one client serves many subtests.
type apiClient struct {
	ts     *testServer
	http   *http.Client
	origin string      // sent as Origin when not empty
	header http.Header // credential headers sent with every request
	user   user        // whom the client is signed in as, when a fixture signed it in
}

// browser returns a client with an empty cookie jar, signed in as nobody.
func (ts *testServer) browser(t testing.TB) *apiClient {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &apiClient{ts: ts, http: &http.Client{Jar: jar}, origin: ts.url}
}

// bearerClient returns a client sending token as "Authorization: Bearer".
func (ts *testServer) bearerClient(token string) *apiClient {
	return &apiClient{ts: ts, http: http.DefaultClient, header: http.Header{"Authorization": {"Bearer " + token}}}
}

// apiKeyClient returns a client sending token in the X-Api-Key header.
func (ts *testServer) apiKeyClient(token string) *apiClient {
	return &apiClient{ts: ts, http: http.DefaultClient, header: http.Header{"X-Api-Key": {token}}}
}

// withOrigin returns a client sharing c's session that sends another Origin.
func (c *apiClient) withOrigin(origin string) *apiClient {
	other := *c
	other.origin = origin
	return &other
}

// do sends a request and returns the response with its JSON body decoded (nil when the
// body is empty or not JSON). body is sent as is when it is a string, JSON-encoded
// otherwise; hdr are extra header name/value pairs.
func (c *apiClient) do(t testing.TB, method, path string, body any, hdr ...string) (*http.Response, map[string]any) {
	t.Helper()
	var payload string
	switch b := body.(type) {
	case nil:
	case string:
		payload = b
	default:
		raw, err := json.Marshal(b)
		require.NoError(t, err)
		payload = string(raw)
	}
	req, err := http.NewRequest(method, c.ts.url+path, strings.NewReader(payload))
	require.NoError(t, err)
	if payload != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
	}
	for name, values := range c.header {
		req.Header[name] = values
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return c.send(t, req)
}

// expect sends a request, requires the status want and returns the decoded body.
func (c *apiClient) expect(t testing.TB, want int, method, path string, body any) map[string]any {
	t.Helper()
	res, m := c.do(t, method, path, body)
	require.Equal(t, want, res.StatusCode, "%s %s: %v", method, path, m)
	return m
}

// get requires GET path to answer want and returns the body.
func (c *apiClient) get(t testing.TB, path string, want int) map[string]any {
	t.Helper()
	return c.expect(t, want, http.MethodGet, path, nil)
}

// post requires POST path to answer want and returns the body.
func (c *apiClient) post(t testing.TB, path string, body any, want int) map[string]any {
	t.Helper()
	return c.expect(t, want, http.MethodPost, path, body)
}

// patch requires PATCH path to answer want and returns the body.
func (c *apiClient) patch(t testing.TB, path string, body any, want int) map[string]any {
	t.Helper()
	return c.expect(t, want, http.MethodPatch, path, body)
}

// delete requires DELETE path to answer want and returns the body.
func (c *apiClient) delete(t testing.TB, path string, want int) map[string]any {
	t.Helper()
	return c.expect(t, want, http.MethodDelete, path, nil)
}

// fails requires the request to answer the error envelope with status and code, and
// returns the envelope.
func (c *apiClient) fails(t testing.TB, method, path string, body any, status int, code string) map[string]any {
	t.Helper()
	res, m := c.do(t, method, path, body)
	requireEnvelope(t, res, m, status, code)
	return m
}

// admin returns a session of the first administrator (adminJSON), completing the
// first-run setup on the first call. Later calls return the same session. Tests that
// call POST /api/v1/setup themselves must not use it.
func (ts *testServer) admin(t testing.TB) *apiClient {
	t.Helper()
	ts.fixtures.Lock()
	defer ts.fixtures.Unlock()
	if ts.root != nil {
		return ts.root
	}
	c := ts.browser(t)
	body := c.post(t, "/api/v1/setup", adminJSON, http.StatusCreated)
	c.user = userFrom(t, body)
	c.user.Password = "correct horse battery"
	ts.root = c
	return c
}

// newUser has the administrator create an account with a generated name holding roles,
// and returns it with a session signed in as it.
func (ts *testServer) newUser(t testing.TB, roles ...string) (user, *apiClient) {
	t.Helper()
	return ts.newUserNamed(t, fmt.Sprintf("person%d", ts.seq.Add(1)), roles...)
}

// newUserNamed is newUser with a given username; the e-mail address is
// username@example.com and the password fixturePassword.
func (ts *testServer) newUserNamed(t testing.TB, username string, roles ...string) (user, *apiClient) {
	t.Helper()
	if roles == nil {
		roles = []string{}
	}
	body := ts.admin(t).post(t, "/api/v1/users", map[string]any{
		"username": username, "email": username + "@example.com", "displayName": username,
		"password": fixturePassword, "roles": roles,
	}, http.StatusCreated)
	u := userFrom(t, body)
	u.Password = fixturePassword
	return u, ts.login(t, username, fixturePassword)
}

// login signs in with a new browser session and returns it.
func (ts *testServer) login(t testing.TB, login, password string) *apiClient {
	t.Helper()
	c := ts.browser(t)
	body := c.post(t, "/api/v1/auth/login", map[string]any{"username": login, "password": password}, http.StatusOK)
	c.user = userFrom(t, body)
	c.user.Password = password
	return c
}

// role is a custom role a fixture created.
type role struct {
	ID          string
	Name        string
	Permissions []string
}

// newRole has the administrator create a custom role with a generated name granting perms.
func (ts *testServer) newRole(t testing.TB, perms ...string) role {
	t.Helper()
	if perms == nil {
		perms = []string{}
	}
	name := fmt.Sprintf("role_%d", ts.seq.Add(1))
	body := ts.admin(t).post(t, "/api/v1/roles", map[string]any{
		"name": name, "description": "Created by a test fixture", "permissions": perms,
	}, http.StatusCreated)
	id, _ := body["id"].(string)
	require.NotEmpty(t, id, "the role has an id: %v", body)
	return role{ID: id, Name: name, Permissions: perms}
}

// newAPIKey creates an API key for the user c is signed in as and returns its token;
// ts.bearerClient(token) calls the API with it.
func (ts *testServer) newAPIKey(t testing.TB, c *apiClient) string {
	t.Helper()
	body := c.post(t, "/api/v1/me/api-keys", map[string]any{"name": fmt.Sprintf("key %d", ts.seq.Add(1))}, http.StatusCreated)
	token, _ := body["token"].(string)
	require.NotEmpty(t, token, "the key's token is shown on creation: %v", body)
	return token
}

// userFrom reads the user of a setup or sign-in answer ({"user": {...}}) or of a user
// resource.
func userFrom(t testing.TB, body map[string]any) user {
	t.Helper()
	m, ok := body["user"].(map[string]any)
	if !ok {
		m = body
	}
	u := user{}
	u.ID, _ = m["id"].(string)
	u.Username, _ = m["username"].(string)
	u.Email, _ = m["email"].(string)
	require.NotEmpty(t, u.ID, "a user has an id: %v", body)
	roles, _ := m["roles"].([]any)
	for _, r := range roles {
		s, _ := r.(string)
		u.Roles = append(u.Roles, s)
	}
	return u
}

// step runs a subtest that later subtests build on: when it fails the test stops there,
// rather than reporting every later subtest as a consequence.
func step(t *testing.T, name string, f func(t *testing.T)) {
	t.Helper()
	if !t.Run(name, f) {
		t.FailNow()
	}
}

// items returns the items of a page envelope.
func items(t testing.TB, body map[string]any) []map[string]any {
	t.Helper()
	raw, ok := body["items"].([]any)
	require.True(t, ok, "a page has items: %v", body)
	out := make([]map[string]any, 0, len(raw))
	for _, it := range raw {
		out = append(out, it.(map[string]any))
	}
	return out
}

// idsOf returns the ids of page items.
func idsOf(list []map[string]any) []string {
	out := make([]string, 0, len(list))
	for _, it := range list {
		out = append(out, it["id"].(string))
	}
	return out
}

// allPages follows nextCursor from path (which has a query string) and returns every item.
func allPages(t testing.TB, c *apiClient, path string) []map[string]any {
	t.Helper()
	var all []map[string]any
	cursor := ""
	for range 100 {
		body := c.get(t, path+"&cursor="+cursor, http.StatusOK)
		all = append(all, items(t, body)...)
		if body["hasMore"] != true {
			require.Empty(t, body["nextCursor"])
			return all
		}
		cursor, _ = body["nextCursor"].(string)
		require.NotEmpty(t, cursor)
	}
	t.Fatalf("%s: more than 100 pages", path)
	return nil
}

// detailCode returns the code of the first detail of an error envelope.
func detailCode(t testing.TB, body map[string]any) string {
	t.Helper()
	details, _ := body["details"].([]any)
	require.NotEmpty(t, details, "the envelope has details: %v", body)
	d, _ := details[0].(map[string]any)
	code, _ := d["code"].(string)
	return code
}

// ---- Assessment fixtures (issue #13, slice A: assessments) ----
//
// Catalogue rows an assessment needs (requirement trees, levels, compliance policies),
// written straight to the database, and the assessment itself created through the API.

// requirement inserts a requirement of standard under parent ("" at the top) at position
// and returns its id.
func (c *catalogueRows) requirement(standardID, parentID, identifier string, position int) string {
	c.t.Helper()
	id := assess.NewID(assess.PrefixRequirement, time.Now())
	c.exec(`INSERT INTO requirements (id, standard_id, parent_id, identifier, natural_key, name, position)
		VALUES ($1, $2, nullif($3, ''), $4, $5, $6, $7)`, id, standardID, parentID, identifier, assess.NaturalKey(identifier),
		"Requirement "+identifier, position)
	return id
}

// level inserts a level of standard holding requirementIDs and returns its id.
func (c *catalogueRows) level(standardID, identifier string, requirementIDs ...string) string {
	c.t.Helper()
	id := assess.NewID(assess.PrefixLevel, time.Now())
	c.exec(`INSERT INTO levels (id, standard_id, identifier, title) VALUES ($1, $2, $3, $3)`, id, standardID, identifier)
	c.exec(`INSERT INTO level_requirements (level_id, requirement_id) SELECT $1, unnest($2::text[])`, id, requirementIDs)
	return id
}

// policy inserts a compliance policy of standard (and level, "" for none) on entity.
func (c *catalogueRows) policy(entityID, standardID, levelID string) {
	c.t.Helper()
	c.exec(`INSERT INTO compliance_policies (id, entity_id, standard_id, level_id) VALUES ($1, $2, $3, nullif($4, ''))`,
		assess.NewID(assess.PrefixPolicy, time.Now()), entityID, standardID, levelID)
}

// texts runs a query answering one text column and returns its values in order.
func (c *catalogueRows) texts(sql string, args ...any) []string {
	c.t.Helper()
	rows, err := c.conn.Query(context.Background(), sql, args...)
	require.NoError(c.t, err)
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(c.t, err, sql)
	return out
}

// answer sets the result and rationale of the requirements of assessment whose catalogue
// identifier is one of identifiers, straight in the database.
func (c *catalogueRows) answer(assessmentID, result, rationale string, identifiers ...string) {
	c.t.Helper()
	c.exec(`UPDATE assessment_requirements ar SET result = $2, rationale = $3, rationale_words = $5 FROM requirements r
		WHERE r.id = ar.requirement_id AND ar.assessment_id = $1 AND r.identifier = ANY($4)`, assessmentID, result, rationale, identifiers,
		assess.RationaleWords(rationale))
}

// linkEvidence inserts evidence authored by authorID and links it to the requirement of
// assessment with the given catalogue identifier; it returns the evidence id.
func (c *catalogueRows) linkEvidence(assessmentID, identifier, authorID string) string {
	c.t.Helper()
	id := assess.NewID(assess.PrefixEvidence, time.Now())
	c.exec(`INSERT INTO evidence (id, name, author_id) VALUES ($1, 'Evidence', $2)`, id, authorID)
	c.exec(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
		SELECT ar.id, $2, $1 FROM assessment_requirements ar JOIN requirements r ON r.id = ar.requirement_id
		WHERE ar.assessment_id = $1 AND r.identifier = $3`, assessmentID, id, identifier)
	return id
}

// newAssessment creates an assessment through the API as c and returns it.
func newAssessment(t testing.TB, c *apiClient, body map[string]any) map[string]any {
	t.Helper()
	return c.post(t, "/api/v1/assessments", body, http.StatusCreated)
}

// fifteenWords is a rationale of the default minimum length.
const fifteenWords = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"

// ---- end of assessment fixtures ----
