package assess

import (
	"context"
	"time"
)

// The dashboard (PRODUCT P5.9, issue 25; docs/assessments.md, "Dashboard"): where the
// organisation stands, as far as the caller may see. Every figure counts only what the caller
// may open — the object-level rule of assessments and evidence applies in SQL to each — so a
// participant's dashboard is about their assessments and an administrator's about all.

// DashboardExpiringDays is how far ahead "expiring" looks.
const DashboardExpiringDays = 30

// Dashboard is every figure of the dashboard for one caller.
type Dashboard struct {
	GeneratedAt  time.Time           `json:"generatedAt"`
	ExpiringDays int                 `json:"expiringDays" doc:"How many days ahead expiring evidence and attestations are counted"`
	Assessments  DashboardAssessment `json:"assessments"`
	Evidence     DashboardEvidence   `json:"evidence"`
	Attestations DashboardAttest     `json:"attestations"`
	// Conformance is per standard of the finished (complete or archived) assessments.
	Conformance []StandardConformance `json:"conformance"`
	// Upcoming are the next due dates of open assessments (at most 10), overdue first.
	Upcoming []DueAssessment `json:"upcoming"`
	// WeakestRequirements are the requirements answered "no" or "partial" most often across
	// the finished assessments (at most 10).
	WeakestRequirements []RequirementRisk `json:"weakestRequirements"`
	// ExpiringCited is evidence that a sealed attestation cites and that expires within
	// ExpiringDays or has expired (at most 10).
	ExpiringCited []CitedEvidence `json:"expiringCited"`
	// RecentActivity is the latest changes recorded under the assessments the caller may see
	// (their timelines' entries, newest first, at most DashboardRecentActivity).
	RecentActivity []DashboardActivity `json:"recentActivity"`
}

// DashboardRecentActivity is how many recent changes the dashboard lists.
const DashboardRecentActivity = 10

// DashboardActivity is one change on the timeline of an assessment.
type DashboardActivity struct {
	AssessmentID    string        `json:"assessmentId"`
	AssessmentTitle string        `json:"assessmentTitle"`
	Entry           TimelineEntry `json:"entry"`
}

// StateCount is how many records are in one state.
type StateCount struct {
	State string `json:"state"`
	Count int    `json:"count"`
}

// DashboardAssessment counts assessments.
type DashboardAssessment struct {
	Total   int          `json:"total"`
	ByState []StateCount `json:"byState" doc:"Every state, in lifecycle order, with its count (zero included)"`
	Overdue int          `json:"overdue" doc:"Open assessments whose due date has passed"`
}

// DashboardEvidence counts evidence.
type DashboardEvidence struct {
	Total    int          `json:"total"`
	ByState  []StateCount `json:"byState"`
	InReview int          `json:"inReview"`
	Expiring int          `json:"expiring" doc:"Not expired, valid until within expiringDays"`
	Expired  int          `json:"expired"`
}

// DashboardAttest counts attestations.
type DashboardAttest struct {
	Total    int          `json:"total"`
	ByState  []StateCount `json:"byState"`
	Sealed   int          `json:"sealed"`
	Expiring int          `json:"expiring" doc:"Sealed, valid until within expiringDays"`
}

// StandardConformance is the conformance of the finished assessments of one standard.
type StandardConformance struct {
	StandardID      string   `json:"standardId"`
	Name            string   `json:"name"`
	StandardVersion string   `json:"standardVersion"`
	Assessments     int      `json:"assessments" doc:"Finished assessments of the standard"`
	AverageScore    *float64 `json:"averageScore" doc:"Mean of their scores for the standard, 0–100; null when none has one"`
	Yes             int      `json:"yes"`
	Partial         int      `json:"partial"`
	No              int      `json:"no"`
	NotApplicable   int      `json:"notApplicable"`
}

// DueAssessment is an open assessment with a due date.
type DueAssessment struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	EntityName string `json:"entityName"`
	State      string `json:"state"`
	DueDate    string `json:"dueDate" doc:"YYYY-MM-DD"`
	Overdue    bool   `json:"overdue"`
}

// RequirementRisk is a requirement often not met.
type RequirementRisk struct {
	RequirementID string  `json:"requirementId"`
	Identifier    string  `json:"identifier"`
	Name          string  `json:"name"`
	StandardID    string  `json:"standardId"`
	StandardName  string  `json:"standardName"`
	Answered      int     `json:"answered" doc:"Finished assessments that answered it (not applicable left out)"`
	No            int     `json:"no"`
	Partial       int     `json:"partial"`
	Score         float64 `json:"score" doc:"Mean conformance over those answers, 0–100"`
}

// CitedEvidence is evidence a sealed attestation relies on, with its validity.
type CitedEvidence struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	ValidUntil    string `json:"validUntil"`
	Expired       bool   `json:"expired"`
	AttestationID string `json:"attestationId"`
	Assessment    string `json:"assessmentTitle"`
}

// DashboardService computes the dashboard of a caller.
type DashboardService interface {
	Dashboard(ctx context.Context, actor Actor) (Dashboard, error)
}
