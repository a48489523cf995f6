package work

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// TestPortfolioPageSendsItsColumnsOnce: a portfolio page's columns (every standard with
// results, as JSON) are read from the page's first row only, so only that row carries them,
// on every page and in each of the portfolio's three forms. Sent on every row, they were 51
// copies of the same JSON a page (13 standards at make bench's million-row data: 66 KB
// encoded by PostgreSQL and read by the server; pgbench -c 1 of the rows statement 1.15 →
// 0.80 ms with one copy).
func TestPortfolioPageSendsItsColumnsOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, sum := generated(t)
	admin := assess.Actor{ID: "u_admin", Principal: &assess.Principal{User: assess.User{ID: "u_admin"},
		Permissions: []string{string(assess.PermAssessmentsViewAll)}}}
	participant := assess.Actor{ID: sum.ParticipantID, Principal: &assess.Principal{User: assess.User{ID: sum.ParticipantID}}}
	for name, c := range map[string]struct {
		q     assess.PortfolioQuery
		actor assess.Actor
	}{
		"kept, administrator":   {assess.PortfolioQuery{}, admin},
		"kept, participant":     {assess.PortfolioQuery{}, participant},
		"scoped, administrator": {assess.PortfolioQuery{Q: "0"}, admin},
		"scoped, participant":   {assess.PortfolioQuery{Q: "0"}, participant},
	} {
		cursor, pages := "", 0
		for {
			q := c.q
			q.PageRequest = assess.PageRequest{Limit: 3, Cursor: cursor}
			page, err := postgres.CollectPage(ctx, pool, portfolioList(q, c.actor), q.PageRequest, func(r pgx.Row) (portfolioRow, error) {
				var x portfolioRow
				err := r.Scan(&x.EntityID, &x.EntityName, &x.EntityType, &x.sortName, &x.total, &x.cols)
				return x, err
			}, func(x portfolioRow) []any { return []any{x.sortName, x.EntityID} })
			require.NoError(t, err, name)
			require.NotEmpty(t, page.Items, name)
			for i, x := range page.Items {
				if i == 0 {
					require.NotEmpty(t, x.cols, "%s, page %d: the first row has the columns", name, pages)
				} else {
					require.True(t, x.cols == nil, "%s, page %d, row %d: only the first row has the columns", name, pages, i)
				}
			}
			pages++
			if cursor = page.NextCursor; cursor == "" || pages == 3 {
				break
			}
		}
		require.GreaterOrEqual(t, pages, 2, "%s: a page after a cursor read too", name)
	}
}
