package httpapi

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"

	"github.com/assay-dev/assay/pkg/assess"
)

// Every list as CSV (issue 25 item 4; docs/architecture.md, "CSV exports"): GET
// /api/v1/<list>.csv takes the list's filters and sort, and streams every matching row — page
// by page through the same store query as the list, so a million rows never sit in memory and
// the caller gets exactly what the list would show them. RFC 4180, UTF-8 with a byte-order
// mark (spreadsheets then read it as UTF-8), a header row; a cell a spreadsheet would run as a
// formula gets a leading apostrophe (guardCell, as the requirement CSV). The routes are
// declared streams: exempt from the request deadline, each page's query bounded by it instead.

// csvPageSize is how many rows each page query fetches.
const csvPageSize = assess.MaxPageSize

// csvColumn is one column: its header and its cell.
type csvColumn[T any] struct {
	name string
	cell func(T) string
}

// csvListDescription says what every CSV export does, after its own first sentence.
const csvListDescription = " The filters and sort of the list apply; cursor and limit are ignored: every matching row is " +
	"written, streamed page by page. RFC 4180, UTF-8 with a byte-order mark, header row; cells starting like a " +
	"formula (= + - @) get a leading apostrophe."

func csvDoc(id, summary, columns string) huma.Operation {
	return huma.Operation{OperationID: id, Summary: summary, Tags: []string{"CSV exports"},
		Responses:   fileResponse("text/csv", "Columns: "+columns+".", &huma.Schema{Type: huma.TypeString}),
		Description: summary + "." + csvListDescription}
}

// streamCSV answers with every page fetch returns as CSV named filename. The first page is
// read before the answer starts, so a refusal (permission, bad filter) is still a 4xx.
func streamCSV[T any](s *Server, ctx context.Context, filename string, cols []csvColumn[T],
	fetch func(context.Context, assess.PageRequest) (assess.Page[T], error)) (*huma.StreamResponse, error) {
	page, err := csvPage(s, ctx, fetch, "")
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		_, w := humachi.Unwrap(hctx)
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", attachment(filename))
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("\uFEFF"))
		out := csv.NewWriter(w)
		row := make([]string, len(cols))
		for i, c := range cols {
			row[i] = c.name
		}
		_ = out.Write(row)
		for {
			for _, item := range page.Items {
				for i, c := range cols {
					row[i] = guardCell(c.cell(item))
				}
				_ = out.Write(row)
			}
			out.Flush()
			if out.Error() != nil || !page.HasMore || page.NextCursor == "" {
				return // done, or the client went away
			}
			if page, err = csvPage(s, ctx, fetch, page.NextCursor); err != nil {
				// The status is sent; the file ends short, the log says why.
				s.dep.Logger.ErrorContext(ctx, "CSV export", "file", filename, "error", err)
				return
			}
		}
	}}, nil
}

// csvPage reads one page within the request timeout of its own (the stream as a whole has
// none, its length depending on the client's link).
func csvPage[T any](s *Server, ctx context.Context, fetch func(context.Context, assess.PageRequest) (assess.Page[T], error), cursor string) (assess.Page[T], error) {
	if d := s.cfg.RequestTimeout; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	return fetch(ctx, assess.PageRequest{Cursor: cursor, Limit: csvPageSize})
}

func csvTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func csvTimePtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return csvTime(*t)
}

func csvScore(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', 2, 64)
}

func csvTags(tags []assess.TagRef) string {
	names := make([]string, len(tags))
	for i, t := range tags {
		names[i] = t.Name
	}
	return strings.Join(names, "; ")
}

func csvUser(u *assess.UserRef) string {
	if u == nil {
		return ""
	}
	if u.DisplayName != "" {
		return u.DisplayName
	}
	return u.Username
}

func csvUsers(us []assess.UserRef) string {
	names := make([]string, len(us))
	for i := range us {
		names[i] = csvUser(&us[i])
	}
	return strings.Join(names, "; ")
}

var docAssessmentCSV = csvDoc("exportAssessmentsCSV", "The assessments list as CSV",
	"id, title, state, entity, project, standards, due date, overdue, progress, score, assessors, assessees, tags, started, ended, created")

var assessmentColumns = []csvColumn[assess.Assessment]{
	{"id", func(a assess.Assessment) string { return a.ID }},
	{"title", func(a assess.Assessment) string { return a.Title }},
	{"state", func(a assess.Assessment) string { return string(a.State) }},
	{"entity", func(a assess.Assessment) string { return a.EntityName }},
	{"project", func(a assess.Assessment) string { return a.ProjectName }},
	{"standards", func(a assess.Assessment) string {
		names := make([]string, len(a.Standards))
		for i, st := range a.Standards {
			names[i] = strings.TrimSpace(st.Name + " " + st.StandardVersion + " " + st.LevelName)
		}
		return strings.Join(names, "; ")
	}},
	{"due_date", func(a assess.Assessment) string { return a.DueDate }},
	{"overdue", func(a assess.Assessment) string { return strconv.FormatBool(a.Overdue) }},
	{"answered", func(a assess.Assessment) string { return strconv.Itoa(a.Progress.Answered) }},
	{"requirements", func(a assess.Assessment) string { return strconv.Itoa(a.Progress.Total) }},
	{"score", func(a assess.Assessment) string { return csvScore(a.ConformanceScore) }},
	{"assessors", func(a assess.Assessment) string { return csvUsers(a.Assessors) }},
	{"assessees", func(a assess.Assessment) string { return csvUsers(a.Assessees) }},
	{"tags", func(a assess.Assessment) string { return csvTags(a.Tags) }},
	{"started_at", func(a assess.Assessment) string { return csvTimePtr(a.StartedAt) }},
	{"ended_at", func(a assess.Assessment) string { return csvTimePtr(a.EndedAt) }},
	{"created_at", func(a assess.Assessment) string { return csvTime(a.CreatedAt) }},
}

func (s *Server) handleAssessmentCSV(ctx context.Context, in *assess.AssessmentFilter) (*huma.StreamResponse, error) {
	actor := requestActor(ctx)
	return streamCSV(s, ctx, "assessments.csv", assessmentColumns, func(ctx context.Context, p assess.PageRequest) (assess.Page[assess.Assessment], error) {
		f := *in
		f.PageRequest = p
		return s.dep.Assessments.FindAssessments(ctx, f, actor)
	})
}

var docEvidenceCSV = csvDoc("exportEvidenceCSV", "The evidence list as CSV",
	"id, name, state, classification, counter-evidence, author, reviewer, collected on, valid from, valid until, attachments, assessments, tags, submitted, reviewed, created, updated")

var evidenceColumns = []csvColumn[assess.Evidence]{
	{"id", func(e assess.Evidence) string { return e.ID }},
	{"name", func(e assess.Evidence) string { return e.Name }},
	{"state", func(e assess.Evidence) string { return string(e.State) }},
	{"classification", func(e assess.Evidence) string { return e.Classification }},
	{"counter_evidence", func(e assess.Evidence) string { return strconv.FormatBool(e.IsCounterEvidence) }},
	{"author", func(e assess.Evidence) string { return csvUser(&e.Author) }},
	{"reviewer", func(e assess.Evidence) string { return csvUser(e.Reviewer) }},
	{"collected_on", func(e assess.Evidence) string { return e.CollectedOn }},
	{"valid_from", func(e assess.Evidence) string { return e.ValidFrom }},
	{"valid_until", func(e assess.Evidence) string { return e.ValidUntil }},
	{"attachments", func(e assess.Evidence) string { return strconv.Itoa(e.AttachmentCount) }},
	{"assessments", func(e assess.Evidence) string { return strconv.Itoa(e.AssessmentCount) }},
	{"tags", func(e assess.Evidence) string { return csvTags(e.Tags) }},
	{"submitted_at", func(e assess.Evidence) string { return csvTimePtr(e.SubmittedAt) }},
	{"reviewed_at", func(e assess.Evidence) string { return csvTimePtr(e.ReviewedAt) }},
	{"created_at", func(e assess.Evidence) string { return csvTime(e.CreatedAt) }},
	{"updated_at", func(e assess.Evidence) string { return csvTime(e.UpdatedAt) }},
}

func (s *Server) handleEvidenceCSV(ctx context.Context, in *assess.EvidenceFilter) (*huma.StreamResponse, error) {
	actor := requestActor(ctx)
	return streamCSV(s, ctx, "evidence.csv", evidenceColumns, func(ctx context.Context, p assess.PageRequest) (assess.Page[assess.Evidence], error) {
		f := *in
		f.PageRequest = p
		return s.dep.Evidence.FindEvidenceList(ctx, f, actor)
	})
}

var docAttestationCSV = csvDoc("exportAttestationsCSV", "The attestations list as CSV",
	"id, assessment, entity, state, score, serial number, valid until, signatures, sealed, rescinded, imported from, created")

var attestationColumns = []csvColumn[assess.Attestation]{
	{"id", func(t assess.Attestation) string { return t.ID }},
	{"assessment", func(t assess.Attestation) string { return t.AssessmentTitle }},
	{"entity", func(t assess.Attestation) string { return t.EntityName }},
	{"state", func(t assess.Attestation) string { return string(t.State) }},
	{"score", func(t assess.Attestation) string { return csvScore(t.Score) }},
	{"serial_number", func(t assess.Attestation) string { return t.SerialNumber }},
	{"valid_until", func(t assess.Attestation) string { return t.ValidUntil }},
	{"signatures", func(t assess.Attestation) string {
		signed := 0
		for _, sg := range t.Signatories {
			if sg.SignedAt != nil {
				signed++
			}
		}
		return strconv.Itoa(signed) + "/" + strconv.Itoa(len(t.Signatories))
	}},
	{"sealed_at", func(t assess.Attestation) string { return csvTimePtr(t.SealedAt) }},
	{"rescinded_at", func(t assess.Attestation) string { return csvTimePtr(t.RescindedAt) }},
	{"imported_from", func(t assess.Attestation) string {
		if t.Imported == nil {
			return ""
		}
		return t.Imported.Source
	}},
	{"created_at", func(t assess.Attestation) string { return csvTime(t.CreatedAt) }},
}

func (s *Server) handleAttestationCSV(ctx context.Context, in *assess.AttestationFilter) (*huma.StreamResponse, error) {
	actor := requestActor(ctx)
	return streamCSV(s, ctx, "attestations.csv", attestationColumns, func(ctx context.Context, p assess.PageRequest) (assess.Page[assess.Attestation], error) {
		f := *in
		f.PageRequest = p
		return s.dep.Attestations.FindAttestations(ctx, f, actor)
	})
}

var docStandardCSV = csvDoc("exportStandardsCSV", "The standards list as CSV",
	"id, identifier, version, name, owner, state, source, requirements, levels, tags, approved, created")

var standardColumns = []csvColumn[assess.Standard]{
	{"id", func(st assess.Standard) string { return st.ID }},
	{"identifier", func(st assess.Standard) string { return st.Identifier }},
	{"version", func(st assess.Standard) string { return st.StandardVersion }},
	{"name", func(st assess.Standard) string { return st.Name }},
	{"owner", func(st assess.Standard) string { return st.Owner }},
	{"state", func(st assess.Standard) string { return string(st.State) }},
	{"source", func(st assess.Standard) string { return string(st.Source) }},
	{"requirements", func(st assess.Standard) string { return strconv.Itoa(st.RequirementCount) }},
	{"levels", func(st assess.Standard) string { return strconv.Itoa(st.LevelCount) }},
	{"tags", func(st assess.Standard) string { return csvTags(st.Tags) }},
	{"approved_at", func(st assess.Standard) string { return csvTimePtr(st.ApprovedAt) }},
	{"created_at", func(st assess.Standard) string { return csvTime(st.CreatedAt) }},
}

func (s *Server) handleStandardCSV(ctx context.Context, in *assess.StandardFilter) (*huma.StreamResponse, error) {
	return streamCSV(s, ctx, "standards.csv", standardColumns, func(ctx context.Context, p assess.PageRequest) (assess.Page[assess.Standard], error) {
		f := *in
		f.PageRequest = p
		return s.dep.Standards.FindStandards(ctx, f)
	})
}

var docEntityCSV = csvDoc("exportEntitiesCSV", "The entities list as CSV", "id, name, type, state, owner, description, tags, created")

var entityColumns = []csvColumn[assess.Entity]{
	{"id", func(e assess.Entity) string { return e.ID }},
	{"name", func(e assess.Entity) string { return e.Name }},
	{"type", func(e assess.Entity) string { return string(e.Type) }},
	{"state", func(e assess.Entity) string { return string(e.State) }},
	{"owner", func(e assess.Entity) string { return e.OwnerName }},
	{"description", func(e assess.Entity) string { return e.Description }},
	{"tags", func(e assess.Entity) string { return csvTags(e.Tags) }},
	{"created_at", func(e assess.Entity) string { return csvTime(e.CreatedAt) }},
}

func (s *Server) handleEntityCSV(ctx context.Context, in *assess.EntityFilter) (*huma.StreamResponse, error) {
	return streamCSV(s, ctx, "entities.csv", entityColumns, func(ctx context.Context, p assess.PageRequest) (assess.Page[assess.Entity], error) {
		f := *in
		f.PageRequest = p
		return s.dep.Entities.FindEntities(ctx, f)
	})
}

var docProjectCSV = csvDoc("exportProjectsCSV", "The projects list as CSV", "id, name, state, owner, start date, due date, overdue, standards, entities, tags, archived, created")

var projectColumns = []csvColumn[assess.Project]{
	{"id", func(p assess.Project) string { return p.ID }},
	{"name", func(p assess.Project) string { return p.Name }},
	{"state", func(p assess.Project) string { return string(p.State) }},
	{"owner", func(p assess.Project) string { return p.OwnerName }},
	{"start_date", func(p assess.Project) string { return p.StartDate }},
	{"due_date", func(p assess.Project) string { return p.DueDate }},
	{"overdue", func(p assess.Project) string { return strconv.FormatBool(p.Overdue) }},
	{"standards", func(p assess.Project) string { return strconv.Itoa(len(p.Standards)) }},
	{"entities", func(p assess.Project) string { return strconv.Itoa(len(p.Entities)) }},
	{"tags", func(p assess.Project) string { return csvTags(p.Tags) }},
	{"archived_at", func(p assess.Project) string { return csvTimePtr(p.ArchivedAt) }},
	{"created_at", func(p assess.Project) string { return csvTime(p.CreatedAt) }},
}

func (s *Server) handleProjectCSV(ctx context.Context, in *assess.ProjectFilter) (*huma.StreamResponse, error) {
	return streamCSV(s, ctx, "projects.csv", projectColumns, func(ctx context.Context, p assess.PageRequest) (assess.Page[assess.Project], error) {
		f := *in
		f.PageRequest = p
		return s.dep.Projects.FindProjects(ctx, f)
	})
}

var docAuditCSV = csvDoc("exportAuditCSV", "The audit log as CSV", "id, occurred at, actor, actor name, action, target type, target id, target name, details (JSON), request id, IP")

var auditColumns = []csvColumn[assess.AuditRecord]{
	{"id", func(r assess.AuditRecord) string { return r.ID }},
	{"occurred_at", func(r assess.AuditRecord) string { return csvTime(r.OccurredAt) }},
	{"actor", func(r assess.AuditRecord) string { return r.Actor }},
	{"actor_name", func(r assess.AuditRecord) string { return r.ActorName }},
	{"action", func(r assess.AuditRecord) string { return r.Action }},
	{"target_type", func(r assess.AuditRecord) string { return r.TargetType }},
	{"target_id", func(r assess.AuditRecord) string { return r.TargetID }},
	{"target_name", func(r assess.AuditRecord) string { return r.TargetName }},
	{"details", func(r assess.AuditRecord) string {
		if len(r.Details) == 0 {
			return ""
		}
		b, _ := json.Marshal(r.Details)
		return string(b)
	}},
	{"request_id", func(r assess.AuditRecord) string { return r.RequestID }},
	{"ip", func(r assess.AuditRecord) string { return r.IP }},
}

func (s *Server) handleAuditCSV(ctx context.Context, in *assess.AuditFilter) (*huma.StreamResponse, error) {
	return streamCSV(s, ctx, "audit-log.csv", auditColumns, func(ctx context.Context, p assess.PageRequest) (assess.Page[assess.AuditRecord], error) {
		f := *in
		f.PageRequest = p
		return s.dep.Audit.FindAudit(ctx, f)
	})
}
