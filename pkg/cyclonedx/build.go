package cyclonedx

import (
	"cmp"
	"crypto/rand"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// MediaType is the media type of a CycloneDX JSON document.
const MediaType = "application/vnd.cyclonedx+json"

// Build writes a CycloneDX document of spec version spec (1.6 or 1.7) holding the given
// standards in definitions.standards, and checks it against the official schema before
// returning it: an invalid result is an error (ours, never the caller's).
func Build(spec string, contents []assess.StandardContent, now time.Time) ([]byte, error) {
	if !slices.Contains(SpecVersions, spec) {
		return nil, fmt.Errorf("cyclonedx: spec version %q is not supported", spec)
	}
	doc := document{
		Schema: schemaBase + "bom-" + spec + ".schema.json", BOMFormat: "CycloneDX", SpecVersion: spec,
		SerialNumber: "urn:uuid:" + newUUID(), Version: 1,
		Metadata:    &metadata{Timestamp: now.UTC().Format(time.RFC3339)},
		Definitions: &definitions{Standards: make([]standard, 0, len(contents))},
	}
	refs := map[string]bool{} // bom-refs must be unique in the whole document
	for _, c := range contents {
		doc.Definitions.Standards = append(doc.Definitions.Standards, toDocument(c, refs))
	}
	return encodeValid(doc, spec)
}

// toDocument maps a standard to CycloneDX, the inverse of fromDocument.
func toDocument(c assess.StandardContent, refs map[string]bool) standard {
	st := c.Standard
	s := standard{
		BOMRef: uniqueRef(cmp.Or(st.BOMRef, st.Identifier+"@"+st.StandardVersion), refs),
		Name:   st.Name, Version: st.StandardVersion, Description: st.Description, Owner: st.Owner,
		ExternalReferences: nilIfEmpty(st.ExternalReferences),
	}
	refOf := make(map[string]string, len(c.Requirements)) // requirement id → bom-ref
	for _, r := range c.Requirements {
		refOf[r.ID] = uniqueRef(cmp.Or(r.BOMRef, r.Identifier), refs)
	}
	for _, r := range c.Requirements {
		out := requirement{BOMRef: refOf[r.ID], Identifier: r.Identifier, Title: r.Name, Text: r.Description,
			OpenCRE: nilIfEmpty(r.OpenCRE), Parent: refOf[r.ParentID], ExternalReferences: nilIfEmpty(r.ExternalReferences)}
		for _, p := range r.Properties {
			if p.Name == DescriptionProperty {
				out.Descriptions = append(out.Descriptions, p.Value)
			} else {
				out.Properties = append(out.Properties, p)
			}
		}
		s.Requirements = append(s.Requirements, out)
	}
	members := map[string][]string{} // level id → bom-refs, in tree order
	for _, r := range c.Requirements {
		for _, lv := range r.Levels {
			members[lv] = append(members[lv], refOf[r.ID])
		}
	}
	for _, l := range c.Levels {
		s.Levels = append(s.Levels, level{BOMRef: uniqueRef(cmp.Or(l.BOMRef, "level-"+l.Identifier), refs),
			Identifier: l.Identifier, Title: l.Title, Description: l.Description, Requirements: members[l.ID]})
	}
	return s
}

// uniqueRef returns ref, or ref-2, ref-3, … when it is taken, and marks it taken.
func uniqueRef(ref string, taken map[string]bool) string {
	if taken[ref] {
		for n := 2; ; n++ {
			if c := ref + "-" + strconv.Itoa(n); !taken[c] {
				ref = c
				break
			}
		}
	}
	taken[ref] = true
	return ref
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := fmt.Sprintf("%x", b[:])
	return strings.Join([]string{h[:8], h[8:12], h[12:16], h[16:20], h[20:]}, "-")
}
