package assess

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseMentions(t *testing.T) {
	for _, tc := range []struct {
		content string
		want    []string
	}{
		{"no mentions here", nil},
		{"@alice please look", []string{"alice"}},
		{"Thanks @Bob.", []string{"bob"}},
		{"@bob and @BOB and @bob again", []string{"bob"}},
		{"(@carol.d_e-f), @x.y", []string{"carol.d_e-f", "x.y"}},
		{"mail me at dave@example.com", nil},
		{"@ alone, @@eve", []string{"eve"}},
		{"line one\n@frank: see above", []string{"frank"}},
		{"@ümlaut @zoë", []string{"zo"}},
	} {
		if got := ParseMentions(tc.content); !slices.Equal(got, tc.want) {
			t.Errorf("ParseMentions(%q) = %q, want %q", tc.content, got, tc.want)
		}
	}
	var many strings.Builder
	for i := range 80 {
		many.WriteString("@user" + strings.Repeat("x", i) + " ")
	}
	if n := len(ParseMentions(many.String())); n != maxMentions {
		t.Errorf("%d mentions resolved, want at most %d", n, maxMentions)
	}
}

func validClaim() NewClaim {
	return NewClaim{Name: " Encryption at rest ", Target: "Payments API", Predicate: "Data is encrypted at rest.",
		EvidenceIDs:        []string{"ev_1", " ev_1", "ev_2"},
		ExternalReferences: []ClaimReference{{Type: "pentest-report", URL: "https://example.com/report.pdf"}}}
}

func TestNewClaimValidate(t *testing.T) {
	c := validClaim()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.Name != "Encryption at rest" || !slices.Equal(c.EvidenceIDs, []string{"ev_1", "ev_2"}) {
		t.Errorf("not normalised: %+v", c)
	}
	c = validClaim()
	c.CountersClaimID = "cl_x"
	if err := c.Validate(); err != nil || !c.IsCounterClaim {
		t.Errorf("countersClaimId makes a counter-claim: %v %v", err, c.IsCounterClaim)
	}
	for name, tc := range map[string]struct {
		change func(*NewClaim)
		field  string
	}{
		"blank name":          {func(c *NewClaim) { c.Name = "  " }, "name"},
		"long name":           {func(c *NewClaim) { c.Name = strings.Repeat("n", 301) }, "name"},
		"no predicate":        {func(c *NewClaim) { c.Predicate = "" }, "predicate"},
		"no target":           {func(c *NewClaim) { c.Target = " " }, "target"},
		"unknown ref type":    {func(c *NewClaim) { c.ExternalReferences[0].Type = "blog" }, "externalReferences[0].type"},
		"ftp url":             {func(c *NewClaim) { c.ExternalReferences[0].URL = "ftp://example.com/x" }, "externalReferences[0].url"},
		"relative url":        {func(c *NewClaim) { c.ExternalReferences[0].URL = "/report.pdf" }, "externalReferences[0].url"},
		"javascript url":      {func(c *NewClaim) { c.ExternalReferences[0].URL = "javascript:alert(1)" }, "externalReferences[0].url"},
		"long url":            {func(c *NewClaim) { c.ExternalReferences[0].URL = "https://example.com/" + strings.Repeat("a", 2030) }, "externalReferences[0].url"},
		"too much evidence":   {func(c *NewClaim) { c.EvidenceIDs = manyIDs(101) }, "evidenceIds"},
		"long reference note": {func(c *NewClaim) { c.ExternalReferences[0].Comment = strings.Repeat("c", 1001) }, "externalReferences[0].comment"},
	} {
		c := validClaim()
		tc.change(&c)
		err := c.Validate()
		if ErrorCode(err) != ECodeValidation || !hasDetailField(err, tc.field) {
			t.Errorf("%s: got %v, want validation_failed on %s", name, err, tc.field)
		}
	}
	c = validClaim()
	c.Target, c.TargetEntityID = "", "en_1"
	if err := c.Validate(); err != nil {
		t.Errorf("a target entity is a target: %v", err)
	}
}

func TestClaimUpdate(t *testing.T) {
	empty, no, id := "", false, "cl_1"
	u := ClaimUpdate{Version: 1, Target: &empty}
	if err := u.Validate(); err != nil {
		t.Fatal(err)
	}
	c := Claim{Target: "Payments API"}
	if err := u.Apply(&c); ErrorCode(err) != ECodeValidation || !hasDetailField(err, "target") {
		t.Errorf("clearing the only target: %v", err)
	}
	c = Claim{Target: "Payments API", TargetEntityID: "en_1"}
	if err := u.Apply(&c); err != nil || c.Target != "" {
		t.Errorf("the entity remains the target: %v", err)
	}
	u = ClaimUpdate{Version: 1, IsCounterClaim: &no, CountersClaimID: &id}
	if err := u.Validate(); !hasDetailField(err, "isCounterClaim") {
		t.Errorf("contradiction accepted: %v", err)
	}
	u = ClaimUpdate{Version: 1, IsCounterClaim: &no}
	c = Claim{Target: "x", IsCounterClaim: true, CountersClaimID: "cl_2"}
	if err := u.Apply(&c); err != nil || c.CountersClaimID != "" || c.IsCounterClaim {
		t.Errorf("no longer a counter-claim: %+v %v", c, err)
	}
	refs := []ClaimReference{{Type: "website", URL: "mailto:a@example.com"}}
	u = ClaimUpdate{Version: 1, ExternalReferences: &refs}
	if err := u.Validate(); !hasDetailField(err, "externalReferences[0].url") {
		t.Errorf("mailto accepted: %v", err)
	}
}

func TestWorkNoteValidate(t *testing.T) {
	n := NewWorkNote{Content: "  hello @bob  "}
	if err := n.Validate(); err != nil || n.Content != "hello @bob" {
		t.Errorf("%q %v", n.Content, err)
	}
	for _, bad := range []string{"   ", strings.Repeat("x", 10001)} {
		n := NewWorkNote{Content: bad}
		if err := n.Validate(); !hasDetailField(err, "content") {
			t.Errorf("%d characters accepted: %v", len(bad), err)
		}
		u := WorkNoteUpdate{Version: 1, Content: bad}
		if err := u.Validate(); !hasDetailField(err, "content") {
			t.Errorf("update of %d characters accepted: %v", len(bad), err)
		}
	}
}

func manyIDs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "ev_" + strings.Repeat("a", i+1)
	}
	return out
}

func hasDetailField(err error, field string) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	for _, d := range e.Details {
		if d.Field == field {
			return true
		}
	}
	return false
}
