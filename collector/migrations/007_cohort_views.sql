-- What a large cohort's crowd reads answer, computed when its bounds are refreshed (at most
-- every few minutes), so that /stats and /percentile on a cohort of 100,000 rows read one row
-- instead of passing over all of them. Small cohorts have no row here and are read live.
CREATE TABLE cohort_views (
  algorithm      text NOT NULL,
  implementation text NOT NULL,
  operation      text NOT NULL,
  size_bytes     integer NOT NULL,
  rows           integer NOT NULL,
  -- The default /stats answer: CohortStats per device class, standard runs only.
  stats          jsonb NOT NULL,
  -- For /percentile: {"*" | device class: {n, exact, values}}, standard runs only.
  distributions  jsonb NOT NULL,
  refreshed_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (algorithm, implementation, operation, size_bytes)
);
