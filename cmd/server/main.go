// Command assay-server serves the JSON API and the web application, and by default with
// the embedded database also runs the background workers in-process.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/assay-dev/assay/cmd/internal/boot"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, options{Environ: os.Environ(), Stdout: os.Stdout}); err != nil {
		fmt.Fprintln(os.Stderr, boot.Describe(err))
		os.Exit(1)
	}
}
