package main

import (
	"context"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

type operation struct{ method, path, id, permission string }

// operationsOf reads every operation of the served API description.
func operationsOf(t *testing.T, c *apiClient) []operation {
	t.Helper()
	doc := c.get(t, "/api/v1/openapi.json", 200)
	var ops []operation
	for path, item := range doc["paths"].(map[string]any) {
		for method, raw := range item.(map[string]any) {
			op := raw.(map[string]any)
			perm, _ := op["x-required-permission"].(string)
			require.NotEmpty(t, perm, "%s %s", method, path)
			ops = append(ops, operation{strings.ToUpper(method), path, op["operationId"].(string), perm})
		}
	}
	// Sessions must survive the walk: sign-out goes last.
	sort.Slice(ops, func(i, j int) bool {
		return ops[j].id == "logout" || (ops[i].id != "logout" && ops[i].path < ops[j].path)
	})
	return ops
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

func rolePermissions(t *testing.T, ts *testServer, role string) []string {
	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	rows, err := conn.Query(context.Background(), `SELECT rp.permission FROM role_permissions rp JOIN roles r ON r.id = rp.role_id WHERE r.name = $1`, role)
	require.NoError(t, err)
	perms, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	return perms
}

// TestAuthorizationMatrix walks every operation of the API description: without a
// credential every non-public operation answers 401; for each built-in role and a custom
// role, an operation answers 403 permission_denied exactly when the role lacks the key
// the operation declares, and never 500 for the placeholder id and empty body it is sent.
// New operations are covered as soon as they are declared.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	ops := operationsOf(t, admin)
	require.NotEmpty(t, ops)
	keyKeeper := ts.newRole(t, "admin.encryption")

	t.Run("without credentials", func(t *testing.T) {
		anon := ts.browser(t)
		for _, op := range ops {
			if op.permission == string(assess.PermPublic) {
				continue
			}
			t.Run(op.method+" "+op.path, func(t *testing.T) {
				res, body := anon.do(t, op.method, pathParam.ReplaceAllString(op.path, "x"), "{}")
				require.Equal(t, 401, res.StatusCode, "%s %s without credentials: %v", op.method, op.path, body)
			})
		}
	})

	roles := append([]string{}, assess.RoleAdmin, assess.RoleAssessor, assess.RoleAssessee,
		assess.RoleStandardsManager, assess.RoleStandardsApprover, keyKeeper.Name)
	for _, role := range roles {
		t.Run("as "+role, func(t *testing.T) {
			_, c := ts.newUserNamed(t, "m_"+role, role)
			granted := rolePermissions(t, ts, role)
			for _, op := range ops {
				if op.permission == string(assess.PermPublic) || op.id == "completeSetup" || op.id == "login" {
					continue
				}
				t.Run(op.method+" "+op.path, func(t *testing.T) {
					res, body := c.do(t, op.method, pathParam.ReplaceAllString(op.path, "x"), "{}")
					lacks := op.permission != string(assess.PermAuthenticated) && !slices.Contains(granted, op.permission)
					if lacks {
						requireEnvelope(t, res, body, 403, "permission_denied")
						require.Contains(t, body["message"], op.permission)
					} else {
						require.NotContains(t, []int{401, 403}, res.StatusCode, "%s may call %s %s: %v", role, op.method, op.path, body)
						require.NotEqual(t, 500, res.StatusCode, "%s %s with an unknown id and an empty body is a client error: %v", op.method, op.path, body)
					}
				})
			}
		})
	}
}
