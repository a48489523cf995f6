package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
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
	if err := evidenceVisible(ctx, s.pool, actor, id); err != nil {
		return assess.Page[assess.EvidenceNote]{}, dbError(err)
	}
	l := newList("evidence_notes", "SELECT "+evidenceNoteColumns, newestFirst("n.id"))
	l.Where("n.evidence_id = " + l.arg(id))
	return collectPage(ctx, s.pool, l, page, scanEvidenceNote, func(n assess.EvidenceNote) []any { return []any{n.ID} })
}

// insertEvidenceNote adds a note of kind by the actor and returns its id.
func insertEvidenceNote(ctx context.Context, tx *Tx, evidenceID, kind, content string) (string, error) {
	id := assess.NewID(assess.PrefixEvidenceNote, tx.Now)
	_, err := tx.Exec(ctx, `INSERT INTO evidence_notes (id, evidence_id, author_id, kind, content, created_at)
		VALUES ($1, $2, nullif($3, ''), $4, $5, $6)`, id, evidenceID, userIDOrEmpty(tx.Actor), kind, content, tx.Now)
	return id, err
}

// AddEvidenceNote implements assess.EvidenceService: locked evidence refuses notes (409
// with the reason). The author of the evidence is notified.
func (s *EvidenceService) AddEvidenceNote(ctx context.Context, id string, nn assess.NewEvidenceNote, actor assess.Actor) (assess.EvidenceNote, error) {
	var n assess.EvidenceNote
	err := s.change(ctx, actor, func(tx *Tx) error {
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
