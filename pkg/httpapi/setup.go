package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagSetup = []string{"Setup"}

// SetupStatus tells the UI whether the first-run wizard is needed.
type SetupStatus struct {
	SetupComplete     bool   `json:"setupComplete" doc:"true once the first administrator exists"`
	SetupURL          string `json:"setupUrl" doc:"Where the setup wizard lives in the web application"`
	PasswordMinLength int    `json:"passwordMinLength" doc:"Minimum password length the service accepts"`
	UploadMaxFileSize int64  `json:"uploadMaxFileSize" doc:"Largest file the service accepts in one upload (evidence attachments), in bytes (UPLOAD_MAX_FILE_SIZE): a client can refuse a larger file before sending it"`
	// StarterStandardsBuiltIn lets the wizard promise an import without the network only
	// when the binary can keep that promise.
	StarterStandardsBuiltIn bool `json:"starterStandardsBuiltIn" doc:"true when the starter standards are built into this server, so importing them (POST /api/v1/standards/starter) needs no network; false: they are downloaded from the standards feed"`
}

type setupStatusOutput struct {
	CacheControl string `header:"Cache-Control"`
	Body         SetupStatus
}

var docSetupStatus = huma.Operation{OperationID: "getSetupStatus", Summary: "First-run setup status", Tags: tagSetup,
	Description: "Whether the first administrator has been created, and the limits a client checks input against " +
		"before sending it (password length, upload size). Reachable before setup."}

func (s *Server) handleSetupStatus(ctx context.Context, _ *struct{}) (*setupStatusOutput, error) {
	done, err := s.dep.Setup.SetupComplete(ctx)
	if err != nil {
		return nil, err
	}
	return &setupStatusOutput{CacheControl: "no-store", Body: SetupStatus{
		SetupComplete: done, SetupURL: "/setup", PasswordMinLength: s.cfg.PasswordMinLength,
		UploadMaxFileSize: s.cfg.UploadMaxBytes, StarterStandardsBuiltIn: s.cfg.StarterStandardsBuiltIn,
	}}, nil
}

var docSetupComplete = huma.Operation{OperationID: "completeSetup", Summary: "Create the first administrator", Tags: tagSetup,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusConflict},
	Description: "Creates the first administrator and signs them in (sets the session cookie). Refused with 409 " +
		"once any user exists. No environment variable seeds an administrator."}

func (s *Server) handleSetupComplete(ctx context.Context, in *body[assess.NewAccount]) (*sessionOutput, error) {
	u, err := s.dep.Identity.CreateFirstAdmin(ctx, in.Body, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return s.startSession(ctx, u)
}

// registerOperations declares every operation of the API. Each resource adds its own
// register function here.
func (s *Server) registerOperations() {
	s.registerRoutes()
	s.describeEventWebhooks()
	s.markNullableObjects()
}
