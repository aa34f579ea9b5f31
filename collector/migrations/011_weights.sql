-- A crowd that no early voice captures (cohorts.ts, weights.ts). Each voice (one network's runs
-- of one day) carries a weight in its device class's cohort: a day's new voices weigh at most
-- a share of the weight before them, so a burst is diluted, never held, and never keeps that
-- day's other newcomers out. One row per cohort, class and day: what a voice of that day weighs
-- (`w`), or one that arrived outside the fences (`wo`). A day with no row yet (rows newer than
-- the cohort's last refresh) weighs 1 a voice.
CREATE TABLE cohort_day_weights (
  algorithm      text NOT NULL,
  implementation text NOT NULL,
  variant        text NOT NULL,
  operation      text NOT NULL,
  size_bytes     integer NOT NULL,
  aad_bytes      integer NOT NULL,
  device_class   text NOT NULL,
  day            date NOT NULL,
  w              double precision NOT NULL,
  wo             double precision NOT NULL,
  PRIMARY KEY (algorithm, implementation, variant, operation, size_bytes, aad_bytes, device_class, day)
);
-- A cohort is also its variant (a WASM build; Web Crypto sequential or pipelined) and its
-- associated data's length: a pipelined call or a 1 MiB AAD joined the cohort of plain calls
-- without AAD. Bounds and views are derived: emptied here, drawn again as their cohorts are
-- touched (the first new row of each, within a minute).
TRUNCATE cohort_bounds, cohort_views;
ALTER TABLE cohort_bounds ADD COLUMN variant text NOT NULL DEFAULT '', ADD COLUMN aad_bytes integer NOT NULL DEFAULT 0;
ALTER TABLE cohort_bounds DROP CONSTRAINT cohort_bounds_pkey;
ALTER TABLE cohort_bounds ADD PRIMARY KEY (algorithm, implementation, variant, operation, size_bytes, aad_bytes, device_class);
ALTER TABLE cohort_views ADD COLUMN variant text NOT NULL DEFAULT '', ADD COLUMN aad_bytes integer NOT NULL DEFAULT 0;
ALTER TABLE cohort_views DROP CONSTRAINT cohort_views_pkey;
ALTER TABLE cohort_views ADD PRIMARY KEY (algorithm, implementation, variant, operation, size_bytes, aad_bytes);
CREATE INDEX cases_cohort_full ON cases (algorithm, implementation, variant, operation, size_bytes, aad_bytes);
-- A case whose samples are all one value: no timer gives that, so it is not a measurement. Kept
-- and exported, never counted, never part of the fences.
ALTER TABLE cases ADD COLUMN no_spread boolean NOT NULL DEFAULT false;
-- Whether the case arrived outside the fences in force when it was stored: unlike `outlier`,
-- never drawn again. A day's voices that arrived outside weigh little unless enough networks
-- brought them (weights.ts OUTSIDE_QUORUM).
ALTER TABLE cases ADD COLUMN arrived_outside boolean NOT NULL DEFAULT false;
-- Fences are drawn around the weighted median of ln(throughput) (center) with the weighted
-- median absolute deviation (spread), over every voice, flagged or not: a flag is recomputed at
-- every refresh, so a voice flagged by an early false majority counts again once it is overturned.
ALTER TABLE cohort_bounds ADD COLUMN center double precision NOT NULL DEFAULT 0;
ALTER TABLE cohort_bounds ADD COLUMN spread double precision NOT NULL DEFAULT 0;
ALTER TABLE cohort_bounds ADD COLUMN days integer NOT NULL DEFAULT 0;
ALTER TABLE cohort_bounds DROP COLUMN q1;
ALTER TABLE cohort_bounds DROP COLUMN q3;
ALTER TABLE cohort_bounds DROP COLUMN established;
-- Nothing is held any more: a held burst is diluted like any other day's voices from now on.
UPDATE cases SET held = false WHERE held;
-- The daily caps (writer.ts), counted in the transaction that stores: one row per network
-- (its day's source hash) and per address (the day key's hash of it) for the current day. Both
-- hashes lead nowhere once the day's key is gone; rows of earlier days are deleted.
CREATE UNLOGGED TABLE daily_counts (
  key text NOT NULL,
  day date NOT NULL DEFAULT current_date,
  n integer NOT NULL,
  PRIMARY KEY (key, day)
);
