package work

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Work notes are visible exactly when their assessment is, written while it takes
// changes, and changed or deleted by their author only. A note's @mentions are resolved
// to the active users who may see the assessment (the SQL function assessment_visible,
// the rule of visibility.go); they alone are listed and notified.

var errWorkNoteNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "Work note not found."}

// workNoteSelect reads notes with their author and the users they mention.
const workNoteSelect = `SELECT n.id, n.assessment_id, coalesce(n.author_id, ''), coalesce(au.username, ''), coalesce(au.display_name, ''),
	n.content, coalesce((SELECT jsonb_agg(jsonb_build_object('id', mu.id, 'username', mu.username, 'displayName', mu.display_name)
		ORDER BY lower(mu.username)) FROM users mu WHERE mu.id = ANY (n.mentions)), '[]'::jsonb),
	n.version, n.created_at, n.updated_at
FROM work_notes n LEFT JOIN users au ON au.id = n.author_id`

func scanWorkNote(row pgx.Row) (assess.WorkNote, error) {
	var n assess.WorkNote
	var author assess.UserRef
	err := row.Scan(&n.ID, &n.AssessmentID, &author.ID, &author.Username, &author.DisplayName, &n.Content, &n.Mentions,
		&n.Version, &n.CreatedAt, &n.UpdatedAt)
	if author.ID != "" {
		n.Author = &author
	}
	if n.Mentions == nil {
		n.Mentions = []assess.UserRef{}
	}
	n.CreatedAt, n.UpdatedAt = n.CreatedAt.UTC(), n.UpdatedAt.UTC()
	return n, err
}

func findWorkNote(ctx context.Context, q postgres.Querier, assessmentID, id string) (assess.WorkNote, error) {
	n, err := scanWorkNote(q.QueryRow(ctx, workNoteSelect+" WHERE n.id = $1 AND n.assessment_id = $2", id, assessmentID))
	if errors.Is(err, pgx.ErrNoRows) {
		return n, errWorkNoteNotFound
	}
	return n, err
}

func workNoteTarget(assessmentID, id string) postgres.Target {
	return postgres.Target{Type: "work_note", ID: id, Scope: assessmentID}
}

// FindWorkNotes implements assess.WorkNoteService: newest first, keyset paginated.
func (s *WorkNoteService) FindWorkNotes(ctx context.Context, assessmentID string, f assess.WorkNoteFilter, actor assess.Actor) (assess.Page[assess.WorkNote], error) {
	if _, err := postgres.VisibleAssessmentState(ctx, s.db.Pool, actor, assessmentID, false); err != nil {
		return assess.Page[assess.WorkNote]{}, postgres.DBError(err)
	}
	l := postgres.NewList("work_notes", workNoteSelect, postgres.NewestFirst("n.id"))
	l.Where("n.assessment_id = " + l.Arg(assessmentID))
	return postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanWorkNote, func(n assess.WorkNote) []any { return []any{n.ID} })
}

// AddWorkNote implements assess.WorkNoteService. The event assessment.note_added has the
// users mentioned as its audience; the author is never notified of their own note. The
// note is answered as written, not read back: the check of the assessment reads its title
// and the author's names, the mentions come with theirs (docs/performance.md, "Creates and
// the write ceiling"; TestCreatesAnswerWhatAReadShows holds the answer to a read's).
func (s *WorkNoteService) AddWorkNote(ctx context.Context, assessmentID string, in assess.NewWorkNote, actor assess.Actor) (assess.WorkNote, error) {
	var note assess.WorkNote
	err := s.db.ChangeGeneric(ctx, actor, func(tx *postgres.Tx) error {
		authorID := userIDOf(tx.Actor)
		author := assess.UserRef{ID: authorID}
		var title string
		var b pgx.Batch
		if err := postgres.QueueWritableAssessment(&b, tx.Actor, assessmentID, `a.title,
			coalesce((SELECT u.username FROM users u WHERE u.id = $1), ''), coalesce((SELECT u.display_name FROM users u WHERE u.id = $1), '')`,
			[]any{authorID}, &title, &author.Username, &author.DisplayName); err != nil {
			return err
		}
		if err := tx.SendBatch(ctx, &b).Close(); err != nil {
			return err
		}
		if err := in.Validate(); err != nil {
			return err
		}
		mentioned, err := resolveMentions(ctx, tx, assessmentID, in.Content)
		if err != nil {
			return err
		}
		note = assess.WorkNote{ID: assess.NewID(assess.PrefixWorkNote, tx.Now), AssessmentID: assessmentID, Content: in.Content,
			Mentions: mentioned, Version: 1, CreatedAt: tx.Now.UTC(), UpdatedAt: tx.Now.UTC()}
		if authorID != "" {
			note.Author = &author
		}
		insert := postgres.Statement{SQL: `INSERT INTO work_notes (id, assessment_id, author_id, content, mentions, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6)`, Args: []any{note.ID, assessmentID, postgres.Nullable(authorID), in.Content, userIDs(mentioned), tx.Now}}
		return tx.Record(ctx, assess.ChangeAssessmentNoteAdded, workNoteTarget(assessmentID, note.ID),
			map[string]any{"mentions": mentionNames(note)},
			assess.NewEvent{Data: note, Summary: title, Link: "/assessments/" + assessmentID + "?tab=notes",
				Audience: userIDs(mentioned), AssessmentID: assessmentID}, insert)
	})
	return note, err
}

// UpdateWorkNote implements assess.WorkNoteService. The mentions are resolved again; an
// edit notifies nobody (the catalogue has no event for it).
func (s *WorkNoteService) UpdateWorkNote(ctx context.Context, assessmentID, id string, upd assess.WorkNoteUpdate, actor assess.Actor) (assess.WorkNote, error) {
	var note assess.WorkNote
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := ownWorkNote(ctx, tx, assessmentID, id, upd.Version); err != nil {
			return err
		}
		if err := upd.Validate(); err != nil {
			return err
		}
		mentioned, err := resolveMentions(ctx, tx, assessmentID, upd.Content)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE work_notes SET content = $2, mentions = $3 WHERE id = $1", id, upd.Content, userIDs(mentioned)); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "work_notes", id); err != nil {
			return err
		}
		if note, err = findWorkNote(ctx, tx, assessmentID, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeAssessmentNoteUpdated, workNoteTarget(assessmentID, id),
			map[string]any{"mentions": mentionNames(note)}, assess.NewEvent{})
	})
	return note, err
}

// DeleteWorkNote implements assess.WorkNoteService.
func (s *WorkNoteService) DeleteWorkNote(ctx context.Context, assessmentID, id string, version int64, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := ownWorkNote(ctx, tx, assessmentID, id, version); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM work_notes WHERE id = $1", id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeAssessmentNoteDeleted, workNoteTarget(assessmentID, id), nil, assess.NewEvent{})
	})
}

// ownWorkNote checks, for a change of note id: the assessment is visible (404) and takes
// changes (409 read_only), the note is one of it (404), the version is current (409) and
// the actor wrote it (422 not_author). The note stays locked for the transaction.
func ownWorkNote(ctx context.Context, tx *postgres.Tx, assessmentID, id string, version int64) error {
	if err := postgres.WritableAssessment(ctx, tx, tx.Actor, assessmentID); err != nil {
		return err
	}
	if !assess.ValidID(assess.PrefixWorkNote, id) {
		return errWorkNoteNotFound
	}
	var author *string
	err := tx.QueryRow(ctx, "SELECT author_id FROM work_notes WHERE id = $1 AND assessment_id = $2", id, assessmentID).Scan(&author)
	if errors.Is(err, pgx.ErrNoRows) {
		return errWorkNoteNotFound
	}
	if err != nil {
		return err
	}
	if err := tx.LockVersion(ctx, "work_notes", id, version, errWorkNoteNotFound); err != nil {
		return err
	}
	if author == nil || *author != tx.Actor.ID {
		return assess.ErrNotNoteAuthor
	}
	return nil
}

// resolveMentions returns the active users content mentions who may see the assessment,
// by username; other names (unknown, inactive, outsiders) are ignored without a word, so a
// note reveals nothing about who exists.
func resolveMentions(ctx context.Context, q postgres.Querier, assessmentID, content string) ([]assess.UserRef, error) {
	names := assess.ParseMentions(content)
	if len(names) == 0 {
		return []assess.UserRef{}, nil
	}
	rows, err := q.Query(ctx, `SELECT id, username, display_name FROM users WHERE lower(username) = ANY ($1) AND active
		AND assessment_visible(id, $2) ORDER BY lower(username)`, names, assessmentID)
	if err != nil {
		return nil, err
	}
	users, err := pgx.CollectRows(rows, pgx.RowToStructByPos[assess.UserRef])
	return postgres.OrEmpty(users), err
}

// userIDs are the ids of users, never nil (a text[] argument).
func userIDs(users []assess.UserRef) []string {
	ids := make([]string, len(users))
	for i, u := range users {
		ids[i] = u.ID
	}
	return ids
}

func mentionNames(n assess.WorkNote) []string {
	names := make([]string, len(n.Mentions))
	for i, m := range n.Mentions {
		names[i] = m.Username
	}
	return names
}

// maxMentionable bounds the mentionable list (it feeds an autocomplete).
const maxMentionable = 50

// MentionableUsers implements assess.WorkNoteService: the active participants of the
// assessment — its team and the authors and reviewers of the evidence linked to its
// requirements, the people participantSQL names — by username, at most 50.
func (s *WorkNoteService) MentionableUsers(ctx context.Context, assessmentID string, f assess.MentionableFilter, actor assess.Actor) ([]assess.UserRef, error) {
	if _, err := postgres.VisibleAssessmentState(ctx, s.db.Pool, actor, assessmentID, false); err != nil {
		return nil, postgres.DBError(err)
	}
	var args postgres.SQLArgs
	a := args.Add(assessmentID)
	sql := `SELECT u.id, u.username, u.display_name FROM users u WHERE u.active AND u.id IN (
		SELECT m.user_id FROM assessment_members m WHERE m.assessment_id = ` + a + `
		UNION SELECT e.author_id FROM assessment_requirement_evidence l JOIN evidence e ON e.id = l.evidence_id WHERE l.assessment_id = ` + a + `
		UNION SELECT e.reviewer_id FROM assessment_requirement_evidence l JOIN evidence e ON e.id = l.evidence_id
			WHERE l.assessment_id = ` + a + ` AND e.reviewer_id IS NOT NULL)`
	if q := strings.TrimSpace(f.Q); q != "" {
		p := args.Add(strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(q)) + "%")
		sql += " AND (lower(u.username) LIKE " + p + " OR lower(u.display_name) LIKE " + p + ")"
	}
	rows, err := s.db.Pool.Query(ctx, sql+" ORDER BY lower(u.username), u.id LIMIT "+args.Add(maxMentionable), args...)
	if err != nil {
		return nil, postgres.DBError(err)
	}
	users, err := pgx.CollectRows(rows, pgx.RowToStructByPos[assess.UserRef])
	if users == nil {
		users = []assess.UserRef{}
	}
	return users, postgres.DBError(err)
}

var _ assess.WorkNoteService = (*WorkNoteService)(nil)
