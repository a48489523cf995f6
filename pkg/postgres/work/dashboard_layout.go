package work

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Each user's dashboard layout (assess.DashboardLayout; docs/assessments.md, "Dashboard
// layout"): one row of dashboard_layouts per user who arranged their dashboard, the tiles as
// a JSON array; everyone else gets the default of their role, computed from the code. A
// layout is a personal display setting, like a notification read: not audited, no event.

// DashboardLayoutService implements assess.DashboardLayoutService.
type DashboardLayoutService struct{ db *postgres.DB }

// NewDashboardLayoutService returns the service on db.
func NewDashboardLayoutService(db *postgres.DB) *DashboardLayoutService {
	return &DashboardLayoutService{db}
}

var errNoLayoutOwner = &assess.Error{Code: assess.ECodeUnauthenticated, Message: "Only a signed-in user has a dashboard layout."}

// DashboardLayout implements assess.DashboardLayoutService.
func (s *DashboardLayoutService) DashboardLayout(ctx context.Context, actor assess.Actor) (assess.DashboardLayout, error) {
	if actor.Principal == nil {
		return assess.DashboardLayout{}, errNoLayoutOwner
	}
	return findDashboardLayout(ctx, s.db.Pool, actor)
}

// SaveDashboardLayout implements assess.DashboardLayoutService: the layout replaces the one
// kept before (last write wins: it is the caller's own, edited in one place at a time).
func (s *DashboardLayoutService) SaveDashboardLayout(ctx context.Context, in assess.DashboardLayoutInput, actor assess.Actor) (assess.DashboardLayout, error) {
	if actor.Principal == nil {
		return assess.DashboardLayout{}, errNoLayoutOwner
	}
	var out assess.DashboardLayout
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := in.Validate(); err != nil {
			return err
		}
		tiles := in.Widgets
		if tiles == nil {
			tiles = []assess.DashboardTile{}
		}
		raw, err := json.Marshal(tiles)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO dashboard_layouts (user_id, widgets, updated_at) VALUES ($1, $2, $3)
			ON CONFLICT (user_id) DO UPDATE SET widgets = EXCLUDED.widgets, updated_at = EXCLUDED.updated_at`,
			actor.ID, raw, tx.Now); err != nil {
			return err
		}
		out, err = findDashboardLayout(ctx, tx, actor)
		return err
	})
	return out, err
}

// ResetDashboardLayout implements assess.DashboardLayoutService. Without a kept layout it
// changes nothing and answers the default all the same.
func (s *DashboardLayoutService) ResetDashboardLayout(ctx context.Context, actor assess.Actor) (assess.DashboardLayout, error) {
	if actor.Principal == nil {
		return assess.DashboardLayout{}, errNoLayoutOwner
	}
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM dashboard_layouts WHERE user_id = $1", actor.ID)
		return err
	})
	if err != nil {
		return assess.DashboardLayout{}, err
	}
	return defaultDashboardLayout(actor), nil
}

// findDashboardLayout reads the actor's kept layout, or answers their default.
func findDashboardLayout(ctx context.Context, q postgres.Querier, actor assess.Actor) (assess.DashboardLayout, error) {
	var raw []byte
	var at time.Time
	err := q.QueryRow(ctx, "SELECT widgets, updated_at FROM dashboard_layouts WHERE user_id = $1", actor.ID).Scan(&raw, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return defaultDashboardLayout(actor), nil
	}
	if err != nil {
		return assess.DashboardLayout{}, postgres.DBError(err)
	}
	var tiles []assess.DashboardTile
	if err := json.Unmarshal(raw, &tiles); err != nil {
		return assess.DashboardLayout{}, fmt.Errorf("dashboard layout of %s: %w", actor.ID, err)
	}
	if tiles == nil {
		tiles = []assess.DashboardTile{}
	}
	layout := defaultDashboardLayout(actor)
	layout.Widgets, layout.IsDefault, layout.UpdatedAt = assess.KnownDashboardTiles(tiles), false, &at
	return layout, nil
}

// defaultDashboardLayout is the default of the actor's roles.
func defaultDashboardLayout(actor assess.Actor) assess.DashboardLayout {
	role, tiles := assess.DefaultDashboardLayout(actor.Principal.User.Roles)
	return assess.DashboardLayout{Widgets: tiles, IsDefault: true, DefaultRole: role, Catalogue: assess.DashboardCatalogue()}
}
