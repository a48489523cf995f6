package identity

import (
	"context"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// queueInviteEmail queues the e-mail with the invitation link, in the transaction of the
// invite; its parameters (the token among them) are stored sealed. With e-mail switched
// off the invite is refused.
func (s *InviteService) queueInviteEmail(ctx context.Context, tx *postgres.Tx, inv assess.Invite, token string) error {
	on, err := s.db.EmailOn(ctx, tx)
	if err != nil {
		return err
	}
	if !on {
		return postgres.ErrEmailDisabled
	}
	inviter, err := postgres.ActorName(ctx, tx, tx.Actor.ID)
	if err != nil {
		return err
	}
	params := map[string]string{"token": token, "role": inv.IntendedRole, "expiresAt": inv.ExpiresAt.UTC().Format(time.RFC3339),
		"inviter": inviter}
	_, err = s.db.QueueDeliveries(ctx, tx, []postgres.NewDelivery{postgres.DirectEmail(inv.Email, "You are invited to Assay", assess.EmailTemplateInvite, params)})
	return err
}
