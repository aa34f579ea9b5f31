-- The engine that ran the WASM and Web Crypto (Blink, Gecko, WebKit, V8), so the crowd can be
-- filtered and grouped by it: every iOS browser is WebKit, whatever its name. Rows stored
-- before this migration get the engine their browser name implies.
ALTER TABLE submissions ADD COLUMN engine text;
UPDATE submissions SET engine = CASE
  WHEN os = 'iOS' THEN 'WebKit'
  WHEN browser IN ('Chrome', 'Edge', 'Opera', 'Samsung Internet') THEN 'Blink'
  WHEN browser = 'Firefox' THEN 'Gecko'
  WHEN browser IN ('Safari', 'WebKitGTK', 'Epiphany') THEN 'WebKit'
  WHEN browser = 'Node.js' THEN 'V8'
  ELSE 'unknown' END;
ALTER TABLE submissions ALTER COLUMN engine SET NOT NULL;
ALTER TABLE submissions ADD CONSTRAINT submissions_engine CHECK (engine IN ('Blink', 'Gecko', 'WebKit', 'V8', 'unknown'));
