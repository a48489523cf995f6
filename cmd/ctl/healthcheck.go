package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"
)

// healthcheckOptions are the inputs of `healthcheck`.
type healthcheckOptions struct {
	url     string
	timeout time.Duration
}

// Validate checks the options.
func (o healthcheckOptions) Validate() error {
	if o.url == "" {
		return errors.New("--url is required")
	}
	if o.timeout <= 0 {
		return errors.New("--timeout must be positive")
	}
	return nil
}

// newHealthcheckCmd is the container HEALTHCHECK: the runtime image has no curl.
func newHealthcheckCmd() *cobra.Command {
	port := os.Getenv("PORT")
	if port == "" {
		port = "3001"
	}
	opts := healthcheckOptions{}
	cmd := &cobra.Command{
		Use:   "healthcheck",
		Short: "Exit 0 when the local server's /api/health answers 200 (for container health checks)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Validate(); err != nil {
				return err
			}
			return runHealthcheck(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&opts.url, "url", "http://127.0.0.1:"+port+"/api/health", "health endpoint to query")
	cmd.Flags().DurationVar(&opts.timeout, "timeout", 4*time.Second, "give up after this long")
	return cmd
}

func runHealthcheck(ctx context.Context, opts healthcheckOptions, out io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, opts.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, opts.url, nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health check: %w", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("health check: %s: %s", res.Status, body)
	}
	_, err = out.Write(body)
	return err
}
