package assess

import "context"

// DemoDataSummary tells what loading the demo organisation created.
type DemoDataSummary struct {
	Created       DemoDataCounts `json:"created"`
	AlreadyLoaded bool           `json:"alreadyLoaded" doc:"The demo data was loaded before; nothing was created this time"`
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
