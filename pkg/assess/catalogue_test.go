package assess

import (
	"os"
	"strings"
	"testing"
)

func TestEventCatalogueIsConsistent(t *testing.T) {
	seen := map[EventName]bool{}
	for _, e := range EventTypes {
		if seen[e.Type] {
			t.Errorf("%s is listed twice", e.Type)
		}
		seen[e.Type] = true
		if e.Category == "" || !strings.HasPrefix(string(e.Type), e.Category+".") {
			t.Errorf("%s: category %q is not the text before the first dot", e.Type, e.Category)
		}
		if !KnownPermission(e.Permission) {
			t.Errorf("%s: unknown permission %q", e.Type, e.Permission)
		}
		if e.Payload == nil || e.Title == "" || e.Description == "" {
			t.Errorf("%s: payload, title and description are required", e.Type)
		}
		if e.EmailDefault && !e.NotifyHolders && !e.NotifySubject {
			t.Errorf("%s: e-mails by default but has no default recipients", e.Type)
		}
	}
}

func TestEventFilterMatches(t *testing.T) {
	cases := []struct {
		filter []string
		typ    EventName
		want   bool
	}{
		{[]string{"*"}, EventUserCreated, true},
		{[]string{"user.*"}, EventUserCreated, true},
		{[]string{"user.*"}, EventAPIKeyCreated, false},
		{[]string{"channel.*"}, EventWebhookDisabled, true},
		{[]string{"user.created"}, EventUserCreated, true},
		{[]string{"user.created"}, EventUserUpdated, false},
		{[]string{"user"}, EventUserCreated, false},
		{nil, EventUserCreated, false},
	}
	for _, c := range cases {
		if got := EventFilterMatches(c.filter, c.typ); got != c.want {
			t.Errorf("EventFilterMatches(%q, %s) = %v, want %v", c.filter, c.typ, got, c.want)
		}
	}
}

func TestValidateEventFilter(t *testing.T) {
	got, err := ValidateEventFilter("eventTypes", []string{"user.created", "*", "role.*", "user.created"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "*,role.*,user.created" {
		t.Errorf("not sorted and de-duplicated: %q", got)
	}
	for _, bad := range [][]string{nil, {"user.exploded"}, {"nothing.*"}, {""}, {"user.*", "**"}} {
		_, err := ValidateEventFilter("eventTypes", bad)
		if ErrorCode(err) != ECodeValidation {
			t.Errorf("%q: got %v, want validation_failed", bad, err)
		}
	}
}

// TestIntegrationsDocListsEveryEventType keeps the catalogue table of docs/integrations.md
// complete as the domain adds event types.
func TestIntegrationsDocListsEveryEventType(t *testing.T) {
	raw, err := os.ReadFile("../../docs/integrations.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range EventTypes {
		if !strings.Contains(string(raw), "| `"+string(e.Type)+"` |") {
			t.Errorf("docs/integrations.md does not list %s in its catalogue table", e.Type)
		}
	}
}
