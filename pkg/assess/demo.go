package assess

import "context"

// DemoDataSummary tells what loading the demo organisation created, and which of its
// records existed already by name (and so were used as they are, or left out).
type DemoDataSummary struct {
	Created       DemoDataCounts   `json:"created"`
	Existing      DemoDataExisting `json:"existing"`
	AlreadyLoaded bool             `json:"alreadyLoaded" doc:"The demo data was loaded before; nothing was created this time"`
}

// DemoDataExisting names the demo records a load did not create because a record of the
// same name existed: entities and tags are used as they are (the demo relationships and
// projects refer to them), accounts are left out.
type DemoDataExisting struct {
	Entities []string `json:"entities" doc:"Demo entities whose name an entity has already (case-insensitive): that entity is used instead, unchanged"`
	Tags     []string `json:"tags" doc:"Demo tags whose name a tag has already: that tag is used"`
	Users    []string `json:"users" doc:"Demo accounts whose username or e-mail address is taken: left out"`
}

// DemoDataCounts count the records a demo load created.
type DemoDataCounts struct {
	Entities      int `json:"entities"`
	Relationships int `json:"relationships"`
	Projects      int `json:"projects"`
	Tags          int `json:"tags"`
	Users         int `json:"users" doc:"Demo accounts, created deactivated and without a password"`
}

// DemoDataService loads the demo organisation (docs/catalogue.md, "Demo data").
type DemoDataService interface {
	// LoadDemoData creates the demo organisation in one transaction, once: a second call
	// creates nothing and says so.
	LoadDemoData(ctx context.Context, actor Actor) (DemoDataSummary, error)
}
