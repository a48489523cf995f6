package postgres_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestDashboardLayoutStore: the layout belongs to the user who saved it; the store validates
// it whatever path calls it (not only HTTP); a widget retired from the catalogue drops out of
// a kept layout instead of breaking it; the default follows a change of role; a deleted user
// leaves no layout behind.
func TestDashboardLayoutStore(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOff())
	svc := f.svc.DashboardLayouts
	as := func(u assess.User) assess.Actor {
		return assess.Actor{ID: u.ID, Principal: &assess.Principal{User: u}}
	}
	ann, bob := f.user("ann", assess.RoleAssessor), f.user("bob", assess.RoleAssessor)

	saved, err := svc.SaveDashboardLayout(f.ctx, assess.DashboardLayoutInput{Widgets: []assess.DashboardTile{
		{Widget: assess.WidgetHealth, X: 6, Y: 0, W: 6, H: 4}, {Widget: assess.WidgetWelcome, X: 0, Y: 0, W: 6, H: 4},
	}}, as(ann))
	require.NoError(t, err)
	require.False(t, saved.IsDefault)
	require.Equal(t, assess.WidgetWelcome, saved.Widgets[0].Widget, "kept in reading order")
	require.NotNil(t, saved.UpdatedAt)

	other, err := svc.DashboardLayout(f.ctx, as(bob))
	require.NoError(t, err)
	require.True(t, other.IsDefault, "bob has not saved one")
	_, def := assess.DefaultDashboardLayout([]string{assess.RoleAssessor})
	require.Equal(t, def, other.Widgets)

	_, err = svc.SaveDashboardLayout(f.ctx, assess.DashboardLayoutInput{Widgets: []assess.DashboardTile{
		{Widget: assess.WidgetHealth, X: 0, Y: 0, W: 6, H: 4}, {Widget: assess.WidgetWelcome, X: 3, Y: 2, W: 6, H: 4},
	}}, as(ann))
	requireCode(t, err, assess.ECodeValidation, "overlap")
	_, err = svc.SaveDashboardLayout(f.ctx, assess.DashboardLayoutInput{}, assess.Actor{ID: "system"})
	requireCode(t, err, assess.ECodeUnauthenticated, "")

	// A layout kept before a widget was retired (written as an older version would have).
	_, err = f.pool.Exec(f.ctx, `UPDATE dashboard_layouts SET widgets = widgets || '[{"widget":"weather","x":0,"y":4,"w":2,"h":2}]' WHERE user_id = $1`, ann.ID)
	require.NoError(t, err)
	got, err := svc.DashboardLayout(f.ctx, as(ann))
	require.NoError(t, err)
	require.Equal(t, saved.Widgets, got.Widgets)

	// The default follows the roles the user holds now.
	promoted := bob
	promoted.Roles = []string{assess.RoleAssessor, assess.RoleAdmin}
	reset, err := svc.ResetDashboardLayout(f.ctx, as(promoted))
	require.NoError(t, err)
	require.Equal(t, assess.RoleAdmin, reset.DefaultRole)

	_, err = f.pool.Exec(f.ctx, "DELETE FROM users WHERE id = $1", ann.ID)
	require.NoError(t, err)
	require.Zero(t, f.count("SELECT count(*) FROM dashboard_layouts"))
}
