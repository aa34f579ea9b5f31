-- One row per submitted run, holding only the coarse environment: no IP, no user-agent
-- string, no cookie, nothing that links two visits. The id is the run id the page made.
CREATE TABLE submissions (
  id               uuid PRIMARY KEY,
  received_on      date NOT NULL DEFAULT CURRENT_DATE,  -- a day, not a timestamp
  payload_sha256   text NOT NULL,                       -- tells a retry from a conflicting reuse of the id
  schema_version   text NOT NULL,
  engine_version   text NOT NULL,
  device_class     text NOT NULL CHECK (device_class IN ('phone', 'tablet', 'laptop', 'desktop', 'server')),
  device_model     text,                                -- only if the visitor ticked it
  browser          text NOT NULL,
  browser_major    integer,
  os               text NOT NULL,
  os_major         integer,
  arch             text NOT NULL,
  cores            integer NOT NULL CHECK (cores BETWEEN 0 AND 1024),
  memory_bucket    text,
  runtime          text NOT NULL CHECK (runtime IN ('browser', 'node')),
  isolated         boolean NOT NULL,
  timer_us         real NOT NULL,
  preset           text NOT NULL,
  scenario         text
);

-- One row per measured case. Every figure here is recomputed by the collector from `samples`.
CREATE TABLE cases (
  submission_id    uuid NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
  algorithm        text NOT NULL,
  implementation   text NOT NULL,
  variant          text NOT NULL,
  operation        text NOT NULL CHECK (operation IN ('encrypt', 'decrypt', 'forged-decrypt')),
  size_bytes       integer NOT NULL CHECK (size_bytes BETWEEN 0 AND 67108864),
  aad_bytes        integer NOT NULL CHECK (aad_bytes >= 0),
  samples          double precision[] NOT NULL,         -- raw ns per operation
  n                integer NOT NULL,
  median_ns        double precision NOT NULL CHECK (median_ns > 0),
  bytes_per_second double precision NOT NULL,
  robust_cv        double precision NOT NULL,
  outlier          boolean NOT NULL DEFAULT false,      -- flagged within its cohort, never deleted
  PRIMARY KEY (submission_id, algorithm, implementation, variant, operation, size_bytes, aad_bytes)
);

CREATE INDEX cases_cohort ON cases (algorithm, implementation, operation, size_bytes);
CREATE INDEX submissions_class ON submissions (device_class, browser, arch);
