-- Participants counted in shards, and evidence deleted with its links first (issue 27 item 4;
-- docs/performance.md, "Creates and the write ceiling").
--
-- Every link of a piece of evidence into an assessment adds a tie to its author's (and
-- reviewer's) row of assessment_participants (migration 0033), and the row stays locked until
-- the change commits. An author adding evidence to one assessment from several clients at
-- once — a pipeline uploading its scan results — queued on that one row: 97 % of create
-- evidence's database time under 32 clients was that wait, 15–40 ms a create. The ties of
-- a user in an assessment are now kept in up to sixteen rows, the shard of each tie chosen by
-- the last character of the evidence's id (random): two links of different evidence meet on
-- the same row one time in sixteen. A team role's tie is in shard 0. A user takes part in an
-- assessment while any of its rows exists; readers test for a row, so they do not change.
--
--   shard  tie_shard(evidence id) for a link's tie, 0 for a team role's.
--   ties   the ties of that shard; a row exists while ties > 0.
--
-- A piece of evidence being deleted now deletes its links itself, in its BEFORE DELETE
-- trigger, while it still exists: the links' own triggers then count everything (requirement
-- rows, progress, participants, evidence's assessments) in the order every other writer of
-- links locks those rows. Before, the evidence's trigger took its people's ties away first
-- and the cascade then locked requirement rows: the opposite order of a link statement,
-- which could deadlock with one.

LOCK TABLE assessment_members, assessment_requirement_evidence, evidence, assessment_participants IN EXCLUSIVE MODE;

-- tie_shard is the shard (0–15) of the ties of the evidence whose id is id. Ids end in a
-- random character; an id made in SQL ends in whatever it ends in, and any string has a shard.
CREATE FUNCTION tie_shard(id text) RETURNS smallint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT (ascii(right(id, 1)) & 15)::smallint $$;

ALTER TABLE assessment_participants DROP CONSTRAINT assessment_participants_pkey;
TRUNCATE assessment_participants;
ALTER TABLE assessment_participants ADD COLUMN shard smallint NOT NULL;
INSERT INTO assessment_participants (user_id, assessment_id, shard, ties)
SELECT u, a, s, count(*) FROM (
    SELECT user_id AS u, assessment_id AS a, 0::smallint AS s FROM assessment_members
    UNION ALL SELECT e.author_id, l.assessment_id, tie_shard(e.id) FROM assessment_requirement_evidence l JOIN evidence e ON e.id = l.evidence_id
    UNION ALL SELECT e.reviewer_id, l.assessment_id, tie_shard(e.id) FROM assessment_requirement_evidence l JOIN evidence e ON e.id = l.evidence_id
        WHERE e.reviewer_id IS NOT NULL) t
GROUP BY u, a, s;
ALTER TABLE assessment_participants ADD PRIMARY KEY (user_id, assessment_id, shard);

DROP FUNCTION assessment_participants_change(text[], text[], int[]);

-- assessment_participants_change adds the deltas to the (user, assessment, shard) rows, in
-- key order (two writers never wait for each other in opposite orders), and removes the rows
-- left without a tie.
CREATE FUNCTION assessment_participants_change(users text[], assessments text[], shards smallint[], deltas int[]) RETURNS void
    LANGUAGE plpgsql AS $$
DECLARE
    ku text[];
    ka text[];
    ks smallint[];
    kd int[];
BEGIN
    SELECT array_agg(u ORDER BY u, a, s), array_agg(a ORDER BY u, a, s), array_agg(s ORDER BY u, a, s), array_agg(d ORDER BY u, a, s)
    INTO ku, ka, ks, kd
    FROM (SELECT u, a, s, sum(d)::int AS d FROM unnest(users, assessments, shards, deltas) AS x(u, a, s, d)
        WHERE u IS NOT NULL AND a IS NOT NULL GROUP BY u, a, s HAVING sum(d) <> 0) c;
    IF ku IS NULL THEN
        RETURN;
    END IF;
    INSERT INTO assessment_participants AS p (user_id, assessment_id, shard, ties)
    SELECT u, a, s, d FROM unnest(ku, ka, ks, kd) AS x(u, a, s, d) ORDER BY u, a, s
    ON CONFLICT (user_id, assessment_id, shard) DO UPDATE SET ties = p.ties + excluded.ties;
    DELETE FROM assessment_participants p USING unnest(ku, ka, ks) AS x(u, a, s)
    WHERE p.user_id = x.u AND p.assessment_id = x.a AND p.shard = x.s AND p.ties <= 0;
END
$$;

CREATE OR REPLACE FUNCTION assessment_members_participants() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    u text[];
    a text[];
    s smallint[];
    d int[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(user_id), array_agg(assessment_id), array_agg(0::smallint), array_agg(1) INTO u, a, s, d FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(user_id), array_agg(assessment_id), array_agg(0::smallint), array_agg(-1) INTO u, a, s, d FROM old_rows;
    ELSE
        SELECT array_agg(user_id), array_agg(assessment_id), array_agg(0::smallint), array_agg(c.d) INTO u, a, s, d
        FROM (SELECT user_id, assessment_id, 1 AS d FROM new_rows UNION ALL SELECT user_id, assessment_id, -1 FROM old_rows) c;
    END IF;
    PERFORM assessment_participants_change(u, a, s, d);
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION assessment_links_participants() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    u text[];
    a text[];
    s smallint[];
    d int[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(p.u), array_agg(p.a), array_agg(tie_shard(e.id)), array_agg(1) INTO u, a, s, d
        FROM new_rows l JOIN evidence e ON e.id = l.evidence_id,
            LATERAL (VALUES (e.author_id, l.assessment_id), (e.reviewer_id, l.assessment_id)) p(u, a);
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(p.u), array_agg(p.a), array_agg(tie_shard(e.id)), array_agg(-1) INTO u, a, s, d
        FROM old_rows l JOIN evidence e ON e.id = l.evidence_id,
            LATERAL (VALUES (e.author_id, l.assessment_id), (e.reviewer_id, l.assessment_id)) p(u, a);
    ELSE
        SELECT array_agg(p.u), array_agg(p.a), array_agg(tie_shard(e.id)), array_agg(p.s) INTO u, a, s, d
        FROM (SELECT evidence_id, assessment_id, 1 AS s FROM new_rows UNION ALL SELECT evidence_id, assessment_id, -1 FROM old_rows) l
            JOIN evidence e ON e.id = l.evidence_id,
            LATERAL (VALUES (e.author_id, l.assessment_id, l.s), (e.reviewer_id, l.assessment_id, l.s)) p(u, a, s);
    END IF;
    PERFORM assessment_participants_change(u, a, s, d);
    RETURN NULL;
END
$$;

-- A new author or reviewer takes over the ties of every link of the evidence. A piece of
-- evidence about to be deleted deletes its links (whose triggers take its people's ties
-- away while the evidence row still names them); the cascade then finds none.
CREATE OR REPLACE FUNCTION evidence_people_participants() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    u text[];
    a text[];
    s smallint[];
    d int[];
BEGIN
    IF TG_OP = 'UPDATE' THEN
        SELECT array_agg(p.u), array_agg(p.a), array_agg(tie_shard(NEW.id)), array_agg(p.d) INTO u, a, s, d
        FROM assessment_requirement_evidence l,
            LATERAL (VALUES (OLD.author_id, l.assessment_id, -1), (OLD.reviewer_id, l.assessment_id, -1),
                (NEW.author_id, l.assessment_id, 1), (NEW.reviewer_id, l.assessment_id, 1)) p(u, a, d)
        WHERE l.evidence_id = NEW.id;
        PERFORM assessment_participants_change(u, a, s, d);
        RETURN NULL;
    END IF;
    DELETE FROM assessment_requirement_evidence WHERE evidence_id = OLD.id;
    RETURN OLD;
END
$$;
