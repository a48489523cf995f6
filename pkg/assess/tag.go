package assess

import (
	"context"
	"hash/fnv"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// TagRef is a tag as the records that carry it show it.
type TagRef struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// Tag is a label administrators define and attach to standards, entities and projects.
type Tag struct {
	ID          string    `json:"id"`
	Name        string    `json:"name" doc:"Unique, whatever the letter case"`
	Color       string    `json:"color" doc:"#rrggbb, lower case"`
	Description string    `json:"description"`
	Usage       TagUsage  `json:"usage" doc:"How many records carry the tag, per kind the caller may see"`
	Version     int64     `json:"version" doc:"Optimistic-concurrency version; send it back on update"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// TagUsage counts the records carrying a tag. A count is absent when the caller may not
// see that kind of record (standards.view, entities.view, projects.view), so the tag list,
// which every signed-in user may read, tells nobody about records they cannot see.
type TagUsage struct {
	Standards *int `json:"standards,omitempty"`
	Entities  *int `json:"entities,omitempty"`
	Projects  *int `json:"projects,omitempty"`
}

// TagFilter selects tags for the tag list, ordered by name.
type TagFilter struct {
	Q    string `query:"q" maxLength:"100" doc:"Matches name or description (case-insensitive substring)"`
	Sort string `query:"sort" enum:"name," doc:"name (the default and only order)"`
	PageRequest
}

// NewTag is a tag to create.
type NewTag struct {
	Name        string `json:"name" minLength:"1" maxLength:"100"`
	Color       string `json:"color,omitempty" maxLength:"7" doc:"#rrggbb (either case; stored lower case). When absent, a colour of a fixed palette is chosen from the name, so the same name always gets the same colour."`
	Description string `json:"description,omitempty" maxLength:"1000"`
}

// Validate trims and checks the tag (see TagName and TagColor) and fills in the default
// colour.
func (t *NewTag) Validate() error {
	var details []Detail
	var d *Detail
	t.Name, d = checkTagName(t.Name)
	details = addTagDetail(details, d)
	t.Description = strings.TrimSpace(t.Description)
	if t.Color == "" {
		t.Color = DefaultTagColor(t.Name)
	}
	t.Color, d = checkTagColor(t.Color)
	details = addTagDetail(details, d)
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The tag is invalid.", Details: details}
	}
	return nil
}

// TagUpdate changes a tag. Omitted fields stay as they are.
type TagUpdate struct {
	Version     int64   `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Name        *string `json:"name,omitempty" minLength:"1" maxLength:"100"`
	Color       *string `json:"color,omitempty" maxLength:"7" doc:"#rrggbb"`
	Description *string `json:"description,omitempty" maxLength:"1000"`
}

// Validate trims and checks the fields present.
func (u *TagUpdate) Validate() error {
	var details []Detail
	var d *Detail
	if u.Name != nil {
		var n string
		n, d = checkTagName(*u.Name)
		u.Name = &n
		details = addTagDetail(details, d)
	}
	if u.Color != nil {
		var c string
		c, d = checkTagColor(*u.Color)
		u.Color = &c
		details = addTagDetail(details, d)
	}
	if u.Description != nil {
		s := strings.TrimSpace(*u.Description)
		u.Description = &s
	}
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The tag is invalid.", Details: details}
	}
	return nil
}

// addTagDetail appends d when it is not nil.
func addTagDetail(details []Detail, d *Detail) []Detail {
	if d == nil {
		return details
	}
	return append(details, *d)
}

// tagColorPattern is the accepted colour form: # and six hex digits, either case.
var tagColorPattern = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// checkTagName trims a tag name and checks it: 1–100 characters, no control characters.
func checkTagName(name string) (string, *Detail) {
	name = strings.TrimSpace(name)
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return name, &Detail{Field: "name", Code: "required", Message: "Name the tag."}
	case n > 100:
		return name, &Detail{Field: "name", Code: "too_long", Message: "At most 100 characters."}
	case strings.ContainsFunc(name, unicode.IsControl):
		return name, &Detail{Field: "name", Code: "invalid", Message: "A tag name cannot contain control characters."}
	}
	return name, nil
}

// checkTagColor checks a #rrggbb colour and returns it in lower case.
func checkTagColor(c string) (string, *Detail) {
	c = strings.TrimSpace(c)
	if !tagColorPattern.MatchString(c) {
		return c, &Detail{Field: "color", Code: "invalid", Message: "A colour is # followed by six hex digits, such as #2563eb."}
	}
	return strings.ToLower(c), nil
}

// TagPalette is the set of default tag colours: distinct, readable with white text, and
// legible in light and dark mode.
var TagPalette = []string{
	"#2563eb", "#7c3aed", "#db2777", "#dc2626", "#ea580c", "#ca8a04",
	"#16a34a", "#0d9488", "#0891b2", "#4f46e5", "#9333ea", "#475569",
}

// DefaultTagColor is the colour a tag created without one gets: a palette entry chosen by
// the FNV-1a hash of the lower-cased name, so the same name always gets the same colour.
func DefaultTagColor(name string) string {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(strings.TrimSpace(name))))
	return TagPalette[h.Sum32()%uint32(len(TagPalette))]
}

// TagService manages tags and their attachment to records.
type TagService interface {
	// FindTags returns one page of tags by name, with the usage counts actor may see.
	FindTags(ctx context.Context, f TagFilter, actor Actor) (Page[Tag], error)
	// CreateTag creates a tag; a name taken in any letter case is 409 already_exists.
	CreateTag(ctx context.Context, nt NewTag, actor Actor) (Tag, error)
	// UpdateTag changes a tag with optimistic concurrency.
	UpdateTag(ctx context.Context, id string, upd TagUpdate, actor Actor) (Tag, error)
	// DeleteTag deletes a tag and detaches it from every record carrying it.
	DeleteTag(ctx context.Context, id string, actor Actor) error
}
