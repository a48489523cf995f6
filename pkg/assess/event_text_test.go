package assess

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDescribeEventSaysWhatHappenedToWhomAndByWhom: a notification names what happened
// (the new state in words), the record and who did it, and speaks to the user the event
// concerns ("for your review", "you were added"), where the catalogue title alone said
// "Evidence state changed".
func TestDescribeEventSaysWhatHappenedToWhomAndByWhom(t *testing.T) {
	t.Parallel()
	evidence := func(from, to EvidenceState, note string) EvidenceEvent {
		return EvidenceEvent{Evidence: Evidence{Name: "SBOM", State: to}, PreviousState: from, Note: note}
	}
	assessment := func(from, to AssessmentState) AssessmentEvent {
		return AssessmentEvent{Assessment: Assessment{Title: "Shop L1", State: to}, PreviousState: from}
	}
	for _, tt := range []struct {
		name                 string
		event                EventName
		data                 any
		summary              string
		kind                 string
		title, message       string
		youTitle, youMessage string
	}{
		{"submitted", EventEvidenceStateChanged, evidence(EvidenceInProgress, EvidenceInReview, ""), "SBOM", "submitted",
			"Evidence submitted for review", "Ada submitted “SBOM” for review.",
			"Evidence submitted for your review", "Ada submitted “SBOM” for your review."},
		{"approved", EventEvidenceStateChanged, evidence(EvidenceInReview, EvidenceClaimed, ""), "SBOM", "approved",
			"Evidence approved", "Ada approved “SBOM”.", "Your evidence was approved", "Ada approved your evidence “SBOM”."},
		{"rejected, with the note", EventEvidenceStateChanged, evidence(EvidenceInReview, EvidenceInProgress, "Add the scope."), "SBOM", "rejected",
			"Evidence rejected", "Ada rejected “SBOM”: Add the scope.", "Your evidence was rejected", "Ada rejected your evidence “SBOM”: Add the scope."},
		{"renewed", EventEvidenceStateChanged, evidence(EvidenceExpired, EvidenceInProgress, ""), "SBOM", "renewed",
			"Evidence in progress again", "Ada renewed “SBOM”; it is in progress again.",
			"Your evidence is in progress again", "Ada renewed your evidence “SBOM”; it is in progress again."},
		{"started", EventAssessmentStateChanged, assessment(AssessmentNew, AssessmentInProgress), "Shop L1", "started",
			"Assessment started", "Ada started the assessment “Shop L1”.", "Assessment started", "Ada started the assessment “Shop L1”."},
		{"resumed", EventAssessmentStateChanged, assessment(AssessmentOnHold, AssessmentInProgress), "Shop L1", "resumed",
			"Assessment resumed", "Ada resumed the assessment “Shop L1”.", "Assessment resumed", "Ada resumed the assessment “Shop L1”."},
		{"completed", EventAssessmentStateChanged, assessment(AssessmentInProgress, AssessmentComplete), "Shop L1", "completed",
			"Assessment completed", "Ada completed the assessment “Shop L1”.", "Assessment completed", "Ada completed the assessment “Shop L1”."},
		{"reopened", EventAssessmentStateChanged, assessment(AssessmentComplete, AssessmentInProgress), "Shop L1", "reopened",
			"Assessment reopened", "Ada reopened the assessment “Shop L1”.", "Assessment reopened", "Ada reopened the assessment “Shop L1”."},
		{"added to the team", EventAssessmentAssigned, assessment("", AssessmentNew), "Shop L1", "",
			"Assessment team changed", "Ada changed the team of the assessment “Shop L1”.",
			"You were added to the team of an assessment", "Ada added you to the team of the assessment “Shop L1”."},
		{"a file names its evidence", EventEvidenceAttachmentAdded, AttachmentEvent{EvidenceName: "SBOM"}, "sbom.json", "",
			"Evidence file added", "Ada added the file “sbom.json” to the evidence “SBOM”.",
			"Evidence file added", "Ada added the file “sbom.json” to the evidence “SBOM”."},
		{"identity events keep their words", EventUserCreated, User{}, "rita", "",
			"User created", "Ada created the account rita.", "User created", "Ada created the account rita."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := DescribeEvent(tt.event, tt.data, "Ada", tt.summary)
			if got.Kind != tt.kind || got.Title != tt.title || got.Message != tt.message || got.YouTitle != tt.youTitle || got.YouMessage != tt.youMessage {
				t.Errorf("DescribeEvent = %+v", got)
			}
			if tt.kind != "" && got.Params["kind"] != tt.kind {
				t.Errorf("params %v lack the kind %q", got.Params, tt.kind)
			}
		})
	}
	long := DescribeEvent(EventEvidenceStateChanged, evidence(EvidenceInReview, EvidenceInProgress, strings.Repeat("x", 500)), "Ada", "SBOM")
	if n := len([]rune(long.Params["note"])); n != maxNoteInText {
		t.Errorf("a long rejection note is quoted in %d characters, want %d", n, maxNoteInText)
	}
}

// TestEveryEventTypeHasWords: every type of the catalogue has words of its own, naming
// no placeholder it cannot fill.
func TestEveryEventTypeHasWords(t *testing.T) {
	t.Parallel()
	for _, typ := range EventTypes {
		if _, ok := EventPhrasebook[typ.Type]; !ok {
			t.Errorf("%s has no words in EventPhrasebook", typ.Type)
		}
		got := DescribeEvent(typ.Type, typ.Payload, "Ada", "X")
		for _, s := range []string{got.Title, got.Message, got.YouTitle, got.YouMessage} {
			if strings.Contains(s, "{actor}") || strings.Contains(s, "{summary}") {
				t.Errorf("%s: %q keeps a placeholder", typ.Type, s)
			}
		}
	}
}

// TestWebUISaysEventsInTheSameEnglish: the web UI renders notifications from their type
// and params; its English words (notifications.types.<type>[.<kind>] in en.json) are
// these, so a notification reads the same in the UI, in e-mails and in chat.
func TestWebUISaysEventsInTheSameEnglish(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "..", "web", "src", "locales", "en.json"))
	if err != nil {
		t.Fatal(err)
	}
	var en struct {
		Notifications struct {
			Types map[string]any `json:"types"`
		} `json:"notifications"`
	}
	if err := json.Unmarshal(raw, &en); err != nil {
		t.Fatal(err)
	}
	lookup := func(path ...string) string {
		var node any = en.Notifications.Types
		for _, p := range path {
			m, ok := node.(map[string]any)
			if !ok {
				return ""
			}
			node = m[p]
		}
		s, _ := node.(string)
		return s
	}
	check := func(path []string, p EventPhrases) {
		t.Helper()
		for part, want := range map[string]string{"title": p.Title, "message": p.Message, "youTitle": p.YouTitle, "youMessage": p.YouMessage} {
			if got := lookup(append(path, part)...); got != want {
				t.Errorf("notifications.types.%s.%s is %q in en.json, the server says %q", strings.Join(path, "."), part, got, want)
			}
		}
	}
	for name, p := range EventPhrasebook {
		check(strings.Split(string(name), "."), p)
	}
	for name, kinds := range EventKindPhrasebook {
		for kind, p := range kinds {
			check(append(strings.Split(string(name), "."), kind), p)
		}
	}
}
