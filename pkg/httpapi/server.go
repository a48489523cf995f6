// Package httpapi is the HTTP face of the service: the JSON API under /api (declared once
// as huma operations, from which the OpenAPI document is generated), the error envelope,
// the platform middleware, and the embedded single-page application.
package httpapi

import (
	"io/fs"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"

	"github.com/assay-dev/assay/pkg/app"
	"github.com/assay-dev/assay/pkg/assess"
)

// Config holds the HTTP settings that come from the service configuration.
type Config struct {
	Version           string        // build version, shown by health and the API description
	StartedAt         time.Time     // for the uptime in health
	CORSOrigins       []string      // origins allowed to call with credentials
	TrustProxyHops    int           // reverse-proxy hops trusted for X-Forwarded-*
	MaxBodyBytes      int64         // cap of JSON request bodies
	UploadMaxBytes    int64         // largest uploaded file (UPLOAD_MAX_FILE_SIZE)
	RequestTimeout    time.Duration // deadline of every API request but uploads, and the longest an upload may send nothing (REQUEST_TIMEOUT); 0: none
	StorageProvider   string        // "database" or "s3": what health reports under storage
	PasswordMinLength int           // shown to the setup wizard
	// StarterStandardsBuiltIn is true when every starter standard is built into the binary,
	// so that importing them needs no network (the setup wizard says so only then).
	StarterStandardsBuiltIn bool
	// HoldsSigningKeys is true when the service can hold signing keys for its users:
	// encryption at rest is on (MASTER_ENCRYPTION_KEY). Without it, generating one is 409.
	HoldsSigningKeys bool
	// SessionKey signs session cookies (JWT_SECRET or the generated secret).
	SessionKey []byte
	// SessionLifetime is JWT_EXPIRY.
	SessionLifetime time.Duration
	// SecureCookie decides the cookie's Secure flag (COOKIE_SECURE) given whether the
	// request came over HTTPS.
	SecureCookie func(httpsRequest bool) bool
	// AppOrigins are the origins, besides the service's own, whose cookie-authenticated
	// writes are accepted (APP_URL and CORS_ORIGIN).
	AppOrigins []string
	// RegistrationMode is REGISTRATION_MODE.
	RegistrationMode string
	// StandardsImportMaxBytes caps an uploaded CycloneDX or CSV document
	// (STANDARDS_IMPORT_MAX_BYTES; default 10 MiB; pkg/app caps downloaded ones).
	StandardsImportMaxBytes int64
	// ResponseCacheBytes bounds the encoded answers of conditional reads kept in memory
	// (RESPONSE_CACHE_MAX_BYTES; answercache.go); 0 keeps none (ETags and 304 stay).
	ResponseCacheBytes int64
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Deps are the services the handlers use. Nil optional members disable what they serve.
type Deps struct {
	Logger   *slog.Logger
	Database assess.HealthChecker
	Storage  assess.HealthChecker // nil: the database check covers storage
	Setup    assess.SetupService
	// Encryption serves the encryption administration endpoints.
	Encryption assess.EncryptionService
	// Identity manages accounts, sign-in and sessions.
	Identity assess.IdentityService
	// APIKeys manages API keys and authenticates them.
	APIKeys assess.APIKeyService
	// Audit reads the audit log.
	Audit assess.AuditService
	// Users manages accounts on behalf of administrators.
	Users assess.UserService
	// Roles manages roles.
	Roles assess.RoleService
	// Invites manages invites and self-service registration.
	Invites assess.InviteService
	// Notifications serves each user their in-app notifications.
	Notifications assess.NotificationService
	// Rules manages personal and global notification rules.
	Rules assess.RuleService
	// Webhooks manages webhook destinations.
	Webhooks assess.WebhookService
	// Chat manages Slack, Teams and Mattermost destinations.
	Chat assess.ChatService
	// Deliveries reads the delivery logs and redelivers.
	Deliveries assess.DeliveryLogService
	// Email manages the SMTP settings and tells which channels are switched on.
	Email assess.EmailService
	// PasswordReset runs the e-mailed password reset.
	PasswordReset assess.PasswordResetService
	// Standards manages standards, requirement trees, levels and their lifecycle.
	Standards assess.StandardService
	// Transfer imports uploaded documents and exports standards (CycloneDX, CSV).
	Transfer assess.StandardTransferService
	// StandardImports imports by URL and from the standards feed (pkg/app); nil answers
	// those operations 503.
	StandardImports assess.StandardImportService
	// Dashboard computes the caller's dashboard.
	Dashboard assess.DashboardService
	// DashboardLayouts keeps each user's dashboard layout.
	DashboardLayouts assess.DashboardLayoutService
	// Search finds the records the caller may open.
	Search assess.SearchService
	// Insight reads score histories and the portfolio, scoped to what the caller may see.
	Insight assess.InsightService
	// AttestationImports imports attestation documents (pkg/app); nil answers 503.
	AttestationImports *app.AttestationImports
	// AttestationImportRecords lists the imports and serves their documents.
	AttestationImportRecords assess.AttestationImportService
	// Entities manages entities, relationships and compliance policies.
	Entities assess.EntityService
	// Projects manages projects.
	Projects assess.ProjectService
	// Demo loads the demo organisation.
	Demo assess.DemoDataService
	// Tags manages tags.
	Tags assess.TagService
	// People is the directory of active users for the pickers of assessment work.
	People assess.PeopleService
	// Assessments runs assessments, their team, requirements and results.
	Assessments assess.AssessmentService
	// Results keeps the requirements, results and rationales of started assessments.
	Results assess.ResultService
	// Evidence keeps evidence, its review, notes and links to requirements.
	Evidence assess.EvidenceService
	// Attachments stores and serves the files of evidence (pkg/app: the bytes at their
	// storage provider, the records in the store).
	Attachments assess.AttachmentService
	// Claims keeps the claims of assessments.
	Claims assess.ClaimService
	// WorkNotes keeps the work notes and timelines of assessments.
	WorkNotes assess.WorkNoteService
	// Attestations keeps attestations, their signatures and the assessors.
	Attestations assess.AttestationService
	// PlatformKeys keeps the platform's signing keys and its public lists.
	PlatformKeys assess.PlatformKeyService
	// Reports reads the data of the PDF reports of assessments and attestations.
	Reports assess.ReportService
	// Authorizer checks the credential of every operation that is not public. Nil denies
	// them all with 401 until the identity layer provides one.
	Authorizer Authorizer
	// RateLimit wraps every API request (not health, the API description, docs or
	// metrics), known route or not, when set.
	RateLimit func(http.Handler) http.Handler
	// Metrics serves /metrics when set; Observer receives request observations.
	Metrics  http.Handler
	Observer RequestObserver
	// Web is the built single-page application (the content of web/dist).
	Web fs.FS
}

// Server is the assembled HTTP handler together with its API description.
type Server struct {
	http.Handler
	API    huma.API
	cfg    Config
	dep    Deps
	signer sessionSigner
	// uploads are the declared upload operations (registerRoute adds each), the only ones
	// the upload limits and the exemption from the request deadline apply to.
	uploads *uploadMatcher
	streams *streamMatcher
	// renders admits one PDF report at a time (reports.go): each holds its layout and
	// document in memory until written, so the memory they take stays that of one.
	renders chan struct{}

	// answers keeps encoded answers of conditional reads (conditional.go).
	answers *answerCache
	// errorResponses are the documented error answers shared by every operation (register).
	errorResponses map[int]*huma.Response

	openapiOnce sync.Once // the document, rendered on first request
	openapiDoc  []byte
	openapiETag string
	openapiErr  error
}

// New assembles the handler: platform middleware, health, metrics, the setup gate, the
// API operations, the docs page, and the SPA for every other path.
func New(cfg Config, deps Deps) *Server {
	cfg.setDefaults()
	if deps.Logger == nil {
		deps.Logger = slog.Default()
	}
	s := &Server{cfg: cfg, dep: deps, signer: sessionSigner{key: cfg.SessionKey, lifetime: cfg.SessionLifetime, now: cfg.Now},
		uploads: &uploadMatcher{}, streams: &streamMatcher{}, renders: make(chan struct{}, 1),
		answers: newAnswerCache(cfg.ResponseCacheBytes)}
	if s.dep.StandardImports == nil {
		s.dep.StandardImports = unconfiguredImports{}
	}
	switch {
	case deps.Authorizer != nil:
	case deps.Identity != nil && len(cfg.SessionKey) > 0:
		s.dep.Authorizer = &credentialAuthorizer{identity: deps.Identity, apiKeys: deps.APIKeys, signer: s.signer, origins: cfg.AppOrigins}
	default:
		s.dep.Authorizer = denyAll{}
	}
	deps = s.dep
	r := chi.NewRouter()
	uploads := s.uploads
	r.Use(requestContext(cfg.TrustProxyHops), observe(deps.Logger, deps.Observer),
		securityHeaders, cors(cfg.CORSOrigins), compressJSON, limitBody(cfg.MaxBodyBytes, cfg.UploadMaxBytes, cfg.RequestTimeout, uploads),
		deadline(cfg.RequestTimeout, uploads, s.streams), s.setupGate,
		getHead, s.identify, s.limitRate, s.checkInput)
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed)

	r.Get("/api/health", s.handleHealth)
	r.Head("/api/health", s.handleHealth)
	if deps.Metrics != nil {
		r.Handle("/metrics", deps.Metrics)
	}
	r.Get("/api/v1/openapi.json", s.handleOpenAPI)
	r.Get("/api/v1/docs", s.handleDocs)
	r.Get("/api/v1/docs/{file}", s.handleDocs)

	s.API = newAPI(r, cfg, deps)
	s.registerOperations()
	s.Handler = r
	return s
}

// setDefaults fills what the caller left unset.
func (cfg *Config) setDefaults() {
	if cfg.StandardsImportMaxBytes <= 0 {
		cfg.StandardsImportMaxBytes = 10 << 20
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.UploadMaxBytes <= 0 {
		cfg.UploadMaxBytes = 50 << 20
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.SessionLifetime <= 0 {
		cfg.SessionLifetime = 24 * time.Hour
	}
}

func newAPI(r chi.Router, cfg Config, deps Deps) huma.API {
	hc := huma.DefaultConfig("Assay API", cfg.Version)
	hc.OpenAPIPath = "" // served by handleOpenAPI, with the webhooks root added
	hc.DocsPath = ""    // our own offline page, see handleDocs
	hc.SchemasPath = ""
	hc.CreateHooks = nil
	hc.Transformers = append(hc.Transformers, errorHeadersTransformer)
	hc.Info.Description = "JSON API of Assay, a self-hosted service for conformance assessments and signed " +
		"CycloneDX attestations. Every operation names the permission it requires in `x-required-permission`; " +
		"`public` means no credential is needed. Errors share one envelope: `{error, message, requestId, details}`."
	hc.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		"sessionCookie": {Type: "apiKey", In: "cookie", Name: SessionCookieName, Description: "Session cookie set by sign-in (browser clients)."},
		"bearerAuth":    {Type: "http", Scheme: "bearer", Description: "API key sent as `Authorization: Bearer <key>`."},
		"apiKeyHeader":  {Type: "apiKey", In: "header", Name: "X-Api-Key", Description: "API key sent as `X-Api-Key: <key>`."},
	}
	api := humachi.New(r, hc)
	api.UseMiddleware(authorize(api, deps.Authorizer))
	return api
}

// SessionCookieName is the name of the session cookie.
const SessionCookieName = "assay_session"

// beforeSetup tells the paths that work while no user exists: health, the setup
// endpoints, the API description and docs, metrics and the web application itself.
func beforeSetup(p string) bool {
	return !strings.HasPrefix(p, "/api/") || p == "/api/health" || p == "/api/v1/openapi.json" ||
		p == "/api/v1/setup" || strings.HasPrefix(p, "/api/v1/setup/") ||
		p == "/api/v1/docs" || strings.HasPrefix(p, "/api/v1/docs/")
}

// setupGate answers setup_required for every other API request (known route or not)
// while no user exists.
func (s *Server) setupGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if beforeSetup(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		done, err := s.dep.Setup.SetupComplete(r.Context())
		if err != nil {
			s.dep.Logger.ErrorContext(r.Context(), "setup state unavailable", slog.String("error", err.Error()))
			writeError(w, r, s.dep.Logger, assess.Errorf(assess.ECodeUnavailable, "The service cannot reach its database; try again shortly."))
			return
		}
		if !done {
			e := toError(r.Context(), s.dep.Logger, &assess.Error{Code: assess.ECodeSetupRequired,
				Message: "The service has not been set up yet: open /setup to create the first administrator.",
				Details: []assess.Detail{{Field: "setupUrl", Code: "setup_url", Message: "/setup"}}})
			w.Header().Set("Link", `</setup>; rel="setup"`)
			writeEnvelope(w, e)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limitRate passes API requests through deps.RateLimit: operations, and unknown routes
// and wrong methods too, so every API answer carries the rate-limit headers. Health, the
// API description, the docs and metrics are exempt.
// identify authenticates a presented credential once, before the rate limiter (see
// credentialAuthorizer.identify); other authorizers authenticate in the operation.
func (s *Server) identify(next http.Handler) http.Handler {
	if ca, ok := s.dep.Authorizer.(*credentialAuthorizer); ok {
		return ca.identify(next)
	}
	return next
}

func (s *Server) limitRate(next http.Handler) http.Handler {
	if s.dep.RateLimit == nil {
		return next
	}
	limited := s.dep.RateLimit(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rateLimited(r.URL.Path) {
			limited.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func rateLimited(p string) bool {
	return isAPIPath(p) && p != "/metrics" && p != "/api/health" && p != "/api/v1/openapi.json" &&
		p != "/api/v1/docs" && !strings.HasPrefix(p, "/api/v1/docs/")
}

func isAPIPath(p string) bool {
	return p == "/api" || strings.HasPrefix(p, "/api/") || p == "/metrics"
}

// notFound answers unknown API paths with the JSON envelope and everything else with the SPA.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if isAPIPath(r.URL.Path) {
		writeError(w, r, s.dep.Logger, newError(http.StatusNotFound, assess.ECodeNotFound, "No API endpoint at %s %s.", r.Method, r.URL.Path))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, r, s.dep.Logger, newError(http.StatusMethodNotAllowed, assess.ECodeMethodNotAllowed, "Method %s is not allowed here.", r.Method))
		return
	}
	s.serveSPA(w, r)
}

var allMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions}

func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	if rc := chi.RouteContext(r.Context()); rc != nil && rc.Routes != nil {
		for _, m := range allMethods {
			if rc.Routes.Match(chi.NewRouteContext(), m, r.URL.Path) {
				allowed = append(allowed, m)
			}
		}
	}
	if slices.Contains(allowed, http.MethodGet) && !slices.Contains(allowed, http.MethodHead) {
		allowed = slices.Insert(allowed, slices.Index(allowed, http.MethodGet)+1, http.MethodHead) // see getHead
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	writeError(w, r, s.dep.Logger, newError(http.StatusMethodNotAllowed, assess.ECodeMethodNotAllowed,
		"Method %s is not allowed on %s; allowed: %s.", r.Method, r.URL.Path, strings.Join(allowed, ", ")))
}
