// Command assay-ctl is the operator's tool: schema migrations, configuration checks, key
// management, and the offline verification and signing of attestations.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd := newRootCmd(os.Environ())
	cmd.SetArgs(os.Args[1:])
	if err := cmd.ExecuteContext(ctx); err != nil {
		os.Exit(exitStatus(err, os.Stderr))
	}
}
