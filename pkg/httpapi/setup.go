package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// SetupStatus tells the UI whether the first-run wizard is needed.
type SetupStatus struct {
	SetupComplete     bool   `json:"setupComplete" doc:"true once the first administrator exists"`
	SetupURL          string `json:"setupUrl" doc:"Where the setup wizard lives in the web application"`
	PasswordMinLength int    `json:"passwordMinLength" doc:"Minimum password length the service accepts"`
}

type setupStatusOutput struct {
	CacheControl string `header:"Cache-Control"`
	Body         SetupStatus
}

func (s *Server) registerSetup() {
	register(s, Op{Permission: assess.PermPublic, Operation: huma.Operation{
		OperationID: "getSetupStatus",
		Method:      http.MethodGet,
		Path:        "/api/v1/setup/status",
		Summary:     "First-run setup status",
		Description: "Whether the first administrator has been created. Reachable before setup.",
		Tags:        []string{"Setup"},
	}}, func(ctx context.Context, _ *struct{}) (*setupStatusOutput, error) {
		done, err := s.dep.Setup.SetupComplete(ctx)
		if err != nil {
			return nil, err
		}
		return &setupStatusOutput{CacheControl: "no-store", Body: SetupStatus{
			SetupComplete: done, SetupURL: "/setup", PasswordMinLength: s.cfg.PasswordMinLength,
		}}, nil
	})
}

// registerOperations declares every operation of the API. Each resource adds its own
// register function here.
func (s *Server) registerOperations() {
	s.registerRoutes()
	s.describeHealth()
	s.registerSetup()
	s.registerEncryption()
	s.registerIdentity()
	s.registerAPIKeys()
	s.registerAudit()
	s.registerInvites()
	s.registerUserAPIKeys()
	s.registerProfile()
	s.registerPasswordReset()
	s.describeEventWebhooks()
}
