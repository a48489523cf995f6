package main

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/assay-dev/assay/pkg/datagen"
)

// BenchmarkListPages is BenchmarkHotPath for the domain's list pages (issue 27): pages of 50
// on datagen.Small (300 assessments started on generated standards, 1,500 pieces of evidence,
// 3,000 claims, 6,000 audit rows), as an administrator and as a participant on the team of
// every tenth assessment. Its allocations per page (-benchmem) do not depend on the
// machine's load, unlike make bench's rates: they are the figure to compare when changing
// what a page costs the server.
//
//	go test ./cmd/server -run '^$' -bench ListPages -benchmem -benchtime 2000x
func BenchmarkListPages(b *testing.B) {
	ts, adminKey, _ := benchServer(b)
	participant, pc := ts.newUser(b, "assessor")
	participantKey := ts.newAPIKey(b, pc)
	pool, err := pgxpool.New(context.Background(), ts.dsn)
	if err != nil {
		b.Fatal(err)
	}
	sizes := datagen.Small
	sizes.ParticipantID = participant.ID
	if _, err := datagen.Generate(context.Background(), pool, sizes); err != nil {
		b.Fatal(err)
	}
	var busy string
	if err := pool.QueryRow(context.Background(), `SELECT c.assessment_id FROM claims c
		GROUP BY c.assessment_id ORDER BY count(*) DESC, c.assessment_id LIMIT 1`).Scan(&busy); err != nil {
		b.Fatal(err)
	}
	pool.Close()
	for _, c := range []struct{ name, path, key string }{
		{"users", "/api/v1/users?limit=50", adminKey},
		{"assessments-admin", "/api/v1/assessments?limit=50", adminKey},
		{"assessments-participant", "/api/v1/assessments?limit=50", participantKey},
		{"evidence-admin", "/api/v1/evidence?limit=50", adminKey},
		{"evidence-participant", "/api/v1/evidence?limit=50", participantKey},
		{"claims-busy", "/api/v1/assessments/" + busy + "/claims", adminKey},
		{"timeline-busy", "/api/v1/assessments/" + busy + "/timeline?limit=50", adminKey},
		{"audit", "/api/v1/audit?limit=50", adminKey},
		{"projects", "/api/v1/projects?limit=50", adminKey},
	} {
		b.Run(c.name, func(b *testing.B) {
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}}
			defer client.CloseIdleConnections()
			b.SetParallelism(2)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req, _ := http.NewRequest(http.MethodGet, ts.url+c.path, nil)
					req.Header.Set("Authorization", "Bearer "+c.key)
					res, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					n, _ := io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != http.StatusOK || n < 100 {
						b.Errorf("%s: %d, %d bytes", c.path, res.StatusCode, n)
						return
					}
				}
			})
		})
	}
}
