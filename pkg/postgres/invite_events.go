package postgres

import (
	"context"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// queueInviteEmail queues the e-mail with the invitation link, in the transaction of the
// invite; its parameters (the token among them) are stored sealed. With e-mail switched
// off the invite is refused.
func (s *InviteService) queueInviteEmail(ctx context.Context, tx *Tx, inv assess.Invite, token string) error {
	on, err := s.emailOn(ctx, tx)
	if err != nil {
		return err
	}
	if !on {
		return errEmailDisabled
	}
	inviter, err := actorName(ctx, tx, tx.Actor.ID)
	if err != nil {
		return err
	}
	params := map[string]string{"token": token, "role": inv.IntendedRole, "expiresAt": inv.ExpiresAt.UTC().Format(time.RFC3339),
		"inviter": inviter}
	_, err = s.queueDeliveries(ctx, tx, []newDelivery{directEmail(inv.Email, "You are invited to Assay", assess.EmailTemplateInvite, params)})
	return err
}
