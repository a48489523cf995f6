-- Assessment work (issue #13): assessments with their standards, team and requirement
-- results; evidence with notes and attachments (stored in the database or in S3); claims;
-- work notes. Object-level access: who may see an assessment (and everything under it) is
-- decided by the functions at the end, used by the event fan-out; lists build the same
-- rule in their WHERE clause (pkg/postgres/visibility.go).

CREATE TABLE assessments (
    id                text PRIMARY KEY CHECK (id LIKE 'as\_%'),
    title             text NOT NULL CHECK (length(title) BETWEEN 1 AND 300),
    description       text NOT NULL DEFAULT '',
    entity_id         text NOT NULL REFERENCES entities (id) ON DELETE RESTRICT,
    project_id        text REFERENCES projects (id) ON DELETE RESTRICT,
    state             text NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'pending', 'in_progress',
                          'on_hold', 'cancelled', 'complete', 'archived')),
    due_date          date,
    started_at        timestamptz,
    ended_at          timestamptz,
    -- 0–100 with two decimals; null until complete, or when every answer is not applicable.
    conformance_score numeric(5, 2) CHECK (conformance_score BETWEEN 0 AND 100),
    created_by        text REFERENCES users (id) ON DELETE SET NULL,
    version           bigint NOT NULL DEFAULT 1,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assessments_created_idx ON assessments (id DESC);
CREATE INDEX assessments_title_idx ON assessments (lower(title), id);
CREATE INDEX assessments_state_idx ON assessments (state, id DESC);
CREATE INDEX assessments_entity_idx ON assessments (entity_id, id DESC);
CREATE INDEX assessments_project_idx ON assessments (project_id, id DESC) WHERE project_id IS NOT NULL;
CREATE INDEX assessments_due_sort_idx ON assessments ((coalesce(due_date, 'infinity'::date)), id);

-- The standards an assessment is against, each optionally narrowed to one of its levels,
-- with the conformance score of that standard (and level) once complete.
CREATE TABLE assessment_standards (
    assessment_id     text NOT NULL REFERENCES assessments (id) ON DELETE CASCADE,
    standard_id       text NOT NULL REFERENCES standards (id) ON DELETE RESTRICT,
    level_id          text REFERENCES levels (id) ON DELETE RESTRICT,
    position          int NOT NULL DEFAULT 0,
    conformance_score numeric(5, 2) CHECK (conformance_score BETWEEN 0 AND 100),
    PRIMARY KEY (assessment_id, standard_id)
);
CREATE INDEX assessment_standards_standard_idx ON assessment_standards (standard_id, assessment_id);

-- The team: one row per user and role (a user may be both assessor and assessee).
CREATE TABLE assessment_members (
    assessment_id text NOT NULL REFERENCES assessments (id) ON DELETE CASCADE,
    user_id       text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role          text NOT NULL CHECK (role IN ('assessor', 'assessee')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (assessment_id, user_id, role)
);
CREATE INDEX assessment_members_user_idx ON assessment_members (user_id, assessment_id);

CREATE TABLE assessment_tags (
    assessment_id text NOT NULL REFERENCES assessments (id) ON DELETE CASCADE,
    tag_id        text NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (assessment_id, tag_id)
);
CREATE INDEX assessment_tags_tag_idx ON assessment_tags (tag_id, assessment_id);

-- One row per requirement loaded when the assessment starts: its result and rationale.
CREATE TABLE assessment_requirements (
    id             text PRIMARY KEY CHECK (id LIKE 'ar\_%'),
    assessment_id  text NOT NULL REFERENCES assessments (id) ON DELETE CASCADE,
    requirement_id text NOT NULL REFERENCES requirements (id) ON DELETE RESTRICT,
    standard_id    text NOT NULL REFERENCES standards (id) ON DELETE RESTRICT,
    result         text CHECK (result IN ('yes', 'partial', 'no', 'not_applicable')),
    rationale      text NOT NULL DEFAULT '',
    assignee_id    text REFERENCES users (id) ON DELETE SET NULL,
    answered_by    text REFERENCES users (id) ON DELETE SET NULL,
    answered_at    timestamptz,
    version        bigint NOT NULL DEFAULT 1,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (assessment_id, requirement_id)
);
CREATE INDEX assessment_requirements_requirement_idx ON assessment_requirements (requirement_id);
CREATE INDEX assessment_requirements_assignee_idx ON assessment_requirements (assignee_id, assessment_id)
    WHERE assignee_id IS NOT NULL;

CREATE TABLE evidence (
    id                  text PRIMARY KEY CHECK (id LIKE 'ev\_%'),
    name                text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
    description         text NOT NULL DEFAULT '',
    classification      text NOT NULL DEFAULT '',
    bom_ref             text NOT NULL DEFAULT '',
    is_counter_evidence boolean NOT NULL DEFAULT false,
    state               text NOT NULL DEFAULT 'in_progress' CHECK (state IN ('in_progress', 'in_review',
                            'claimed', 'expired')),
    author_id           text NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
    reviewer_id         text REFERENCES users (id) ON DELETE SET NULL,
    -- When the evidence was gathered and the period it speaks for; separate from the upload time.
    collected_on        date,
    valid_from          date,
    valid_until         date,
    submitted_at        timestamptz,
    reviewed_at         timestamptz,
    -- The expiry reminder job marks what it announced, so each reminder is sent once.
    expiring_notified_at timestamptz,
    version             bigint NOT NULL DEFAULT 1,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    CHECK (valid_until IS NULL OR valid_from IS NULL OR valid_until >= valid_from)
);
CREATE INDEX evidence_created_idx ON evidence (id DESC);
CREATE INDEX evidence_name_idx ON evidence (lower(name), id);
CREATE INDEX evidence_state_idx ON evidence (state, id DESC);
CREATE INDEX evidence_author_idx ON evidence (author_id, id DESC);
CREATE INDEX evidence_reviewer_idx ON evidence (reviewer_id, id DESC) WHERE reviewer_id IS NOT NULL;
CREATE INDEX evidence_valid_until_idx ON evidence (valid_until, id) WHERE valid_until IS NOT NULL;

CREATE TABLE evidence_tags (
    evidence_id text NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
    tag_id      text NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (evidence_id, tag_id)
);
CREATE INDEX evidence_tags_tag_idx ON evidence_tags (tag_id, evidence_id);

-- The discussion of a piece of evidence; a rejection is a note of kind 'rejection'.
CREATE TABLE evidence_notes (
    id          text PRIMARY KEY CHECK (id LIKE 'evn\_%'),
    evidence_id text NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
    author_id   text REFERENCES users (id) ON DELETE SET NULL,
    kind        text NOT NULL DEFAULT 'note' CHECK (kind IN ('note', 'rejection')),
    content     text NOT NULL CHECK (length(content) BETWEEN 1 AND 10000),
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX evidence_notes_evidence_idx ON evidence_notes (evidence_id, id DESC);

-- Evidence linked to a requirement of an assessment (assessment_id repeated for the
-- visibility joins).
CREATE TABLE assessment_requirement_evidence (
    assessment_requirement_id text NOT NULL REFERENCES assessment_requirements (id) ON DELETE CASCADE,
    evidence_id               text NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
    assessment_id             text NOT NULL REFERENCES assessments (id) ON DELETE CASCADE,
    linked_by                 text REFERENCES users (id) ON DELETE SET NULL,
    created_at                timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (assessment_requirement_id, evidence_id)
);
CREATE INDEX are_evidence_idx ON assessment_requirement_evidence (evidence_id, assessment_id);
CREATE INDEX are_assessment_idx ON assessment_requirement_evidence (assessment_id, evidence_id);

-- Files of a piece of evidence. provider and storage_key say where the bytes are, per
-- row, so changing STORAGE_PROVIDER keeps older files readable. sha256 is computed while
-- streaming and verified on every read.
CREATE TABLE evidence_attachments (
    id           text PRIMARY KEY CHECK (id LIKE 'at\_%'),
    evidence_id  text NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
    filename     text NOT NULL CHECK (length(filename) BETWEEN 1 AND 255),
    content_type text NOT NULL,
    size_bytes   bigint NOT NULL CHECK (size_bytes >= 0),
    sha256       text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    provider     text NOT NULL CHECK (provider IN ('database', 's3')),
    storage_key  text NOT NULL,
    uploaded_by  text REFERENCES users (id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (evidence_id, sha256)
);
CREATE INDEX evidence_attachments_evidence_idx ON evidence_attachments (evidence_id, id);

-- The bytes of the database storage provider: an object is a sequence of chunks under its
-- key, written while the upload streams in.
CREATE TABLE blob_chunks (
    blob_key text NOT NULL,
    seq      int NOT NULL CHECK (seq >= 0),
    data     bytea NOT NULL,
    PRIMARY KEY (blob_key, seq)
);

-- Claims belong to one assessment: who may see the assessment may see its claims.
CREATE TABLE claims (
    id                  text PRIMARY KEY CHECK (id LIKE 'cl\_%'),
    assessment_id       text NOT NULL REFERENCES assessments (id) ON DELETE CASCADE,
    name                text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
    bom_ref             text NOT NULL DEFAULT '',
    target              text NOT NULL DEFAULT '',
    target_entity_id    text REFERENCES entities (id) ON DELETE SET NULL,
    predicate           text NOT NULL CHECK (length(predicate) BETWEEN 1 AND 10000),
    reasoning           text NOT NULL DEFAULT '',
    is_counter_claim    boolean NOT NULL DEFAULT false,
    counters_claim_id   text REFERENCES claims (id) ON DELETE SET NULL,
    external_references jsonb NOT NULL DEFAULT '[]'::jsonb,
    created_by          text REFERENCES users (id) ON DELETE SET NULL,
    version             bigint NOT NULL DEFAULT 1,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    CHECK (target <> '' OR target_entity_id IS NOT NULL)
);
CREATE INDEX claims_assessment_idx ON claims (assessment_id, id);
CREATE INDEX claims_counters_idx ON claims (counters_claim_id) WHERE counters_claim_id IS NOT NULL;

-- Evidence a claim cites: supporting, counter-evidence or a mitigation strategy.
CREATE TABLE claim_evidence (
    claim_id    text NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    evidence_id text NOT NULL REFERENCES evidence (id) ON DELETE RESTRICT,
    kind        text NOT NULL CHECK (kind IN ('evidence', 'counter_evidence', 'mitigation')),
    PRIMARY KEY (claim_id, evidence_id, kind)
);
CREATE INDEX claim_evidence_evidence_idx ON claim_evidence (evidence_id);

-- The requirements of the claim's assessment a claim is about.
CREATE TABLE claim_requirements (
    claim_id                  text NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    assessment_requirement_id text NOT NULL REFERENCES assessment_requirements (id) ON DELETE CASCADE,
    PRIMARY KEY (claim_id, assessment_requirement_id)
);
CREATE INDEX claim_requirements_requirement_idx ON claim_requirements (assessment_requirement_id);

CREATE TABLE work_notes (
    id            text PRIMARY KEY CHECK (id LIKE 'wn\_%'),
    assessment_id text NOT NULL REFERENCES assessments (id) ON DELETE CASCADE,
    author_id     text REFERENCES users (id) ON DELETE SET NULL,
    content       text NOT NULL CHECK (length(content) BETWEEN 1 AND 10000),
    mentions      text[] NOT NULL DEFAULT '{}',
    version       bigint NOT NULL DEFAULT 1,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX work_notes_assessment_idx ON work_notes (assessment_id, id DESC);

-- The activity timeline of an assessment: audit rows of changes under an assessment carry
-- its id as their scope.
ALTER TABLE audit_log ADD COLUMN scope_id text NOT NULL DEFAULT '';
CREATE INDEX audit_log_scope_idx ON audit_log (scope_id, id DESC) WHERE scope_id <> '';

-- Object-level access, for the event fan-out (lists build the same rule in Go).
CREATE FUNCTION user_has_permission(uid text, perm text) RETURNS boolean
    LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
                   WHERE ur.user_id = uid AND rp.permission = perm)
$$;

-- A participant of an assessment: an assessor or assessee, or the author or reviewer of
-- evidence linked to one of its requirements.
CREATE FUNCTION assessment_participant(uid text, aid text) RETURNS boolean
    LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM assessment_members m WHERE m.assessment_id = aid AND m.user_id = uid)
        OR EXISTS (SELECT 1 FROM assessment_requirement_evidence l JOIN evidence e ON e.id = l.evidence_id
                   WHERE l.assessment_id = aid AND (e.author_id = uid OR e.reviewer_id = uid))
$$;

CREATE FUNCTION assessment_visible(uid text, aid text) RETURNS boolean
    LANGUAGE sql STABLE AS $$
    SELECT user_has_permission(uid, 'assessments.view_all') OR assessment_participant(uid, aid)
$$;

-- Evidence is visible to its author and reviewer, to participants of an assessment it is
-- linked to, and to holders of evidence.view_all or assessments.view_all.
CREATE FUNCTION evidence_visible(uid text, eid text) RETURNS boolean
    LANGUAGE sql STABLE AS $$
    SELECT user_has_permission(uid, 'evidence.view_all') OR user_has_permission(uid, 'assessments.view_all')
        OR EXISTS (SELECT 1 FROM evidence e WHERE e.id = eid AND (e.author_id = uid OR e.reviewer_id = uid))
        OR EXISTS (SELECT 1 FROM assessment_requirement_evidence l WHERE l.evidence_id = eid
                   AND assessment_participant(uid, l.assessment_id))
        OR EXISTS (SELECT 1 FROM claim_evidence ce JOIN claims c ON c.id = ce.claim_id
                   WHERE ce.evidence_id = eid AND assessment_participant(uid, c.assessment_id))
$$;
