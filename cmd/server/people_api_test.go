package main

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// The people directory lists active users by name for the pickers of assessment work,
// with no more than names, filtered by prefix and permission; it is open to those who may
// see assessments and to nobody else.
func TestPeopleDirectory(t *testing.T) {
	ts := startServer(t)
	admin := ts.admin(t)
	_, assessorC := ts.newUserNamed(t, "carla", assess.RoleAssessor)
	ts.newUserNamed(t, "cedric", assess.RoleAssessee)
	gone, _ := ts.newUserNamed(t, "cecile", assess.RoleAssessor)
	current := admin.get(t, "/api/v1/users/"+gone.ID, http.StatusOK)
	admin.patch(t, "/api/v1/users/"+gone.ID, map[string]any{"version": current["version"], "active": false}, http.StatusOK)
	_, managerC := ts.newUserNamed(t, "sam", assess.RoleStandardsManager)

	names := func(body map[string]any) []string {
		out := []string{}
		for _, p := range items(t, body) {
			require.ElementsMatch(t, []string{"id", "username", "displayName"}, keys(p), "names only")
			out = append(out, p["username"].(string))
		}
		return out
	}
	require.Equal(t, []string{"carla", "cedric"}, names(assessorC.get(t, "/api/v1/people?q=C", http.StatusOK)), "active users by prefix")
	require.Equal(t, []string{"carla"}, names(assessorC.get(t, "/api/v1/people?q=c&permission=evidence.review", http.StatusOK)))
	require.Equal(t, []string{"carla", "cedric"}, names(assessorC.get(t, "/api/v1/people?q=c&permission=assessments.view", http.StatusOK)))
	require.Empty(t, names(assessorC.get(t, "/api/v1/people?q=%25", http.StatusOK)), "wildcards match themselves")
	require.Len(t, names(assessorC.get(t, "/api/v1/people?limit=1", http.StatusOK)), 1)
	assessorC.fails(t, http.MethodGet, "/api/v1/people?permission=admin.users", nil, http.StatusBadRequest, "validation_failed")
	assessorC.fails(t, http.MethodGet, "/api/v1/people?limit=51", nil, http.StatusBadRequest, "validation_failed")
	managerC.fails(t, http.MethodGet, "/api/v1/people", nil, http.StatusForbidden, "permission_denied")
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
