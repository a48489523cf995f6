package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/user"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/assay-dev/assay/cmd/internal/boot"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/config"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

// keyOptions are the inputs shared by the encryption commands.
type keyOptions struct {
	environ []string
	actor   string // recorded in the audit log
	json    bool   // machine-readable output (status)
	recover bool   // rotate: start a new key version although the old master key is lost
}

// Validate checks the options.
func (o keyOptions) Validate() error {
	if o.actor == "" {
		return errors.New("--actor must not be empty")
	}
	return nil
}

func defaultActor() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return "cli:" + u.Username
	}
	return "cli"
}

// withStore opens the database (attaching to a running embedded server), checks the
// schema and loads the keyring, then runs fn.
func withStore(ctx context.Context, opts keyOptions, fn func(*config.Config, *postgres.DB) error) error {
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
	if err := postgres.CheckSchema(ctx, db.Pool); err != nil {
		return err
	}
	store := postgres.New(db.Pool, nil)
	if _, err := store.LoadKeyring(ctx, cfg.MasterKey, assess.Actor{ID: opts.actor}); err != nil {
		return err
	}
	return fn(cfg, store)
}

func newKeyCmd(environ []string, use, short, long string, run func(context.Context, keyOptions, io.Writer) error) *cobra.Command {
	opts := keyOptions{environ: environ}
	cmd := &cobra.Command{
		Use: use, Short: short, Long: long, Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Validate(); err != nil {
				return err
			}
			return run(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&opts.actor, "actor", defaultActor(), "who runs the command, for the audit log")
	switch use {
	case "encryption-status":
		cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	case "rotate-encryption-key":
		cmd.Flags().BoolVar(&opts.recover, "recover-lost-key", false,
			"the old master key is lost: start a new key version anyway (values under the old versions stay unreadable)")
	}
	return cmd
}

func newEncryptionCmds(environ []string) []*cobra.Command {
	return []*cobra.Command{
		newKeyCmd(environ, "encrypt-secrets", "Encrypt every plaintext secret under the current key version",
			"Idempotent: row by row with compare-and-set, safe while the service serves traffic, resumable. "+
				"Needs MASTER_ENCRYPTION_KEY.", runEncryptSecrets),
		newKeyCmd(environ, "rotate-encryption-key", "Create a new key-encryption-key version and rewrap every data key under it",
			"Old versions are kept. Needs MASTER_ENCRYPTION_KEY.", runRotate),
		newKeyCmd(environ, "rekey-master", "Move the key ledger from OLD_MASTER_ENCRYPTION_KEY to MASTER_ENCRYPTION_KEY",
			"Rewraps every key-encryption-key version under the new master key; data keys are untouched. "+
				"Locks the ledger and the secret tables against writes while it runs.", runRekey),
		newKeyCmd(environ, "encryption-status", "Show key versions and counts of encrypted and plaintext secrets", "", runEncryptionStatus),
	}
}

func runEncryptSecrets(ctx context.Context, opts keyOptions, out io.Writer) error {
	return withStore(ctx, opts, func(_ *config.Config, store *postgres.DB) error {
		res, err := services.New(store).Encryption.EncryptSecrets(ctx, assess.Actor{ID: opts.actor})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "encrypted %d plaintext secrets; %d were already encrypted (key version %d)\n",
			res.Encrypted, res.AlreadyEncrypted, store.Keyring().Current())
		return err
	})
}

func runRotate(ctx context.Context, opts keyOptions, out io.Writer) error {
	return withStore(ctx, opts, func(_ *config.Config, store *postgres.DB) error {
		enc := services.New(store).Encryption
		rotate := enc.RotateEncryptionKey
		if opts.recover {
			rotate = enc.RecoverLostKey
		}
		res, err := rotate(ctx, assess.Actor{ID: opts.actor})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "key version %d is current (was %d); %d data keys rewrapped\n", res.Version, res.PreviousVersion, res.Rewrapped)
		if err == nil && res.Unreadable > 0 {
			_, err = fmt.Fprintf(out, "%d values are under key versions this master key cannot open; they were left as they are\n", res.Unreadable)
		}
		return err
	})
}

func runRekey(ctx context.Context, opts keyOptions, out io.Writer) error {
	cfg, err := config.FromEnviron(opts.environ)
	if err != nil {
		return err
	}
	if cfg.MasterKey == nil || cfg.OldMasterKey == nil {
		return errors.New("rekey-master needs both MASTER_ENCRYPTION_KEY (the new key) and OLD_MASTER_ENCRYPTION_KEY (the current one)")
	}
	// The keyring is loaded with the old key: the ledger still opens with it.
	opts.environ = append(append([]string{}, opts.environ...), "MASTER_ENCRYPTION_KEY="+fmt.Sprintf("%x", cfg.OldMasterKey))
	return withStore(ctx, opts, func(_ *config.Config, store *postgres.DB) error {
		n, err := services.New(store).Encryption.RekeyMaster(ctx, cfg.OldMasterKey, cfg.MasterKey, assess.Actor{ID: opts.actor})
		if err != nil {
			return err
		}
		if n == 0 {
			_, err = fmt.Fprintln(out, "the key ledger already uses the new master key; nothing changed")
			return err
		}
		_, err = fmt.Fprintf(out, "rekeyed %d key versions under the new master key; restart every replica with only MASTER_ENCRYPTION_KEY set\n", n)
		return err
	})
}

func runEncryptionStatus(ctx context.Context, opts keyOptions, out io.Writer) error {
	return withStore(ctx, opts, func(_ *config.Config, store *postgres.DB) error {
		st, err := services.New(store).Encryption.EncryptionStatus(ctx)
		if err != nil {
			return err
		}
		if opts.json {
			enc := json.NewEncoder(out)
			enc.SetIndent("", "  ")
			return enc.Encode(st)
		}
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "mode: %s, current key version: %d\n\nVERSION\tCREATED\tBY\tCURRENT\tUSABLE\n", st.Mode, st.CurrentVersion)
		for _, v := range st.Versions {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%t\t%t\n", v.Version, v.CreatedAt.Format("2006-01-02 15:04:05Z"), v.CreatedBy, v.Current, v.Usable)
		}
		fmt.Fprint(tw, "\nKIND\tENCRYPTED\tPLAINTEXT\n")
		for _, f := range st.Fields {
			fmt.Fprintf(tw, "%s\t%d\t%d\n", f.Kind, f.Encrypted, f.Plaintext)
		}
		return tw.Flush()
	})
}
