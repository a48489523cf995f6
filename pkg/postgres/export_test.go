package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// errRollBack makes EmitForTest roll its transaction back.
var errRollBack = errors.New("roll back")

// EmitForTest emits ev in a transaction of its own, committed when commit is true and
// rolled back otherwise.
func (db *DB) EmitForTest(ctx context.Context, actor assess.Actor, ev assess.NewEvent, commit bool) (string, error) {
	var id string
	err := db.Change(ctx, actor, func(tx *Tx) error {
		var err error
		if id, err = db.emit(ctx, tx, actor, ev); err != nil || commit {
			return err
		}
		return errRollBack
	})
	if errors.Is(err, errRollBack) {
		err = nil
	}
	return id, err
}

// CredentialCacheEnabledForTest reports whether the credential cache serves.
func (db *DB) CredentialCacheEnabledForTest() bool { return db.Creds.entries.isEnabled() }

// CachePrincipalForTest caches p under key.
func (db *DB) CachePrincipalForTest(key string, p *assess.Principal) {
	_, _, gen, _ := db.Creds.Get(key)
	db.Creds.Put(key, gen, p, time.Time{}, time.Time{})
}

// CachedForTest reports whether key is served from the cache.
func (db *DB) CachedForTest(key string) bool {
	_, _, _, ok := db.Creds.Get(key)
	return ok
}

// ChangeForTest runs fn in a transaction of the kit, as the system.
func (db *DB) ChangeForTest(ctx context.Context, fn func(pgx.Tx) error) error {
	return db.Change(ctx, assess.SystemActor, func(tx *Tx) error { return fn(tx) })
}

// VisibleForTest answers whether actor may see the assessment or the evidence id through
// one form of the store's rule (visibility.go): kind "assessment" and "evidence" decide in
// Go from the ties read with the record (single reads); "assessment-list" and
// "evidence-list" are the SQL conditions of lists, "evidence-set" the SQL condition for
// sets of given ids.
func (db *DB) VisibleForTest(ctx context.Context, actor assess.Actor, kind, id string) (bool, error) {
	var err error
	var args SQLArgs
	var sql, cond string
	switch kind {
	case "assessment":
		_, err = VisibleAssessmentState(ctx, db.Pool, actor, id, false)
	case "evidence":
		err = EvidenceVisible(ctx, db.Pool, actor, id)
	case "assessment-list":
		sql = "SELECT true FROM assessments a WHERE a.id = " + args.Add(id)
		cond = AssessmentVisibleSQL(actor, "a.id", args.Add)
	case "assessment-page": // the assessment list's form (AssessmentListVisibleSQL)
		sql = "SELECT true FROM assessments a WHERE a.id = " + args.Add(id)
		cond = AssessmentListVisibleSQL(actor, "a.id", args.Add)
	case "assessment-lookup": // a lookup per candidate in any plan (AssessmentVisibleLookupSQL)
		sql = "SELECT true FROM assessments a WHERE a.id = " + args.Add(id)
		cond = AssessmentVisibleLookupSQL(actor, "a.id", args.Add)
	case "assessment-write": // a create's check (QueueWritableAssessment), on generic plans
		var b pgx.Batch
		var read string
		if err = QueueWritableAssessment(&b, actor, id, "a.id", nil, &read); err == nil {
			err = db.ChangeGeneric(ctx, actor, func(tx *Tx) error { return tx.SendBatch(ctx, &b).Close() })
		}
	case "evidence-ids":
		sql = "SELECT true FROM evidence e WHERE e.id = " + args.Add(id)
		if set := VisibleEvidenceIDsSQL(actor, args.Add); set != "" {
			cond = "e.id IN (" + set + ")"
		}
	case "evidence-set":
		sql = "SELECT true FROM evidence e WHERE e.id = ANY (" + args.Add([]string{id}) + ")"
		cond = EvidenceVisibleSQL(actor, "e.id", "e.author_id", "e.reviewer_id", args.Add)
	case "evidence-few": // the evidence list's form for a participant of few assessments
		sql = "SELECT true FROM evidence e WHERE e.id = " + args.Add(id)
		cond = FewEvidenceVisibleSQL(actor, "e.id", args.Add)
	case "evidence-array", "assessment-array": // the search's form: the caller's assessments read first
		ids, limited, err := VisibleAssessmentIDs(ctx, db.Pool, actor)
		if err != nil {
			return false, err
		}
		table := map[string]string{"assessment-array": "assessments", "evidence-array": "evidence"}[kind]
		sql = "SELECT true FROM " + table + " e WHERE e.id = " + args.Add(id)
		if kind == "assessment-array" {
			if limited {
				cond = "e.id = ANY(" + args.Add(ids) + "::text[])"
			}
			break
		}
		if !assess.SeesAllEvidence(actor) {
			arr := "'{}'::text[]"
			if limited {
				arr = args.Add(ids) + "::text[]"
			}
			cond = EvidenceVisibleInArraySQL(actor, "e.id", "e.author_id", "e.reviewer_id", arr, args.Add)
		}
	default:
		return false, errors.New("unknown kind " + kind)
	}
	if sql != "" {
		if cond != "" {
			sql += " AND " + cond
		}
		var ok bool
		if err = db.Pool.QueryRow(ctx, sql, args...).Scan(&ok); errors.Is(err, pgx.ErrNoRows) {
			return false, nil
		}
	}
	if assess.ErrorCode(err) == assess.ECodeNotFound {
		return false, nil
	}
	return err == nil, err
}

// UnreadCountCacheEnabledForTest reports whether the unread-count cache serves.
func (db *DB) UnreadCountCacheEnabledForTest() bool { return db.Unread.Counts.isEnabled() }

// UnreadCountCachedForTest reports whether the user's unread count is served from the cache.
func (db *DB) UnreadCountCachedForTest(userID string) bool {
	_, _, ok := db.Unread.Counts.Get(userID)
	return ok
}

// ExplainRecipientsForTest runs the fan-out's recipients statement for ev on PostgreSQL's
// generic plan, as a change does, under EXPLAIN (ANALYZE, BUFFERS) in a transaction it
// rolls back, and returns the plan as JSON.
func (db *DB) ExplainRecipientsForTest(ctx context.Context, actor assess.Actor, ev assess.NewEvent) ([]byte, error) {
	typ, ok := assess.LookupEventType(ev.Type)
	if !ok {
		return nil, errors.New("unknown event type")
	}
	var plan []byte
	err := db.Change(ctx, actor, func(tx *Tx) error {
		se, insert, err := db.newEvent(ctx, tx, actor, ev)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, insert.sql, insert.args...); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "SET LOCAL plan_cache_mode = force_generic_plan"); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "PREPARE explained_recipients AS "+recipientsSQL); err != nil {
			return err
		}
		args := recipientsArgs(se, typ, filterKeys(se.Type))
		placeholders := make([]string, len(args))
		for i, a := range args {
			placeholders[i] = "$" + strconv.Itoa(i+1)
			switch v := a.(type) { // the simple protocol knows no types: literals the statement's types accept
			case map[string]string:
				b, _ := json.Marshal(v)
				args[i] = string(b)
			case []string:
				b, _ := json.Marshal(v)
				args[i] = "{" + strings.Trim(string(b), "[]") + "}"
			}
		}
		if err := tx.QueryRow(ctx, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE explained_recipients("+strings.Join(placeholders, ", ")+")",
			append([]any{pgx.QueryExecModeSimpleProtocol}, args...)...).Scan(&plan); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DEALLOCATE explained_recipients"); err != nil {
			return err
		}
		return errRollBack
	})
	if errors.Is(err, errRollBack) {
		err = nil
	}
	return plan, err
}
