package assess

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Requirements and levels of a standard: the inputs that write them and the tree that
// shows them. Every write is allowed only while the standard is a draft.

// Limits of requirement fields.
const (
	maxRequirementNameLen = 1000
	maxOpenCRE            = 50
	maxProperties         = 200
	// MaxPosition bounds positions among siblings.
	MaxPosition = 100000
)

// TreeRequirement is a requirement as the tree shows it: where it sits and how many
// children it has, so a client can render the flat depth-first list as a tree.
type TreeRequirement struct {
	Requirement
	Depth      int `json:"depth" doc:"0 for a top-level requirement"`
	ChildCount int `json:"childCount"`
}

// StandardTree is a standard with its whole requirement tree, depth-first (siblings by
// position, then identifier in natural order), and its levels.
type StandardTree struct {
	Standard     Standard          `json:"standard"`
	Requirements []TreeRequirement `json:"requirements"`
	Levels       []Level           `json:"levels"`
}

// RequirementFilter selects a page of one standard's requirements, in natural order of
// their identifiers.
type RequirementFilter struct {
	StandardID string
	ParentID   string
	Level      string
	Q          string
	PageRequest
}

// requirementFields are the fields a requirement write may carry, checked alike for
// single and bulk writes.
type requirementFields struct {
	Identifier         *string
	Name               *string
	Description        *string
	OpenCRE            *[]string
	ExternalReferences *[]ExternalReference
	Properties         *[]Property
}

func (f requirementFields) check(c *checker, prefix string) {
	if f.Identifier != nil {
		c.identifier(prefix+"identifier", f.Identifier)
	}
	if f.Name != nil {
		c.line(prefix+"name", f.Name, 0, maxRequirementNameLen)
	}
	if f.Description != nil {
		c.text(prefix+"description", f.Description, maxDescriptionLen)
	}
	if f.OpenCRE != nil {
		c.openCRE(prefix+"openCre", *f.OpenCRE)
	}
	if f.ExternalReferences != nil {
		c.references(prefix+"externalReferences", *f.ExternalReferences)
	}
	if f.Properties != nil {
		c.properties(prefix+"properties", *f.Properties)
	}
}

// NewRequirement adds a requirement to a draft standard.
type NewRequirement struct {
	Identifier         string              `json:"identifier" minLength:"1" maxLength:"200" doc:"Unique within the standard, e.g. V1.2.3"`
	Name               string              `json:"name,omitempty" maxLength:"1000"`
	Description        string              `json:"description,omitempty" maxLength:"100000"`
	ParentID           string              `json:"parentId,omitempty" maxLength:"64" doc:"A requirement of the same standard; top level when absent"`
	Position           *int                `json:"position,omitempty" minimum:"0" maximum:"100000" doc:"Among its siblings; last when absent"`
	OpenCRE            []string            `json:"openCre,omitempty" maxItems:"50"`
	ExternalReferences []ExternalReference `json:"externalReferences,omitempty" maxItems:"100"`
	Properties         []Property          `json:"properties,omitempty" maxItems:"200"`
}

// Validate trims and checks the requirement.
func (n *NewRequirement) Validate() error {
	var c checker
	requirementFields{&n.Identifier, &n.Name, &n.Description, &n.OpenCRE, &n.ExternalReferences, &n.Properties}.check(&c, "")
	n.ParentID = strings.TrimSpace(n.ParentID)
	c.position("position", n.Position)
	return c.err("The requirement is invalid.")
}

// RequirementUpdate changes a requirement; absent fields stay. Its place in the tree
// changes with RequirementMove.
type RequirementUpdate struct {
	Version            int64                `json:"version" minimum:"1"`
	Identifier         *string              `json:"identifier,omitempty" minLength:"1" maxLength:"200"`
	Name               *string              `json:"name,omitempty" maxLength:"1000"`
	Description        *string              `json:"description,omitempty" maxLength:"100000"`
	OpenCRE            *[]string            `json:"openCre,omitempty" maxItems:"50"`
	ExternalReferences *[]ExternalReference `json:"externalReferences,omitempty" maxItems:"100"`
	Properties         *[]Property          `json:"properties,omitempty" maxItems:"200"`
}

// Validate trims and checks the fields present.
func (u *RequirementUpdate) Validate() error {
	var c checker
	requirementFields{u.Identifier, u.Name, u.Description, u.OpenCRE, u.ExternalReferences, u.Properties}.check(&c, "")
	return c.err("The change is invalid.")
}

// RequirementMove puts a requirement under another parent (null: top level) at a
// position among its new siblings; the siblings are renumbered 0..n-1.
type RequirementMove struct {
	ParentID *string `json:"parentId" maxLength:"64" doc:"The new parent, of the same standard; null for top level"`
	Position int     `json:"position" minimum:"0" maximum:"100000" doc:"Among the new siblings; past the end means last"`
}

// Validate checks the position.
func (m *RequirementMove) Validate() error {
	var c checker
	c.position("position", &m.Position)
	if m.ParentID != nil {
		p := strings.TrimSpace(*m.ParentID)
		m.ParentID = &p
	}
	return c.err("The move is invalid.")
}

// BulkRequirement is one requirement of a bulk write, matched by identifier: created when
// the standard has no requirement of that identifier, updated (every field) otherwise.
type BulkRequirement struct {
	Identifier         string              `json:"identifier" minLength:"1" maxLength:"200"`
	ParentIdentifier   string              `json:"parentIdentifier,omitempty" maxLength:"200" doc:"In this request or already in the standard; top level when absent"`
	Name               string              `json:"name,omitempty" maxLength:"1000"`
	Description        string              `json:"description,omitempty" maxLength:"100000"`
	Position           *int                `json:"position,omitempty" minimum:"0" maximum:"100000" doc:"Among its siblings; when absent kept, or for a new one after the existing siblings (new ones in natural order)"`
	OpenCRE            []string            `json:"openCre,omitempty" maxItems:"50"`
	ExternalReferences []ExternalReference `json:"externalReferences,omitempty" maxItems:"100"`
	Properties         []Property          `json:"properties,omitempty" maxItems:"200"`
	BOMRef             string              `json:"bomRef,omitempty" maxLength:"1000" doc:"CycloneDX bom-ref, for imports"`
}

// BulkRequirements creates or updates many requirements of a draft in one change.
type BulkRequirements struct {
	Requirements []BulkRequirement `json:"requirements" minItems:"1" maxItems:"5000"`
}

// Validate trims and checks every item; identifiers are unique in the request and no
// item is its own parent.
func (b *BulkRequirements) Validate() error {
	var c checker
	if len(b.Requirements) == 0 || len(b.Requirements) > MaxBulkRequirements {
		c.add("requirements", "out_of_range", "Between 1 and "+strconv.Itoa(MaxBulkRequirements)+" requirements.")
	}
	seen := make(map[string]bool, len(b.Requirements))
	for i := range b.Requirements {
		r := &b.Requirements[i]
		prefix := "requirements[" + strconv.Itoa(i) + "]."
		requirementFields{&r.Identifier, &r.Name, &r.Description, &r.OpenCRE, &r.ExternalReferences, &r.Properties}.check(&c, prefix)
		r.ParentIdentifier = strings.TrimSpace(r.ParentIdentifier)
		r.BOMRef = strings.TrimSpace(r.BOMRef)
		c.position(prefix+"position", r.Position)
		if seen[r.Identifier] {
			c.add(prefix+"identifier", "duplicate", "The identifier appears twice in the request.")
		}
		seen[r.Identifier] = true
		if r.ParentIdentifier != "" && r.ParentIdentifier == r.Identifier {
			c.add(prefix+"parentIdentifier", "cycle", "A requirement cannot be its own parent.")
		}
	}
	return c.err("The requirements are invalid.")
}

// BulkResult counts what a bulk write did.
type BulkResult struct {
	Created int `json:"created"`
	Updated int `json:"updated"`
}

// NewLevel adds a level to a draft standard.
type NewLevel struct {
	Identifier     string   `json:"identifier" minLength:"1" maxLength:"200" doc:"Unique within the standard, e.g. L1"`
	Title          string   `json:"title,omitempty" maxLength:"500"`
	Description    string   `json:"description,omitempty" maxLength:"100000"`
	Position       *int     `json:"position,omitempty" minimum:"0" maximum:"100000" doc:"Order among the levels; last when absent"`
	RequirementIDs []string `json:"requirementIds,omitempty" maxItems:"10000" doc:"Requirements of this standard the level includes"`
}

// Validate trims and checks the level.
func (n *NewLevel) Validate() error {
	var c checker
	c.identifier("identifier", &n.Identifier)
	c.line("title", &n.Title, 0, maxNameLen)
	c.text("description", &n.Description, maxDescriptionLen)
	c.position("position", n.Position)
	return c.err("The level is invalid.")
}

// LevelUpdate changes a level; requirementIds, when present, is the full set.
type LevelUpdate struct {
	Version        int64     `json:"version" minimum:"1"`
	Identifier     *string   `json:"identifier,omitempty" minLength:"1" maxLength:"200"`
	Title          *string   `json:"title,omitempty" maxLength:"500"`
	Description    *string   `json:"description,omitempty" maxLength:"100000"`
	Position       *int      `json:"position,omitempty" minimum:"0" maximum:"100000"`
	RequirementIDs *[]string `json:"requirementIds,omitempty" maxItems:"10000" doc:"The full set of requirements the level includes"`
}

// Validate trims and checks the fields present.
func (u *LevelUpdate) Validate() error {
	var c checker
	if u.Identifier != nil {
		c.identifier("identifier", u.Identifier)
	}
	if u.Title != nil {
		c.line("title", u.Title, 0, maxNameLen)
	}
	if u.Description != nil {
		c.text("description", u.Description, maxDescriptionLen)
	}
	c.position("position", u.Position)
	return c.err("The change is invalid.")
}

// checker collects the problems of one input, field by field.
type checker struct{ details []Detail }

func (c *checker) add(field, code, msg string) {
	c.details = append(c.details, Detail{Field: field, Code: code, Message: msg})
}

// err is nil without problems, else 400 validation_failed with them.
func (c *checker) err(msg string) error {
	if len(c.details) == 0 {
		return nil
	}
	return &Error{Code: ECodeValidation, Message: msg, Details: c.details}
}

// text trims a multi-line text and checks its length and that it holds no NUL.
func (c *checker) text(field string, s *string, maxLen int) {
	*s = strings.TrimSpace(*s)
	switch {
	case !utf8.ValidString(*s) || strings.ContainsRune(*s, 0):
		c.add(field, "invalid_character", "The text contains a NUL character or invalid UTF-8.")
	case utf8.RuneCountInString(*s) > maxLen:
		c.add(field, "too_long", "At most "+strconv.Itoa(maxLen)+" characters.")
	}
}

// line trims a one-line text and checks its length and that it holds no control characters.
func (c *checker) line(field string, s *string, minLen, maxLen int) {
	*s = strings.TrimSpace(*s)
	n := utf8.RuneCountInString(*s)
	switch {
	case !utf8.ValidString(*s) || strings.ContainsFunc(*s, unicode.IsControl):
		c.add(field, "invalid_character", "Control characters (line breaks, tabs, NUL) are not allowed here.")
	case n < minLen && minLen == 1:
		c.add(field, "required", "Required; it cannot be blank.")
	case n > maxLen:
		c.add(field, "too_long", "At most "+strconv.Itoa(maxLen)+" characters.")
	}
}

// identifier checks an identifier: a required line of at most 200 characters.
func (c *checker) identifier(field string, s *string) { c.line(field, s, 1, maxIdentifierLen) }

func (c *checker) position(field string, p *int) {
	if p != nil && (*p < 0 || *p > MaxPosition) {
		c.add(field, "out_of_range", "Between 0 and "+strconv.Itoa(MaxPosition)+".")
	}
}

func (c *checker) references(field string, refs []ExternalReference) {
	if len(refs) > 100 {
		c.add(field, "too_many", "At most 100 references.")
	}
	for i := range refs {
		f := field + "[" + strconv.Itoa(i) + "]."
		c.line(f+"type", &refs[i].Type, 1, 64)
		c.line(f+"url", &refs[i].URL, 1, 2048)
		c.line(f+"comment", &refs[i].Comment, 0, 1000)
	}
}

func (c *checker) openCRE(field string, ids []string) {
	if len(ids) > maxOpenCRE {
		c.add(field, "too_many", "At most "+strconv.Itoa(maxOpenCRE)+" OpenCRE identifiers.")
	}
	for i := range ids {
		c.line(field+"["+strconv.Itoa(i)+"]", &ids[i], 1, 100)
	}
}

func (c *checker) properties(field string, props []Property) {
	if len(props) > maxProperties {
		c.add(field, "too_many", "At most "+strconv.Itoa(maxProperties)+" properties.")
	}
	for i := range props {
		f := field + "[" + strconv.Itoa(i) + "]."
		c.line(f+"name", &props[i].Name, 1, 200)
		c.text(f+"value", &props[i].Value, 10000)
	}
}
