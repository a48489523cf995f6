-- The SQL functions of object-level access (0011, 0029) in PL/pgSQL, reading the tables of
-- who takes part where (0033) and of each piece of evidence's assessments (0035), with the
-- same answers (issue 27 item 4; docs/performance.md, "Creates and the write ceiling").
--
-- A LANGUAGE sql function whose body holds a subquery is never inlined, and PostgreSQL 15
-- plans its body anew for every statement that calls it: every event about an assessment or
-- evidence paid 0.3–0.6 ms of planning in its recipients statement (assessment_visible for
-- each candidate, user_has_permission for each rule's user) against 0.02–0.1 ms of running
-- it, and so did every work note that mentions someone. PL/pgSQL keeps the plan of each of
-- its statements for the connection's lifetime; a generic plan serves every argument (each
-- is a few index lookups), so it is used from the first call rather than after five custom
-- ones. Each function is one statement: the rule's parts are written out rather than
-- called, which would add a call and a plan per row.
--
-- Only the functions change (no table is touched or locked); statements that are running
-- keep the definitions they started with.

CREATE OR REPLACE FUNCTION user_has_permission(uid text, perm text) RETURNS boolean
    LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    RETURN EXISTS (SELECT 1 FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
                   WHERE ur.user_id = uid AND rp.permission = perm);
END
$$;

-- A participant of an assessment: an assessor or assessee, or the author or reviewer of
-- evidence linked to one of its requirements (assessment_participants keeps that set).
CREATE OR REPLACE FUNCTION assessment_participant(uid text, aid text) RETURNS boolean
    LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    RETURN EXISTS (SELECT 1 FROM assessment_participants p WHERE p.user_id = uid AND p.assessment_id = aid);
END
$$;

CREATE OR REPLACE FUNCTION assessment_visible(uid text, aid text) RETURNS boolean
    LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    RETURN EXISTS (SELECT 1 FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
                   WHERE ur.user_id = uid AND rp.permission = 'assessments.view_all')
        OR EXISTS (SELECT 1 FROM assessment_participants p WHERE p.user_id = uid AND p.assessment_id = aid);
END
$$;

-- Evidence is visible to its author and reviewer, to participants of an assessment it is
-- linked to or whose claim cites it (evidence_assessments keeps those assessments), and to
-- holders of evidence.view_all or assessments.view_all.
CREATE OR REPLACE FUNCTION evidence_visible(uid text, eid text) RETURNS boolean
    LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    RETURN EXISTS (SELECT 1 FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
                   WHERE ur.user_id = uid AND rp.permission IN ('evidence.view_all', 'assessments.view_all'))
        OR EXISTS (SELECT 1 FROM evidence e WHERE e.id = eid AND (e.author_id = uid OR e.reviewer_id = uid))
        OR EXISTS (SELECT 1 FROM evidence_assessments ea
                   JOIN assessment_participants p ON p.assessment_id = ea.assessment_id AND p.user_id = uid
                   WHERE ea.evidence_id = eid);
END
$$;
