package postgres_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

func entityIDOf(e assess.Entity) string { return e.ID }

// relate adds the edge source → target of type typ with SQL.
func (k *storeKit) relate(source string, typ assess.RelationshipType, target string) {
	k.t.Helper()
	k.exec(`INSERT INTO entity_relationships (id, source_id, target_id, relationship_type) VALUES ($1, $2, $3, $4)`,
		k.newID(assess.PrefixRelationship), source, target, typ)
}

// TestEntityListFilters: archived entities are listed only when the state filter asks for
// them; type, owner, tag and search (name and description, wildcards literal) filter in
// SQL; name order is case-insensitive, newest first is the id descending, pages follow.
func TestEntityListFilters(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	ann := k.user("ann")
	core := k.tag("core")
	names := map[string]string{}
	for _, n := range []assess.NewEntity{
		{Name: "Acme Corp", Type: assess.EntityTypeOrganization, OwnerID: ann.ID, TagIDs: []string{core}},
		{Name: "billing API", Type: assess.EntityTypeService, Description: "Handles invoices", TagIDs: []string{core}},
		{Name: "Checkout", Type: assess.EntityTypeProduct, State: assess.EntityInactive},
		{Name: "Legacy CRM", Type: assess.EntityTypeProduct},
		{Name: "Vendor_X", Type: assess.EntityTypeVendor, Description: "Remote"},
		{Name: "Zeta vendors", Type: assess.EntityTypeVendor},
	} {
		e, err := k.svc.Entities.CreateEntity(k.ctx, n, k.actor())
		require.NoError(t, err)
		names[e.ID] = n.Name
		if n.Name == "Legacy CRM" {
			_, err := k.svc.Entities.UpdateEntity(k.ctx, e.ID, assess.EntityUpdate{Version: e.Version, State: ptr(assess.EntityArchived)}, k.actor())
			require.NoError(t, err)
		}
	}
	for _, c := range []struct {
		name string
		f    assess.EntityFilter
		want []string
	}{
		{"not archived, by name whatever the case", assess.EntityFilter{}, []string{"Acme Corp", "billing API", "Checkout", "Vendor_X", "Zeta vendors"}},
		{"newest first", assess.EntityFilter{Sort: "-createdAt"}, []string{"Zeta vendors", "Vendor_X", "Checkout", "billing API", "Acme Corp"}},
		{"archived when asked for", assess.EntityFilter{State: "archived"}, []string{"Legacy CRM"}},
		{"inactive", assess.EntityFilter{State: "inactive"}, []string{"Checkout"}},
		{"active", assess.EntityFilter{State: "active"}, []string{"Acme Corp", "billing API", "Vendor_X", "Zeta vendors"}},
		{"type leaves archived out", assess.EntityFilter{Type: "product"}, []string{"Checkout"}},
		{"type and archived", assess.EntityFilter{Type: "product", State: "archived"}, []string{"Legacy CRM"}},
		{"owner", assess.EntityFilter{Owner: ann.ID}, []string{"Acme Corp"}},
		{"tag", assess.EntityFilter{Tag: core}, []string{"Acme Corp", "billing API"}},
		{"search in description, any case", assess.EntityFilter{Q: "INVOICE"}, []string{"billing API"}},
		{"an underscore matches itself", assess.EntityFilter{Q: "vendor_"}, []string{"Vendor_X"}},
		{"search leaves archived out", assess.EntityFilter{Q: "crm"}, []string{}},
		{"search among archived", assess.EntityFilter{Q: "crm", State: "archived"}, []string{"Legacy CRM"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			page, err := k.svc.Entities.FindEntities(k.ctx, c.f)
			require.NoError(t, err)
			require.Equal(t, c.want, namesOf(page.Items, entityIDOf, names))
		})
	}
	t.Run("pages", func(t *testing.T) {
		var got []string
		f := assess.EntityFilter{PageRequest: assess.PageRequest{Limit: 2}}
		for range 5 {
			page, err := k.svc.Entities.FindEntities(k.ctx, f)
			require.NoError(t, err)
			got = append(got, namesOf(page.Items, entityIDOf, names)...)
			if page.NextCursor == "" {
				break
			}
			f.Cursor = page.NextCursor
		}
		require.Equal(t, []string{"Acme Corp", "billing API", "Checkout", "Vendor_X", "Zeta vendors"}, got)
	})
	t.Run("tags and owner come with the entity", func(t *testing.T) {
		page, err := k.svc.Entities.FindEntities(k.ctx, assess.EntityFilter{Owner: ann.ID})
		require.NoError(t, err)
		require.Len(t, page.Items, 1)
		require.Equal(t, "ann", page.Items[0].OwnerName)
		require.Equal(t, []string{core}, []string{page.Items[0].Tags[0].ID})
	})
}

// TestEntityRelationshipRules: an edge to oneself is 422 self_relationship; the same
// (source, target, type) twice is 409 naming targetId, another type or the reverse edge
// is fine (cycles are allowed); an unknown target is 404 naming targetId; an archived end
// is 422 entity_archived naming the field that pointed at it; either end lists and
// removes an edge, nobody else.
func TestEntityRelationshipRules(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	a, b, c := k.entity("Alpha", assess.EntityActive), k.entity("Beta", assess.EntityActive), k.entity("Gamma", assess.EntityActive)
	attic := k.entity("Attic", assess.EntityArchived)
	add := func(source string, typ assess.RelationshipType, target string) (assess.Relationship, error) {
		return k.svc.Entities.AddRelationship(k.ctx, source, assess.NewRelationship{TargetID: target, Type: typ}, k.actor())
	}
	_, err := add(a, assess.RelOwns, a)
	requireDetail(t, err, assess.ECodeBusinessRule, "targetId", assess.DetailSelfRelationship)
	owns, err := add(a, assess.RelOwns, b)
	require.NoError(t, err)
	require.Equal(t, "Alpha", owns.SourceName)
	require.Equal(t, "Beta", owns.TargetName)
	_, err = add(a, assess.RelOwns, b)
	requireDetail(t, err, assess.ECodeAlreadyExists, "targetId", "taken")
	supplies, err := add(a, assess.RelSupplies, b)
	require.NoError(t, err)
	back, err := add(b, assess.RelOwns, a)
	require.NoError(t, err, "cycles are allowed")
	_, err = add(a, assess.RelOwns, k.newID(assess.PrefixEntity))
	requireDetail(t, err, assess.ECodeNotFound, "targetId", "not_found")
	_, err = add(a, assess.RelOwns, attic)
	requireDetail(t, err, assess.ECodeBusinessRule, "targetId", assess.DetailEntityArchived)
	_, err = add(attic, assess.RelOwns, a)
	requireDetail(t, err, assess.ECodeBusinessRule, "", assess.DetailEntityArchived)
	_, err = add(k.newID(assess.PrefixEntity), assess.RelOwns, a)
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err))
	require.Equal(t, 3, k.count(`SELECT count(*) FROM entity_relationships`))

	list := func(entity string, f assess.RelationshipFilter) []string {
		t.Helper()
		page, err := k.svc.Entities.FindRelationships(k.ctx, entity, f)
		require.NoError(t, err)
		out := []string{}
		for _, r := range page.Items {
			out = append(out, fmt.Sprintf("%s %s %s (%s)", r.SourceName, r.Type, r.TargetName, r.Direction))
		}
		return out
	}
	require.Equal(t, []string{"Beta owns Alpha (incoming)", "Alpha supplies Beta (outgoing)", "Alpha owns Beta (outgoing)"},
		list(a, assess.RelationshipFilter{}), "both directions, newest first")
	require.Equal(t, []string{"Alpha supplies Beta (outgoing)", "Alpha owns Beta (outgoing)"}, list(a, assess.RelationshipFilter{Direction: assess.DirectionOutgoing}))
	require.Equal(t, []string{"Beta owns Alpha (incoming)"}, list(a, assess.RelationshipFilter{Direction: assess.DirectionIncoming}))
	require.Equal(t, []string{"Beta owns Alpha (incoming)", "Alpha owns Beta (outgoing)"}, list(a, assess.RelationshipFilter{Type: "owns"}))
	require.Equal(t, []string{"Beta owns Alpha (outgoing)", "Alpha supplies Beta (incoming)", "Alpha owns Beta (incoming)"}, list(b, assess.RelationshipFilter{}))
	require.Equal(t, []string{}, list(c, assess.RelationshipFilter{}))

	err = k.svc.Entities.RemoveRelationship(k.ctx, c, supplies.ID, k.actor())
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "not an end of it")
	require.NoError(t, k.svc.Entities.RemoveRelationship(k.ctx, b, supplies.ID, k.actor()), "the target removes it")
	require.NoError(t, k.svc.Entities.RemoveRelationship(k.ctx, b, back.ID, k.actor()), "the source removes it")
	require.Equal(t, []string{"Alpha owns Beta (outgoing)"}, list(a, assess.RelationshipFilter{}))
	err = k.svc.Entities.RemoveRelationship(k.ctx, a, back.ID, k.actor())
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "already gone")
}

// graphText renders a graph as its nodes ("name@depth") and edges ("source type target"),
// by name.
func graphText(g assess.Graph, names map[string]string) ([]string, []string) {
	nodes, edges := []string{}, []string{}
	for _, n := range g.Nodes {
		if n.Depth != nil {
			nodes = append(nodes, fmt.Sprintf("%s@%d", n.Name, *n.Depth))
		} else {
			nodes = append(nodes, n.Name)
		}
	}
	for _, e := range g.Edges {
		edges = append(edges, names[e.SourceID]+" "+string(e.Type)+" "+names[e.TargetID])
	}
	return nodes, edges
}

// TestEntityGraphWalk: the graph around an entity holds the entities within the depth in
// the direction asked, each at its shortest distance, by distance then name, and every
// edge between them; cycles end at the bound; archived entities are neither reached nor
// walked through, except the entity the graph is centred on; the whole graph leaves out
// edges touching archived entities; the answer is bounded and says truncated.
func TestEntityGraphWalk(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	names := map[string]string{}
	id := map[string]string{}
	for _, n := range []string{"A", "B", "C", "D", "E", "Y", "Lone"} {
		id[n] = k.entity(n, assess.EntityActive)
		names[id[n]] = n
	}
	id["X"] = k.entity("X", assess.EntityArchived)
	names[id["X"]] = "X"
	k.relate(id["A"], assess.RelOwns, id["B"])
	k.relate(id["B"], assess.RelContains, id["C"])
	k.relate(id["C"], assess.RelDependsOn, id["A"]) // a cycle
	k.relate(id["C"], assess.RelSupplies, id["D"])
	k.relate(id["D"], assess.RelConsumes, id["E"])
	k.relate(id["B"], assess.RelGoverns, id["X"])
	k.relate(id["X"], assess.RelOwns, id["Y"]) // Y is reached only through the archived X

	for _, c := range []struct {
		name         string
		from         string
		q            assess.GraphQuery
		nodes, edges []string
	}{
		{"one step out", "A", assess.GraphQuery{Depth: 1, Direction: assess.DirectionOutgoing},
			[]string{"A@0", "B@1"}, []string{"A owns B"}},
		{"two steps out, the edge closing the cycle included", "A", assess.GraphQuery{Depth: 2, Direction: assess.DirectionOutgoing},
			[]string{"A@0", "B@1", "C@2"}, []string{"A owns B", "B contains C", "C depends_on A"}},
		{"the default: three steps both ways, shortest distances", "A", assess.GraphQuery{},
			[]string{"A@0", "B@1", "C@1", "D@2", "E@3"}, []string{"A owns B", "B contains C", "C depends_on A", "C supplies D", "D consumes E"}},
		{"incoming, round the cycle, bounded", "E", assess.GraphQuery{Depth: 10, Direction: assess.DirectionIncoming},
			[]string{"E@0", "D@1", "C@2", "B@3", "A@4"}, []string{"A owns B", "B contains C", "C depends_on A", "C supplies D", "D consumes E"}},
		{"an archived centre is shown, its neighbours too", "X", assess.GraphQuery{Depth: 1},
			[]string{"X@0", "B@1", "Y@1"}, []string{"B governs X", "X owns Y"}},
		{"alone", "Lone", assess.GraphQuery{Depth: 10}, []string{"Lone@0"}, []string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := k.svc.Entities.EntityGraph(k.ctx, id[c.from], c.q)
			require.NoError(t, err)
			nodes, edges := graphText(g, names)
			require.Equal(t, c.nodes, nodes)
			require.ElementsMatch(t, c.edges, edges)
			require.False(t, g.Truncated)
		})
	}
	_, err := k.svc.Entities.EntityGraph(k.ctx, k.newID(assess.PrefixEntity), assess.GraphQuery{})
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err))
	_, err = k.svc.Entities.EntityGraph(k.ctx, id["A"], assess.GraphQuery{Depth: 11})
	requireDetail(t, err, assess.ECodeValidation, "depth", "out_of_range")

	whole, err := k.svc.Entities.WholeGraph(k.ctx)
	require.NoError(t, err)
	nodes, edges := graphText(whole, names)
	require.Equal(t, []string{"A", "B", "C", "D", "E"}, nodes, "entities joined by edges between live entities, by name")
	require.Equal(t, []string{"A owns B", "B contains C", "C depends_on A", "C supplies D", "D consumes E"}, edges, "oldest first")
	require.False(t, whole.Truncated)

	// A hub with one more neighbour than an answer holds.
	hub := k.entity("Zhub", assess.EntityActive) // after its spokes by name: kept for being nearest
	spokes := assess.NewIDs(assess.PrefixEntity, k.clock.Now(), assess.MaxGraphNodes)
	k.exec(`INSERT INTO entities (id, name, entity_type) SELECT s, 'Spoke ' || s, 'component' FROM unnest($1::text[]) s`, spokes)
	k.exec(`INSERT INTO entity_relationships (id, source_id, target_id, relationship_type)
		SELECT r, $2, s, 'contains' FROM unnest($1::text[], $3::text[]) AS u(s, r)`, spokes, hub,
		assess.NewIDs(assess.PrefixRelationship, k.clock.Now(), len(spokes)))
	for _, name := range []string{"Aaa", "Aab"} { // two steps away, first by name
		k.relate(spokes[0], assess.RelContains, k.entity(name, assess.EntityActive))
	}
	g, err := k.svc.Entities.EntityGraph(k.ctx, hub, assess.GraphQuery{Depth: 2})
	require.NoError(t, err)
	require.True(t, g.Truncated)
	require.Len(t, g.Nodes, assess.MaxGraphNodes)
	require.Equal(t, "Zhub", g.Nodes[0].Name, "the nearest are kept")
	for _, n := range g.Nodes[1:] {
		require.Equal(t, 1, *n.Depth, n.Name)
	}
	require.Len(t, g.Edges, assess.MaxGraphNodes-1, "only edges between the nodes kept")
}

// policyText renders an effective policy as "standard" or "standard from ancestor",
// with its level when it has one.
func policyText(p assess.Policy) string {
	s := p.StandardName
	if p.LevelName != "" {
		s += " [" + p.LevelName + "]"
	}
	if p.InheritedFrom != nil {
		s += " from " + p.InheritedFrom.Name
		if p.InheritedFrom.ID != p.EntityID {
			s += " (entityId " + p.EntityID + ")"
		}
	}
	return s
}

// TestEntityEffectivePoliciesInherit: an entity's effective policies are its own, then
// per other standard the nearest ancestor's through incoming owns/contains/governs edges
// (ties by the ancestor's name), direct ones first, then by standard name; other
// relationship types pass nothing; cycles end; archived ancestors are skipped and not
// walked through; inheritance looks 32 edges up and no further.
func TestEntityEffectivePoliciesInherit(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	std := map[string]string{}
	for _, s := range []string{"alpha", "beta", "gamma", "delta"} {
		std[s] = k.standard(s, "1", assess.StandardPublished)
	}
	level := k.newID(assess.PrefixLevel)
	k.exec(`INSERT INTO levels (id, standard_id, identifier, title) VALUES ($1, $2, 'L1', 'Level one')`, level, std["alpha"])
	en := map[string]string{}
	for _, n := range []string{"Org", "BU", "Team", "Product", "Vendor", "Uncle", "Aunt"} { // Uncle's id sorts first, Aunt's name
		en[n] = k.entity(n, assess.EntityActive)
	}
	k.relate(en["Org"], assess.RelOwns, en["BU"])
	k.relate(en["BU"], assess.RelContains, en["Team"])
	k.relate(en["Team"], assess.RelGoverns, en["Product"])
	k.relate(en["Vendor"], assess.RelSupplies, en["Product"])
	k.relate(en["Uncle"], assess.RelOwns, en["Team"])
	k.relate(en["Aunt"], assess.RelOwns, en["Team"])
	policy := func(entity, standard, levelID string) {
		t.Helper()
		_, err := k.svc.Entities.AddPolicy(k.ctx, en[entity], assess.NewPolicy{StandardID: std[standard], LevelID: levelID}, k.actor())
		require.NoError(t, err)
	}
	policy("Org", "alpha", level)
	policy("Org", "beta", "")
	policy("BU", "beta", "")
	policy("Team", "alpha", "")
	policy("Product", "gamma", "")
	policy("Vendor", "delta", "")
	policy("Uncle", "delta", "")
	policy("Aunt", "delta", "")

	effective := func(entity string) []string {
		t.Helper()
		list, err := k.svc.Entities.EffectivePolicies(k.ctx, en[entity])
		require.NoError(t, err)
		out := []string{}
		for _, p := range list {
			out = append(out, policyText(p))
		}
		return out
	}
	require.Equal(t, []string{"gamma 1", "alpha 1 from Team", "beta 1 from BU", "delta 1 from Aunt"}, effective("Product"))
	require.Equal(t, []string{"alpha 1", "beta 1 from BU", "delta 1 from Aunt"}, effective("Team"))
	require.Equal(t, []string{"beta 1", "alpha 1 [Level one] from Org"}, effective("BU"), "the ancestor's level comes with it")
	require.Equal(t, []string{"delta 1"}, effective("Vendor"))

	k.relate(en["Product"], assess.RelOwns, en["Org"]) // a cycle
	require.Equal(t, []string{"alpha 1 [Level one]", "beta 1", "delta 1 from Aunt", "gamma 1 from Product"}, effective("Org"))
	require.Equal(t, []string{"gamma 1", "alpha 1 from Team", "beta 1 from BU", "delta 1 from Aunt"}, effective("Product"))

	k.exec(`UPDATE entities SET state = 'archived' WHERE id = $1`, en["BU"])
	require.Equal(t, []string{"alpha 1", "delta 1 from Aunt"}, effective("Team"), "BU is skipped, and Org behind it")
	k.exec(`UPDATE entities SET state = 'archived' WHERE id = $1`, en["Aunt"])
	require.Equal(t, []string{"alpha 1", "delta 1 from Uncle"}, effective("Team"))
	k.exec(`UPDATE entities SET state = 'active' WHERE id IN ($1, $2)`, en["BU"], en["Aunt"])

	list, err := k.svc.Entities.EffectivePolicies(k.ctx, en["Team"])
	require.NoError(t, err)
	require.Equal(t, []string{"alpha 1", "beta 1 from BU", "delta 1 from Aunt", "gamma 1 from Product"}, effective("Team"),
		"Product reaches Team round the cycle, through Org and BU")
	require.NoError(t, k.svc.Entities.RemovePolicy(k.ctx, en["BU"], list[1].ID, k.actor()), "BU's beta")
	require.Equal(t, []string{"alpha 1", "beta 1 from Org", "delta 1 from Aunt", "gamma 1 from Product"}, effective("Team"),
		"the next nearest takes over")

	// A chain of 34 entities, each owning the next: the 33rd below the top is out of reach.
	chain := assess.NewIDs(assess.PrefixEntity, k.clock.Now(), assess.MaxInheritanceDepth+2)
	k.exec(`INSERT INTO entities (id, name, entity_type) SELECT c, 'Link ' || o, 'component' FROM unnest($1::text[]) WITH ORDINALITY AS u(c, o)`, chain)
	k.exec(`INSERT INTO entity_relationships (id, source_id, target_id, relationship_type)
		SELECT r, s, t, 'owns' FROM unnest($1::text[], $2::text[], $3::text[]) AS u(r, s, t)`,
		assess.NewIDs(assess.PrefixRelationship, k.clock.Now(), len(chain)-1), chain[:len(chain)-1], chain[1:])
	_, err = k.svc.Entities.AddPolicy(k.ctx, chain[0], assess.NewPolicy{StandardID: std["gamma"]}, k.actor())
	require.NoError(t, err)
	inChain := func(i int) []string {
		t.Helper()
		list, err := k.svc.Entities.EffectivePolicies(k.ctx, chain[i])
		require.NoError(t, err)
		out := []string{}
		for _, p := range list {
			out = append(out, policyText(p))
		}
		return out
	}
	require.Equal(t, []string{"gamma 1 from Link 1"}, inChain(assess.MaxInheritanceDepth), "32 edges up")
	require.Equal(t, []string{}, inChain(assess.MaxInheritanceDepth+1), "33 edges up")
}

// TestEntityPolicyRules: a policy's standard must exist (404 naming standardId) and not be
// retired (422 standard_retired); its level must be one of that standard's (422
// level_not_in_standard); one policy per standard and entity (409 naming standardId); an
// archived entity takes none (422 entity_archived); updates check the version and the
// level; a policy is reached only through its own entity.
func TestEntityPolicyRules(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	shop, attic := k.entity("Shop", assess.EntityActive), k.entity("Attic", assess.EntityArchived)
	std, other, retired := k.standard("std", "1", assess.StandardPublished), k.standard("other", "1", assess.StandardDraft),
		k.standard("old", "1", assess.StandardRetired)
	lv, otherLevel := k.newID(assess.PrefixLevel), k.newID(assess.PrefixLevel)
	k.exec(`INSERT INTO levels (id, standard_id, identifier) VALUES ($1, $2, 'L1'), ($3, $4, 'L1')`, lv, std, otherLevel, other)
	add := func(entity string, n assess.NewPolicy) (assess.Policy, error) {
		return k.svc.Entities.AddPolicy(k.ctx, entity, n, k.actor())
	}
	_, err := add(shop, assess.NewPolicy{StandardID: k.newID(assess.PrefixStandard)})
	requireDetail(t, err, assess.ECodeNotFound, "standardId", "not_found")
	_, err = add(shop, assess.NewPolicy{StandardID: "st_nonsense"})
	requireDetail(t, err, assess.ECodeNotFound, "standardId", "not_found")
	_, err = add(shop, assess.NewPolicy{StandardID: retired})
	requireDetail(t, err, assess.ECodeBusinessRule, "standardId", assess.DetailStandardRetired)
	_, err = add(shop, assess.NewPolicy{StandardID: std, LevelID: otherLevel})
	requireDetail(t, err, assess.ECodeBusinessRule, "levelId", assess.DetailLevelNotInStandard)
	_, err = add(attic, assess.NewPolicy{StandardID: std})
	requireDetail(t, err, assess.ECodeBusinessRule, "", assess.DetailEntityArchived)
	_, err = add(k.newID(assess.PrefixEntity), assess.NewPolicy{StandardID: std})
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err))
	p, err := add(shop, assess.NewPolicy{StandardID: std, LevelID: lv, Description: "All of L1"})
	require.NoError(t, err)
	require.Equal(t, "L1", p.LevelName, "a level without a title is named by its identifier")
	_, err = add(shop, assess.NewPolicy{StandardID: std})
	requireDetail(t, err, assess.ECodeAlreadyExists, "standardId", "taken")
	_, err = add(shop, assess.NewPolicy{StandardID: other})
	require.NoError(t, err, "a draft standard is not refused")
	require.Equal(t, 2, k.count(`SELECT count(*) FROM compliance_policies`))

	update := func(u assess.PolicyUpdate) (assess.Policy, error) {
		return k.svc.Entities.UpdatePolicy(k.ctx, shop, p.ID, u, k.actor())
	}
	_, err = update(assess.PolicyUpdate{Version: p.Version + 1, Description: ptr("x")})
	requireDetail(t, err, assess.ECodeVersionConflict, "version", "stale")
	_, err = update(assess.PolicyUpdate{Version: p.Version, LevelID: &otherLevel})
	requireDetail(t, err, assess.ECodeBusinessRule, "levelId", assess.DetailLevelNotInStandard)
	whole, err := update(assess.PolicyUpdate{Version: p.Version, LevelID: ptr("")})
	require.NoError(t, err)
	require.Equal(t, "", whole.LevelID, "an empty level applies the whole standard")
	require.Equal(t, "All of L1", whole.Description)
	require.Equal(t, p.Version+1, whole.Version)

	_, err = k.svc.Entities.UpdatePolicy(k.ctx, attic, p.ID, assess.PolicyUpdate{Version: whole.Version}, k.actor())
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "not the entity's policy")
	err = k.svc.Entities.RemovePolicy(k.ctx, attic, p.ID, k.actor())
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "not the entity's policy")
	require.NoError(t, k.svc.Entities.RemovePolicy(k.ctx, shop, p.ID, k.actor()))
	require.Equal(t, 1, k.count(`SELECT count(*) FROM compliance_policies`))
}

// TestEntityDeleteAndLifecycle: an entity a project names or an assessment assesses is
// not deleted (409 in_use with both counts); otherwise it goes with its relationships,
// policies and tags; updates follow the lifecycle and the version, and check the owner.
func TestEntityDeleteAndLifecycle(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	used, other := k.entity("Used", assess.EntityActive), k.entity("Other", assess.EntityActive)
	pr := k.project("Yearly")
	k.exec(`INSERT INTO project_entities (project_id, entity_id) VALUES ($1, $2)`, pr, used)
	k.assessment("One", used, "", assess.AssessmentNew)
	k.assessment("Two", used, "", assess.AssessmentArchived)
	err := k.svc.Entities.DeleteEntity(k.ctx, used, k.actor())
	var e *assess.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, assess.ECodeConflict, e.Code)
	require.Equal(t, []assess.Detail{{Field: "projects", Code: "in_use", Message: "1"}, {Field: "assessments", Code: "in_use", Message: "2"}}, e.Details)
	k.exec(`DELETE FROM project_entities`)
	err = k.svc.Entities.DeleteEntity(k.ctx, used, k.actor())
	requireDetail(t, err, assess.ECodeConflict, "assessments", "in_use")

	tag := k.tag("core")
	gone, err := k.svc.Entities.CreateEntity(k.ctx, assess.NewEntity{Name: "Gone", Type: assess.EntityTypeTeam, TagIDs: []string{tag}}, k.actor())
	require.NoError(t, err)
	k.relate(gone.ID, assess.RelOwns, other)
	k.relate(other, assess.RelOwns, gone.ID)
	k.exec(`INSERT INTO compliance_policies (id, entity_id, standard_id) VALUES ($1, $2, $3)`,
		k.newID(assess.PrefixPolicy), gone.ID, k.standard("std", "1", assess.StandardPublished))
	require.NoError(t, k.svc.Entities.DeleteEntity(k.ctx, gone.ID, k.actor()))
	for _, table := range []string{"entity_relationships", "compliance_policies", "entity_tags"} {
		require.Equal(t, 0, k.count(`SELECT count(*) FROM `+table), table)
	}
	_, err = k.svc.Entities.FindEntity(k.ctx, gone.ID)
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err))

	current, err := k.svc.Entities.FindEntity(k.ctx, other)
	require.NoError(t, err)
	update := func(u assess.EntityUpdate) error {
		t.Helper()
		u.Version = current.Version
		after, err := k.svc.Entities.UpdateEntity(k.ctx, other, u, k.actor())
		if err == nil {
			require.Equal(t, current.Version+1, after.Version)
			current = after
		}
		return err
	}
	_, err = k.svc.Entities.UpdateEntity(k.ctx, other, assess.EntityUpdate{Version: current.Version + 1, Name: ptr("x")}, k.actor())
	requireDetail(t, err, assess.ECodeVersionConflict, "version", "stale")
	requireDetail(t, update(assess.EntityUpdate{OwnerID: ptr(k.newID(assess.PrefixUser))}), assess.ECodeValidation, "ownerId", "unknown")
	require.NoError(t, update(assess.EntityUpdate{OwnerID: ptr(k.user("owner").ID)}))
	require.Equal(t, "owner", current.OwnerName)
	require.NoError(t, update(assess.EntityUpdate{State: ptr(assess.EntityActive)}), "staying is no move")
	require.NoError(t, update(assess.EntityUpdate{State: ptr(assess.EntityArchived)}))
	require.Equal(t, assess.ECodeInvalidState, assess.ErrorCode(update(assess.EntityUpdate{State: ptr(assess.EntityInactive)})))
	require.NoError(t, update(assess.EntityUpdate{State: ptr(assess.EntityActive), OwnerID: ptr("")}), "restored, owner removed")
	require.Equal(t, "", current.OwnerID)
	require.Equal(t, assess.EntityActive, current.State)
}
