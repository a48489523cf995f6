package postgres

import (
	"context"
	"slices"
	"sync"
)

// roleNames maps role ids to role names for the reads that show a user's roles (get one
// user, the user list): the query reads only the user's role ids (an index-only scan of
// user_roles), and the names come from here. Looking the names up in SQL for every user
// of a page was more than half of the list's database time.
//
// An entry never goes stale: a role's name cannot change (assess.RoleUpdate has no name)
// and ids are never reused. A role unknown here — created after the map was filled, here
// or on another replica — is a miss, and a miss reloads the whole table (a few rows)
// through the caller's querier, so a role created in the caller's transaction is found
// too. A deleted role's entry stays, harmless: no user_roles row names it any more.
type roleNames struct {
	mu    sync.RWMutex
	names map[string]string
}

// Fill replaces the role ids in each user's Roles (as scanUser reads them) with the
// roles' names, sorted (byte order, as names are lower-case letters, digits and _).
func (r *roleNames) Fill(ctx context.Context, q Querier, roles ...*[]string) error {
	if !r.resolve(roles, false) {
		if err := r.reload(ctx, q); err != nil {
			return err
		}
		r.resolve(roles, true)
	}
	return nil
}

// resolve names the roles; false, changing nothing, if an id is unknown, unless
// dropUnknown, which leaves such ids out.
func (r *roleNames) resolve(roles []*[]string, dropUnknown bool) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if !dropUnknown {
		for _, ids := range roles {
			for _, id := range *ids {
				if _, ok := r.names[id]; !ok {
					return false
				}
			}
		}
	}
	for _, ids := range roles {
		names := make([]string, 0, len(*ids))
		for _, id := range *ids {
			if name, ok := r.names[id]; ok {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		*ids = names
	}
	return true
}

// reload reads every role's name. An id still unknown afterwards belongs to a role
// deleted since the user's row was read, and is left out.
func (r *roleNames) reload(ctx context.Context, q Querier) error {
	rows, err := q.Query(ctx, "SELECT id, name FROM roles")
	if err != nil {
		return err
	}
	defer rows.Close()
	names := map[string]string{}
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			return err
		}
		names[id] = name
	}
	if err := rows.Err(); err != nil {
		return err
	}
	r.mu.Lock()
	r.names = names
	r.mu.Unlock()
	return nil
}
