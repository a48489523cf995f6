package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/config"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

// newPlatformKeyCmd is `assay-ctl rotate-platform-key`: the operator's way to replace the
// platform signing key (the admin API's POST /admin/platform-keys/rotate is the other).
func newPlatformKeyCmd(environ []string) *cobra.Command {
	return newKeyCmd(environ, "rotate-platform-key", "Retire the platform signing key and make a new one active",
		"The new key is Ed25519; its private key is sealed at rest like every secret (MASTER_ENCRYPTION_KEY when set). "+
			"The retired key stays in the public key set (/api/v1/platform-keys/jwks.json), so documents it signed still "+
			"verify; receivers who pinned the set should fetch it again.", runRotatePlatformKey)
}

func runRotatePlatformKey(ctx context.Context, opts keyOptions, out io.Writer) error {
	return withStore(ctx, opts, func(_ *config.Config, store *postgres.DB) error {
		k, err := services.New(store).PlatformKeys.RotatePlatformKey(ctx, assess.Actor{ID: opts.actor})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "platform key %s (%s, key id %s) is active; the previous key is retired and stays in the key set\n",
			k.ID, k.Algorithm, k.KeyID)
		return err
	})
}
