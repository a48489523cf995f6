package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/datagen"
	"github.com/assay-dev/assay/pkg/httpapi"
)

const (
	sessionCookie = httpapi.SessionCookieName
	benchPassword = "bench password 0123"
	adminName     = "bench-admin"  // the measured principal: every operation acts as them
	seederName    = "bench-seeder" // a second administrator, so the users it creates notify adminName
	seedWorkers   = 4              // concurrent creations; password hashing is the bottleneck anyway
)

// customRoles are granted to every tenth seeded user, so role lists and joins are not trivial.
var customRoles = [][]assess.Perm{
	{assess.PermAdminAudit},
	{assess.PermAssessmentsView, assess.PermEvidenceView},
	{assess.PermAssessmentsView, assess.PermAssessmentsEdit, assess.PermAssessmentsNotes},
	{assess.PermStandardsView, assess.PermEntitiesView, assess.PermProjectsView},
	{assess.PermAttestationsView, assess.PermExportCycloneDX},
}

// Dataset is what the seed created; the operations draw credentials and placeholder
// values from it.
type Dataset struct {
	UserIDs  []string `json:"-"`
	Roles    []string `json:"-"`
	APIKeys  []string `json:"-"` // tokens of adminName
	Sessions []string `json:"-"` // assay_session cookie values of adminName
	// EntityDeepCursor is the cursor of the last page of the entity list by name (page size
	// 200), found by walking the list: a page near the end.
	EntityDeepCursor string `json:"-"`
	// StandardID is a standard the size of OWASP ASVS (benchRequirements requirements).
	StandardID string   `json:"-"`
	ProjectIDs []string `json:"-"`
	// PublishedStandardID is a published standard of ASVS's size (seed_published.go);
	// PublishedStandard says which.
	PublishedStandardID string `json:"-"`
	PublishedStandard   string `json:"publishedStandard"`
	// LargeStandardID is a standard of Requirements requirements, RequirementDeepCursor the
	// cursor of the last page of its requirement list (page size 200).
	LargeStandardID       string `json:"-"`
	RequirementDeepCursor string `json:"-"`
	// AssessmentID is an assessment in progress of StandardID with its leaf requirements
	// loaded (AssessmentRequirementIDs).
	AssessmentID             string   `json:"-"`
	AssessmentRequirementIDs []string `json:"-"`
	// EntityID is the entity AssessmentID assesses; create-assessment assesses it again.
	EntityID string `json:"-"`
	// AttestationID is a sealed attestation of a 70-requirement assessment.
	AttestationID string `json:"-"`
	// ParticipantKeys are API keys of participantName, an assessor on the team of
	// AssessmentID and of every tenth other assessment, without assessments.view_all: the
	// operations using them go through the visibility rule. EvidenceIDs are the evidence
	// linked to AssessmentID (visible to the participant); UploadEvidenceIDs the evidence
	// upload-small attaches files to.
	ParticipantKeys   []string `json:"-"`
	EvidenceIDs       []string `json:"-"`
	UploadEvidenceIDs []string `json:"-"`
	participantID     string
	// Generated is what -data added (pkg/datagen); BusyAssessmentID the generated assessment
	// on the participant's team with the most claims (AssessmentID without -data).
	Generated        *datagen.Summary `json:"generated,omitempty"`
	BusyAssessmentID string           `json:"-"`

	Users               int     `json:"users"`
	CustomRoles         int     `json:"customRoles"`
	Entities            int     `json:"entities"`
	Requirements        int     `json:"requirements"`
	Credentials         int     `json:"credentials"`         // API keys, and sessions, shared by the workers
	UnreadNotifications int     `json:"unreadNotifications"` // of adminName
	Projects            int     `json:"projects"`
	Assessments         int     `json:"assessments"`
	Evidence            int     `json:"evidence"`
	Claims              int     `json:"claims"`
	Seconds             float64 `json:"seconds"`
}

// seeder builds the dataset through the API, as a client would.
type seeder struct {
	api          *apiClient
	users        int
	entities     int
	requirements int
	assessments  int // besides the seeded ASVS assessment
	evidence     int
	dsn          string // the database, for seeding in bulk what the API would take long to create
	credentials  int    // API keys, and sessions, of adminName
	data         *Dataset
	cookie       string // a session of adminName
	dataSize     int    // rows of realistic data (-data); 0: none
	standardsDir string // standards the realistic data starts its assessments on
}

// seedSteps build the dataset in order. A feature whose operations need records of a new
// kind appends a step here, and a placeholder (scenario.go) drawing from what it stored.
var seedSteps = []struct {
	name string
	run  func(s *seeder, ctx context.Context) error
}{
	{"first administrator", (*seeder).admin},
	{"custom roles", (*seeder).roles},
	{"users", (*seeder).userAccounts},
	{"API keys and sessions", (*seeder).keysAndSessions},
	{"notifications", (*seeder).notifications},
	{"entities", (*seeder).entityRecords},
	{"entity list walk", (*seeder).entityDeepCursor},
	{"standard", (*seeder).standard},
	{"published standard", (*seeder).publishedStandard},
	{"large standard", (*seeder).largeStandard},
	{"projects", (*seeder).projects},
	{"assessment", (*seeder).assessment},
	{"assessment work", (*seeder).assessmentWork},
	{"attestation", (*seeder).attestation},
	{"realistic data", (*seeder).realisticData},
}

// seed runs every step against the server at base (and its database dsn): o.Users
// accounts, o.Credentials API keys and as many sessions of the measured administrator, and
// o.Entities entities.
func seed(ctx context.Context, base, dsn string, o options, out io.Writer) (*Dataset, error) {
	s := &seeder{api: newAPIClient(base), users: o.Users, entities: o.Entities, requirements: o.Requirements,
		assessments: o.Assessments, evidence: o.Evidence, dsn: dsn, credentials: o.Credentials, data: &Dataset{},
		dataSize: o.dataSize, standardsDir: o.StandardsDir}
	began := time.Now()
	for _, step := range seedSteps {
		t0 := time.Now()
		if err := step.run(s, ctx); err != nil {
			return nil, fmt.Errorf("seed %s: %w", step.name, err)
		}
		fmt.Fprintf(out, "seed: %-22s %6.1fs\n", step.name, time.Since(t0).Seconds())
	}
	s.data.Users, s.data.CustomRoles, s.data.Credentials = len(s.data.UserIDs), len(s.data.Roles), len(s.data.APIKeys)
	s.data.Projects = len(s.data.ProjectIDs)
	s.data.Seconds = time.Since(began).Seconds()
	return s.data, nil
}

func (s *seeder) admin(ctx context.Context) error {
	_, err := s.api.call(ctx, http.MethodPost, "/api/v1/setup", "", map[string]any{
		"username": adminName, "email": adminName + "@bench.example", "displayName": "Bench Admin", "password": benchPassword,
	}, http.StatusCreated, nil)
	if err != nil {
		return err
	}
	s.cookie, err = s.api.login(ctx, adminName)
	return err
}

func (s *seeder) roles(ctx context.Context) error {
	for i, perms := range customRoles {
		name := fmt.Sprintf("bench_role_%d", i)
		body := map[string]any{"name": name, "description": "Seeded by make bench", "permissions": perms}
		if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/roles", s.cookie, body, http.StatusCreated, nil); err != nil {
			return err
		}
		s.data.Roles = append(s.data.Roles, name)
	}
	return nil
}

// userAccounts creates a second administrator, who then creates the users: each creation
// notifies adminName, who is not its actor.
func (s *seeder) userAccounts(ctx context.Context) error {
	if _, err := s.createUser(ctx, s.cookie, seederName, []string{assess.RoleAdmin}); err != nil {
		return err
	}
	seederCookie, err := s.api.login(ctx, seederName)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx) // the first failure stops the rest
	defer cancel()
	next := make(chan int)
	go func() {
		defer close(next)
		for i := range s.users {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range seedWorkers {
		wg.Go(func() {
			for i := range next {
				roles := []string{assess.RoleAssessee}
				if i%10 == 0 {
					roles = append(roles, s.data.Roles[i/10%len(s.data.Roles)])
				}
				id, err := s.createUser(ctx, seederCookie, fmt.Sprintf("user%05d", i), roles)
				mu.Lock()
				if err == nil {
					s.data.UserIDs = append(s.data.UserIDs, id)
				} else if firstErr == nil {
					firstErr = err
					cancel()
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return firstErr
}

func (s *seeder) createUser(ctx context.Context, cookie, username string, roles []string) (string, error) {
	var created struct{ ID string }
	_, err := s.api.call(ctx, http.MethodPost, "/api/v1/users", cookie, map[string]any{
		"username": username, "email": username + "@bench.example", "displayName": "Bench " + username,
		"password": benchPassword, "roles": roles,
	}, http.StatusCreated, &created)
	return created.ID, err
}

func (s *seeder) keysAndSessions(ctx context.Context) error {
	for i := range s.credentials {
		var created struct{ Token string }
		body := map[string]any{"name": fmt.Sprintf("bench key %d", i)}
		if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/me/api-keys", s.cookie, body, http.StatusCreated, &created); err != nil {
			return err
		}
		s.data.APIKeys = append(s.data.APIKeys, created.Token)
	}
	s.data.Sessions = append(s.data.Sessions, s.cookie)
	for len(s.data.Sessions) < s.credentials {
		cookie, err := s.api.login(ctx, adminName)
		if err != nil {
			return err
		}
		s.data.Sessions = append(s.data.Sessions, cookie)
	}
	return nil
}

func (s *seeder) notifications(ctx context.Context) error {
	var count struct{ Count int }
	_, err := s.api.call(ctx, http.MethodGet, "/api/v1/notifications/unread-count", s.cookie, nil, http.StatusOK, &count)
	s.data.UnreadNotifications = count.Count
	return err
}

// benchRequirements is the size of the seeded standard: 14 chapters of 4 sections of 7
// requirements, plus the chapters and sections (about OWASP ASVS).
const benchRequirements = 14 * (1 + 4*(1+7))

// standard seeds one standard with an ASVS-sized requirement tree, in one bulk write.
func (s *seeder) standard(ctx context.Context) error {
	var created struct{ ID string }
	if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/standards", s.cookie, map[string]any{
		"identifier": "bench-asvs", "standardVersion": "5.0.0", "name": "Bench ASVS", "owner": "Bench",
	}, http.StatusCreated, &created); err != nil {
		return err
	}
	reqs := make([]map[string]any, 0, benchRequirements)
	add := func(id, parent string) {
		reqs = append(reqs, map[string]any{"identifier": id, "parentIdentifier": parent, "name": "Requirement " + id,
			"description": "Verify that the application handles " + id + " as the standard requires, in every component."})
	}
	for ch := 1; ch <= 14; ch++ {
		chapter := fmt.Sprintf("V%d", ch)
		add(chapter, "")
		for sec := 1; sec <= 4; sec++ {
			section := fmt.Sprintf("%s.%d", chapter, sec)
			add(section, chapter)
			for r := 1; r <= 7; r++ {
				add(fmt.Sprintf("%s.%d", section, r), section)
			}
		}
	}
	path := "/api/v1/standards/" + created.ID + "/requirements/bulk"
	if _, err := s.api.call(ctx, http.MethodPost, path, s.cookie, map[string]any{"requirements": reqs}, http.StatusOK, nil); err != nil {
		return err
	}
	s.data.StandardID = created.ID
	return nil
}

// apiClient makes the seed's requests, each with the session cookie given, if any.
type apiClient struct {
	base string
	http *http.Client
}

func newAPIClient(base string) *apiClient {
	return &apiClient{base: base, http: &http.Client{Timeout: time.Minute}}
}

// call sends body as JSON, expects status want and decodes the answer into out (when not
// nil). It returns the answer's headers.
func (c *apiClient) call(ctx context.Context, method, path, cookie string, body any, want int, out any) (http.Header, error) {
	var payload io.Reader = http.NoBody
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		payload = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, payload)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if cookie != "" {
		req.Header.Set("Cookie", sessionCookie+"="+cookie)
		req.Header.Set("Origin", c.base)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != want {
		return nil, fmt.Errorf("%s %s answered %s: %.300s", method, path, res.Status, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return nil, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return res.Header, nil
}

// login signs username in and returns the value of its session cookie.
func (c *apiClient) login(ctx context.Context, username string) (string, error) {
	h, err := c.call(ctx, http.MethodPost, "/api/v1/auth/login", "", map[string]string{
		"username": username, "password": benchPassword,
	}, http.StatusOK, nil)
	if err != nil {
		return "", err
	}
	for _, line := range h.Values("Set-Cookie") {
		if ck, err := http.ParseSetCookie(line); err == nil && ck.Name == sessionCookie {
			return ck.Value, nil
		}
	}
	return "", fmt.Errorf("sign-in of %s set no %s cookie", username, sessionCookie)
}
