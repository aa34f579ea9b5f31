-- The operator's accept (review.ts): a day's voices of a cohort that arrived outside its fences
-- are taken as inside from then on, so that a figure the crowd truly moved (a new engine, a
-- faster build) follows them; the verdict on arrival is otherwise never drawn again.
ALTER TABLE operator_log DROP CONSTRAINT operator_log_action_check;
ALTER TABLE operator_log ADD CONSTRAINT operator_log_action_check CHECK (action IN ('quarantine', 'release', 'release-burst', 'accept'));
-- The review's contested cohorts read the voices that arrived outside and lie outside still: few.
CREATE INDEX cases_outside ON cases (submission_id) WHERE arrived_outside AND outlier;
