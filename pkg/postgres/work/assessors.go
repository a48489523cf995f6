package work

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Assessors are organisation-level records (CycloneDX declarations.assessors) chosen per
// attestation. Names are unique whatever their letter case; an assessor named by an
// attestation cannot be deleted (409).

var errAssessorNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "Assessor not found."}

const assessorSelect = `SELECT id, name, url, third_party, description, version, created_at, updated_at FROM assessors`

func scanAssessor(row pgx.Row) (assess.Assessor, error) {
	var a assess.Assessor
	err := row.Scan(&a.ID, &a.Name, &a.URL, &a.ThirdParty, &a.Description, &a.Version, &a.CreatedAt, &a.UpdatedAt)
	a.CreatedAt, a.UpdatedAt = a.CreatedAt.UTC(), a.UpdatedAt.UTC()
	return a, err
}

// FindAssessors implements assess.AttestationService: every assessor, by name.
func (s *AttestationService) FindAssessors(ctx context.Context, _ assess.Actor) (assess.AssessorList, error) {
	rows, err := s.db.Pool.Query(ctx, assessorSelect+" ORDER BY lower(name), id")
	if err != nil {
		return assess.AssessorList{}, postgres.DBError(err)
	}
	items, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.Assessor, error) { return scanAssessor(r) })
	if items == nil {
		items = []assess.Assessor{}
	}
	return assess.AssessorList{Items: items}, postgres.DBError(err)
}

// CreateAssessor implements assess.AttestationService.
func (s *AttestationService) CreateAssessor(ctx context.Context, n assess.NewAssessor, actor assess.Actor) (assess.Assessor, error) {
	var out assess.Assessor
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := n.Validate(); err != nil {
			return err
		}
		id := assess.NewID(assess.PrefixAssessor, tx.Now)
		if _, err := tx.Exec(ctx, `INSERT INTO assessors (id, name, url, third_party, description, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6)`, id, n.Name, n.URL, n.ThirdParty, n.Description, tx.Now); err != nil {
			return err
		}
		var err error
		if out, err = scanAssessor(tx.QueryRow(ctx, assessorSelect+" WHERE id = $1", id)); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeAssessorCreated, postgres.Target{Type: "assessor", ID: id}, map[string]any{"name": n.Name}, assess.NewEvent{})
	})
	return out, err
}

// UpdateAssessor implements assess.AttestationService. A change reaches attestations
// not yet frozen; frozen and sealed documents keep what they said.
func (s *AttestationService) UpdateAssessor(ctx context.Context, id string, u assess.AssessorUpdate, actor assess.Actor) (assess.Assessor, error) {
	var out assess.Assessor
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := tx.LockVersion(ctx, "assessors", id, u.Version, errAssessorNotFound); err != nil {
			return err
		}
		before, err := scanAssessor(tx.QueryRow(ctx, assessorSelect+" WHERE id = $1", id))
		if err != nil {
			return err
		}
		n, err := u.Apply(before)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE assessors SET name = $2, url = $3, third_party = $4, description = $5 WHERE id = $1`,
			id, n.Name, n.URL, n.ThirdParty, n.Description); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "assessors", id); err != nil {
			return err
		}
		if out, err = scanAssessor(tx.QueryRow(ctx, assessorSelect+" WHERE id = $1", id)); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeAssessorUpdated, postgres.Target{Type: "assessor", ID: id}, map[string]any{"name": n.Name}, assess.NewEvent{})
	})
	return out, err
}

// DeleteAssessor implements assess.AttestationService: 409 while an attestation names it.
func (s *AttestationService) DeleteAssessor(ctx context.Context, id string, version int64, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := tx.LockVersion(ctx, "assessors", id, version, errAssessorNotFound); err != nil {
			return err
		}
		var used bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM attestation_assessors WHERE assessor_id = $1)", id).Scan(&used); err != nil {
			return err
		}
		if used {
			return &assess.Error{Code: assess.ECodeConflict, Message: "An attestation names this assessor; it cannot be deleted.",
				Details: []assess.Detail{{Field: "id", Code: "in_use"}}}
		}
		var name string
		err := tx.QueryRow(ctx, "DELETE FROM assessors WHERE id = $1 RETURNING name", id).Scan(&name)
		if errors.Is(err, pgx.ErrNoRows) {
			return errAssessorNotFound
		}
		if err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeAssessorDeleted, postgres.Target{Type: "assessor", ID: id}, map[string]any{"name": name}, assess.NewEvent{})
	})
}
