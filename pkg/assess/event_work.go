package assess

// The events and changes of assessment work: assessments, evidence, attachments, claims
// and work notes. Every event about such a record reaches only users who may see it
// (NewEvent.AssessmentID / EvidenceID); the team of an assessment is its audience.

// Event categories of assessment work.
const (
	CategoryAssessment = "assessment"
	CategoryEvidence   = "evidence"
	CategoryClaim      = "claim"
)

// Event types of assessments and their work notes.
const (
	EventAssessmentCreated        EventName = "assessment.created"
	EventAssessmentUpdated        EventName = "assessment.updated"
	EventAssessmentAssigned       EventName = "assessment.assigned"
	EventAssessmentStateChanged   EventName = "assessment.state_changed"
	EventAssessmentResultRecorded EventName = "assessment.result_recorded"
	EventAssessmentNoteAdded      EventName = "assessment.note_added"
	EventAssessmentDeleted        EventName = "assessment.deleted"
)

// Event types of evidence and its files.
const (
	EventEvidenceCreated           EventName = "evidence.created"
	EventEvidenceUpdated           EventName = "evidence.updated"
	EventEvidenceStateChanged      EventName = "evidence.state_changed"
	EventEvidenceLinked            EventName = "evidence.linked"
	EventEvidenceUnlinked          EventName = "evidence.unlinked"
	EventEvidenceNoteAdded         EventName = "evidence.note_added"
	EventEvidenceAttachmentAdded   EventName = "evidence.attachment_added"
	EventEvidenceAttachmentRemoved EventName = "evidence.attachment_removed"
	EventEvidenceExpiring          EventName = "evidence.expiring"
	EventEvidenceExpired           EventName = "evidence.expired"
	EventEvidenceDeleted           EventName = "evidence.deleted"
)

// Event types of claims.
const (
	EventClaimCreated EventName = "claim.created"
	EventClaimUpdated EventName = "claim.updated"
	EventClaimDeleted EventName = "claim.deleted"
)

// workEventTypes are the catalogue entries of assessment work (part of EventTypes).
var workEventTypes = []EventType{
	{Type: EventAssessmentCreated, Title: "Assessment created", Description: "An assessment was created; its team is notified.",
		Permission: PermAssessmentsView, NotifySubject: true, Payload: AssessmentEvent{}},
	{Type: EventAssessmentUpdated, Title: "Assessment changed", Description: "An assessment's title, description, due date, project or tags changed.",
		Permission: PermAssessmentsView, NotifySubject: true, Payload: AssessmentEvent{}},
	{Type: EventAssessmentAssigned, Title: "Assessment team changed", Description: "Assessors or assessees were added to or removed from an assessment; the members added are notified.",
		Permission: PermAssessmentsView, NotifySubject: true, EmailDefault: true, Payload: AssessmentEvent{}},
	{Type: EventAssessmentStateChanged, Title: "Assessment state changed", Description: "An assessment was started, put on hold, resumed, completed (with its score), reopened, cancelled or archived.",
		Permission: PermAssessmentsView, NotifySubject: true, Payload: AssessmentEvent{}},
	{Type: EventAssessmentResultRecorded, Title: "Assessment result recorded", Description: "A result, rationale or assignee of one requirement of an assessment changed.",
		Permission: PermAssessmentsView, Payload: ResultEvent{}},
	{Type: EventAssessmentNoteAdded, Title: "Work note written", Description: "A work note was written on an assessment; the users it mentions with @username are notified.",
		Permission: PermAssessmentsView, NotifySubject: true, Payload: WorkNote{}},
	{Type: EventAssessmentDeleted, Title: "Assessment deleted", Description: "An assessment was deleted with its requirements, claims and notes.",
		Permission: PermAssessmentsView, NotifySubject: true, Payload: AssessmentEvent{}},
	{Type: EventEvidenceCreated, Title: "Evidence created", Description: "A piece of evidence was created.",
		Permission: PermEvidenceView, Payload: EvidenceEvent{}},
	{Type: EventEvidenceUpdated, Title: "Evidence changed", Description: "A piece of evidence's descriptor or tags changed.",
		Permission: PermEvidenceView, Payload: EvidenceEvent{}},
	{Type: EventEvidenceStateChanged, Title: "Evidence state changed", Description: "Evidence was submitted for review (the reviewer is notified), approved or rejected with a note (the author is notified).",
		Permission: PermEvidenceView, NotifySubject: true, EmailDefault: true, Payload: EvidenceEvent{}},
	{Type: EventEvidenceLinked, Title: "Evidence linked", Description: "Evidence was linked to a requirement of an assessment.",
		Permission: PermEvidenceView, Payload: EvidenceEvent{}},
	{Type: EventEvidenceUnlinked, Title: "Evidence unlinked", Description: "Evidence was unlinked from a requirement of an assessment.",
		Permission: PermEvidenceView, Payload: EvidenceEvent{}},
	{Type: EventEvidenceNoteAdded, Title: "Evidence note added", Description: "A note was added to a piece of evidence; its author is notified.",
		Permission: PermEvidenceView, NotifySubject: true, Payload: EvidenceEvent{}},
	{Type: EventEvidenceAttachmentAdded, Title: "Evidence file added", Description: "A file was uploaded to a piece of evidence.",
		Permission: PermEvidenceView, Payload: AttachmentEvent{}},
	{Type: EventEvidenceAttachmentRemoved, Title: "Evidence file removed", Description: "A file of a piece of evidence was deleted.",
		Permission: PermEvidenceView, Payload: AttachmentEvent{}},
	{Type: EventEvidenceExpiring, Title: "Evidence expiring soon", Description: "A piece of evidence reaches its valid-until date within EVIDENCE_EXPIRY_REMINDER_DAYS; its author is notified once.",
		Permission: PermEvidenceView, NotifySubject: true, EmailDefault: true, Payload: EvidenceEvent{}},
	{Type: EventEvidenceExpired, Title: "Evidence expired", Description: "A piece of evidence passed its valid-until date and is now expired; its author is notified.",
		Permission: PermEvidenceView, NotifySubject: true, Payload: EvidenceEvent{}},
	{Type: EventEvidenceDeleted, Title: "Evidence deleted", Description: "A piece of evidence was deleted with its files.",
		Permission: PermEvidenceView, Payload: EvidenceEvent{}},
	{Type: EventClaimCreated, Title: "Claim created", Description: "A claim was added to an assessment.",
		Permission: PermClaimsView, Payload: Claim{}},
	{Type: EventClaimUpdated, Title: "Claim changed", Description: "A claim, its evidence, requirements or references changed.",
		Permission: PermClaimsView, Payload: Claim{}},
	{Type: EventClaimDeleted, Title: "Claim deleted", Description: "A claim was deleted.",
		Permission: PermClaimsView, Payload: Claim{}},
}

// The change catalogue of assessment work.
var (
	ChangeAssessmentCreated        = Change{"assessment.created", EventAssessmentCreated}
	ChangeAssessmentUpdated        = Change{"assessment.updated", EventAssessmentUpdated}
	ChangeAssessmentAssigned       = Change{"assessment.team_changed", EventAssessmentAssigned}
	ChangeAssessmentStateChanged   = Change{"assessment.state_changed", EventAssessmentStateChanged}
	ChangeAssessmentResultRecorded = Change{"assessment.result_recorded", EventAssessmentResultRecorded}
	ChangeAssessmentNoteAdded      = Change{"assessment.note_added", EventAssessmentNoteAdded}
	ChangeAssessmentNoteUpdated    = Change{"assessment.note_updated", ""}
	ChangeAssessmentNoteDeleted    = Change{"assessment.note_deleted", ""}
	ChangeAssessmentDeleted        = Change{"assessment.deleted", EventAssessmentDeleted}

	ChangeEvidenceCreated           = Change{"evidence.created", EventEvidenceCreated}
	ChangeEvidenceUpdated           = Change{"evidence.updated", EventEvidenceUpdated}
	ChangeEvidenceSubmitted         = Change{"evidence.submitted", EventEvidenceStateChanged}
	ChangeEvidenceApproved          = Change{"evidence.approved", EventEvidenceStateChanged}
	ChangeEvidenceRejected          = Change{"evidence.rejected", EventEvidenceStateChanged}
	ChangeEvidenceRenewed           = Change{"evidence.renewed", EventEvidenceStateChanged}
	ChangeEvidenceLinked            = Change{"evidence.linked", EventEvidenceLinked}
	ChangeEvidenceUnlinked          = Change{"evidence.unlinked", EventEvidenceUnlinked}
	ChangeEvidenceNoteAdded         = Change{"evidence.note_added", EventEvidenceNoteAdded}
	ChangeEvidenceAttachmentAdded   = Change{"evidence.attachment_added", EventEvidenceAttachmentAdded}
	ChangeEvidenceAttachmentRemoved = Change{"evidence.attachment_removed", EventEvidenceAttachmentRemoved}
	ChangeEvidenceAttachmentCorrupt = Change{"evidence.attachment_integrity_failed", ""}
	ChangeEvidenceExpiring          = Change{"evidence.expiring", EventEvidenceExpiring}
	ChangeEvidenceExpired           = Change{"evidence.expired", EventEvidenceExpired}
	ChangeEvidenceDeleted           = Change{"evidence.deleted", EventEvidenceDeleted}

	ChangeClaimCreated = Change{"claim.created", EventClaimCreated}
	ChangeClaimUpdated = Change{"claim.updated", EventClaimUpdated}
	ChangeClaimDeleted = Change{"claim.deleted", EventClaimDeleted}
)
