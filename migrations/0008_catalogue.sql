-- The catalogue: tags, standards (requirement trees, levels), entities (a relationship
-- graph and compliance policies) and projects. Every mutable record carries the
-- optimistic-concurrency `version`; lists sort on indexed keys (keyset pagination).

CREATE TABLE tags (
    id          text PRIMARY KEY CHECK (id LIKE 'tg\_%'),
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    color       text NOT NULL DEFAULT '#6366f1' CHECK (color ~ '^#[0-9a-f]{6}$'),
    description text NOT NULL DEFAULT '',
    version     bigint NOT NULL DEFAULT 1,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tags_name_key ON tags (lower(name));

-- Standards. identifier is the standard's stable name across its versions (for imports:
-- derived from its name, the way the public feed names it); (identifier, standard_version)
-- is unique, so several versions coexist. bom_ref is the CycloneDX bom-ref, kept for export.
CREATE TABLE standards (
    id                  text PRIMARY KEY CHECK (id LIKE 'st\_%'),
    identifier          text NOT NULL CHECK (length(identifier) BETWEEN 1 AND 200),
    standard_version    text NOT NULL DEFAULT '' CHECK (length(standard_version) <= 100),
    name                text NOT NULL CHECK (length(name) BETWEEN 1 AND 500),
    description         text NOT NULL DEFAULT '',
    owner               text NOT NULL DEFAULT '',
    bom_ref             text NOT NULL DEFAULT '',
    external_references jsonb NOT NULL DEFAULT '[]',
    state               text NOT NULL DEFAULT 'draft'
                        CHECK (state IN ('draft', 'in_review', 'published', 'retired')),
    source              text NOT NULL DEFAULT 'manual'
                        CHECK (source IN ('manual', 'import', 'feed', 'duplicate')),
    duplicated_from     text REFERENCES standards (id) ON DELETE SET NULL,
    created_by          text,
    submitted_by        text,
    submitted_at        timestamptz,
    approved_by         text,
    approved_at         timestamptz,
    rejected_by         text,
    rejected_at         timestamptz,
    rejection_reason    text,
    retired_at          timestamptz,
    version             bigint NOT NULL DEFAULT 1,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX standards_identifier_version_key ON standards (identifier, standard_version);
CREATE INDEX standards_name_idx ON standards (lower(name), id);
CREATE INDEX standards_state_idx ON standards (state, lower(name), id);
CREATE INDEX standards_created_idx ON standards (id DESC);

CREATE TABLE standard_tags (
    standard_id text NOT NULL REFERENCES standards (id) ON DELETE CASCADE,
    tag_id      text NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (standard_id, tag_id)
);
CREATE INDEX standard_tags_tag_idx ON standard_tags (tag_id, standard_id);

-- Requirements form a tree per standard. natural_key is the identifier with every digit
-- run zero-padded (assess.NaturalKey), so V1.2.10 sorts after V1.2.9 in an index;
-- position orders siblings (moves and reorders), natural_key breaks ties.
CREATE TABLE requirements (
    id                  text PRIMARY KEY CHECK (id LIKE 'rq\_%'),
    standard_id         text NOT NULL REFERENCES standards (id) ON DELETE CASCADE,
    parent_id           text REFERENCES requirements (id) ON DELETE CASCADE,
    identifier          text NOT NULL CHECK (length(identifier) BETWEEN 1 AND 200),
    natural_key         text COLLATE "C" NOT NULL,
    name                text NOT NULL DEFAULT '',
    description         text NOT NULL DEFAULT '',
    bom_ref             text NOT NULL DEFAULT '',
    open_cre            text[] NOT NULL DEFAULT '{}',
    external_references jsonb NOT NULL DEFAULT '[]',
    properties          jsonb NOT NULL DEFAULT '[]',
    position            integer NOT NULL DEFAULT 0,
    version             bigint NOT NULL DEFAULT 1,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    CHECK (parent_id IS NULL OR parent_id <> id)
);
CREATE UNIQUE INDEX requirements_identifier_key ON requirements (standard_id, identifier);
CREATE INDEX requirements_natural_idx ON requirements (standard_id, natural_key, id);
CREATE INDEX requirements_parent_idx ON requirements (parent_id, position, natural_key);

CREATE TABLE levels (
    id          text PRIMARY KEY CHECK (id LIKE 'lv\_%'),
    standard_id text NOT NULL REFERENCES standards (id) ON DELETE CASCADE,
    identifier  text NOT NULL CHECK (length(identifier) BETWEEN 1 AND 200),
    title       text NOT NULL DEFAULT '',
    description text NOT NULL DEFAULT '',
    bom_ref     text NOT NULL DEFAULT '',
    position    integer NOT NULL DEFAULT 0,
    version     bigint NOT NULL DEFAULT 1,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX levels_identifier_key ON levels (standard_id, identifier);

CREATE TABLE level_requirements (
    level_id       text NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    requirement_id text NOT NULL REFERENCES requirements (id) ON DELETE CASCADE,
    PRIMARY KEY (level_id, requirement_id)
);
CREATE INDEX level_requirements_requirement_idx ON level_requirements (requirement_id);

-- Entities and their directed relationship graph (cycles are allowed, self-loops not).
CREATE TABLE entities (
    id          text PRIMARY KEY CHECK (id LIKE 'en\_%'),
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
    description text NOT NULL DEFAULT '',
    entity_type text NOT NULL CHECK (entity_type IN ('organization', 'business_unit', 'team',
                    'product', 'product_version', 'component', 'service', 'project', 'vendor', 'supplier')),
    state       text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'inactive', 'archived')),
    owner_id    text REFERENCES users (id) ON DELETE SET NULL,
    bom_ref     text NOT NULL DEFAULT '',
    version     bigint NOT NULL DEFAULT 1,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX entities_name_idx ON entities (lower(name), id);
CREATE INDEX entities_created_idx ON entities (id DESC);
CREATE INDEX entities_type_idx ON entities (entity_type, lower(name), id);
CREATE INDEX entities_state_idx ON entities (state, lower(name), id);

CREATE TABLE entity_tags (
    entity_id text NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    tag_id    text NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (entity_id, tag_id)
);
CREATE INDEX entity_tags_tag_idx ON entity_tags (tag_id, entity_id);

CREATE TABLE entity_relationships (
    id                text PRIMARY KEY CHECK (id LIKE 'er\_%'),
    source_id         text NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    target_id         text NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    relationship_type text NOT NULL CHECK (relationship_type IN ('owns', 'contains', 'governs',
                          'supplies', 'depends_on', 'consumes', 'assesses', 'produces')),
    created_at        timestamptz NOT NULL DEFAULT now(),
    CHECK (source_id <> target_id)
);
CREATE UNIQUE INDEX entity_relationships_key ON entity_relationships (source_id, target_id, relationship_type);
CREATE INDEX entity_relationships_target_idx ON entity_relationships (target_id, relationship_type);

-- Compliance policies: a standard (optionally one of its levels) applies to an entity and,
-- by inheritance, to what it owns, contains or governs. A standard in use cannot be
-- deleted (RESTRICT: 409 in_use).
CREATE TABLE compliance_policies (
    id          text PRIMARY KEY CHECK (id LIKE 'cp\_%'),
    entity_id   text NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    standard_id text NOT NULL REFERENCES standards (id) ON DELETE RESTRICT,
    level_id    text REFERENCES levels (id) ON DELETE SET NULL,
    description text NOT NULL DEFAULT '',
    version     bigint NOT NULL DEFAULT 1,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX compliance_policies_key ON compliance_policies (entity_id, standard_id);
CREATE INDEX compliance_policies_standard_idx ON compliance_policies (standard_id);

CREATE TABLE projects (
    id          text PRIMARY KEY CHECK (id LIKE 'pr\_%'),
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
    description text NOT NULL DEFAULT '',
    state       text NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'in_progress', 'on_hold',
                    'complete', 'operational', 'retired')),
    owner_id    text REFERENCES users (id) ON DELETE SET NULL,
    start_date  date,
    due_date    date,
    archived_at timestamptz,
    version     bigint NOT NULL DEFAULT 1,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (due_date IS NULL OR start_date IS NULL OR due_date >= start_date)
);
CREATE INDEX projects_name_idx ON projects (lower(name), id);
CREATE INDEX projects_created_idx ON projects (id DESC);
CREATE INDEX projects_state_idx ON projects (state, lower(name), id);
CREATE INDEX projects_due_idx ON projects (due_date, id);

CREATE TABLE project_standards (
    project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    standard_id text NOT NULL REFERENCES standards (id) ON DELETE RESTRICT,
    PRIMARY KEY (project_id, standard_id)
);
CREATE INDEX project_standards_standard_idx ON project_standards (standard_id);

CREATE TABLE project_entities (
    project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    entity_id  text NOT NULL REFERENCES entities (id) ON DELETE RESTRICT,
    PRIMARY KEY (project_id, entity_id)
);
CREATE INDEX project_entities_entity_idx ON project_entities (entity_id);

CREATE TABLE project_tags (
    project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    tag_id     text NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (project_id, tag_id)
);
CREATE INDEX project_tags_tag_idx ON project_tags (tag_id, project_id);
