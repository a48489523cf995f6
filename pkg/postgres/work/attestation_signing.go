package work

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"

	_ "image/jpeg" // electronic signature images may be JPEG

	_ "golang.org/x/image/webp"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/cyclonedx"
	"github.com/assay-dev/assay/pkg/jsf"
	"github.com/assay-dev/assay/pkg/postgres"
)

// The signing of attestations (docs/attestations.md): the store keeps the exact bytes of
// the document in attestations.document and changes them only through pkg/attest, in
// the transaction that holds the attestation's row lock, so that signatures made at the
// same time are applied one after the other to the latest bytes.

// Limits of an electronic signature's image.
const (
	maxSignatureImageBytes  = 512 << 10
	maxSignatureImagePixels = 2000
)

// attestationContent reads everything the statement of attestation t holds.
func (s *AttestationService) attestationContent(ctx context.Context, q postgres.Querier, t assess.Attestation) (assess.AttestationContent, error) {
	c := assess.AttestationContent{Attestation: t, AppURL: s.cfg.AppURL}
	if err := q.QueryRow(ctx, `SELECT en.entity_type, en.description FROM entities en WHERE en.id = $1`, t.EntityID).
		Scan(&c.EntityType, &c.EntityDesc); err != nil {
		return c, err
	}
	var err error
	if c.Requirements, c.RequirementRefs, err = attestationMap(ctx, q, t.ID, t.AssessmentID); err != nil {
		return c, err
	}
	rows, err := q.Query(ctx, claimSelect+" WHERE c.id = ANY ($1::text[]) ORDER BY c.id", t.ClaimIDs)
	if err != nil {
		return c, err
	}
	if c.Claims, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.Claim, error) {
		cl, err := scanClaim(r)
		return showClaim(cl), err
	}); err != nil {
		return c, err
	}
	if c.Evidence, err = attestationEvidence(ctx, q, t.ClaimIDs); err != nil {
		return c, err
	}
	c.Standards, err = attestationStandards(ctx, q, c.Requirements, c.RequirementRefs)
	return c, err
}

// attestationEvidence reads the evidence the claims cite, with their files, by id.
func attestationEvidence(ctx context.Context, q postgres.Querier, claimIDs []string) ([]assess.AttestationEvidence, error) {
	rows, err := q.Query(ctx, `SELECT e.id, e.name, e.description, e.classification,
			coalesce(to_char(e.collected_on, 'YYYY-MM-DD'), ''), coalesce(to_char(e.valid_until, 'YYYY-MM-DD'), ''), e.created_at,
			coalesce(nullif(au.display_name, ''), au.username, ''), coalesce(au.email, ''),
			coalesce(nullif(rv.display_name, ''), rv.username, ''), coalesce(rv.email, ''),
			coalesce((SELECT jsonb_agg(jsonb_build_object('ID', f.id, 'Filename', f.filename, 'ContentType', f.content_type,
				'SHA256', f.sha256, 'Size', f.size_bytes) ORDER BY f.id) FROM evidence_attachments f WHERE f.evidence_id = e.id), '[]'::jsonb)
		FROM evidence e LEFT JOIN users au ON au.id = e.author_id LEFT JOIN users rv ON rv.id = e.reviewer_id
		WHERE e.id IN (SELECT ce.evidence_id FROM claim_evidence ce WHERE ce.claim_id = ANY ($1::text[]))
		ORDER BY e.id`, claimIDs)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.AttestationEvidence, error) {
		var e assess.AttestationEvidence
		err := r.Scan(&e.ID, &e.Name, &e.Description, &e.Classification, &e.CollectedOn, &e.ValidUntil, &e.CreatedAt,
			&e.AuthorName, &e.AuthorEmail, &e.ReviewerName, &e.ReviewerEmail, &e.Files)
		return e, err
	})
}

// attestationStandards reads the standards of the map with the requirements it uses and
// their ancestors, depth first as in the standard.
func attestationStandards(ctx context.Context, q postgres.Querier, items []assess.AttestationRequirement, refs map[string]string) ([]assess.StandardContent, error) {
	used := make([]string, 0, len(refs))
	for _, it := range items {
		used = append(used, refs[it.ID])
	}
	rows, err := q.Query(ctx, `WITH RECURSIVE up AS (
			SELECT r.id, r.parent_id FROM requirements r WHERE r.id = ANY ($1::text[])
			UNION SELECT p.id, p.parent_id FROM requirements p JOIN up ON up.parent_id = p.id
		)
		SELECT s.id, s.name, s.standard_version, s.description, s.owner, s.external_references,
			r.id, r.identifier, r.name, r.description, coalesce(r.parent_id, ''), r.open_cre
		FROM up JOIN requirements r ON r.id = up.id JOIN standards s ON s.id = r.standard_id
		ORDER BY s.id, r.natural_key, r.id`, used)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []assess.StandardContent
	for rows.Next() {
		var st assess.Standard
		var r assess.Requirement
		if err := rows.Scan(&st.ID, &st.Name, &st.StandardVersion, &st.Description, &st.Owner, &st.ExternalReferences,
			&r.ID, &r.Identifier, &r.Name, &r.Description, &r.ParentID, &r.OpenCRE); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].Standard.ID != st.ID {
			out = append(out, assess.StandardContent{Standard: st})
		}
		last := &out[len(out)-1]
		last.Requirements = append(last.Requirements, r)
	}
	return out, rows.Err()
}

// FreezeAttestation implements assess.AttestationService: the first call fixes the
// statement (a serial number, the platform's per-object signatures) and moves the
// attestation to signing; later calls return the stored document.
func (s *AttestationService) FreezeAttestation(ctx context.Context, id string, actor assess.Actor) (assess.AttestationDocument, error) {
	var doc assess.AttestationDocument
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		_, state, err := visibleAttestation(ctx, tx, tx.Actor, id, true)
		if err != nil {
			return err
		}
		if state == assess.AttestationDraft {
			if err := mayFreeze(ctx, tx, id); err != nil {
				return err
			}
			if err := s.freeze(ctx, tx, id); err != nil {
				return err
			}
		}
		doc, err = storedDocument(ctx, tx, id)
		return err
	})
	return doc, reportInvalid(ctx, s.db, actor, err)
}

// mayFreeze lets the actor freeze a draft when they could sign one of its slots (pinned to
// them, or open) or manage its affirmation: someone else fetching the statement would end
// the editing of the draft for no signature.
func mayFreeze(ctx context.Context, tx *postgres.Tx, id string) error {
	if tx.Actor.Can(assess.PermAffirmationsManage) {
		return nil
	}
	var can bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM attestation_signatories WHERE attestation_id = $1
		AND signed_at IS NULL AND (user_id IS NULL OR user_id = $2))`, id, tx.Actor.ID).Scan(&can); err != nil {
		return err
	}
	if !can {
		return &assess.Error{Code: assess.ECodePermissionDenied, Message: "No signatory slot of this attestation is yours to sign.",
			Details: []assess.Detail{{Field: "slot", Code: "slot_pinned"}}}
	}
	return nil
}

// freeze builds, validates and signs the statement of draft id and stores it.
func (s *AttestationService) freeze(ctx context.Context, tx *postgres.Tx, id string) error {
	t, err := storedAttestation(ctx, tx, id)
	if err != nil {
		return err
	}
	if len(t.Signatories) == 0 {
		return assess.ErrNoSlots
	}
	content, err := s.attestationContent(ctx, tx, t)
	if err != nil {
		return err
	}
	serial := "urn:uuid:" + newUUID()
	statement, err := cyclonedx.BuildAttestation(cyclonedx.AttestationSpec, content, serial, tx.Now, s.cfg.ToolVersion)
	if err != nil {
		return &invalidDocument{id: id, err: err} // ours: the statement must keep to the schema
	}
	signer, _, err := platformSigner(ctx, s.db, tx)
	if err != nil {
		return err
	}
	frozen, err := attest.Freeze(statement, signer)
	if err != nil {
		return err
	}
	// The validity is the one a draft shows as projectedValidUntil (citedValidUntilSQL).
	if _, err := tx.Exec(ctx, `UPDATE attestations t SET state = 'signing', serial_number = $2, document = $3, frozen_at = $4,
		valid_until = `+citedValidUntilSQL+` WHERE t.id = $1`, id, serial, frozen, tx.Now); err != nil {
		return err
	}
	if err := tx.BumpVersion(ctx, "attestations", id); err != nil {
		return err
	}
	return recordAttestation(ctx, tx, assess.ChangeAffirmationFrozen, id, map[string]any{"serialNumber": serial}, "", nil)
}

// invalidDocument is a document of ours that breaks the CycloneDX schema: a bug, never
// served (reportInvalid).
type invalidDocument struct {
	id  string
	err error
}

func (e *invalidDocument) Error() string { return "attestation " + e.id + ": " + e.err.Error() }

// reportInvalid turns an invalidDocument into 500 export_invalid and records the problem
// in the audit log, in a transaction of its own (the change that found it rolled back).
func reportInvalid(ctx context.Context, db *postgres.DB, actor assess.Actor, err error) error {
	var inv *invalidDocument
	if !errors.As(err, &inv) {
		return err
	}
	if rerr := db.Change(context.WithoutCancel(ctx), actor, func(tx *postgres.Tx) error {
		return tx.Record(ctx, assess.ChangeAttestationExportInvalid, postgres.Target{Type: "attestation", ID: inv.id},
			map[string]any{"problem": inv.err.Error()}, assess.NewEvent{})
	}); rerr != nil {
		return errors.Join(err, rerr)
	}
	return &assess.Error{Code: assess.ECodeExportInvalid, Message: "The attestation's CycloneDX document does not satisfy the " +
		"official schema. This is a fault of the service; it was recorded in the audit log and nothing was served."}
}

// storedDocument reads the stored document of attestation id.
func storedDocument(ctx context.Context, q postgres.Querier, id string) (assess.AttestationDocument, error) {
	var d assess.AttestationDocument
	var state assess.AttestationState
	err := q.QueryRow(ctx, "SELECT document, state FROM attestations WHERE id = $1", id).Scan(&d.Bytes, &state)
	if errors.Is(err, pgx.ErrNoRows) {
		return d, errAttestationNotFound
	}
	if d.Bytes == nil {
		return d, &assess.Error{Code: assess.ECodeConflict, Message: "The attestation is a draft: it has no signed document yet.",
			Details: []assess.Detail{{Field: "state", Code: "draft"}}}
	}
	d.Sealed = state == assess.AttestationSealed || state == assess.AttestationRescinded
	d.Filename = id + ".cdx.json"
	if state == assess.AttestationImported {
		d.SpecVersion = cyclonedx.SpecOf(d.Bytes)
	}
	return d, err
}

// AttestationDocument implements assess.AttestationService.
func (s *AttestationService) AttestationDocument(ctx context.Context, id string, actor assess.Actor) (assess.AttestationDocument, error) {
	if _, _, err := visibleAttestation(ctx, s.db.Pool, actor, id, false); err != nil {
		return assess.AttestationDocument{}, postgres.DBError(err)
	}
	d, err := storedDocument(ctx, s.db.Pool, id)
	return d, postgres.DBError(err)
}

// ExportAttestation implements assess.AttestationService.
func (s *AttestationService) ExportAttestation(ctx context.Context, id, spec string, actor assess.Actor) (assess.AttestationDocument, error) {
	if _, _, err := visibleAttestation(ctx, s.db.Pool, actor, id, false); err != nil {
		return assess.AttestationDocument{}, postgres.DBError(err)
	}
	var out assess.AttestationDocument
	tx, err := s.db.Pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return out, postgres.DBError(err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	err = func() error {
		t, err := storedAttestation(ctx, tx, id)
		if err != nil {
			return err
		}
		if t.State == assess.AttestationImported || spec == cyclonedx.AttestationSpec && t.State != assess.AttestationDraft {
			// An imported document is served as it came, in its own spec version.
			out, err = storedDocument(ctx, tx, id)
			return err
		}
		content, err := s.attestationContent(ctx, tx, t)
		if err != nil {
			return err
		}
		content.Unsigned = "Unsigned: a draft's statement is not signed before it is frozen."
		serial := "urn:uuid:" + newUUID()
		if t.State != assess.AttestationDraft {
			content.Unsigned = "Unsigned: the signatures cover the CycloneDX " + cyclonedx.AttestationSpec +
				" document (serial number " + t.SerialNumber + "); export that one to verify them."
		}
		data, err := cyclonedx.BuildAttestation(spec, content, serial, s.db.Now(), s.cfg.ToolVersion)
		if err != nil {
			return &invalidDocument{id: id, err: err}
		}
		out = assess.AttestationDocument{Bytes: data, Filename: id + "-cdx-" + spec + "-unsigned.json"}
		return nil
	}()
	return out, reportInvalid(ctx, s.db, actor, postgres.DBError(err))
}

// SealedDocuments implements assess.AttestationService.
func (s *AttestationService) SealedDocuments(ctx context.Context, scopeID string, actor assess.Actor) ([]assess.AttestationDocument, error) {
	var args postgres.SQLArgs
	sql := "SELECT t.id, t.document FROM attestations t JOIN assessments a ON a.id = t.assessment_id WHERE t.state = 'sealed'"
	switch {
	case assess.ValidID(assess.PrefixAssessment, scopeID):
		if _, err := postgres.VisibleAssessmentState(ctx, s.db.Pool, actor, scopeID, false); err != nil {
			return nil, postgres.DBError(err)
		}
		sql += " AND t.assessment_id = " + args.Add(scopeID)
	case assess.ValidID(assess.PrefixProject, scopeID):
		var exists bool
		if err := s.db.Pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM projects WHERE id = $1)", scopeID).Scan(&exists); err != nil || !exists {
			return nil, postgres.DBError(postgres.CmpErr(err, &assess.Error{Code: assess.ECodeNotFound, Message: "Project not found."}))
		}
		sql += " AND a.project_id = " + args.Add(scopeID)
	default:
		return nil, &assess.Error{Code: assess.ECodeNotFound, Message: "Not found."}
	}
	if cond := postgres.AssessmentVisibleSQL(actor, "t.assessment_id", args.Add); cond != "" {
		sql += " AND " + cond
	}
	rows, err := s.db.Pool.Query(ctx, sql+" ORDER BY t.id", args...)
	if err != nil {
		return nil, postgres.DBError(err)
	}
	docs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.AttestationDocument, error) {
		var id string
		d := assess.AttestationDocument{Sealed: true}
		err := r.Scan(&id, &d.Bytes)
		d.Filename = id + ".cdx.json"
		return d, err
	})
	return docs, postgres.DBError(err)
}

// AttestationFiles implements assess.AttestationService: the files of the evidence the
// chosen claims cite (locked since the freeze, so the document binds exactly these).
func (s *AttestationService) AttestationFiles(ctx context.Context, id string, actor assess.Actor) ([]assess.AttestationFileRef, error) {
	if _, _, err := visibleAttestation(ctx, s.db.Pool, actor, id, false); err != nil {
		return nil, postgres.DBError(err)
	}
	rows, err := s.db.Pool.Query(ctx, `SELECT DISTINCT f.evidence_id, f.id, f.filename, f.content_type, f.sha256, f.size_bytes
		FROM attestation_claims ac JOIN claim_evidence ce ON ce.claim_id = ac.claim_id
		JOIN evidence_attachments f ON f.evidence_id = ce.evidence_id
		WHERE ac.attestation_id = $1 ORDER BY f.id`, id)
	if err != nil {
		return nil, postgres.DBError(err)
	}
	files, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.AttestationFileRef, error) {
		var f assess.AttestationFileRef
		return f, r.Scan(&f.EvidenceID, &f.ID, &f.Filename, &f.ContentType, &f.SHA256, &f.Size)
	})
	return files, postgres.DBError(err)
}

// lockForRequest starts a change of attestation id asked for by request r: r must be
// valid (Validate normalises it in place), and the attestation is locked for the
// transaction's actor (404 unless they may see it). It returns the attestation's state.
func lockForRequest(ctx context.Context, tx *postgres.Tx, id string, r interface{ Validate() error }) (assess.AttestationState, error) {
	if err := r.Validate(); err != nil {
		return "", err
	}
	_, state, err := visibleAttestation(ctx, tx, tx.Actor, id, true)
	return state, err
}

// Sign implements assess.AttestationService: freezes a draft first, checks the slot
// (unsigned; pinned to the actor or open), applies the signature through pkg/attest and
// records who signed; when it was the last slot, the creator hears it is ready to seal.
func (s *AttestationService) Sign(ctx context.Context, id, slotID string, r assess.SignRequest, actor assess.Actor) (assess.Attestation, error) {
	var out assess.Attestation
	if err := s.confirmHeldKeyPassword(ctx, &r, actor); err != nil {
		return out, err
	}
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		state, err := lockForRequest(ctx, tx, id, &r)
		if err != nil {
			return err
		}
		switch state {
		case assess.AttestationDraft:
			if err := s.freeze(ctx, tx, id); err != nil {
				return err
			}
		case assess.AttestationSigning:
		default:
			return assess.ErrAttestationNotSigning
		}
		slot, err := lockSlot(ctx, tx, id, slotID)
		if err != nil {
			return err
		}
		if err := applySignature(ctx, s.db, tx, id, slot, r); err != nil {
			return err
		}
		details := map[string]any{"slot": slotID, "kind": r.Kind}
		if r.Kind == assess.SignatureDigital && r.Digital.HeldKeyID != "" {
			details["heldKeyId"] = r.Digital.HeldKeyID
		}
		if err := recordAttestation(ctx, tx, assess.ChangeAffirmationSigned, id, details, "", &out); err != nil {
			return err
		}
		for _, sg := range out.Signatories {
			if sg.SignedAt == nil {
				return nil
			}
		}
		return recordAttestation(ctx, tx, assess.ChangeAffirmationSealReady, id, nil, out.CreatedBy.ID, &out)
	})
	return out, reportInvalid(ctx, s.db, actor, err)
}

// slotRow is what signing needs of a slot.
type slotRow struct {
	ID, Title, Organization, UserID string
	Signed                          bool
}

// lockSlot locks slot slotID of attestation id and checks that the actor may sign it.
func lockSlot(ctx context.Context, tx *postgres.Tx, id, slotID string) (slotRow, error) {
	var s slotRow
	err := tx.QueryRow(ctx, `SELECT id, title, organization, coalesce(user_id, ''), signed_at IS NOT NULL
		FROM attestation_signatories WHERE id = $1 AND attestation_id = $2 FOR UPDATE`, slotID, id).
		Scan(&s.ID, &s.Title, &s.Organization, &s.UserID, &s.Signed)
	if errors.Is(err, pgx.ErrNoRows) {
		return s, &assess.Error{Code: assess.ECodeNotFound, Message: "Signatory slot not found."}
	}
	switch {
	case err != nil:
		return s, err
	case s.Signed:
		return s, assess.ErrSlotSigned
	case s.UserID != "" && s.UserID != tx.Actor.ID:
		return s, assess.ErrSlotPinned
	}
	return s, nil
}

// applySignature adds the signature to the stored document and records it on the slot.
func applySignature(ctx context.Context, db *postgres.DB, tx *postgres.Tx, id string, slot slotRow, r assess.SignRequest) error {
	doc, err := storedDocument(ctx, tx, id)
	if err != nil {
		return err
	}
	var name string
	if err := tx.QueryRow(ctx, "SELECT coalesce(nullif(display_name, ''), username) FROM users WHERE id = $1", tx.Actor.ID).Scan(&name); err != nil {
		return err
	}
	who := attest.Signatory{SlotURN: cyclonedx.SignatoryURN(slot.ID), Name: name, Role: slot.Title, Organization: slot.Organization, SignedAt: tx.Now}
	var next []byte
	var image []byte
	var signer, keyID any
	switch r.Kind {
	case assess.SignatureElectronic:
		e := r.Electronic
		who.Name = e.Name
		if e.Role != "" {
			who.Role = e.Role
		}
		if e.Organization != "" {
			who.Organization = e.Organization
		}
		switch {
		case e.UseProfileImage:
			err := tx.QueryRow(ctx, "SELECT png FROM user_signature_images WHERE user_id = $1", tx.Actor.ID).Scan(&image)
			if errors.Is(err, pgx.ErrNoRows) {
				return &assess.Error{Code: assess.ECodeBusinessRule, Message: "No signature image is kept on your profile.",
					Details: []assess.Detail{{Field: "electronic.useProfileImage", Code: "no_image"}}}
			}
			if err != nil {
				return err
			}
		case len(e.Image) > 0:
			if image, err = reencodeSignatureImage(e.Image); err != nil {
				return err
			}
		}
		if next, err = attest.AddElectronicSignature(doc.Bytes, who, image); err != nil {
			return err
		}
	case assess.SignatureDigital:
		obj, err := digitalSignerObject(ctx, db, tx, r.Digital, doc.Bytes)
		if err != nil {
			return err
		}
		var jwk jsf.JWK
		next, jwk, err = attest.AddDigitalSignature(doc.Bytes, obj, who)
		if err != nil {
			return assess.ErrBadSignature(err.Error())
		}
		raw, err := jsf.Marshal(obj)
		if err != nil {
			return err
		}
		var kept map[string]any
		if err := json.Unmarshal(raw, &kept); err != nil {
			return err
		}
		signer, keyID = kept, jsf.Thumbprint(jwk)
		if err := recordSigningKey(ctx, tx, jwk, fmt.Sprint(kept["algorithm"])); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(ctx, "UPDATE attestations SET document = $2 WHERE id = $1", id, next); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE attestation_signatories SET kind = $2, signed_by = $3, signed_at = $4, signer_name = $5,
		signer_role = $6, signer_org = $7, image_png = $8, signer = $9, key_id = coalesce($10, '') WHERE id = $1`,
		slot.ID, r.Kind, tx.Actor.ID, tx.Now, who.Name, who.Role, who.Organization, image, signer, keyID)
	return err
}

// digitalSignerObject is the JSF signer object of a digital signature: the one the
// signatory sent, or the one a key the service holds for them makes now.
func digitalSignerObject(ctx context.Context, db *postgres.DB, tx *postgres.Tx, d *assess.DigitalSignature, frozen []byte) (*jsf.Object, error) {
	if d.HeldKeyID != "" {
		return heldKeySignerObject(ctx, db, tx, d.HeldKeyID, frozen)
	}
	raw, err := json.Marshal(d.Signer)
	if err != nil {
		return nil, err
	}
	obj, err := jsf.ParseObject(raw)
	if err != nil {
		return nil, assess.ErrBadSignature(err.Error())
	}
	return obj, nil
}

// recordSigningKey keeps a digital signature's public key on the signer's profile.
func recordSigningKey(ctx context.Context, tx *postgres.Tx, jwk jsf.JWK, algorithm string) error {
	tag, err := tx.Exec(ctx, `INSERT INTO user_signing_keys (id, user_id, label, algorithm, key_id, public_jwk, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, key_id) DO NOTHING`,
		assess.NewID(assess.PrefixSigningKey, tx.Now), tx.Actor.ID, "Key "+jsf.Thumbprint(jwk)[:8], algorithm, jsf.Thumbprint(jwk), jwk, tx.Now)
	if err != nil || tag.RowsAffected() == 0 {
		return err
	}
	return tx.Record(ctx, assess.ChangeSigningKeyRecorded, postgres.Target{Type: "user", ID: tx.Actor.ID}, map[string]any{"keyId": jsf.Thumbprint(jwk)}, assess.NewEvent{})
}

// reencodeSignatureImage decodes a PNG, JPEG or WebP image (at most 512 KiB and
// 2000×2000 pixels) and encodes it again as PNG, so nothing but pixels is kept.
func reencodeSignatureImage(data []byte) ([]byte, error) {
	bad := func(msg string) error {
		return &assess.Error{Code: assess.ECodeValidation, Message: msg,
			Details: []assess.Detail{{Field: "electronic.image", Code: "invalid", Message: msg}}}
	}
	if len(data) > maxSignatureImageBytes {
		return nil, bad("The signature image is larger than 512 KiB.")
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || (format != "png" && format != "jpeg" && format != "webp") {
		return nil, bad("The signature image must be a PNG, JPEG or WebP image.")
	}
	if cfg.Width > maxSignatureImagePixels || cfg.Height > maxSignatureImagePixels || cfg.Width < 1 || cfg.Height < 1 {
		return nil, bad("The signature image must be at most 2000×2000 pixels.")
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, bad("The signature image cannot be read.")
	}
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// Seal implements assess.AttestationService: every slot signed (409 naming the unsigned
// ones), the platform signs the whole document. Concurrent seals serialise on the row
// lock; the second finds the attestation sealed (409).
func (s *AttestationService) Seal(ctx context.Context, id string, actor assess.Actor) (assess.Attestation, error) {
	var out assess.Attestation
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		_, state, err := visibleAttestation(ctx, tx, tx.Actor, id, true)
		if err != nil {
			return err
		}
		if state != assess.AttestationSigning {
			return assess.ErrAttestationNotSigning
		}
		rows, err := tx.Query(ctx, "SELECT title FROM attestation_signatories WHERE attestation_id = $1 AND signed_at IS NULL ORDER BY position", id)
		if err != nil {
			return err
		}
		unsigned, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		if len(unsigned) > 0 {
			return assess.ErrUnsignedSlots(unsigned)
		}
		doc, err := storedDocument(ctx, tx, id)
		if err != nil {
			return err
		}
		signer, key, err := platformSigner(ctx, s.db, tx)
		if err != nil {
			return err
		}
		sealed, err := attest.Seal(doc.Bytes, signer)
		if err != nil {
			return err
		}
		if err := cyclonedx.ValidateBytes(sealed, cyclonedx.AttestationSpec); err != nil {
			return &invalidDocument{id: id, err: err}
		}
		if _, err := tx.Exec(ctx, `UPDATE attestations SET state = 'sealed', document = $2, sealed_at = $3, sealed_by = $4,
			seal_key_id = $5 WHERE id = $1`, id, sealed, tx.Now, postgres.Nullable(userIDOf(tx.Actor)), key.KeyID); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "attestations", id); err != nil {
			return err
		}
		return recordAttestation(ctx, tx, assess.ChangeAffirmationSealed, id, map[string]any{"keyId": key.KeyID}, "", &out)
	})
	return out, reportInvalid(ctx, s.db, actor, err)
}

// Rescind implements assess.AttestationService: a sealed attestation is withdrawn with a
// reason; its document stays as sealed, and the public rescission list names it.
func (s *AttestationService) Rescind(ctx context.Context, id string, r assess.RescindRequest, actor assess.Actor) (assess.Attestation, error) {
	var out assess.Attestation
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		state, err := lockForRequest(ctx, tx, id, &r)
		if err != nil {
			return err
		}
		if state != assess.AttestationSealed {
			return assess.ErrNotSealed
		}
		if _, err := tx.Exec(ctx, `UPDATE attestations SET state = 'rescinded', rescinded_at = $2, rescinded_by = $3, rescind_reason = $4
			WHERE id = $1`, id, tx.Now, postgres.Nullable(userIDOf(tx.Actor)), r.Reason); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "attestations", id); err != nil {
			return err
		}
		var creator string
		if err := tx.QueryRow(ctx, "SELECT coalesce(created_by, '') FROM attestations WHERE id = $1", id).Scan(&creator); err != nil {
			return err
		}
		return recordAttestation(ctx, tx, assess.ChangeAttestationRescinded, id, map[string]any{"reason": r.Reason}, creator, &out)
	})
	return out, err
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

var _ assess.AttestationService = (*AttestationService)(nil)
