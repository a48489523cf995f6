package postgres_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

// frozenStartTime is the clock of every start in these tests: all of them happen in one
// millisecond, the case in which identifiers made from a shared stem collided.
var frozenStartTime = time.Date(2026, 11, 28, 2, 0, 0, 0, time.UTC)

// startConcurrently starts the assessments ids on svc, eight at a time, and returns the
// errors of the starts that failed.
func startConcurrently(ctx context.Context, svc *services.Services, actor assess.Actor, ids []string) []error {
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	work := make(chan string)
	for range 8 {
		wg.Go(func() {
			for id := range work {
				_, err := svc.Assessments.TransitionAssessment(ctx, id, assess.AssessmentTransition{To: assess.AssessmentInProgress, Version: 1}, actor)
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for _, id := range ids {
		work <- id
	}
	close(work)
	wg.Wait()
	return errs
}

// createAssessments creates n assessments of s's standard and returns their ids.
func (s *assessmentStore) createAssessments(n int, actor assess.Actor) []string {
	s.t.Helper()
	ids := make([]string, n)
	for i := range ids {
		a, err := s.svc.Assessments.CreateAssessment(s.ctx, assess.NewAssessment{Title: "Start", EntityID: s.entity,
			Standards: []assess.AssessmentStandardInput{{StandardID: s.standard}}}, actor)
		require.NoError(s.t, err)
		ids[i] = a.ID
	}
	return ids
}

// TestConcurrentStartsDoNotCollide: many assessments started at once, all in the same
// millisecond, in one process, each get requirement ids of their own (issue 26 item 0:
// a shared 16-character stem kept 30 random bits, and a second id of the same millisecond
// differed from the first only in the bits the stem cut off, so starts answered 409).
func TestConcurrentStartsDoNotCollide(t *testing.T) {
	t.Parallel()
	s := newAssessmentStore(t)
	assessor := s.user("assessor", assess.PermAssessmentsView, assess.PermAssessmentsCreate, assess.PermAssessmentsManage)
	ids := s.createAssessments(40, assessor)
	frozen := testServices(postgres.New(s.pool, func() time.Time { return frozenStartTime }))
	require.Empty(t, startConcurrently(s.ctx, frozen, assessor, ids))
	var rows, distinct int
	require.NoError(t, s.pool.QueryRow(s.ctx, "SELECT count(*), count(DISTINCT id) FROM assessment_requirements").Scan(&rows, &distinct))
	require.Equal(t, 40*3, rows)
	require.Equal(t, rows, distinct)
	var misordered int
	require.NoError(t, s.pool.QueryRow(s.ctx, `SELECT count(*) FROM (
		SELECT r.position, lag(r.position) OVER (PARTITION BY ar.assessment_id ORDER BY ar.id) AS before
		FROM assessment_requirements ar JOIN requirements r ON r.id = ar.requirement_id) x
		WHERE x.before > x.position`).Scan(&misordered))
	require.Zero(t, misordered, "each assessment's requirement ids follow the standard's order")
}

// TestConcurrentStartsAcrossProcesses: two processes (this test and a copy of the test
// binary) start assessments of one database in the same millisecond; none collides.
func TestConcurrentStartsAcrossProcesses(t *testing.T) {
	t.Parallel()
	s := newAssessmentStore(t)
	assessor := s.user("assessor", assess.PermAssessmentsView, assess.PermAssessmentsCreate, assess.PermAssessmentsManage)
	ids := s.createAssessments(60, assessor)
	other := exec.Command(os.Args[0], "-test.run", "^TestStartsOfTheOtherProcess$", "-test.count", "1")
	other.Env = append(os.Environ(), pgtest.EnvURL+"="+s.dsn, "ASSAY_TEST_OTHER_STARTS="+strings.Join(ids[30:], ","),
		"ASSAY_TEST_OTHER_ACTOR="+assessor.ID)
	var out strings.Builder
	other.Stdout, other.Stderr = &out, &out
	require.NoError(t, other.Start())
	errs := startConcurrently(s.ctx, testServices(postgres.New(s.pool, func() time.Time { return frozenStartTime })), assessor, ids[:30])
	require.NoError(t, other.Wait(), out.String())
	require.Empty(t, errs)
	var started, rows int
	require.NoError(t, s.pool.QueryRow(s.ctx, "SELECT count(*) FROM assessments WHERE started_at IS NOT NULL").Scan(&started))
	require.NoError(t, s.pool.QueryRow(s.ctx, "SELECT count(*) FROM assessment_requirements").Scan(&rows))
	require.Equal(t, 60, started)
	require.Equal(t, 60*3, rows)
}

// TestStartsOfTheOtherProcess is the other process of TestConcurrentStartsAcrossProcesses;
// it does nothing unless that test runs it.
func TestStartsOfTheOtherProcess(t *testing.T) {
	ids := os.Getenv("ASSAY_TEST_OTHER_STARTS")
	if ids == "" {
		t.Skip("run by TestConcurrentStartsAcrossProcesses")
	}
	pool := openPool(t, os.Getenv(pgtest.EnvURL))
	svc := testServices(postgres.New(pool, func() time.Time { return frozenStartTime }))
	actorID := os.Getenv("ASSAY_TEST_OTHER_ACTOR")
	actor := assess.Actor{ID: actorID, Principal: &assess.Principal{User: assess.User{ID: actorID, Active: true},
		Permissions: []string{string(assess.PermAssessmentsCreate), string(assess.PermAssessmentsManage), string(assess.PermAssessmentsView)}}}
	require.Empty(t, startConcurrently(context.Background(), svc, actor, strings.Split(ids, ",")))
}
