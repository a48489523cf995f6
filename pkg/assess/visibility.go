package assess

// Object-level access (PRODUCT P4.4, docs/assessments.md "Who sees what"): who may see an
// assessment and everything under it, and who may see a piece of evidence. The store
// decides single reads with these predicates from the ties it loads; lists apply the same
// rule in SQL (pkg/postgres/visibility.go), and a store test holds the forms to the same
// answers.

// SeesEveryAssessment reports whether actor sees every assessment, whether or not they
// take part in it (assessments.view_all).
func SeesEveryAssessment(actor Actor) bool {
	return actor.Can(PermAssessmentsViewAll)
}

// SeesAllEvidence reports whether actor sees every piece of evidence (evidence.view_all,
// or assessments.view_all, which sees everything under every assessment).
func SeesAllEvidence(actor Actor) bool {
	return actor.Can(PermEvidenceViewAll) || SeesEveryAssessment(actor)
}

// AssessmentTies are the ties of a user to an assessment.
type AssessmentTies struct {
	// Member: an assessor or assessee of it.
	Member bool
	// EvidencePerson: the author or reviewer of evidence linked to one of its requirements.
	EvidencePerson bool
}

// Participant reports whether the ties make the user a participant of the assessment.
func (t AssessmentTies) Participant() bool { return t.Member || t.EvidencePerson }

// CanSeeAssessment reports whether actor, with ties to an assessment, may see it:
// participants see it, and those who see every assessment.
func CanSeeAssessment(actor Actor, ties AssessmentTies) bool {
	return SeesEveryAssessment(actor) || ties.Participant()
}

// EvidenceTies are the ties of a user to a piece of evidence.
type EvidenceTies struct {
	Author, Reviewer bool
	// InLinkedAssessment: a participant of an assessment it is linked to.
	InLinkedAssessment bool
	// InCitingAssessment: a participant of an assessment one of whose claims cites it.
	InCitingAssessment bool
}

// CanSeeEvidence reports whether actor, with ties to a piece of evidence, may see it: its
// author and reviewer, the participants of an assessment it is linked to or cited in, and
// those who see all evidence.
func CanSeeEvidence(actor Actor, ties EvidenceTies) bool {
	return SeesAllEvidence(actor) || ties.Author || ties.Reviewer || ties.InLinkedAssessment || ties.InCitingAssessment
}
