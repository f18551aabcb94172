--
-- The last test: pg_regress leaves its own database after a run; dropping
-- it here leaves nothing of the suite on the server, passing or failing
-- (pg_regress runs every test; the regress_bloomcass_* roles and databases
-- are dropped by the tests that make them).  A failing test's differences
-- stay in regression.diffs.
--
SELECT current_database() AS regress_db \gset
\c postgres
DROP DATABASE :"regress_db" WITH (FORCE);
SELECT count(*) AS databases_left FROM pg_database
WHERE datname = :'regress_db' OR datname LIKE 'regress\_bloomcass%';
SELECT count(*) AS roles_left FROM pg_roles WHERE rolname LIKE 'regress\_bloomcass%';
