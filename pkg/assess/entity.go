package assess

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// EntityType is what kind of thing an entity is.
type EntityType string

// Entity types (the CHECK of entities.entity_type).
const (
	EntityTypeOrganization   EntityType = "organization"
	EntityTypeBusinessUnit   EntityType = "business_unit"
	EntityTypeTeam           EntityType = "team"
	EntityTypeProduct        EntityType = "product"
	EntityTypeProductVersion EntityType = "product_version"
	EntityTypeComponent      EntityType = "component"
	EntityTypeService        EntityType = "service"
	EntityTypeProject        EntityType = "project"
	EntityTypeVendor         EntityType = "vendor"
	EntityTypeSupplier       EntityType = "supplier"
)

// EntityTypes lists every entity type.
var EntityTypes = []EntityType{EntityTypeOrganization, EntityTypeBusinessUnit, EntityTypeTeam, EntityTypeProduct, EntityTypeProductVersion,
	EntityTypeComponent, EntityTypeService, EntityTypeProject, EntityTypeVendor, EntityTypeSupplier}

// Valid reports whether t is a known entity type.
func (t EntityType) Valid() bool { return slices.Contains(EntityTypes, t) }

// EntityState is where an entity is in its lifecycle.
type EntityState string

// Entity states.
const (
	EntityActive   EntityState = "active"
	EntityInactive EntityState = "inactive"
	EntityArchived EntityState = "archived"
)

// EntityLifecycle is the entity state machine. Active and inactive are two working states
// that move freely into each other; either can be archived. An archived entity is hidden
// from lists (unless asked for), from graphs and from policy inheritance, and takes no new
// relationships or policies; restoring it makes it active again. Archived is not final:
// deletion, not archiving, is what removes an entity.
var EntityLifecycle = NewStateMachine("entity", []Transition[EntityState]{
	{EntityActive, []EntityState{EntityInactive, EntityArchived}},
	{EntityInactive, []EntityState{EntityActive, EntityArchived}},
	{EntityArchived, []EntityState{EntityActive}},
})

// RelationshipType is the kind of a directed edge source → target of the entity graph.
type RelationshipType string

// Relationship types (the CHECK of entity_relationships.relationship_type).
const (
	RelOwns      RelationshipType = "owns"
	RelContains  RelationshipType = "contains"
	RelGoverns   RelationshipType = "governs"
	RelSupplies  RelationshipType = "supplies"
	RelDependsOn RelationshipType = "depends_on"
	RelConsumes  RelationshipType = "consumes"
	RelAssesses  RelationshipType = "assesses"
	RelProduces  RelationshipType = "produces"
)

// RelationshipTypes lists every relationship type.
var RelationshipTypes = []RelationshipType{RelOwns, RelContains, RelGoverns, RelSupplies, RelDependsOn, RelConsumes,
	RelAssesses, RelProduces}

// InheritingRelationships are the types along which compliance policies flow: the
// source owns, contains or governs the target, so the target inherits the source's
// policies (and, transitively, those the source inherits).
var InheritingRelationships = []RelationshipType{RelOwns, RelContains, RelGoverns}

// Valid reports whether t is a known relationship type.
func (t RelationshipType) Valid() bool { return slices.Contains(RelationshipTypes, t) }

// Inherits reports whether policies flow from source to target along t.
func (t RelationshipType) Inherits() bool { return slices.Contains(InheritingRelationships, t) }

// Graph bounds: the depth of an entity-centred graph (default and largest), the largest
// graph answered (nodes of an entity's graph, edges of the whole graph; beyond it the
// answer says truncated), and how many levels up policy inheritance looks.
const (
	DefaultGraphDepth   = 3
	MaxGraphDepth       = 10
	MaxGraphNodes       = 500
	MaxGraphEdges       = 2000
	MaxInheritanceDepth = 32
)

// Entity is an organisation, product, service, vendor … that standards apply to and that
// assessments look at.
type Entity struct {
	ID          string      `json:"id" example:"en_01hx8n6q7k3m2v9c4t5r6s7p8a"`
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Type        EntityType  `json:"type" enum:"organization,business_unit,team,product,product_version,component,service,project,vendor,supplier"`
	State       EntityState `json:"state" enum:"active,inactive,archived"`
	OwnerID     string      `json:"ownerId,omitempty" doc:"The user responsible for the entity"`
	OwnerName   string      `json:"ownerName,omitempty" doc:"The owner's display name"`
	BOMRef      string      `json:"bomRef" doc:"CycloneDX bom-ref of the entity in exported documents"`
	Tags        []TagRef    `json:"tags"`
	Version     int64       `json:"version" doc:"Optimistic-concurrency version; send it back on update"`
	CreatedAt   time.Time   `json:"createdAt"`
	UpdatedAt   time.Time   `json:"updatedAt"`
}

const entityTypeEnum = "organization,business_unit,team,product,product_version,component,service,project,vendor,supplier"

// NewEntity is a request to create an entity.
type NewEntity struct {
	Name        string      `json:"name" minLength:"1" maxLength:"300"`
	Description string      `json:"description,omitempty" maxLength:"10000"`
	Type        EntityType  `json:"type" enum:"organization,business_unit,team,product,product_version,component,service,project,vendor,supplier"`
	State       EntityState `json:"state,omitempty" enum:"active,inactive" doc:"active (default) or inactive"`
	OwnerID     string      `json:"ownerId,omitempty" maxLength:"64" doc:"A user id"`
	BOMRef      string      `json:"bomRef,omitempty" maxLength:"255" doc:"Default: the entity's id"`
	TagIDs      []string    `json:"tagIds,omitempty" maxItems:"50" doc:"Ids from GET /api/v1/tags"`
}

// Validate normalises the entity (trimmed text, active by default) and checks it.
// Whether the owner and the tags exist is the store's check.
func (n *NewEntity) Validate() error {
	n.Name, n.Description = strings.TrimSpace(n.Name), strings.TrimSpace(n.Description)
	n.OwnerID, n.BOMRef = strings.TrimSpace(n.OwnerID), strings.TrimSpace(n.BOMRef)
	if n.State == "" {
		n.State = EntityActive
	}
	details := entityNameProblems(nil, n.Name)
	if !n.Type.Valid() {
		details = append(details, Detail{Field: "type", Code: "invalid", Message: "One of " + entityTypeEnum + "."})
	}
	if n.State != EntityActive && n.State != EntityInactive {
		details = append(details, Detail{Field: "state", Code: "invalid", Message: "A new entity is active or inactive."})
	}
	if n.OwnerID != "" && !ValidID(PrefixUser, n.OwnerID) {
		details = append(details, unknownOwner)
	}
	details = tagIDProblems(details, n.TagIDs)
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The entity is invalid.", Details: details}
	}
	return nil
}

var unknownOwner = Detail{Field: "ownerId", Code: "unknown", Message: "The owner must be the id of an existing user."}

func entityNameProblems(details []Detail, name string) []Detail {
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		details = append(details, Detail{Field: "name", Code: "required", Message: "The name cannot be blank."})
	case n > 300:
		details = append(details, Detail{Field: "name", Code: "too_long", Message: "At most 300 characters."})
	}
	return details
}

func tagIDProblems(details []Detail, ids []string) []Detail {
	for _, id := range ids {
		if !ValidID(PrefixTag, id) {
			return append(details, Detail{Field: "tagIds", Code: "unknown", Message: "Use ids from GET /api/v1/tags."})
		}
	}
	return details
}

// EntityUpdate changes an entity; absent fields stay. A state change follows
// EntityLifecycle. An empty ownerId removes the owner; tagIds replaces the whole tag set.
type EntityUpdate struct {
	Version     int64        `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Name        *string      `json:"name,omitempty" minLength:"1" maxLength:"300"`
	Description *string      `json:"description,omitempty" maxLength:"10000"`
	Type        *EntityType  `json:"type,omitempty" enum:"organization,business_unit,team,product,product_version,component,service,project,vendor,supplier"`
	State       *EntityState `json:"state,omitempty" enum:"active,inactive,archived" doc:"Moves through the lifecycle: active ↔ inactive, either → archived, archived → active"`
	OwnerID     *string      `json:"ownerId,omitempty" maxLength:"64" doc:"A user id; empty removes the owner"`
	BOMRef      *string      `json:"bomRef,omitempty" maxLength:"255"`
	TagIDs      *[]string    `json:"tagIds,omitempty" maxItems:"50" doc:"The whole tag set"`
}

// Validate normalises the update (trimmed text) and checks what needs no database.
func (u *EntityUpdate) Validate() error {
	var details []Detail
	if u.Name != nil {
		s := strings.TrimSpace(*u.Name)
		u.Name = &s
		details = entityNameProblems(details, s)
	}
	if u.Description != nil {
		s := strings.TrimSpace(*u.Description)
		u.Description = &s
	}
	if u.Type != nil && !u.Type.Valid() {
		details = append(details, Detail{Field: "type", Code: "invalid", Message: "One of " + entityTypeEnum + "."})
	}
	if u.State != nil && !slices.Contains(EntityLifecycle.States(), *u.State) {
		details = append(details, Detail{Field: "state", Code: "invalid", Message: "One of active, inactive, archived."})
	}
	if u.OwnerID != nil {
		s := strings.TrimSpace(*u.OwnerID)
		u.OwnerID = &s
		if s != "" && !ValidID(PrefixUser, s) {
			details = append(details, unknownOwner)
		}
	}
	if u.BOMRef != nil {
		s := strings.TrimSpace(*u.BOMRef)
		u.BOMRef = &s
	}
	if u.TagIDs != nil {
		details = tagIDProblems(details, *u.TagIDs)
	}
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The entity change is invalid.", Details: details}
	}
	return nil
}

// EntityFilter selects entities for the list. Archived entities are left out unless the
// state filter asks for them.
type EntityFilter struct {
	Type  string `query:"type" enum:"organization,business_unit,team,product,product_version,component,service,project,vendor,supplier," doc:"Only entities of this type"`
	State string `query:"state" enum:"active,inactive,archived," doc:"Only entities in this state; archived ones are listed only when asked for"`
	Tag   string `query:"tag" maxLength:"64" doc:"Only entities carrying this tag (a tag id)"`
	Owner string `query:"owner" maxLength:"64" doc:"Only entities owned by this user (a user id)"`
	Q     string `query:"q" maxLength:"100" doc:"Matches name or description (case-insensitive substring)"`
	Sort  string `query:"sort" enum:"name,-createdAt," doc:"name (default) or -createdAt (newest first)"`
	PageRequest
}

// Relationship is a directed edge of the entity graph: source <type> target, e.g. an
// organisation owns a business unit.
type Relationship struct {
	ID         string           `json:"id" example:"er_01hx8n6q7k3m2v9c4t5r6s7p8a"`
	SourceID   string           `json:"sourceId"`
	SourceName string           `json:"sourceName"`
	TargetID   string           `json:"targetId"`
	TargetName string           `json:"targetName"`
	Type       RelationshipType `json:"type" enum:"owns,contains,governs,supplies,depends_on,consumes,assesses,produces"`
	Direction  string           `json:"direction,omitempty" enum:"outgoing,incoming" doc:"In an entity's list: outgoing when the entity is the source"`
	CreatedAt  time.Time        `json:"createdAt"`
}

// Relationship directions, as seen from one entity.
const (
	DirectionOutgoing = "outgoing"
	DirectionIncoming = "incoming"
	DirectionBoth     = "both"
)

// NewRelationship is a request to add an edge from the entity of the path to targetId.
type NewRelationship struct {
	TargetID string           `json:"targetId" maxLength:"64"`
	Type     RelationshipType `json:"type" enum:"owns,contains,governs,supplies,depends_on,consumes,assesses,produces"`
}

// Validate checks the edge source → target: a known type, a target id, and no edge from
// an entity to itself (422 self_relationship). Whether the target exists is the store's
// check.
func (r *NewRelationship) Validate(sourceID string) error {
	r.TargetID = strings.TrimSpace(r.TargetID)
	var details []Detail
	if r.TargetID == "" {
		details = append(details, Detail{Field: "targetId", Code: "required", Message: "Name the related entity."})
	}
	if !r.Type.Valid() {
		details = append(details, Detail{Field: "type", Code: "invalid", Message: "One of owns, contains, governs, supplies, depends_on, consumes, assesses, produces."})
	}
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The relationship is invalid.", Details: details}
	}
	if r.TargetID == sourceID {
		msg := "An entity cannot be related to itself."
		return &Error{Code: ECodeBusinessRule, Message: msg, Details: []Detail{{Field: "targetId", Code: DetailSelfRelationship, Message: msg}}}
	}
	return nil
}

// RelationshipFilter selects the relationships of one entity, newest first.
type RelationshipFilter struct {
	Direction string `query:"direction" enum:"outgoing,incoming,both," doc:"outgoing (the entity is the source), incoming, or both (default)"`
	Type      string `query:"type" enum:"owns,contains,governs,supplies,depends_on,consumes,assesses,produces," doc:"Only relationships of this type"`
	PageRequest
}

// GraphQuery shapes the graph around one entity.
type GraphQuery struct {
	Depth     int    `query:"depth" minimum:"1" maximum:"10" default:"3" doc:"How many edges away from the entity, 1–10"`
	Direction string `query:"direction" enum:"outgoing,incoming,both," doc:"Follow edges out of the entity (outgoing), into it (incoming) or both (default)"`
}

// Validate applies the defaults (depth 3, both directions) and checks the bounds.
func (q *GraphQuery) Validate() error {
	if q.Depth == 0 {
		q.Depth = DefaultGraphDepth
	}
	if q.Direction == "" {
		q.Direction = DirectionBoth
	}
	var details []Detail
	if q.Depth < 1 || q.Depth > MaxGraphDepth {
		details = append(details, Detail{Field: "depth", Code: "out_of_range", Message: "Between 1 and 10."})
	}
	if !slices.Contains([]string{DirectionOutgoing, DirectionIncoming, DirectionBoth}, q.Direction) {
		details = append(details, Detail{Field: "direction", Code: "invalid", Message: "outgoing, incoming or both."})
	}
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The graph query is invalid.", Details: details}
	}
	return nil
}

// GraphNode is an entity in a graph answer; depth is its distance from the graph's
// entity (0 for the entity itself; absent in the whole graph).
type GraphNode struct {
	ID    string      `json:"id"`
	Name  string      `json:"name"`
	Type  EntityType  `json:"type" enum:"organization,business_unit,team,product,product_version,component,service,project,vendor,supplier"`
	State EntityState `json:"state" enum:"active,inactive,archived"`
	Depth *int        `json:"depth,omitempty"`
}

// GraphEdge is a relationship in a graph answer.
type GraphEdge struct {
	ID       string           `json:"id"`
	SourceID string           `json:"sourceId"`
	TargetID string           `json:"targetId"`
	Type     RelationshipType `json:"type" enum:"owns,contains,governs,supplies,depends_on,consumes,assesses,produces"`
}

// Graph is a part of the entity graph. Archived entities are left out (except the entity
// a graph is centred on). Truncated says the graph was larger than the answer's bound.
type Graph struct {
	Nodes     []GraphNode `json:"nodes"`
	Edges     []GraphEdge `json:"edges"`
	Truncated bool        `json:"truncated" doc:"More entities or relationships exist than the answer holds"`
}

// PolicySource names the ancestor an inherited policy comes from.
type PolicySource struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Policy is a compliance policy: a standard (optionally one of its levels) applies to an
// entity and, by inheritance, to what it owns, contains or governs.
type Policy struct {
	ID              string        `json:"id" example:"cp_01hx8n6q7k3m2v9c4t5r6s7p8a"`
	EntityID        string        `json:"entityId" doc:"The entity the policy is set on (the ancestor, for an inherited one)"`
	StandardID      string        `json:"standardId"`
	StandardName    string        `json:"standardName"`
	StandardVersion string        `json:"standardVersion"`
	LevelID         string        `json:"levelId,omitempty"`
	LevelName       string        `json:"levelName,omitempty"`
	Description     string        `json:"description"`
	InheritedFrom   *PolicySource `json:"inheritedFrom,omitempty" doc:"Set when the policy applies through an ancestor that owns, contains or governs the entity"`
	Version         int64         `json:"version" doc:"Optimistic-concurrency version; send it back on update"`
	CreatedAt       time.Time     `json:"createdAt"`
	UpdatedAt       time.Time     `json:"updatedAt"`
}

// NewPolicy is a request to apply a standard to an entity.
type NewPolicy struct {
	StandardID  string `json:"standardId" maxLength:"64"`
	LevelID     string `json:"levelId,omitempty" maxLength:"64" doc:"A level of the standard; the whole standard when absent"`
	Description string `json:"description,omitempty" maxLength:"10000"`
}

// Validate trims the policy and checks the ids' shape; the store checks that the
// standard exists and is not retired and that the level is one of its levels.
func (p *NewPolicy) Validate() error {
	p.StandardID, p.LevelID = strings.TrimSpace(p.StandardID), strings.TrimSpace(p.LevelID)
	p.Description = strings.TrimSpace(p.Description)
	if p.StandardID == "" {
		return &Error{Code: ECodeValidation, Message: "The policy is invalid.",
			Details: []Detail{{Field: "standardId", Code: "required", Message: "Name the standard that applies."}}}
	}
	return nil
}

// PolicyUpdate changes a policy's level and description; absent fields stay, an empty
// levelId applies the whole standard. The standard itself does not change: remove the
// policy and add another.
type PolicyUpdate struct {
	Version     int64   `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	LevelID     *string `json:"levelId,omitempty" maxLength:"64" doc:"A level of the policy's standard; empty for the whole standard"`
	Description *string `json:"description,omitempty" maxLength:"10000"`
}

// Validate trims the update.
func (u *PolicyUpdate) Validate() error {
	if u.LevelID != nil {
		s := strings.TrimSpace(*u.LevelID)
		u.LevelID = &s
	}
	if u.Description != nil {
		s := strings.TrimSpace(*u.Description)
		u.Description = &s
	}
	return nil
}

// Error details codes of the entity rules.
const (
	DetailEntityArchived     = "entity_archived"
	DetailStandardRetired    = "standard_retired"
	DetailLevelNotInStandard = "level_not_in_standard"
	DetailSelfRelationship   = "self_relationship"
)

// EntityTypeService manages entities, their relationship graph and compliance policies.
type EntityService interface {
	// FindEntities returns one page of entities (archived ones only when asked for).
	FindEntities(ctx context.Context, f EntityFilter) (Page[Entity], error)
	// FindEntity returns one entity; not_found for an unknown or malformed id.
	FindEntity(ctx context.Context, id string) (Entity, error)
	// CreateEntity creates an entity.
	CreateEntity(ctx context.Context, n NewEntity, actor Actor) (Entity, error)
	// UpdateEntity changes an entity under optimistic concurrency; state changes follow
	// EntityLifecycle.
	UpdateEntity(ctx context.Context, id string, u EntityUpdate, actor Actor) (Entity, error)
	// DeleteEntity removes an entity with its relationships and policies; 409 in_use
	// while a project names it.
	DeleteEntity(ctx context.Context, id string, actor Actor) error

	// FindRelationships returns one page of an entity's relationships, newest first.
	FindRelationships(ctx context.Context, entityID string, f RelationshipFilter) (Page[Relationship], error)
	// AddRelationship adds the edge entity → target.
	AddRelationship(ctx context.Context, entityID string, r NewRelationship, actor Actor) (Relationship, error)
	// RemoveRelationship removes an edge the entity is the source or the target of.
	RemoveRelationship(ctx context.Context, entityID, relationshipID string, actor Actor) error
	// EntityGraph returns the graph around an entity, depth-limited and cycle-safe.
	EntityGraph(ctx context.Context, entityID string, q GraphQuery) (Graph, error)
	// WholeGraph returns every relationship between entities that are not archived, up
	// to MaxGraphEdges.
	WholeGraph(ctx context.Context) (Graph, error)

	// EffectivePolicies returns the entity's direct policies and those it inherits.
	EffectivePolicies(ctx context.Context, entityID string) ([]Policy, error)
	// AddPolicy applies a standard to an entity.
	AddPolicy(ctx context.Context, entityID string, p NewPolicy, actor Actor) (Policy, error)
	// UpdatePolicy changes a direct policy of the entity under optimistic concurrency.
	UpdatePolicy(ctx context.Context, entityID, policyID string, u PolicyUpdate, actor Actor) (Policy, error)
	// RemovePolicy removes a direct policy of the entity.
	RemovePolicy(ctx context.Context, entityID, policyID string, actor Actor) error
}
