// Command datagen fills a database with data shaped like real use, at a size given by flags
// (pkg/datagen): make datagen DSN=… ARGS='-assessments 10000 -results 1000000'. The database
// must be migrated and its built-in roles present: point it at an installation's database after
// the server has started on it once.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/assay-dev/assay/pkg/datagen"
)

func main() {
	s := datagen.Large
	dsn := flag.String("dsn", os.Getenv("DATABASE_URL"), "PostgreSQL connection string (default DATABASE_URL)")
	flag.IntVar(&s.Users, "users", s.Users, "users (a third assessors, the rest assessees) besides "+datagen.Participant)
	flag.IntVar(&s.Entities, "entities", s.Entities, "entities of every type")
	flag.IntVar(&s.Projects, "projects", s.Projects, "projects")
	flag.IntVar(&s.Assessments, "assessments", s.Assessments, "assessments in every state")
	flag.IntVar(&s.Results, "results", s.Results, "requirement rows over the started assessments (about)")
	flag.IntVar(&s.Evidence, "evidence", s.Evidence, "evidence, linked to requirements")
	flag.IntVar(&s.Claims, "claims", s.Claims, "claims citing evidence")
	flag.Uint64Var(&s.Seed, "seed", s.Seed, "random seed: the same sizes and seed give the same shape")
	flag.StringVar(&s.StandardsDir, "standards", "", "a folder of CycloneDX standards (*.cdx.json) to start assessments on; empty: generated ones of real sizes")
	flag.Parse()
	if *dsn == "" {
		fmt.Fprintln(os.Stderr, "datagen: give -dsn or DATABASE_URL")
		os.Exit(2)
	}
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, *dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, "datagen:", err)
		os.Exit(1)
	}
	defer pool.Close()
	sum, err := datagen.Generate(ctx, pool, s)
	if err != nil {
		fmt.Fprintln(os.Stderr, "datagen:", err)
		os.Exit(1)
	}
	out, _ := json.MarshalIndent(sum, "", "  ")
	fmt.Println(string(out))
}
