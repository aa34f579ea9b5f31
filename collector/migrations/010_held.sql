-- A burst held for review (cohorts.ts holdBursts): when one day brings a cohort's device class
-- more new voices than it may take, those voices' cases are `held` — kept, exported, left out
-- of every statistic and fence — until an operator releases them (`released`: counted, and not
-- held again for that burst) or quarantines their runs (review.ts).
ALTER TABLE cases ADD COLUMN held boolean NOT NULL DEFAULT false;
ALTER TABLE cases ADD COLUMN released boolean NOT NULL DEFAULT false;
-- The operator's review of a held burst is logged beside the quarantine.
ALTER TABLE operator_log DROP CONSTRAINT operator_log_action_check;
ALTER TABLE operator_log ADD CONSTRAINT operator_log_action_check CHECK (action IN ('quarantine', 'release', 'release-burst'));
-- How many established voices drew a class's bounds (drawAndFlag), so that spotting a burst
-- reads today's voices alone, found through the day they arrived, not every row of the cohort.
ALTER TABLE cohort_bounds ADD COLUMN established integer NOT NULL DEFAULT 0;
CREATE INDEX submissions_day ON submissions (received_on);
