package cyclonedx

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestClaimReferenceTypesAreTheSchemaEnum holds the external reference types a claim may
// cite (assess.ExternalReferenceTypes) equal to the externalReference type enum of the
// embedded CycloneDX 1.6 schema.
func TestClaimReferenceTypesAreTheSchemaEnum(t *testing.T) {
	raw, err := SchemaFile("bom-1.6.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Definitions struct {
			ExternalReference struct {
				Properties struct {
					Type struct {
						Enum []string `json:"enum"`
					} `json:"type"`
				} `json:"properties"`
			} `json:"externalReference"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	want := schema.Definitions.ExternalReference.Properties.Type.Enum
	if len(want) < 10 {
		t.Fatalf("the schema's enum was not read: %q", want)
	}
	got := slices.Clone(assess.ExternalReferenceTypes)
	slices.Sort(got)
	want = slices.Clone(want)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("assess.ExternalReferenceTypes = %q,\nthe 1.6 schema's enum is %q", got, want)
	}
}
