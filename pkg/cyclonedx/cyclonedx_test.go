package cyclonedx

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/cyclonedx/cdxtest"
)

func standardFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join(cdxtest.SharedData(t), "standards", "*", "*.cdx.json"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(cdxtest.SharedData(t), "standards", "*", "*", "*.cdx.json"))
	files = append(files, more...)
	slices.Sort(files)
	if len(files) < 10 {
		t.Fatalf("found only %d standard documents", len(files))
	}
	return files
}

// TestSchemasAreTheOfficialOnes proves the embedded schemas are the published ones: the
// bom, JSF and cryptography schemas equal the copies in the shared data byte for byte.
// The SPDX licence list is the one the npm package ships, which may be newer.
func TestSchemasAreTheOfficialOnes(t *testing.T) {
	for _, name := range []string{"bom-1.6.schema.json", "bom-1.7.schema.json", "jsf-0.82.schema.json", "cryptography-defs.schema.json", "spdx.schema.json"} {
		ours, err := SchemaFile(name)
		if err != nil {
			t.Fatal(err)
		}
		official, err := os.ReadFile(filepath.Join(cdxtest.SharedData(t), "cyclonedx", "schema", name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "spdx.schema.json" {
			if !json.Valid(ours) || !bytes.Contains(ours, []byte(`"$id": "http://cyclonedx.org/schema/spdx.schema.json"`)) {
				t.Errorf("%s is not the SPDX licence list schema", name)
			}
			continue
		}
		if !bytes.Equal(ours, official) {
			t.Errorf("%s differs from the official schema", name)
		}
	}
}

func TestExamplesValidate(t *testing.T) {
	for _, name := range []string{"valid-standard-1.6.json", "valid-standard-1.7.json"} {
		raw, err := os.ReadFile(filepath.Join(cdxtest.SharedData(t), "cyclonedx", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) == 0 || len(got[0].Requirements) == 0 {
			t.Errorf("%s: nothing parsed: %+v", name, got)
		}
	}
}

// shape is what a round trip keeps: identifiers, names, descriptions, the tree and levels.
type shape struct {
	Name, Version string
	Reqs          map[string][3]string // identifier → name, description, parent identifier
	Levels        map[string][]string  // level identifier → sorted requirement identifiers
}

func shapeOf(s assess.StandardImport) shape {
	out := shape{Name: s.Name, Version: s.StandardVersion, Reqs: map[string][3]string{}, Levels: map[string][]string{}}
	for _, r := range s.Requirements {
		out.Reqs[r.Identifier] = [3]string{r.Name, r.Description, r.Parent}
	}
	for _, l := range s.Levels {
		m := slices.Clone(l.Requirements)
		slices.Sort(m)
		out.Levels[l.Identifier] = m
	}
	return out
}

// contentOf turns a parsed import into what the store would read back.
func contentOf(s assess.StandardImport) assess.StandardContent {
	c := assess.StandardContent{Standard: assess.Standard{ID: "st_x", Identifier: s.Identifier, StandardVersion: s.StandardVersion,
		Name: s.Name, Description: s.Description, Owner: s.Owner, BOMRef: s.BOMRef, ExternalReferences: s.ExternalReferences}}
	ids := map[string]string{}
	for i, r := range s.Requirements {
		ids[r.Identifier] = "rq_" + r.Identifier + "_" + string(rune('a'+i%26))
	}
	levelsOf := map[string][]string{}
	for _, l := range s.Levels {
		c.Levels = append(c.Levels, assess.Level{ID: "lv_" + l.Identifier, Identifier: l.Identifier, Title: l.Title, Description: l.Description, BOMRef: l.BOMRef})
		for _, m := range l.Requirements {
			levelsOf[m] = append(levelsOf[m], "lv_"+l.Identifier)
		}
	}
	for _, r := range s.Requirements {
		c.Requirements = append(c.Requirements, assess.Requirement{ID: ids[r.Identifier], ParentID: ids[r.Parent], Identifier: r.Identifier,
			Name: r.Name, Description: r.Description, BOMRef: r.BOMRef, OpenCRE: r.OpenCRE, ExternalReferences: r.ExternalReferences,
			Properties: r.Properties, Levels: levelsOf[r.Identifier]})
	}
	return c
}

// TestRoundTripWithoutStore parses every catalogue document and builds it again as 1.6
// and 1.7: the result is schema-valid and parses to the same shape.
func TestRoundTripWithoutStore(t *testing.T) {
	for _, file := range standardFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			in, err := Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			for _, spec := range SpecVersions {
				var contents []assess.StandardContent
				for _, s := range in {
					contents = append(contents, contentOf(s))
				}
				out, err := Build(spec, contents, time.Now())
				if err != nil {
					t.Fatalf("%s: %v", spec, err)
				}
				again, err := Parse(out)
				if err != nil {
					t.Fatalf("%s: %v", spec, err)
				}
				for i := range in {
					a, b := shapeOf(in[i]), shapeOf(again[i])
					ja, _ := json.Marshal(a)
					jb, _ := json.Marshal(b)
					if !bytes.Equal(ja, jb) {
						t.Errorf("%s: shape differs after the round trip", spec)
					}
					if in[i].Identifier != again[i].Identifier {
						t.Errorf("identifier %q became %q", in[i].Identifier, again[i].Identifier)
					}
				}
			}
		})
	}
}

func TestParseRefusals(t *testing.T) {
	valid, err := os.ReadFile(filepath.Join(cdxtest.SharedData(t), "cyclonedx", "examples", "valid-standard-1.6.json"))
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(valid, []byte(`"identifier": "v1.1",`), []byte(`"identifier": "v1.1", "colour": "red",`), 1)
	cases := []struct {
		name, doc, code, field string
	}{
		{"not json", "this is not json", "invalid_json", "/"},
		{"nul bytes", "{\"bomFormat\":\"CycloneDX\"\x00}", "invalid_json", "/"},
		{"array", "[1,2]", "not_cyclonedx", "/bomFormat"},
		{"other json", `{"hello":"world"}`, "not_cyclonedx", "/bomFormat"},
		{"old spec", `{"bomFormat":"CycloneDX","specVersion":"1.5"}`, "unsupported_spec_version", "/specVersion"},
		{"schema", string(broken), "schema_invalid", "/definitions/standards/0/requirements/1"},
		{"no standards", `{"bomFormat":"CycloneDX","specVersion":"1.6","version":1}`, "no_standards", "/definitions/standards"},
		{"nul in text", `{"bomFormat":"CycloneDX","specVersion":"1.6","definitions":{"standards":[{"bom-ref":"s","name":"X\u0000"}]}}`, "nul_character", "/definitions/standards/0/name"},
		{"direction override in text", `{"bomFormat":"CycloneDX","specVersion":"1.6","definitions":{"standards":[{"bom-ref":"s","name":"X",
			"requirements":[{"bom-ref":"a","identifier":"A","title":"report \u202egnp.exe"}]}]}}`, "bidi_override", "/definitions/standards/0/requirements/0/title"},
		{"cycle", `{"bomFormat":"CycloneDX","specVersion":"1.6","definitions":{"standards":[{"bom-ref":"s","name":"X","requirements":[
			{"bom-ref":"a","identifier":"A","parent":"b"},{"bom-ref":"b","identifier":"B","parent":"a"}]}]}}`, "cycle", "/definitions/standards/0/requirements"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.doc))
			var ae *assess.Error
			if !errors.As(err, &ae) || ae.Code != assess.ECodeBusinessRule {
				t.Fatalf("got %v, want a business rule violation", err)
			}
			for _, d := range ae.Details {
				if d.Code == c.code && d.Field == c.field {
					return
				}
			}
			t.Errorf("details %+v do not name %s at %s", ae.Details, c.code, c.field)
		})
	}
}

// TestParseSaysAFileOfAnotherKindIsNotCycloneDX: a text file uploaded for import is
// refused in words (issue 26 item 8), not with the JSON parser's error alone.
func TestParseSaysAFileOfAnotherKindIsNotCycloneDX(t *testing.T) {
	_, err := Parse([]byte("hello, this is a text file\n"))
	var ae *assess.Error
	if !errors.As(err, &ae) || ae.Code != assess.ECodeBusinessRule {
		t.Fatalf("got %v, want a business rule violation", err)
	}
	const want = "The file is not a CycloneDX JSON document: it is not JSON (invalid character 'h' looking for beginning of value at byte 1)."
	if ae.Message != want || len(ae.Details) != 1 || ae.Details[0].Message != want {
		t.Errorf("message %q, details %+v; want %q", ae.Message, ae.Details, want)
	}
}

// TestParseReadsAStandardSavedWithAByteOrderMark: editors on Windows save UTF-8 with a byte
// order mark, which RFC 8259 lets a parser ignore; a standard (unsigned) imports as without.
func TestParseReadsAStandardSavedWithAByteOrderMark(t *testing.T) {
	const doc = `{"bomFormat":"CycloneDX","specVersion":"1.6","definitions":{"standards":[{"bom-ref":"s","name":"Demo","version":"1",
	"requirements":[{"bom-ref":"a","identifier":"A","title":"Ä"}]}]}}`
	plain, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	marked, err := Parse(append([]byte("\xef\xbb\xbf"), doc...))
	if err != nil {
		t.Fatalf("with a byte order mark: %v", err)
	}
	if !equalJSON(plain, marked) {
		t.Errorf("with a byte order mark %+v, without %+v", marked, plain)
	}
}

func TestRepairs(t *testing.T) {
	doc := `{"bomFormat":"CycloneDX","specVersion":"1.6","definitions":{"standards":[{"bom-ref":"s","name":"Demo (D) Standard","version":"1",
	"requirements":[{"bom-ref":"c","identifier":"C","parent":"a"},{"bom-ref":"a","title":"A"},{"bom-ref":"a","title":"A again"},{"bom-ref":"x","identifier":"X","parent":"gone"}],
	"levels":[{"bom-ref":"l1","identifier":"L1","requirements":["a","c","nope"]}]}]}}`
	got, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	s := got[0]
	if s.Identifier != "demo-d-standard" {
		t.Errorf("identifier %q", s.Identifier)
	}
	want := map[string][3]string{"C": {"", "", "a"}, "a": {"A", "", ""}, "a-2": {"A again", "", ""}, "X": {"", "", ""}}
	if g := shapeOf(s).Reqs; !equalJSON(g, want) {
		t.Errorf("requirements %v, want %v", g, want)
	}
	if g := shapeOf(s).Levels["L1"]; !slices.Equal(g, []string{"C", "a"}) {
		t.Errorf("level L1 %v", g)
	}
	if len(s.Warnings) != 3 {
		t.Errorf("warnings %q", s.Warnings)
	}
}

func equalJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func TestParseFeed(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(cdxtest.SharedData(t), "standards", "feed.json"))
	if err != nil {
		t.Fatal(err)
	}
	items, err := ParseFeed("feed", raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) < 10 {
		t.Fatalf("%d items", len(items))
	}
	for _, it := range items {
		if it.Version == "" || !strings.HasSuffix(it.URL, ".cdx.json") || it.Identifier != assess.StandardIdentifier(it.Title) {
			t.Errorf("item %+v", it)
		}
	}
}
