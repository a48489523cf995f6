-- The assessment list's "-updatedAt" order (recently changed first): with this index a
-- page is read in order from the index and the keyset condition of the next page is one
-- index range, like the list's other orders.
CREATE INDEX assessments_updated_idx ON assessments (updated_at DESC, id DESC);
