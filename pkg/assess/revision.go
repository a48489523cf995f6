package assess

// Revision names one state of what a read answers, as the database holds it: two reads of
// the same resource, with the same parameters, under equal revisions answer alike. The API
// derives answers' ETags from it, answers If-None-Match with 304 Not Modified, and keeps
// encoded answers in memory under it.
//
// Tag is opaque (it is made of PostgreSQL row versions) and compared for equality only. It
// comes from the database at every read, so it moves with every committed change of what
// the read shows, whichever replica or process made it.
type Revision struct {
	// Tag is the state; equal tags, equal answers.
	Tag string
	// Keep tells that answers under this tag are worth keeping encoded: a published or
	// retired standard, whose content can no longer change (a later change of what its
	// reads show, such as its retirement or a renamed tag, gives a new Tag), or a read
	// that is costly to compute. A draft's answers are not kept: each edit would leave a
	// stale copy behind.
	Keep bool
}
