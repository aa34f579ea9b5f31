-- Pre-aggregated cohort quartiles of ln(throughput), refreshed in the background, so that
-- flagging a new case is an index lookup instead of a percentile over its whole cohort.
CREATE TABLE cohort_bounds (
  algorithm      text NOT NULL,
  implementation text NOT NULL,
  operation      text NOT NULL,
  size_bytes     integer NOT NULL,
  device_class   text NOT NULL,
  n              integer NOT NULL,
  q1             double precision NOT NULL,
  q3             double precision NOT NULL,
  refreshed_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (algorithm, implementation, operation, size_bytes, device_class)
);
