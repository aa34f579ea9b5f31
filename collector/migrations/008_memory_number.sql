-- The memory bucket is a number of GiB end to end (web/core/submit.ts memoryBucketGiB): 2 (or
-- less), 4, 8, 16, 32 (or more). It was stored as a label that the permalink parsed back into
-- a number, and '≤2 GiB' parsed to nothing.
ALTER TABLE submissions ALTER COLUMN memory_bucket TYPE smallint USING (
  CASE memory_bucket WHEN '≤2 GiB' THEN 2 WHEN '4 GiB' THEN 4 WHEN '8 GiB' THEN 8 WHEN '16 GiB' THEN 16 WHEN '32+ GiB' THEN 32 END);
ALTER TABLE submissions ADD CONSTRAINT submissions_memory_bucket CHECK (memory_bucket IN (2, 4, 8, 16, 32));
