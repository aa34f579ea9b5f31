-- Fit for the public internet: one voice per source, operator quarantine, O(1) health,
-- an indexed export key, and rate-limit buckets shared by every collector process.

-- A keyed hash of the submitter's address prefix (/24, /64) under a key that exists for one UTC
-- day and is destroyed at rotation (collector/source.ts): it links one day's submissions from
-- one network to each other, never to an address. NULL for rows stored before this migration.
ALTER TABLE submissions ADD COLUMN source text;
-- Set by the operator's quarantine command: kept and exported, left out of every statistic.
ALTER TABLE submissions ADD COLUMN quarantined boolean NOT NULL DEFAULT false;
CREATE INDEX submissions_source_day ON submissions (source, received_on);

-- What the operator did, and when: quarantine and release are reversible and logged.
CREATE TABLE operator_log (
  at       timestamptz NOT NULL DEFAULT now(),
  action   text NOT NULL CHECK (action IN ('quarantine', 'release')),
  selector jsonb NOT NULL,
  reason   text NOT NULL,
  affected integer NOT NULL
);

-- Exact totals kept by the writers in the same transaction as their rows, so /health is one
-- row read instead of two table scans.
CREATE TABLE collector_totals (
  singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  submissions bigint NOT NULL,
  cases       bigint NOT NULL
);
INSERT INTO collector_totals (singleton, submissions, cases) VALUES (true, (SELECT count(*) FROM submissions), (SELECT count(*) FROM cases));

-- The export pages by this key: one index range per page instead of a sort of every case.
ALTER TABLE cases ADD COLUMN seq bigserial;
CREATE UNIQUE INDEX cases_seq ON cases (seq);

-- Token buckets for writes, shared by every collector process on one PostgreSQL. Keys are
-- keyed hashes under the day's key (as `source`); rows older than an hour are swept. Unlogged:
-- not worth a WAL record, and lost on a database crash, which only resets the limits.
CREATE UNLOGGED TABLE rate_buckets (
  key    text PRIMARY KEY,
  tokens double precision NOT NULL,
  at     timestamptz NOT NULL
);

-- Cohort bounds computed over per-source medians: n counts sources, not rows. The row with
-- device_class '*' spans every class and judges cohorts too small to judge themselves.
ALTER TABLE cohort_bounds ADD COLUMN runs integer NOT NULL DEFAULT 0;
