package main

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/secret"
)

type operation struct{ method, path, id, permission string }

// operationsOf reads every operation of the served API description.
func operationsOf(t *testing.T, b *browser) []operation {
	res, doc := b.do("GET", "/api/v1/openapi.json", "")
	require.Equal(t, 200, res.StatusCode)
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

// addUser creates an account holding the given roles, directly in the database.
func addUser(t *testing.T, ts *testServer, name string, roles ...string) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, ts.dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	hash, err := secret.NewHasher(secret.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1}, 1).Hash(ctx, "matrix password 1")
	require.NoError(t, err)
	id := assess.NewID(assess.PrefixUser, timeNow())
	_, err = conn.Exec(ctx, `INSERT INTO users (id, username, email, password_hash) VALUES ($1, $2, $2 || '@example.com', $3)`, id, name, hash)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `INSERT INTO user_roles SELECT $1, id FROM roles WHERE name = ANY($2)`, id, roles)
	require.NoError(t, err)
}

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
	admin := newBrowser(t, ts)
	res, _ := admin.do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode)
	ops := operationsOf(t, admin)
	require.NotEmpty(t, ops)

	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	_, err = conn.Exec(context.Background(), `INSERT INTO roles (id, name, description) VALUES ($1, 'key_keeper', 'custom')`,
		assess.NewID(assess.PrefixRole, timeNow()))
	require.NoError(t, err)
	_, err = conn.Exec(context.Background(), `INSERT INTO role_permissions SELECT id, 'admin.encryption' FROM roles WHERE name = 'key_keeper'`)
	require.NoError(t, err)
	conn.Close(context.Background())

	anon := newBrowser(t, ts)
	for _, op := range ops {
		if op.permission == string(assess.PermPublic) {
			continue
		}
		res, body := anon.do(op.method, pathParam.ReplaceAllString(op.path, "x"), "{}")
		require.Equal(t, 401, res.StatusCode, "%s %s without credentials: %v", op.method, op.path, body)
	}

	roles := append([]string{}, assess.RoleAdmin, assess.RoleAssessor, assess.RoleAssessee,
		assess.RoleStandardsManager, assess.RoleStandardsApprover, "key_keeper")
	for _, role := range roles {
		name := "m_" + role
		addUser(t, ts, name, role)
		b := newBrowser(t, ts)
		res, body := b.do("POST", "/api/v1/auth/login", fmt.Sprintf(`{"username":%q,"password":"matrix password 1"}`, name))
		require.Equal(t, 200, res.StatusCode, body)
		granted := rolePermissions(t, ts, role)
		for _, op := range ops {
			if op.permission == string(assess.PermPublic) || op.id == "completeSetup" || op.id == "login" {
				continue
			}
			res, body := b.do(op.method, pathParam.ReplaceAllString(op.path, "x"), "{}")
			lacks := op.permission != string(assess.PermAuthenticated) && !slices.Contains(granted, op.permission)
			if lacks {
				requireEnvelope(t, res, body, 403, "permission_denied")
				require.Contains(t, body["message"], op.permission)
			} else {
				require.NotContains(t, []int{401, 403}, res.StatusCode, "%s may call %s %s: %v", role, op.method, op.path, body)
				require.NotEqual(t, 500, res.StatusCode, "%s %s with an unknown id and an empty body is a client error: %v", op.method, op.path, body)
			}
		}
	}
}
