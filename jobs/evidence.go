package jobs

import "github.com/riverqueue/river"

// ExpireEvidenceArgs asks for evidence past its valid-until day to be marked expired and
// for evidence reaching it within ReminderDays to be announced once as expiring.
type ExpireEvidenceArgs struct {
	// ReminderDays is EVIDENCE_EXPIRY_REMINDER_DAYS; 0 sends no reminders.
	ReminderDays int `json:"reminderDays"`
}

// Kind implements river.JobArgs.
func (ExpireEvidenceArgs) Kind() string { return "maintenance.expire_evidence" }

// InsertOpts implements river.JobArgsWithInsertOpts: the maintenance queue, few attempts,
// since the next period runs it again anyway.
func (ExpireEvidenceArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMaintenance, MaxAttempts: 3}
}
