-- The project list's dueDate order: soonest first, projects without a due date last
-- (their key is 'infinity'), keyset-paginated on this index.
CREATE INDEX projects_due_sort_idx ON projects ((coalesce(due_date, 'infinity'::date)), id);
