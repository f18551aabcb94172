-- test/bench/node_setup.sql - the tables and the timing driver of the
-- node-scale benchmark (node.sh), once per run.
\set ON_ERROR_STOP on
SET client_min_messages = warning;

CREATE EXTENSION bloomcass;

-- every sample: seconds and, for the listing, the statement's result
-- (SSTables listed, bytes read); for the loads, the client's peak RSS (kB)
CREATE TABLE node_samples (n int, measure text, rep int, side text, seconds float8, value bigint);
-- peak memory: VmHWM of a fresh backend before and after one listing (kB)
CREATE TABLE node_memory (n int, item text, kb bigint);
-- the files the listing reads, per node
CREATE TABLE node_files (n int, f text);

-- the floor of bloomcass-load: the same four components as bytea; and the
-- same with Filter.db twice, as the table of bloomcass-load 1.5 kept it
-- (filter_db, and the filter)
CREATE TABLE node_copy_floor (path text, filter_db bytea, statistics_db bytea,
							  summary_db bytea, toc_txt bytea);
CREATE TABLE node_copy_twice (path text, filter_db bytea, statistics_db bytea,
							  summary_db bytea, toc_txt bytea, filter2 bytea);

-- Run each statement of stmts (each returning one bigint) once untimed,
-- then reps times each, the order rotated from one repetition to the next
-- (A B C, B C A, C A B, ...), each timed with clock_timestamp() around its
-- EXECUTE (on the server: no client round trip); the samples are written
-- after the last run, side i being sides[i].
CREATE FUNCTION node_run(p_n int, p_measure text, sides text[], stmts text[], reps int)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	k int := array_length(stmts, 1);
	t0 timestamptz;
	v bigint;
	i int;
	j int;
	s int;
	reps_a int[] := '{}';
	sides_a text[] := '{}';
	secs float8[] := '{}';
	vals bigint[] := '{}';
BEGIN
	FOR j IN 1 .. k LOOP
		EXECUTE stmts[j] INTO v;
	END LOOP;
	FOR i IN 1 .. reps LOOP
		FOR j IN 0 .. k - 1 LOOP
			s := (i - 1 + j) % k + 1;
			t0 := clock_timestamp();
			EXECUTE stmts[s] INTO v;
			secs := secs || extract(epoch FROM clock_timestamp() - t0)::float8;
			reps_a := reps_a || i;
			sides_a := sides_a || sides[s];
			vals := vals || v;
		END LOOP;
	END LOOP;
	INSERT INTO node_samples
	SELECT p_n, p_measure, r, sd, sc, vl
	FROM unnest(reps_a, sides_a, secs, vals) AS u(r, sd, sc, vl);
END
$$;

-- the files of a node the listing reads, read whole and returned as the
-- rows of a set-returning function: PostgreSQL collects them in a
-- tuplestore (in memory up to work_mem, then in a temporary file) before
-- the query reads them, as it does the rows of cassandra_sstables
CREATE FUNCTION node_read_files(p_n int) RETURNS SETOF bytea LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY SELECT pg_read_binary_file(f) FROM node_files WHERE n = p_n;
END
$$;
