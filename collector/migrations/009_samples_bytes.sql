-- A case's samples as raw little-endian float64s (8 bytes each) instead of a double precision[]
-- made from JSON: the widest body's 80,000 samples cost the collector 18 ms to write out as
-- text and the database about 100 ms to parse back (bench:collector, 2026-11-26); bytes cost
-- neither. Rows stored before keep `samples`; a row has one or the other (collector/store.ts
-- samplesOf reads both).
ALTER TABLE cases ADD COLUMN samples_f64 bytea;
ALTER TABLE cases ALTER COLUMN samples DROP NOT NULL;
ALTER TABLE cases ADD CONSTRAINT cases_samples_kept CHECK (samples IS NOT NULL OR (samples_f64 IS NOT NULL AND octet_length(samples_f64) = 8 * n));
