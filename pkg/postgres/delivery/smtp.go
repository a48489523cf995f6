package delivery

import (
	"context"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// EffectiveSMTP implements assess.DeliveryStore: the environment's values where it sets
// them, else the stored ones, with the password opened.
func (s *DeliveryStore) EffectiveSMTP(ctx context.Context) (assess.SMTPConfig, error) {
	m, _, err := s.db.EffectiveSMTP(ctx, s.db.Pool)
	if err != nil || m.SealedPassword == "" {
		return m.Cfg, err
	}
	plain, err := s.db.Keys.Open(ctx, postgres.SmtpPasswordField.AAD(postgres.SmtpSettingsID), m.SealedPassword)
	m.Cfg.Password = string(plain)
	return m.Cfg, err
}

// EmailSettings implements assess.EmailService.
func (s *EmailService) EmailSettings(ctx context.Context) (assess.EmailSettings, error) {
	return s.db.EmailSettings(ctx, s.db.Pool)
}
