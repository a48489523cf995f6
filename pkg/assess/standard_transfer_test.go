package assess

import (
	"errors"
	"testing"
)

func TestStandardIdentifier(t *testing.T) {
	for name, want := range map[string]string{
		"Application Security Verification Standard (ASVS)":                                 "application-security-verification-standard-asvs",
		"Secure Software Development Framework (SSDF) Version 1.1":                          "secure-software-development-framework-ssdf-version-1-1",
		"PCI Secure Software Lifecycle (Secure SLC) Requirements and Assessment Procedures": "pci-secure-software-lifecycle-secure-slc-requirements-and-assessment-procedures",
		"  Ünïcode & more!! ": "n-code-more",
		"((()))":              "",
	} {
		if got := StandardIdentifier(name); got != want {
			t.Errorf("StandardIdentifier(%q) = %q, want %q", name, got, want)
		}
	}
	if got := FeedItemIdentifier("application-security-verification-standard-asvs-@5.0.0"); got != "application-security-verification-standard-asvs" {
		t.Errorf("FeedItemIdentifier = %q", got)
	}
}

func TestCompareStandardVersions(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"4.0.3", "5.0.0", -1}, {"2.0.0", "v2.1.0", -1}, {"v2.1.0", "2.1.0", 0}, {"13", "9", 1},
		{"1.1", "1.10", -1}, {"", "1", -1}, {"DRAFT-2023-11", "DRAFT-2023-12", -1},
	} {
		if got := CompareStandardVersions(c.a, c.b); got != c.want {
			t.Errorf("CompareStandardVersions(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestFeedItemStatus(t *testing.T) {
	local := []Standard{{ID: "st_4", Identifier: "asvs", StandardVersion: "4.0.3"}, {ID: "st_m", Identifier: "masvs", StandardVersion: "v2.1.0"}}
	for _, c := range []struct {
		ident, version string
		want           FeedStatus
		ids            int
	}{
		{"asvs", "4.0.3", FeedImported, 1},
		{"asvs", "5.0.0", FeedUpdateAvailable, 1},
		{"asvs", "3.0", FeedNotImported, 1},
		{"masvs", "2.0.0", FeedNotImported, 1},
		{"samm", "2.1.0", FeedNotImported, 0},
	} {
		it := FeedItem{Identifier: c.ident, Version: c.version}
		it.SetStatus(local)
		if it.Status != c.want || len(it.StandardIDs) != c.ids {
			t.Errorf("%s@%s: %s %v, want %s with %d ids", c.ident, c.version, it.Status, it.StandardIDs, c.want, c.ids)
		}
	}
}

func TestTreeCycle(t *testing.T) {
	if c := TreeCycle(map[string]string{"a": "", "b": "a", "c": "b"}); c != "" {
		t.Errorf("a forest has no cycle, got %q", c)
	}
	if c := TreeCycle(map[string]string{"a": "c", "b": "a", "c": "b", "d": ""}); c == "" {
		t.Error("the cycle a→c→b→a was not found")
	}
	if c := TreeCycle(map[string]string{"a": "a"}); c != "a" {
		t.Errorf("a self-parent is a cycle, got %q", c)
	}
}

// TestFetchErrorAnswer: a failed download is a 422 whose message names the host and the
// reason, with detail fetch_failed on the field that named the URL.
func TestFetchErrorAnswer(t *testing.T) {
	err := error(&FetchError{Field: "url", Host: "example.com", Reason: "the name does not resolve."})
	if ErrorCode(err) != ECodeBusinessRule {
		t.Fatalf("code %s, want %s", ErrorCode(err), ECodeBusinessRule)
	}
	if got, want := ErrorMessage(err), "The document at example.com could not be downloaded: the name does not resolve."; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	var answer *Error
	if !errors.As(err, &answer) || answer.Details[0].Field != "url" || answer.Details[0].Code != "fetch_failed" {
		t.Errorf("answer %+v, want detail fetch_failed on url", answer)
	}
}
