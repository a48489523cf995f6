package assess

// The events and changes of attestations, their affirmations and the platform key. An
// event about an attestation reaches only users who may see its assessment; the team of
// the assessment is its audience.

// Event categories of attestations.
const (
	CategoryAttestation = "attestation"
	CategoryAffirmation = "affirmation"
	CategoryPlatformKey = "platform_key"
)

// Event types of attestations, affirmations and the platform key.
const (
	EventAttestationCreated   EventName = "attestation.created"
	EventAttestationUpdated   EventName = "attestation.updated"
	EventAttestationDeleted   EventName = "attestation.deleted"
	EventAttestationRescinded EventName = "attestation.rescinded"
	EventAttestationExpiring  EventName = "attestation.expiring"
	EventAffirmationFrozen    EventName = "affirmation.frozen"
	EventAffirmationAssigned  EventName = "affirmation.signatory_assigned"
	EventAffirmationSigned    EventName = "affirmation.signed"
	EventAffirmationSealReady EventName = "affirmation.seal_ready"
	EventAffirmationSealed    EventName = "affirmation.sealed"
	EventPlatformKeyRotated   EventName = "platform_key.rotated"
)

// PlatformKeyEvent is the data of platform_key.rotated: the new key and the retired one.
type PlatformKeyEvent struct {
	Active  PlatformKey `json:"active"`
	Retired PlatformKey `json:"retired"`
}

// attestationEventTypes are the catalogue entries of attestations (part of EventTypes).
var attestationEventTypes = []EventType{
	{Type: EventAttestationCreated, Title: "Attestation created", Description: "An attestation of a complete assessment was started.",
		Permission: PermAttestationsView, Payload: Attestation{}},
	{Type: EventAttestationUpdated, Title: "Attestation changed", Description: "A draft attestation's summary, statement, assessors, claims, map or signatories changed.",
		Permission: PermAttestationsView, Payload: Attestation{}},
	{Type: EventAttestationDeleted, Title: "Attestation deleted", Description: "A draft attestation was deleted.",
		Permission: PermAttestationsView, Payload: Attestation{}},
	{Type: EventAttestationRescinded, Title: "Attestation rescinded", Description: "A sealed attestation was withdrawn with a reason; it is listed in the public rescission list.",
		Permission: PermAttestationsView, NotifySubject: true, EmailDefault: true, Payload: Attestation{}},
	{Type: EventAttestationExpiring, Title: "Attestation expiring soon", Description: "A sealed attestation reaches the earliest valid-until day of the evidence it cites within EVIDENCE_EXPIRY_REMINDER_DAYS; its creator is notified once.",
		Permission: PermAttestationsView, NotifySubject: true, EmailDefault: true, Payload: Attestation{}},
	{Type: EventAttestationImported, Title: "Attestation imported", Description: "An attestation document made elsewhere was imported with its assessment, evidence and claims (read-only).",
		Permission: PermAttestationsView, Payload: Attestation{}},
	{Type: EventAffirmationFrozen, Title: "Attestation ready to sign", Description: "The attestation's statement was frozen for signing; the signatories are notified.",
		Permission: PermAttestationsView, NotifySubject: true, EmailDefault: true, Payload: Attestation{}},
	{Type: EventAffirmationAssigned, Title: "Signatory assigned", Description: "A signatory slot was added to an attestation, pinned to the user notified.",
		Permission: PermAttestationsView, NotifySubject: true, EmailDefault: true, Payload: Attestation{}},
	{Type: EventAffirmationSigned, Title: "Attestation signed", Description: "A signatory signed an attestation, electronically or digitally.",
		Permission: PermAttestationsView, Payload: Attestation{}},
	{Type: EventAffirmationSealReady, Title: "Attestation ready to seal", Description: "Every signatory has signed; the attestation can be sealed. Its creator is notified.",
		Permission: PermAttestationsView, NotifySubject: true, Payload: Attestation{}},
	{Type: EventAffirmationSealed, Title: "Attestation sealed", Description: "The platform sealed an attestation; its document is final.",
		Permission: PermAttestationsView, NotifySubject: true, Payload: Attestation{}},
	{Type: EventPlatformKeyRotated, Title: "Platform key rotated", Description: "The platform signing key was replaced; the old key stays in the public key set.",
		Permission: PermPlatformKeysRotate, NotifyHolders: true, Payload: PlatformKeyEvent{}},
}

// The change catalogue of attestations.
var (
	ChangeAttestationCreated       = Change{"attestation.created", EventAttestationCreated}
	ChangeAttestationUpdated       = Change{"attestation.updated", EventAttestationUpdated}
	ChangeAttestationDeleted       = Change{"attestation.deleted", EventAttestationDeleted}
	ChangeAttestationRescinded     = Change{"attestation.rescinded", EventAttestationRescinded}
	ChangeAttestationExpiring      = Change{"attestation.expiring", EventAttestationExpiring}
	ChangeAffirmationFrozen        = Change{"affirmation.frozen", EventAffirmationFrozen}
	ChangeAffirmationAssigned      = Change{"affirmation.signatory_assigned", EventAffirmationAssigned}
	ChangeAffirmationUnassigned    = Change{"affirmation.signatory_removed", EventAttestationUpdated}
	ChangeAffirmationSigned        = Change{"affirmation.signed", EventAffirmationSigned}
	ChangeAffirmationSealReady     = Change{"affirmation.seal_ready", EventAffirmationSealReady}
	ChangeAffirmationSealed        = Change{"affirmation.sealed", EventAffirmationSealed}
	ChangePlatformKeyRotated       = Change{"platform_key.rotated", EventPlatformKeyRotated}
	ChangePlatformKeyCreated       = Change{"platform_key.created", ""}
	ChangeAssessorCreated          = Change{"assessor.created", ""}
	ChangeAssessorUpdated          = Change{"assessor.updated", ""}
	ChangeAssessorDeleted          = Change{"assessor.deleted", ""}
	ChangeAttestationExportInvalid = Change{"attestation.export_invalid", ""}
	ChangeSigningKeyRecorded       = Change{"signing_key.recorded", ""}
	ChangeSignatureImageSet        = Change{"signature_image.set", ""}
	ChangeSignatureImageDeleted    = Change{"signature_image.deleted", ""}
	ChangeSigningKeyDeleted        = Change{"signing_key.deleted", ""}
	ChangeSigningKeyGenerated      = Change{"signing_key.generated", ""}
	ChangeSigningKeyRevoked        = Change{"signing_key.revoked", ""}
)
