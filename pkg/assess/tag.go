package assess

// TagRef is a tag as the records that carry it show it.
type TagRef struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// TagService manages tags and their attachment to records.
type TagService interface{}
