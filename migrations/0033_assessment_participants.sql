-- Who takes part in which assessment, kept as a table (issue 27 item 2; docs/assessments.md,
-- "Who sees what"; docs/performance.md, "Participants as a table"). A user takes part in an
-- assessment when they are on its team or author or review evidence linked to one of its
-- requirements. Every list a participant reads tests its rows against that set; built on
-- each request from the team and the evidence links it took 23 ms for a participant of a
-- thousand assessments with three thousand pieces of evidence of their own (make bench on
-- the million-row data), and the planner, misjudging its size, scanned it once per candidate
-- row (0.4–1 s a page). PostgreSQL now keeps the set in the transaction of every write,
-- whichever path writes, so a list reads one index range per request or one index probe per
-- candidate row.
--
--   ties  the number of reasons the user takes part: each team role, and each link of each
--         piece of evidence they author or review (an author who also reviews counts twice).
--         A row exists while ties > 0.
--
-- Kept by statement triggers on assessment_members and assessment_requirement_evidence
-- (transition tables: starting an assessment or linking evidence to many requirements
-- changes the rows once per statement), by a row trigger on evidence when its author or
-- reviewer changes, and by one before a piece of evidence is deleted (its links go by
-- cascade after the evidence row, when their trigger can no longer find the author). No
-- foreign keys: the triggers remove what they added, so the table costs no checks on write.

LOCK TABLE assessment_members, assessment_requirement_evidence, evidence IN EXCLUSIVE MODE;

CREATE TABLE assessment_participants (
    user_id       text NOT NULL,
    assessment_id text NOT NULL,
    ties          int NOT NULL,
    PRIMARY KEY (user_id, assessment_id)
);

INSERT INTO assessment_participants (user_id, assessment_id, ties)
SELECT u, a, count(*) FROM (
    SELECT user_id AS u, assessment_id AS a FROM assessment_members
    UNION ALL SELECT e.author_id, l.assessment_id FROM assessment_requirement_evidence l JOIN evidence e ON e.id = l.evidence_id
    UNION ALL SELECT e.reviewer_id, l.assessment_id FROM assessment_requirement_evidence l JOIN evidence e ON e.id = l.evidence_id
        WHERE e.reviewer_id IS NOT NULL) t
GROUP BY u, a;

-- assessment_participants_change adds the deltas to the (user, assessment) pairs, in key
-- order (two writers never wait for each other in opposite orders), and removes the pairs
-- left without a tie.
CREATE FUNCTION assessment_participants_change(users text[], assessments text[], deltas int[]) RETURNS void
    LANGUAGE plpgsql AS $$
DECLARE
    ku text[];
    ka text[];
    kd int[];
BEGIN
    SELECT array_agg(u ORDER BY u, a), array_agg(a ORDER BY u, a), array_agg(d ORDER BY u, a) INTO ku, ka, kd
    FROM (SELECT u, a, sum(d)::int AS d FROM unnest(users, assessments, deltas) AS x(u, a, d)
        WHERE u IS NOT NULL AND a IS NOT NULL GROUP BY u, a HAVING sum(d) <> 0) c;
    IF ku IS NULL THEN
        RETURN;
    END IF;
    INSERT INTO assessment_participants AS p (user_id, assessment_id, ties)
    SELECT u, a, d FROM unnest(ku, ka, kd) AS x(u, a, d) ORDER BY u, a
    ON CONFLICT (user_id, assessment_id) DO UPDATE SET ties = p.ties + excluded.ties;
    DELETE FROM assessment_participants p USING unnest(ku, ka) AS x(u, a)
    WHERE p.user_id = x.u AND p.assessment_id = x.a AND p.ties <= 0;
END
$$;

CREATE FUNCTION assessment_members_participants() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    u text[];
    a text[];
    d int[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(user_id), array_agg(assessment_id), array_agg(1) INTO u, a, d FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(user_id), array_agg(assessment_id), array_agg(-1) INTO u, a, d FROM old_rows;
    ELSE
        SELECT array_agg(user_id), array_agg(assessment_id), array_agg(s) INTO u, a, d
        FROM (SELECT user_id, assessment_id, 1 AS s FROM new_rows UNION ALL SELECT user_id, assessment_id, -1 FROM old_rows) c;
    END IF;
    PERFORM assessment_participants_change(u, a, d);
    RETURN NULL;
END
$$;

CREATE TRIGGER assessment_members_participants_insert AFTER INSERT ON assessment_members
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_members_participants();
CREATE TRIGGER assessment_members_participants_update AFTER UPDATE ON assessment_members
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_members_participants();
CREATE TRIGGER assessment_members_participants_delete AFTER DELETE ON assessment_members
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_members_participants();

-- A link ties the author and the reviewer of its evidence to its assessment. The triggers are
-- named to fire after those of migration 0030 (PostgreSQL fires a table's triggers of one
-- event in name order): a link statement locks the requirement rows, then the progress
-- counters, then the participant rows, the order of every other writer of those rows (a
-- result locks its requirement rows first), so two writers never wait for each other in
-- opposite orders. A link deleted
-- with its evidence finds no evidence row here: the evidence's own trigger (below) took its
-- ties away before.
CREATE FUNCTION assessment_links_participants() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    u text[];
    a text[];
    d int[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(p.u), array_agg(p.a), array_agg(1) INTO u, a, d
        FROM new_rows l JOIN evidence e ON e.id = l.evidence_id,
            LATERAL (VALUES (e.author_id, l.assessment_id), (e.reviewer_id, l.assessment_id)) p(u, a);
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(p.u), array_agg(p.a), array_agg(-1) INTO u, a, d
        FROM old_rows l JOIN evidence e ON e.id = l.evidence_id,
            LATERAL (VALUES (e.author_id, l.assessment_id), (e.reviewer_id, l.assessment_id)) p(u, a);
    ELSE
        SELECT array_agg(p.u), array_agg(p.a), array_agg(p.s) INTO u, a, d
        FROM (SELECT evidence_id, assessment_id, 1 AS s FROM new_rows UNION ALL SELECT evidence_id, assessment_id, -1 FROM old_rows) l
            JOIN evidence e ON e.id = l.evidence_id,
            LATERAL (VALUES (e.author_id, l.assessment_id, l.s), (e.reviewer_id, l.assessment_id, l.s)) p(u, a, s);
    END IF;
    PERFORM assessment_participants_change(u, a, d);
    RETURN NULL;
END
$$;

CREATE TRIGGER assessment_requirement_evidence_participants_insert AFTER INSERT ON assessment_requirement_evidence
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_links_participants();
CREATE TRIGGER assessment_requirement_evidence_participants_update AFTER UPDATE ON assessment_requirement_evidence
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_links_participants();
CREATE TRIGGER assessment_requirement_evidence_participants_delete AFTER DELETE ON assessment_requirement_evidence
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_links_participants();

-- A new author or reviewer takes over the ties of every link of the evidence; a piece of
-- evidence about to be deleted takes its people's ties away while its links still exist.
CREATE FUNCTION evidence_people_participants() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    u text[];
    a text[];
    d int[];
BEGIN
    IF TG_OP = 'UPDATE' THEN
        SELECT array_agg(p.u), array_agg(p.a), array_agg(p.s) INTO u, a, d
        FROM assessment_requirement_evidence l,
            LATERAL (VALUES (OLD.author_id, l.assessment_id, -1), (OLD.reviewer_id, l.assessment_id, -1),
                (NEW.author_id, l.assessment_id, 1), (NEW.reviewer_id, l.assessment_id, 1)) p(u, a, s)
        WHERE l.evidence_id = NEW.id;
        PERFORM assessment_participants_change(u, a, d);
        RETURN NULL;
    END IF;
    SELECT array_agg(p.u), array_agg(p.a), array_agg(-1) INTO u, a, d
    FROM assessment_requirement_evidence l,
        LATERAL (VALUES (OLD.author_id, l.assessment_id), (OLD.reviewer_id, l.assessment_id)) p(u, a)
    WHERE l.evidence_id = OLD.id;
    PERFORM assessment_participants_change(u, a, d);
    RETURN OLD;
END
$$;

CREATE TRIGGER evidence_people_participants_update AFTER UPDATE OF author_id, reviewer_id ON evidence
    FOR EACH ROW WHEN (OLD.author_id IS DISTINCT FROM NEW.author_id OR OLD.reviewer_id IS DISTINCT FROM NEW.reviewer_id)
    EXECUTE FUNCTION evidence_people_participants();
CREATE TRIGGER evidence_people_participants_delete BEFORE DELETE ON evidence
    FOR EACH ROW EXECUTE FUNCTION evidence_people_participants();
