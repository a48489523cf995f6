// Command assay-ctl is the operator's tool: schema migrations, configuration checks and
// (with the encryption work) key management.
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
	cmd := newRootCmd(os.Environ())
	cmd.SetArgs(os.Args[1:])
	if err := cmd.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, boot.Describe(err))
		os.Exit(1)
	}
}
