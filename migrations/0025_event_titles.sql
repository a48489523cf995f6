-- The event in words for everyone ("Evidence approved"), as its chat posts and e-mails are
-- headed (assess.DescribeEvent); events recorded before keep '' and are headed with their
-- type's catalogue title.
ALTER TABLE events ADD COLUMN title text NOT NULL DEFAULT '';
