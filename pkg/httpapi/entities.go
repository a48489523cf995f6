package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Entities, their relationship graph and compliance policies (routes: entityRoutes).

var tagEntities = []string{"Entities"}

var docEntityList = huma.Operation{OperationID: "listEntities", Summary: "List entities", Tags: tagEntities,
	Description: "Filter by type, state, tag (a tag id), owner (a user id) and q (name or description), ordered by " +
		"name or newest first, cursor-paginated. Archived entities are listed only with state=archived."}

func (s *Server) handleEntityList(ctx context.Context, in *assess.EntityFilter) (*body[assess.Page[assess.Entity]], error) {
	page, err := s.dep.Entities.FindEntities(ctx, *in)
	return reply(page), err
}

var docEntityCreate = huma.Operation{OperationID: "createEntity", Summary: "Create an entity", Tags: tagEntities,
	DefaultStatus: http.StatusCreated,
	Description: "An organisation, business unit, team, product, product version, component, service, project, " +
		"vendor or supplier; active unless created inactive. Unknown tagIds or ownerId are 400 on that field."}

func (s *Server) handleEntityCreate(ctx context.Context, in *body[assess.NewEntity]) (*body[assess.Entity], error) {
	e, err := s.dep.Entities.CreateEntity(ctx, in.Body, requestActor(ctx))
	return reply(e), err
}

var docEntityGet = huma.Operation{OperationID: "getEntity", Summary: "Get an entity", Tags: tagEntities,
	Errors: []int{http.StatusNotFound}}

func (s *Server) handleEntityGet(ctx context.Context, in *idInput) (*body[assess.Entity], error) {
	e, err := s.dep.Entities.FindEntity(ctx, in.ID)
	return reply(e), err
}

var docEntityUpdate = huma.Operation{OperationID: "updateEntity", Summary: "Update an entity", Tags: tagEntities,
	Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Absent fields stay; tagIds replaces the tag set; an empty ownerId removes the owner. Send the " +
		"version last read; a stale one gets 409 version_conflict. The state moves active ↔ inactive, either → " +
		"archived (archive) and archived → active (restore); another move is 409 invalid_state_transition."}

func (s *Server) handleEntityUpdate(ctx context.Context, in *idBody[assess.EntityUpdate]) (*body[assess.Entity], error) {
	e, err := s.dep.Entities.UpdateEntity(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(e), err
}

var docEntityDelete = huma.Operation{OperationID: "deleteEntity", Summary: "Delete an entity", Tags: tagEntities,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Deletes the entity with its relationships and compliance policies. While a project names it the " +
		"answer is 409 conflict (detail in_use); archive it instead (PATCH state archived)."}

func (s *Server) handleEntityDelete(ctx context.Context, in *idInput) (*struct{}, error) {
	return nil, s.dep.Entities.DeleteEntity(ctx, in.ID, requestActor(ctx))
}

// The relationship graph.

// entityRelationshipsInput selects a page of one entity's relationships.
type entityRelationshipsInput struct {
	ID string `path:"id" maxLength:"64"`
	assess.RelationshipFilter
}

// relationshipIDInput names one relationship of one entity.
type relationshipIDInput struct {
	ID             string `path:"id" maxLength:"64"`
	RelationshipID string `path:"relationshipId" maxLength:"64"`
}

var docEntityRelationshipList = huma.Operation{OperationID: "listEntityRelationships", Summary: "List an entity's relationships",
	Tags: tagEntities, Errors: []int{http.StatusNotFound},
	Description: "Relationships the entity is the source (outgoing) or the target (incoming) of, newest first, " +
		"cursor-paginated; `direction` and `type` narrow them."}

func (s *Server) handleEntityRelationshipList(ctx context.Context, in *entityRelationshipsInput) (*body[assess.Page[assess.Relationship]], error) {
	page, err := s.dep.Entities.FindRelationships(ctx, in.ID, in.RelationshipFilter)
	return reply(page), err
}

var docEntityRelationshipAdd = huma.Operation{OperationID: "addEntityRelationship", Summary: "Relate an entity to another",
	Tags: tagEntities, DefaultStatus: http.StatusCreated,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Adds the edge entity → targetId of the type given. owns, contains and governs carry compliance " +
		"policies from the entity to the target. An unknown target is 404 naming targetId; the entity itself is " +
		"422 self_relationship; an archived end is 422 entity_archived; the same edge twice is 409 already_exists. " +
		"Cycles are allowed."}

func (s *Server) handleEntityRelationshipAdd(ctx context.Context, in *idBody[assess.NewRelationship]) (*body[assess.Relationship], error) {
	r, err := s.dep.Entities.AddRelationship(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(r), err
}

var docEntityRelationshipRemove = huma.Operation{OperationID: "removeEntityRelationship", Summary: "Remove a relationship",
	Tags: tagEntities, DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound},
	Description: "Removes a relationship the entity is either end of."}

func (s *Server) handleEntityRelationshipRemove(ctx context.Context, in *relationshipIDInput) (*struct{}, error) {
	return nil, s.dep.Entities.RemoveRelationship(ctx, in.ID, in.RelationshipID, requestActor(ctx))
}

// entityGraphInput shapes the graph around one entity.
type entityGraphInput struct {
	ID string `path:"id" maxLength:"64"`
	assess.GraphQuery
}

var docEntityGraph = huma.Operation{OperationID: "getEntityGraph", Summary: "The graph around an entity", Tags: tagEntities,
	Errors: []int{http.StatusNotFound},
	Description: "The entities within `depth` edges (1–10, default 3) of the entity, following edges out of it, " +
		"into it or both, each with its distance, and every relationship between them. Cycles are walked once; " +
		"archived entities are left out (except this one). At most 500 entities, the nearest first; `truncated` " +
		"says there were more."}

func (s *Server) handleEntityGraph(ctx context.Context, in *entityGraphInput) (*body[assess.Graph], error) {
	g, err := s.dep.Entities.EntityGraph(ctx, in.ID, in.GraphQuery)
	return reply(g), err
}

var docEntityWholeGraph = huma.Operation{OperationID: "getEntitiesGraph", Summary: "The whole entity graph", Tags: tagEntities,
	Description: "Every relationship between entities that are not archived, and the entities they join (entities " +
		"without relationships are not nodes). At most 2000 relationships, the oldest first; `truncated` says there " +
		"were more."}

func (s *Server) handleEntityWholeGraph(ctx context.Context, _ *struct{}) (*body[assess.Graph], error) {
	g, err := s.dep.Entities.WholeGraph(ctx)
	return reply(g), err
}

// Compliance policies.

// policyIDInput names one compliance policy of one entity.
type policyIDInput struct {
	ID       string `path:"id" maxLength:"64"`
	PolicyID string `path:"policyId" maxLength:"64"`
}

// policyBody is a policy of an entity and a change to it.
type policyBody struct {
	ID       string `path:"id" maxLength:"64"`
	PolicyID string `path:"policyId" maxLength:"64"`
	Body     assess.PolicyUpdate
}

var docEntityPolicyList = huma.Operation{OperationID: "listEntityPolicies", Summary: "The standards that apply to an entity",
	Tags: tagEntities, Errors: []int{http.StatusNotFound},
	Description: "The effective compliance policies, in one page: the entity's own, then those it inherits from " +
		"ancestors that own, contain or govern it (transitively; archived ancestors are skipped and not looked " +
		"through), each naming its ancestor in `inheritedFrom`. Per standard, the entity's own policy wins, then " +
		"the nearest ancestor's."}

func (s *Server) handleEntityPolicyList(ctx context.Context, in *idInput) (*body[assess.Page[assess.Policy]], error) {
	policies, err := s.dep.Entities.EffectivePolicies(ctx, in.ID)
	return reply(assess.NewPage(policies, "")), err
}

var docEntityPolicyAdd = huma.Operation{OperationID: "addEntityPolicy", Summary: "Apply a standard to an entity",
	Tags: tagEntities, DefaultStatus: http.StatusCreated,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "The standard (optionally one of its levels) applies to the entity and to what it owns, contains " +
		"or governs. An unknown standard is 404 naming standardId; a retired one is 422 standard_retired; a level " +
		"of another standard is 422 level_not_in_standard; an archived entity is 422 entity_archived; a second " +
		"policy of the same standard is 409 already_exists."}

func (s *Server) handleEntityPolicyAdd(ctx context.Context, in *idBody[assess.NewPolicy]) (*body[assess.Policy], error) {
	p, err := s.dep.Entities.AddPolicy(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(p), err
}

var docEntityPolicyUpdate = huma.Operation{OperationID: "updateEntityPolicy", Summary: "Update a compliance policy",
	Tags: tagEntities, Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Changes the level (empty for the whole standard) or the description of one of the entity's own " +
		"policies. Send the version last read; a stale one gets 409 version_conflict."}

func (s *Server) handleEntityPolicyUpdate(ctx context.Context, in *policyBody) (*body[assess.Policy], error) {
	p, err := s.dep.Entities.UpdatePolicy(ctx, in.ID, in.PolicyID, in.Body, requestActor(ctx))
	return reply(p), err
}

var docEntityPolicyRemove = huma.Operation{OperationID: "removeEntityPolicy", Summary: "Remove a compliance policy",
	Tags: tagEntities, DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound},
	Description: "Removes one of the entity's own policies; what was inherited from it goes with it."}

func (s *Server) handleEntityPolicyRemove(ctx context.Context, in *policyIDInput) (*struct{}, error) {
	return nil, s.dep.Entities.RemovePolicy(ctx, in.ID, in.PolicyID, requestActor(ctx))
}
