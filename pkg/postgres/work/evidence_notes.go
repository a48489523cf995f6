package work

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// evidenceNoteColumns read a note (n) with its author (u, absent when deleted).
const evidenceNoteColumns = `n.id, n.evidence_id, u.id, u.username, u.display_name, n.kind, n.content, n.created_at
	FROM evidence_notes n LEFT JOIN users u ON u.id = n.author_id`

func scanEvidenceNote(r pgx.Row) (assess.EvidenceNote, error) {
	var n assess.EvidenceNote
	var uID, uName, uDisplay *string
	err := r.Scan(&n.ID, &n.EvidenceID, &uID, &uName, &uDisplay, &n.Kind, &n.Content, &n.CreatedAt)
	if uID != nil {
		n.Author = &assess.UserRef{ID: *uID, Username: *uName, DisplayName: *uDisplay}
	}
	n.CreatedAt = n.CreatedAt.UTC()
	return n, err
}

// FindEvidenceNotes implements assess.EvidenceService: newest first, keyset paginated.
func (s *EvidenceService) FindEvidenceNotes(ctx context.Context, id string, page assess.PageRequest, actor assess.Actor) (assess.Page[assess.EvidenceNote], error) {
	if err := postgres.EvidenceVisible(ctx, s.db.Pool, actor, id); err != nil {
		return assess.Page[assess.EvidenceNote]{}, postgres.DBError(err)
	}
	l := postgres.NewList("evidence_notes", "SELECT "+evidenceNoteColumns, postgres.NewestFirst("n.id"))
	l.Where("n.evidence_id = " + l.Arg(id))
	return postgres.CollectPage(ctx, s.db.Pool, l, page, scanEvidenceNote, func(n assess.EvidenceNote) []any { return []any{n.ID} })
}

// insertEvidenceNote adds a note of kind by the actor and returns its id.
func insertEvidenceNote(ctx context.Context, tx *postgres.Tx, evidenceID, kind, content string) (string, error) {
	id := assess.NewID(assess.PrefixEvidenceNote, tx.Now)
	_, err := tx.Exec(ctx, `INSERT INTO evidence_notes (id, evidence_id, author_id, kind, content, created_at)
		VALUES ($1, $2, nullif($3, ''), $4, $5, $6)`, id, evidenceID, userIDOrEmpty(tx.Actor), kind, content, tx.Now)
	return id, err
}

// AddEvidenceNote implements assess.EvidenceService: locked evidence refuses notes (409
// with the reason). The author of the evidence is notified.
func (s *EvidenceService) AddEvidenceNote(ctx context.Context, id string, nn assess.NewEvidenceNote, actor assess.Actor) (assess.EvidenceNote, error) {
	var n assess.EvidenceNote
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := nn.Validate(); err != nil {
			return err
		}
		if _, err := lockEvidence(ctx, tx, id, 0); err != nil {
			return err
		}
		noteID, err := insertEvidenceNote(ctx, tx, id, assess.EvidenceNoteKindNote, nn.Content)
		if err != nil {
			return err
		}
		if n, err = scanEvidenceNote(tx.QueryRow(ctx, "SELECT "+evidenceNoteColumns+" WHERE n.id = $1", noteID)); err != nil {
			return err
		}
		_, err = recordEvidence(ctx, tx, assess.ChangeEvidenceNoteAdded, id, map[string]any{"noteId": noteID},
			func(d *assess.EvidenceEvent) (string, string) { d.Note = nn.Content; return d.Author.ID, "" })
		return err
	})
	return n, err
}
