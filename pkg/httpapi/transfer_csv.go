package httpapi

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// The CSV form of one requirement tree: a header row, then one row per requirement, depth
// first. Columns: identifier, parent (its identifier, empty at the top), name,
// description, levels (level identifiers joined with ";"). RFC 4180 quoting; a cell that a
// spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage return,
// after any apostrophes) is written with one more leading apostrophe, which import
// removes again.
var csvHeader = []string{"identifier", "parent", "name", "description", "levels"}

var docStandardExportCSV = huma.Operation{OperationID: "exportStandardCSV", Summary: "Export a requirement tree as CSV",
	Tags: tagTransfer, Errors: []int{http.StatusNotFound},
	Responses: fileResponse("text/csv", "identifier, parent, name, description, levels; one row per requirement, depth first.",
		&huma.Schema{Type: huma.TypeString}),
	Description: "The requirement tree as CSV (RFC 4180, UTF-8 with a byte order mark, header row). Cells that spreadsheets would run as " +
		"formulas (starting with = + - @) get a leading apostrophe, which the CSV import removes."}

func (s *Server) handleStandardExportCSV(ctx context.Context, in *idInput) (*fileOutput, error) {
	c, err := s.dep.Transfer.StandardContent(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	levelNames := make(map[string]string, len(c.Levels))
	for _, l := range c.Levels {
		levelNames[l.ID] = l.Identifier
	}
	identOf := make(map[string]string, len(c.Requirements))
	for _, r := range c.Requirements {
		identOf[r.ID] = r.Identifier
	}
	var buf bytes.Buffer
	// A byte order mark first, as the lists' CSV exports write: spreadsheets then read the
	// file as UTF-8 (without it, Excel showed "Ã¤" for "ä"); the import removes it.
	buf.WriteString("\uFEFF")
	w := csv.NewWriter(&buf)
	_ = w.Write(csvHeader)
	for _, r := range c.Requirements {
		levels := make([]string, 0, len(r.Levels))
		for _, id := range r.Levels {
			levels = append(levels, levelNames[id])
		}
		_ = w.Write([]string{guardCell(r.Identifier), guardCell(identOf[r.ParentID]), guardCell(r.Name),
			guardCell(r.Description), guardCell(strings.Join(levels, ";"))})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, err
	}
	return &fileOutput{ContentType: "text/csv; charset=utf-8", CacheControl: "no-store",
		ContentDisposition: attachment(exportName(c.Standard) + ".csv"), Body: buf.Bytes()}, nil
}

// formulaCell reports a cell that, after its leading apostrophes, starts like a formula.
func formulaCell(v string) bool {
	rest := strings.TrimLeft(v, "'")
	return rest != "" && strings.ContainsRune("=+-@\t\r", rune(rest[0]))
}

func guardCell(v string) string {
	if formulaCell(v) {
		return "'" + v
	}
	return v
}

func unguardCell(v string) string {
	if strings.HasPrefix(v, "'") && formulaCell(v) {
		return v[1:]
	}
	return v
}

var docStandardImportCSV = huma.Operation{OperationID: "importStandardCSV", Summary: "Import requirements from CSV",
	Tags: tagTransfer, Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Upserts requirements of a draft standard from a CSV file (part file; the columns of the CSV export, " +
		"header row required; parent and levels may be empty): a row whose identifier exists overwrites its parent, " +
		"name, description and level memberships, other rows are added after their siblings; requirements not in the " +
		"file stay. Parents are identifiers from the file or the standard (422 unknown_parent naming the line " +
		"otherwise); levels not yet defined are created. One transaction. Only drafts: 409 conflict, not_draft."}

// standardCSVInput is the multipart upload of a CSV file for one standard.
type standardCSVInput struct {
	ID string `path:"id" maxLength:"64"`
	Upload
}

func (s *Server) handleStandardImportCSV(ctx context.Context, in *standardCSVInput) (*body[assess.RowImportResult], error) {
	data, err := s.readImportFile(in.File)
	if err != nil {
		return nil, err
	}
	rows, err := parseRequirementCSV(data)
	if err != nil {
		return nil, err
	}
	res, err := s.dep.Transfer.ImportRequirementRows(ctx, in.ID, rows, requestActor(ctx))
	return reply(res), err
}

// csvProblem is the 422 of a file that is not the expected CSV.
func csvProblem(field, code, msg string) error {
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: msg, Details: []assess.Detail{{Field: field, Code: code, Message: msg}}}
}

// parseRequirementCSV reads the rows of a CSV import; columns are found by their header.
func parseRequirementCSV(data []byte) ([]assess.RequirementRow, error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return nil, csvProblem("file", "invalid_csv", "The file is not UTF-8 text.")
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, csvProblem("file", "invalid_csv", "The file has no header row.")
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	if _, ok := col["identifier"]; !ok {
		return nil, csvProblem("file", "invalid_csv", "The header row has no identifier column.")
	}
	var rows []assess.RequirementRow
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, csvReadProblem(err)
		}
		line, _ := r.FieldPos(0)
		if len(rows) == assess.MaxRequirementRows {
			return nil, csvProblem("file", "too_many", fmt.Sprintf("At most %d rows per file.", assess.MaxRequirementRows))
		}
		if strings.TrimSpace(strings.Join(rec, "")) == "" {
			continue // a blank line
		}
		if err := csvCellsFit(rec, len(header), line); err != nil {
			return nil, err
		}
		row := csvRow(col, rec)
		row.Line = line
		rows = append(rows, row)
	}
}

// csvReadProblem is the answer to a record the reader could not read. Its position is not
// to be asked of the reader (FieldPos panics when the record has no field): the error names
// the line.
func csvReadProblem(err error) error {
	line := 0
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		line = pe.StartLine
	}
	return csvProblem(fmt.Sprintf("lines[%d]", line), "invalid_csv", "The file is not valid CSV: "+err.Error()+".")
}

// csvCellsFit refuses a record with a non-empty cell beyond the header's columns: it has
// nowhere to go, and dropping it would lose what the file says (a description with an
// unquoted comma, say) without a word.
func csvCellsFit(rec []string, columns, line int) error {
	if len(rec) <= columns || strings.TrimSpace(strings.Join(rec[columns:], "")) == "" {
		return nil
	}
	return csvProblem(fmt.Sprintf("lines[%d]", line), "invalid_csv", fmt.Sprintf(
		"Line %d has %d cells, more than the header's %d columns: quote a cell that contains a comma.", line, len(rec), columns))
}

// csvRow maps one record to a row by the header's columns.
func csvRow(col map[string]int, rec []string) assess.RequirementRow {
	cell := func(name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return unguardCell(rec[i])
		}
		return ""
	}
	row := assess.RequirementRow{Identifier: strings.TrimSpace(cell("identifier")),
		Parent: strings.TrimSpace(cell("parent")), Name: cell("name"), Description: cell("description")}
	for _, l := range strings.Split(cell("levels"), ";") {
		if l = strings.TrimSpace(l); l != "" {
			row.Levels = append(row.Levels, l)
		}
	}
	return row
}
