-- The execution mode a run ran in (web/core/execution.ts): WebAssembly off, or JavaScript
-- without its optimising compiler, is a population of its own and never enters the medians,
-- fences or outlier flags of standard runs. Rows stored before this migration were standard
-- as far as anyone can tell (the mode was not detected then).
ALTER TABLE submissions ADD COLUMN execution text NOT NULL DEFAULT 'standard';
ALTER TABLE submissions ADD CONSTRAINT submissions_execution CHECK (execution IN ('standard', 'no-js-optimizer', 'wasm-interpreted', 'wasm-off'));
