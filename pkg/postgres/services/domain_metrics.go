package services

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// The domain gauges' snapshot (assess.DomainMetrics): counts over several areas (work,
// identity, delivery), so it lives in the composition package.

// DomainMetricsService implements assess.DomainMetricsService.
type DomainMetricsService struct{ db *postgres.DB }

// The states every gauge lists, zeros included, so a series does not vanish when its count
// drops to nothing.
var (
	metricAssessmentStates = []string{"new", "pending", "in_progress", "on_hold", "complete", "archived", "cancelled"}
	metricEvidenceStates   = []string{string(assess.EvidenceInProgress), string(assess.EvidenceInReview), string(assess.EvidenceClaimed), string(assess.EvidenceExpired)}
	metricAttestStates     = []string{string(assess.AttestationDraft), string(assess.AttestationSigning), string(assess.AttestationSealed),
		string(assess.AttestationRescinded), string(assess.AttestationImported)}
	metricChannels = []string{"webhook", "email", "slack", "teams", "mattermost"}
)

// RefreshDomainMetrics implements assess.DomainMetricsService: the counts in one snapshot,
// then kept (one row).
func (s *DomainMetricsService) RefreshDomainMetrics(ctx context.Context) (assess.DomainMetrics, error) {
	var out assess.DomainMetrics
	tx, err := s.db.Pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return out, postgres.DBError(err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	byState := func(sql string, states []string) ([]assess.StateCount, error) {
		rows, err := tx.Query(ctx, sql)
		if err != nil {
			return nil, err
		}
		got := map[string]int{}
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				return nil, err
			}
			got[k] = n
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		list := make([]assess.StateCount, 0, len(states))
		for _, st := range states {
			list = append(list, assess.StateCount{State: st, Count: got[st]})
		}
		return list, nil
	}
	if out.Assessments, err = byState(`SELECT state, count(*) FROM assessments GROUP BY state`, metricAssessmentStates); err != nil {
		return out, postgres.DBError(err)
	}
	if out.Evidence, err = byState(`SELECT state, count(*) FROM evidence GROUP BY state`, metricEvidenceStates); err != nil {
		return out, postgres.DBError(err)
	}
	if out.Attestations, err = byState(`SELECT state, count(*) FROM attestations GROUP BY state`, metricAttestStates); err != nil {
		return out, postgres.DBError(err)
	}
	if out.DeliveriesPending, err = byState(`SELECT channel, count(*) FROM deliveries WHERE status IN ('pending', 'retrying') GROUP BY channel`, metricChannels); err != nil {
		return out, postgres.DBError(err)
	}
	if err := tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE active), count(*) FILTER (WHERE NOT active) FROM users`).Scan(&out.UsersActive, &out.UsersInactive); err != nil {
		return out, postgres.DBError(err)
	}
	out.RefreshedAt = s.db.Now().UTC()
	snapshot, err := json.Marshal(out)
	if err != nil {
		return out, err
	}
	_, err = s.db.Pool.Exec(ctx, `INSERT INTO domain_metrics (id, snapshot, refreshed_at) VALUES (1, $1, $2)
		ON CONFLICT (id) DO UPDATE SET snapshot = excluded.snapshot, refreshed_at = excluded.refreshed_at`, snapshot, out.RefreshedAt)
	return out, postgres.DBError(err)
}

// DomainMetrics implements assess.DomainMetricsService.
func (s *DomainMetricsService) DomainMetrics(ctx context.Context) (assess.DomainMetrics, error) {
	var out assess.DomainMetrics
	var snapshot []byte
	var at time.Time
	err := s.db.Pool.QueryRow(ctx, `SELECT snapshot, refreshed_at FROM domain_metrics WHERE id = 1`).Scan(&snapshot, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return out, postgres.DBError(err)
	}
	if err := json.Unmarshal(snapshot, &out); err != nil {
		return out, err
	}
	out.RefreshedAt = at.UTC()
	return out, nil
}
