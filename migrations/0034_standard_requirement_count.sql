-- A standard's number of requirements, kept on its row (issue 27 item 2; docs/performance.md,
-- "Lists at the domain's scale"). The standard list counted the requirements of each standard
-- of its page: a page holding a standard of 100,000 requirements read them all, every time
-- (make bench: 206 pages a second against 4,231 of the 50-user page). Statement triggers
-- keep the count in the transaction of every write, whichever path writes (imports, drafts,
-- copies, deletes); a statement adds its difference per standard once.

LOCK TABLE requirements IN EXCLUSIVE MODE;

ALTER TABLE standards ADD COLUMN requirement_count int NOT NULL DEFAULT 0;
UPDATE standards s SET requirement_count = c.n
    FROM (SELECT standard_id, count(*) AS n FROM requirements GROUP BY standard_id) c WHERE s.id = c.standard_id;

-- A standard deleted with its requirements (a cascade) is no longer there to change. Several
-- standards are changed in id order.
CREATE FUNCTION standard_requirement_count() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE standards s SET requirement_count = s.requirement_count + d.n
        FROM (SELECT standard_id, count(*)::int AS n FROM new_rows GROUP BY standard_id ORDER BY standard_id) d WHERE s.id = d.standard_id;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE standards s SET requirement_count = s.requirement_count - d.n
        FROM (SELECT standard_id, count(*)::int AS n FROM old_rows GROUP BY standard_id ORDER BY standard_id) d WHERE s.id = d.standard_id;
    ELSE
        UPDATE standards s SET requirement_count = s.requirement_count + d.n
        FROM (SELECT standard_id, sum(k)::int AS n FROM (SELECT standard_id, 1 AS k FROM new_rows
                UNION ALL SELECT standard_id, -1 FROM old_rows) c
            GROUP BY standard_id HAVING sum(k) <> 0 ORDER BY standard_id) d WHERE s.id = d.standard_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER requirements_count_insert AFTER INSERT ON requirements
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION standard_requirement_count();
CREATE TRIGGER requirements_count_update AFTER UPDATE ON requirements
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION standard_requirement_count();
CREATE TRIGGER requirements_count_delete AFTER DELETE ON requirements
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION standard_requirement_count();
