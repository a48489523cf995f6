package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/assay-dev/assay/cmd/internal/boot"
	"github.com/assay-dev/assay/pkg/config"
	"github.com/assay-dev/assay/pkg/postgres"
)

// newRootCmd builds the command tree; environ is the environment the commands read.
func newRootCmd(environ []string) *cobra.Command {
	root := &cobra.Command{
		Use:           "assay-ctl",
		Short:         "Operate an Assay installation",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newVersionCmd(), newMigrateCmd(environ), newConfigCmd(environ), newHealthcheckCmd())
	root.AddCommand(newEncryptionCmds(environ)...)
	root.AddCommand(newVerifyCmd(), newSignCmd(), newPlatformKeyCmd(environ))
	return root
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "assay %s (%s, %s/%s)\n", boot.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}

// migrateOptions are the inputs of `migrate`.
type migrateOptions struct {
	environ []string
	status  bool // only report, change nothing
}

// Validate checks the options.
func (o migrateOptions) Validate() error { return nil }

func newMigrateCmd(environ []string) *cobra.Command {
	opts := migrateOptions{environ: environ}
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Apply pending database migrations (River's and the service's)",
		Long: "Applies every pending migration under an advisory lock, so it is safe while servers run. " +
			"With the embedded database it attaches to a running server's cluster or starts its own.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Validate(); err != nil {
				return err
			}
			return runMigrate(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&opts.status, "status", false, "report pending migrations without applying them")
	return cmd
}

func runMigrate(ctx context.Context, opts migrateOptions, out io.Writer) error {
	cfg, err := config.FromEnviron(opts.environ)
	if err != nil {
		return err
	}
	log := boot.Logger(cfg, io.Discard)
	db, err := boot.OpenDatabase(ctx, cfg, log, boot.Attach, "assay-ctl")
	if err != nil {
		return err
	}
	defer db.Close()
	if !opts.status {
		res, err := postgres.Migrate(ctx, db.Pool, log)
		if err != nil {
			return err
		}
		for _, v := range res.RiverVersions {
			fmt.Fprintf(out, "applied river migration %03d\n", v)
		}
		for _, m := range res.Applied {
			fmt.Fprintf(out, "applied %s\n", m.Name)
		}
	}
	st, err := postgres.ReadSchemaStatus(ctx, db.Pool)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "schema version %d of %d", st.Current, st.Latest)
	if len(st.Pending)+len(st.River) == 0 {
		fmt.Fprintln(out, ": up to date")
		return nil
	}
	fmt.Fprintf(out, ": pending %v %v\n", st.Pending, st.River)
	return nil
}

// configOptions are the inputs of `config check`.
type configOptions struct{ environ []string }

// Validate checks the options.
func (o configOptions) Validate() error { return nil }

func newConfigCmd(environ []string) *cobra.Command {
	cmd := &cobra.Command{Use: "config", Short: "Inspect the configuration"}
	opts := configOptions{environ: environ}
	cmd.AddCommand(&cobra.Command{
		Use:   "check",
		Short: "Validate the environment and print the effective configuration (secrets redacted) and memory settings",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Validate(); err != nil {
				return err
			}
			return runConfigCheck(opts, cmd.OutOrStdout())
		},
	})
	return cmd
}

func runConfigCheck(opts configOptions, out io.Writer) error {
	cfg, err := config.FromEnviron(opts.environ)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "VARIABLE\tVALUE\tSOURCE")
	for _, s := range cfg.Settings() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, s.Value, s.Source)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// What the server and the worker would run with in this container (docs/configuration.md, "Memory").
	fmt.Fprintln(out, "memory:", boot.Memory(cfg))
	_, err = fmt.Fprintln(out, "configuration is valid")
	return err
}
