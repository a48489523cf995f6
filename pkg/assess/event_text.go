package assess

import "strings"

// EventText is an event in words, in English, as in-app notifications, e-mails and chat
// posts say it: what happened, to which record (by name) and by whom. The web UI says the
// same in the reader's language from the notification's type and params (Params, "you"
// for the user the event concerns), with these texts under notifications.types.<type>
// (.<kind>) in its English catalogue (a test holds the two to the same words).
type EventText struct {
	// Kind names what happened when one type covers several happenings: evidence
	// submitted, approved, rejected or renewed; an assessment started, put on hold,
	// resumed, completed, reopened, cancelled or archived. "" for the other types.
	Kind string
	// Title and Message are for every recipient ("Evidence approved", "Bob approved “SBOM”.").
	Title, Message string
	// YouTitle and YouMessage are for the user the event concerns, its subject or its
	// audience ("Your evidence was approved", "Bob approved your evidence “SBOM”.");
	// they are Title and Message where the type has no words of its own for them.
	YouTitle, YouMessage string
	// Params are the values the texts name besides actor and summary (kind, note, state,
	// evidence, date), for the UI's translations.
	Params map[string]string
}

// EventPhrases are the words of an event type or kind: templates naming {actor},
// {summary} and the type's params in braces.
type EventPhrases struct {
	Title, Message, YouTitle, YouMessage string
}

// DescribeEvent puts an event in words: name is its type, data its content as the store
// emits it (the typed value), actor who caused it and summary the record's name.
func DescribeEvent(name EventName, data any, actor, summary string) EventText {
	kind, params := eventKind(name, data)
	phrases, ok := EventKindPhrasebook[name][kind]
	if !ok {
		kind = ""
		phrases, ok = EventPhrasebook[name]
	}
	if !ok {
		title := string(name)
		if typ, found := LookupEventType(name); found {
			title = typ.Title
		}
		phrases = EventPhrases{Title: title, Message: "{summary} (by {actor})."}
		if summary == "" {
			phrases.Message = "By {actor}."
		}
	}
	values := map[string]string{"actor": actor, "summary": summary}
	for k, v := range params {
		values[k] = v
	}
	if kind != "" {
		params["kind"] = kind
	}
	fill := func(s string) string {
		for k, v := range values {
			s = strings.ReplaceAll(s, "{"+k+"}", v)
		}
		return s
	}
	t := EventText{Kind: kind, Title: fill(phrases.Title), Message: fill(phrases.Message), Params: params}
	t.YouTitle, t.YouMessage = t.Title, t.Message
	if phrases.YouTitle != "" {
		t.YouTitle = fill(phrases.YouTitle)
	}
	if phrases.YouMessage != "" {
		t.YouMessage = fill(phrases.YouMessage)
	}
	return t
}

// eventKind tells which of its happenings an event is, from its content, and the values
// its words name besides actor and summary.
func eventKind(name EventName, data any) (string, map[string]string) {
	params := map[string]string{}
	switch d := data.(type) {
	case EvidenceEvent:
		if d.Note != "" && name == EventEvidenceStateChanged {
			params["note"] = clip(d.Note, maxNoteInText)
		}
		if name == EventEvidenceExpiring && d.ValidUntil != "" {
			params["date"] = d.ValidUntil
		}
		if name == EventEvidenceStateChanged {
			return evidenceKind(d.PreviousState, d.State), params
		}
	case AssessmentEvent:
		if name == EventAssessmentStateChanged {
			return assessmentKind(d.PreviousState, d.State), params
		}
	case AttachmentEvent:
		params["evidence"] = d.EvidenceName
	case Project:
		if name == EventProjectStateChanged {
			params["state"] = string(d.State)
		}
	}
	return "", params
}

// maxNoteInText bounds the characters of a rejection note a notification quotes; the
// evidence's page has the whole note.
const maxNoteInText = 200

// clip shortens s to at most n characters, marking a cut with an ellipsis.
func clip(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

func evidenceKind(from, to EvidenceState) string {
	switch {
	case to == EvidenceInReview:
		return "submitted"
	case to == EvidenceClaimed:
		return "approved"
	case to == EvidenceInProgress && from == EvidenceInReview:
		return "rejected"
	case to == EvidenceInProgress:
		return "renewed"
	}
	return ""
}

func assessmentKind(from, to AssessmentState) string {
	switch to {
	case AssessmentInProgress:
		switch from {
		case AssessmentOnHold:
			return "resumed"
		case AssessmentComplete, AssessmentCancelled, AssessmentArchived:
			return "reopened"
		}
		return "started"
	case AssessmentPending:
		return "pending"
	case AssessmentOnHold:
		return "on_hold"
	case AssessmentComplete:
		return "completed"
	case AssessmentCancelled:
		return "cancelled"
	case AssessmentArchived:
		return "archived"
	}
	return ""
}

// EventKindPhrasebook holds the words of each kind of the types that cover several
// happenings; a kind it lacks falls back to the type's words (EventPhrasebook).
var EventKindPhrasebook = map[EventName]map[string]EventPhrases{
	EventEvidenceStateChanged: {
		"submitted": {Title: "Evidence submitted for review", Message: "{actor} submitted “{summary}” for review.",
			YouTitle: "Evidence submitted for your review", YouMessage: "{actor} submitted “{summary}” for your review."},
		"approved": {Title: "Evidence approved", Message: "{actor} approved “{summary}”.",
			YouTitle: "Your evidence was approved", YouMessage: "{actor} approved your evidence “{summary}”."},
		"rejected": {Title: "Evidence rejected", Message: "{actor} rejected “{summary}”: {note}",
			YouTitle: "Your evidence was rejected", YouMessage: "{actor} rejected your evidence “{summary}”: {note}"},
		"renewed": {Title: "Evidence in progress again", Message: "{actor} renewed “{summary}”; it is in progress again.",
			YouTitle: "Your evidence is in progress again", YouMessage: "{actor} renewed your evidence “{summary}”; it is in progress again."},
	},
	EventAssessmentStateChanged: {
		"started":   {Title: "Assessment started", Message: "{actor} started the assessment “{summary}”."},
		"pending":   {Title: "Assessment pending", Message: "{actor} set the assessment “{summary}” to pending."},
		"on_hold":   {Title: "Assessment on hold", Message: "{actor} put the assessment “{summary}” on hold."},
		"resumed":   {Title: "Assessment resumed", Message: "{actor} resumed the assessment “{summary}”."},
		"completed": {Title: "Assessment completed", Message: "{actor} completed the assessment “{summary}”."},
		"reopened":  {Title: "Assessment reopened", Message: "{actor} reopened the assessment “{summary}”."},
		"cancelled": {Title: "Assessment cancelled", Message: "{actor} cancelled the assessment “{summary}”."},
		"archived":  {Title: "Assessment archived", Message: "{actor} archived the assessment “{summary}”."},
	},
}

// EventPhrasebook holds the words of each event type of the catalogue.
var EventPhrasebook = map[EventName]EventPhrases{
	EventUserCreated:     {Title: "User created", Message: "{actor} created the account {summary}."},
	EventUserUpdated:     {Title: "User updated", Message: "{actor} changed the account {summary}."},
	EventUserDeactivated: {Title: "User deactivated", Message: "{actor} deactivated the account {summary}."},
	EventUserLocked:      {Title: "Account locked", Message: "The account {summary} was locked after too many failed sign-ins."},
	EventAPIKeyCreated:   {Title: "API key created", Message: "{actor} created the API key {summary}."},
	EventAPIKeyRevoked:   {Title: "API key revoked", Message: "{actor} revoked the API key {summary}."},
	EventInviteCreated:   {Title: "Invite created", Message: "{actor} invited {summary}."},
	EventInviteConsumed:  {Title: "Invite accepted", Message: "{summary} registered with an invitation."},
	EventInviteRevoked:   {Title: "Invite revoked", Message: "{actor} revoked the invite for {summary}."},
	EventRoleCreated:     {Title: "Role created", Message: "{actor} created the role {summary}."},
	EventRoleUpdated:     {Title: "Role changed", Message: "{actor} changed the role {summary}."},
	EventRoleDeleted:     {Title: "Role deleted", Message: "{actor} deleted the role {summary}."},
	EventWebhookCreated:  {Title: "Webhook created", Message: "{actor} added the webhook {summary}."},
	EventWebhookUpdated:  {Title: "Webhook changed", Message: "{actor} changed the webhook {summary}."},
	EventWebhookDeleted:  {Title: "Webhook deleted", Message: "{actor} deleted the webhook {summary}."},
	EventWebhookDisabled: {Title: "Webhook disabled", Message: "The webhook {summary} was switched off after too many failed deliveries."},
	EventChatCreated:     {Title: "Chat destination created", Message: "{actor} added the chat destination {summary}."},
	EventChatUpdated:     {Title: "Chat destination changed", Message: "{actor} changed the chat destination {summary}."},
	EventChatDeleted:     {Title: "Chat destination deleted", Message: "{actor} deleted the chat destination {summary}."},
	EventChatDisabled:    {Title: "Chat destination disabled", Message: "The chat destination {summary} was switched off after too many failed deliveries."},
	EventChannelTest:     {Title: "Test message", Message: "{actor} sent a test to {summary}."},

	EventAssessmentCreated: {Title: "Assessment created", Message: "{actor} created the assessment “{summary}”.",
		YouTitle: "You are on the team of a new assessment", YouMessage: "{actor} created the assessment “{summary}” with you on its team."},
	EventAssessmentUpdated: {Title: "Assessment changed", Message: "{actor} changed the details of the assessment “{summary}”."},
	EventAssessmentAssigned: {Title: "Assessment team changed", Message: "{actor} changed the team of the assessment “{summary}”.",
		YouTitle: "You were added to the team of an assessment", YouMessage: "{actor} added you to the team of the assessment “{summary}”."},
	EventAssessmentStateChanged:   {Title: "Assessment state changed", Message: "{actor} changed the state of the assessment “{summary}”."},
	EventAssessmentResultRecorded: {Title: "Assessment result recorded", Message: "{actor} recorded results for {summary}."},
	EventAssessmentNoteAdded: {Title: "Work note written", Message: "{actor} wrote a work note on the assessment “{summary}”.",
		YouTitle: "You were mentioned in a work note", YouMessage: "{actor} mentioned you in a work note on the assessment “{summary}”."},
	EventAssessmentDeleted: {Title: "Assessment deleted", Message: "{actor} deleted the assessment “{summary}”."},

	EventEvidenceCreated:      {Title: "Evidence created", Message: "{actor} created the evidence “{summary}”."},
	EventEvidenceUpdated:      {Title: "Evidence changed", Message: "{actor} changed the evidence “{summary}”."},
	EventEvidenceStateChanged: {Title: "Evidence state changed", Message: "{actor} changed the state of the evidence “{summary}”."},
	EventEvidenceLinked:       {Title: "Evidence linked", Message: "{actor} linked the evidence “{summary}” to a requirement."},
	EventEvidenceUnlinked:     {Title: "Evidence unlinked", Message: "{actor} unlinked the evidence “{summary}” from a requirement."},
	EventEvidenceNoteAdded: {Title: "Evidence note added", Message: "{actor} added a note to the evidence “{summary}”.",
		YouTitle: "New note on your evidence", YouMessage: "{actor} added a note to your evidence “{summary}”."},
	EventEvidenceAttachmentAdded:   {Title: "Evidence file added", Message: "{actor} added the file “{summary}” to the evidence “{evidence}”."},
	EventEvidenceAttachmentRemoved: {Title: "Evidence file removed", Message: "{actor} removed the file “{summary}” from the evidence “{evidence}”."},
	EventEvidenceExpiring: {Title: "Evidence expiring soon", Message: "The evidence “{summary}” is valid until {date}.",
		YouTitle: "Your evidence expires soon", YouMessage: "Your evidence “{summary}” is valid until {date}; renew it before then."},
	EventEvidenceExpired: {Title: "Evidence expired", Message: "The evidence “{summary}” passed its valid-until date and expired.",
		YouTitle: "Your evidence expired", YouMessage: "Your evidence “{summary}” passed its valid-until date and expired."},
	EventEvidenceDeleted: {Title: "Evidence deleted", Message: "{actor} deleted the evidence “{summary}”."},

	EventClaimCreated: {Title: "Claim created", Message: "{actor} added the claim “{summary}”."},
	EventClaimUpdated: {Title: "Claim changed", Message: "{actor} changed the claim “{summary}”."},
	EventClaimDeleted: {Title: "Claim deleted", Message: "{actor} deleted the claim “{summary}”."},

	EventProjectCreated: {Title: "Project created", Message: "{actor} created the project “{summary}”.",
		YouTitle: "You own a new project", YouMessage: "{actor} created the project “{summary}” with you as its owner."},
	EventProjectUpdated:      {Title: "Project changed", Message: "{actor} changed the project “{summary}”."},
	EventProjectStateChanged: {Title: "Project state changed", Message: "{actor} moved the project “{summary}” to {state}."},
	EventProjectArchived:     {Title: "Project archived", Message: "{actor} archived the project “{summary}”."},
	EventProjectDeleted:      {Title: "Project deleted", Message: "{actor} deleted the project “{summary}”."},

	EventStandardCreated:   {Title: "Standard created", Message: "{actor} created the standard {summary}."},
	EventStandardUpdated:   {Title: "Standard changed", Message: "{actor} changed the standard {summary}."},
	EventStandardSubmitted: {Title: "Standard submitted for review", Message: "{actor} submitted the standard {summary} for review."},
	EventStandardApproved: {Title: "Standard published", Message: "{actor} approved and published the standard {summary}.",
		YouTitle: "Your standard was published", YouMessage: "{actor} approved and published your standard {summary}."},
	EventStandardRejected: {Title: "Standard rejected", Message: "{actor} sent the standard {summary} back to draft.",
		YouTitle: "Your standard was rejected", YouMessage: "{actor} sent your standard {summary} back to draft."},
	EventStandardRetired:  {Title: "Standard retired", Message: "{actor} retired the standard {summary}."},
	EventStandardDeleted:  {Title: "Standard deleted", Message: "{actor} deleted the standard {summary}."},
	EventStandardImported: {Title: "Standard imported", Message: "{actor} imported the standard {summary}."},

	EventEntityCreated:             {Title: "Entity created", Message: "{actor} created the entity “{summary}”."},
	EventEntityUpdated:             {Title: "Entity changed", Message: "{actor} changed the entity “{summary}”."},
	EventEntityDeleted:             {Title: "Entity deleted", Message: "{actor} deleted the entity “{summary}”."},
	EventEntityRelationshipAdded:   {Title: "Relationship added", Message: "{actor} added the relationship {summary}."},
	EventEntityRelationshipRemoved: {Title: "Relationship removed", Message: "{actor} removed the relationship {summary}."},
	EventEntityPolicyAdded:         {Title: "Compliance policy added", Message: "{actor} applied the standard {summary} to an entity."},
	EventEntityPolicyUpdated:       {Title: "Compliance policy changed", Message: "{actor} changed the policy of the standard {summary}."},
	EventEntityPolicyRemoved:       {Title: "Compliance policy removed", Message: "{actor} removed the policy of the standard {summary}."},

	EventAttestationCreated:   {Title: "Attestation created", Message: "{actor} started an attestation of “{summary}”."},
	EventAttestationUpdated:   {Title: "Attestation changed", Message: "{actor} changed the attestation of “{summary}”."},
	EventAttestationDeleted:   {Title: "Attestation deleted", Message: "{actor} deleted the attestation of “{summary}”."},
	EventAttestationRescinded: {Title: "Attestation rescinded", Message: "{actor} rescinded the attestation of “{summary}”."},
	EventAttestationExpiring: {Title: "Attestation expiring soon", Message: "The attestation of “{summary}” cites evidence that expires soon.",
		YouTitle: "Your attestation expires soon", YouMessage: "Your attestation of “{summary}” cites evidence that expires soon."},
	EventAttestationImported: {Title: "Attestation imported", Message: "{actor} imported an attestation of “{summary}”."},
	EventAffirmationFrozen: {Title: "Attestation ready to sign", Message: "{actor} froze the attestation of “{summary}” for signing.",
		YouTitle: "An attestation awaits your signature", YouMessage: "{actor} froze the attestation of “{summary}”; it awaits your signature."},
	EventAffirmationAssigned: {Title: "Signatory assigned", Message: "{actor} added a signatory to the attestation of “{summary}”.",
		YouTitle: "You were asked to sign an attestation", YouMessage: "{actor} added you as a signatory of the attestation of “{summary}”."},
	EventAffirmationSigned: {Title: "Attestation signed", Message: "{actor} signed the attestation of “{summary}”."},
	EventAffirmationSealReady: {Title: "Attestation ready to seal", Message: "Every signatory signed the attestation of “{summary}”; it can be sealed.",
		YouTitle: "Your attestation is ready to seal", YouMessage: "Every signatory signed your attestation of “{summary}”; it can be sealed."},
	EventAffirmationSealed:  {Title: "Attestation sealed", Message: "{actor} sealed the attestation of “{summary}”; its document is final."},
	EventPlatformKeyRotated: {Title: "Platform key rotated", Message: "{actor} rotated the platform signing key; the new key is {summary}."},
}
