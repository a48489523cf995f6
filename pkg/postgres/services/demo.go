package services

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/identity"
	"github.com/assay-dev/assay/pkg/postgres/work"
)

// The demo organisation (docs/catalogue.md, "Demo data"): a small online retailer with its
// business units, teams, products, a service and a hosting vendor, four tags, two projects
// and one deactivated account per built-in role other than admin.

// demoMarker is the app_config key recording that the demo data was loaded; its insert is
// also the lock that makes two concurrent loads create it once.
const demoMarker = "demo_data_loaded"

type demoTag struct{ name, color, description string }

var demoTags = []demoTag{
	{"Customer-facing", "#2563eb", "Used by customers directly."},
	{"PCI DSS scope", "#dc2626", "Stores, processes or transmits card data."},
	{"Critical", "#ea580c", "An outage stops the business."},
	{"Third party", "#7c3aed", "Provided by another company."},
}

type demoEntity struct {
	key, name, typ, description string
	tags                        []string
}

var demoEntities = []demoEntity{
	{"acme", "Acme Corp", "organization", "A mid-sized online retailer (demo data).", nil},
	{"digital", "Acme Digital", "business_unit", "Builds and runs the customer-facing channels.", nil},
	{"operations", "Acme Operations", "business_unit", "Warehousing, fulfilment and internal IT.", nil},
	{"platform", "Platform Team", "team", "Runs the shared cloud platform and the payments service.", nil},
	{"web", "Web Shop Team", "team", "Builds the web shop.", nil},
	{"mobile", "Mobile Team", "team", "Builds the mobile app.", nil},
	{"shop", "Acme Web Shop", "product", "The online shop at shop.acme.example.", []string{"Customer-facing", "PCI DSS scope"}},
	{"app", "Acme Mobile App", "product", "The iOS and Android shopping app.", []string{"Customer-facing"}},
	{"payments", "Payments API", "service", "Card payments and refunds for the shop and the app.", []string{"PCI DSS scope", "Critical"}},
	{"nimbus", "Nimbus Cloud Hosting", "vendor", "Hosts the platform (infrastructure as a service).", []string{"Third party", "Critical"}},
}

var demoRelationships = []struct{ source, typ, target string }{
	{"acme", "owns", "digital"}, {"acme", "owns", "operations"},
	{"digital", "contains", "platform"}, {"digital", "contains", "web"}, {"digital", "contains", "mobile"},
	{"web", "owns", "shop"}, {"mobile", "owns", "app"}, {"platform", "owns", "payments"},
	{"shop", "depends_on", "payments"}, {"app", "depends_on", "payments"},
	{"nimbus", "supplies", "payments"}, {"nimbus", "supplies", "digital"},
}

// demoUsers are the demo accounts: deactivated and without a password, so nobody can sign
// in with them until an administrator sets a password and activates one.
var demoUsers = []struct{ username, displayName, role string }{
	{"demo.assessor", "Alex Assessor (demo)", assess.RoleAssessor},
	{"demo.assessee", "Sam Assessee (demo)", assess.RoleAssessee},
	{"demo.standards-manager", "Morgan Manager (demo)", assess.RoleStandardsManager},
	{"demo.standards-approver", "Jordan Approver (demo)", assess.RoleStandardsApprover},
}

// demoLoad is one load of the demo data in progress.
type demoLoad struct {
	tx       *postgres.Tx
	created  *assess.DemoDataCounts
	existing *assess.DemoDataExisting
	tags     map[string]string // name → id
	entities map[string]string // key → id
	assessor string            // the demo assessor's id, when this load created it
}

// DemoService implements assess.DemoDataService: it writes to several areas in one
// transaction, so it lives in the composition package.
type DemoService struct{ db *postgres.DB }

// LoadDemoData implements assess.DemoDataService in one transaction. Tags and entities that
// exist by name are reused (and named in the answer's "existing"); the projects and accounts are recorded one by one (audit and event),
// the rest in one demo_data.loaded audit row.
func (s *DemoService) LoadDemoData(ctx context.Context, actor assess.Actor) (assess.DemoDataSummary, error) {
	var sum assess.DemoDataSummary
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		sum = assess.DemoDataSummary{Existing: assess.DemoDataExisting{Entities: []string{}, Tags: []string{}, Users: []string{}}}
		tag, err := tx.Exec(ctx, "INSERT INTO app_config (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
			demoMarker, tx.Now.UTC().Format(time.RFC3339))
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			sum.AlreadyLoaded = true
			return nil
		}
		d := &demoLoad{tx: tx, created: &sum.Created, existing: &sum.Existing, tags: map[string]string{}, entities: map[string]string{}}
		for _, step := range []func(context.Context) error{d.loadTags, d.loadUsers, d.loadEntities, d.loadRelationships, d.loadProjects} {
			if err := step(ctx); err != nil {
				return err
			}
		}
		return tx.Record(ctx, assess.ChangeDemoDataLoaded, postgres.Target{Type: "demo_data"}, map[string]any{"created": sum.Created, "existing": sum.Existing}, assess.NewEvent{})
	})
	return sum, err
}

func (d *demoLoad) loadTags(ctx context.Context) error {
	for _, t := range demoTags {
		res, err := d.tx.Exec(ctx, `INSERT INTO tags (id, name, color, description, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
			ON CONFLICT DO NOTHING`, assess.NewID(assess.PrefixTag, d.tx.Now), t.name, t.color, t.description, d.tx.Now)
		if err != nil {
			return err
		}
		d.created.Tags += int(res.RowsAffected())
		if res.RowsAffected() == 0 {
			d.existing.Tags = append(d.existing.Tags, t.name)
		}
		var id string
		if err := d.tx.QueryRow(ctx, "SELECT id FROM tags WHERE lower(name) = lower($1)", t.name).Scan(&id); err != nil {
			return err
		}
		d.tags[t.name] = id
	}
	return nil
}

// tagIDs returns the ids of the demo tags named.
func (d *demoLoad) tagIDs(names []string) []string {
	ids := make([]string, len(names))
	for i, n := range names {
		ids[i] = d.tags[n]
	}
	return ids
}

// loadUsers creates the demo accounts whose username and e-mail address are free.
func (d *demoLoad) loadUsers(ctx context.Context) error {
	for _, u := range demoUsers {
		id := assess.NewID(assess.PrefixUser, d.tx.Now)
		res, err := d.tx.Exec(ctx, `INSERT INTO users (id, username, email, display_name, password_hash, active, created_at, updated_at)
			VALUES ($1, $2, $3, $4, NULL, false, $5, $5) ON CONFLICT DO NOTHING`, id, u.username, u.username+"@acme.example", u.displayName, d.tx.Now)
		if err != nil {
			return err
		}
		if res.RowsAffected() == 0 {
			d.existing.Users = append(d.existing.Users, u.username)
			continue
		}
		if err := identity.SetRoles(ctx, d.tx, id, []string{u.role}); err != nil {
			return err
		}
		if err := identity.RecordUser(ctx, d.tx, assess.ChangeUserCreated, id, map[string]any{"username": u.username,
			"roles": []string{u.role}, "demo": true, "active": false}); err != nil {
			return err
		}
		d.created.Users++
		if u.role == assess.RoleAssessor {
			d.assessor = id
		}
	}
	return nil
}

// loadEntities creates the demo entities; one whose name an entity has already (ignoring
// case) is not created a second time: the existing entity stands in for it, unchanged.
func (d *demoLoad) loadEntities(ctx context.Context) error {
	for _, e := range demoEntities {
		var existing string
		err := d.tx.QueryRow(ctx, "SELECT id FROM entities WHERE lower(name) = lower($1) ORDER BY id LIMIT 1", e.name).Scan(&existing)
		switch {
		case err == nil:
			d.entities[e.key] = existing
			d.existing.Entities = append(d.existing.Entities, e.name)
			continue
		case !errors.Is(err, pgx.ErrNoRows):
			return err
		}
		id := assess.NewID(assess.PrefixEntity, d.tx.Now)
		if _, err := d.tx.Exec(ctx, `INSERT INTO entities (id, name, description, entity_type, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $5)`, id, e.name, e.description, e.typ, d.tx.Now); err != nil {
			return err
		}
		if len(e.tags) > 0 {
			if err := postgres.ReplaceTags(ctx, d.tx, postgres.EntityTags, id, d.tagIDs(e.tags)); err != nil {
				return err
			}
		}
		d.entities[e.key] = id
		d.created.Entities++
	}
	return nil
}

func (d *demoLoad) loadRelationships(ctx context.Context) error {
	for _, r := range demoRelationships {
		// Between entities that existed, the relationship may exist too.
		res, err := d.tx.Exec(ctx, `INSERT INTO entity_relationships (id, source_id, target_id, relationship_type, created_at)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, assess.NewID(assess.PrefixRelationship, d.tx.Now), d.entities[r.source],
			d.entities[r.target], r.typ, d.tx.Now)
		if err != nil {
			return err
		}
		d.created.Relationships += int(res.RowsAffected())
	}
	return nil
}

// loadProjects creates an assessment of the web shop in progress (against the published
// standards present, up to five) and a supplier review not started yet.
func (d *demoLoad) loadProjects(ctx context.Context) error {
	rows, err := d.tx.Query(ctx, "SELECT id FROM standards WHERE state = 'published' ORDER BY lower(name), standard_version, id LIMIT 5")
	if err != nil {
		return err
	}
	var standards []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		standards = append(standards, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	day := func(days int) string { return d.tx.Now.UTC().AddDate(0, 0, days).Format(assess.ProjectDateLayout) }
	for _, p := range []demoProject{
		{assess.NewProject{Name: "Acme Web Shop security assessment", State: assess.ProjectInProgress,
			Description: "Yearly assessment of the web shop and the payments service it depends on.",
			OwnerID:     d.assessor, StartDate: day(-30), DueDate: day(60), StandardIDs: postgres.OrEmpty(standards),
			TagIDs: d.tagIDs([]string{"PCI DSS scope", "Customer-facing"})}, []string{"shop", "payments"}},
		{assess.NewProject{Name: "Nimbus Cloud Hosting supplier review", State: assess.ProjectNew,
			Description: "Review of the hosting provider's controls before the contract renewal.",
			DueDate:     day(90), TagIDs: d.tagIDs([]string{"Third party"})}, []string{"nimbus"}},
	} {
		if err := d.loadProject(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// demoProject is a demo project and the keys of the demo entities it covers.
type demoProject struct {
	assess.NewProject
	entities []string
}

func (d *demoLoad) loadProject(ctx context.Context, p demoProject) error {
	for _, k := range p.entities {
		p.EntityIDs = append(p.EntityIDs, d.entities[k])
	}
	if err := p.Validate(); err != nil {
		return err
	}
	id, err := work.InsertProject(ctx, d.tx, p.NewProject)
	if err != nil {
		return err
	}
	if _, err := work.RecordProject(ctx, d.tx, assess.ChangeProjectCreated, id, map[string]any{"name": p.Name, "state": p.State, "demo": true}); err != nil {
		return err
	}
	d.created.Projects++
	return nil
}
