// Command testcluster runs one throw-away PostgreSQL cluster for a whole test run, so all
// test packages share it (each test still gets its own database). It writes the admin
// connection string to -dsn-file once the cluster is ready and stops the cluster on
// SIGINT/SIGTERM. Used by scripts/test.sh; not shipped.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/assay-dev/assay/pkg/postgres/embedpg"
)

func main() {
	dir := flag.String("dir", "", "data directory (created; must be traversable by the postgres user when run as root)")
	dsnFile := flag.String("dsn-file", "", "file to write the connection string to when ready")
	flag.Parse()
	if *dir == "" || *dsnFile == "" {
		fmt.Fprintln(os.Stderr, "usage: testcluster -dir DIR -dsn-file FILE")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := embedpg.Start(ctx, embedpg.Config{
		DataDir: *dir, Database: "postgres",
		Settings: map[string]string{"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "400"},
		Logger:   slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcluster:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*dsnFile, []byte(srv.ConnStringFor("postgres")), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "testcluster:", err)
	}
	<-ctx.Done()
	if err := srv.Stop(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "testcluster: stop:", err)
		os.Exit(1)
	}
}
