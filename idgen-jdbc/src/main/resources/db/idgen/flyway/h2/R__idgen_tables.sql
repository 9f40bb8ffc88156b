-- idgen's tables with their default names (idgen.jdbc.table, idgen.ticket.table, idgen.jdbc.worker-table), for
-- Flyway: add classpath:db/idgen/flyway/{vendor} to spring.flyway.locations (see docs/migrations.md).
-- A repeatable migration: its statements create only what is missing, so it runs on a new database and on one
-- where idgen already created its tables, and never takes a version number of yours.
-- The same DDL as META-INF/idgen/{segment,ticket,worker}-h2.sql (a test checks it); with other table names, copy
-- it into your own migrations.

CREATE TABLE IF NOT EXISTS idgen_segment (
  name VARCHAR(64) NOT NULL PRIMARY KEY,
  max_id BIGINT NOT NULL,
  step BIGINT NOT NULL,
  version BIGINT NOT NULL DEFAULT 0,
  update_time TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  writer VARCHAR(64) NULL
);

CREATE TABLE IF NOT EXISTS idgen_ticket (
  name VARCHAR(64) NOT NULL PRIMARY KEY,
  id BIGINT NOT NULL,
  increment INT NOT NULL,
  update_time TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  writer VARCHAR(64) NULL
);

CREATE TABLE IF NOT EXISTS idgen_worker (
  worker_id BIGINT NOT NULL PRIMARY KEY,
  owner VARCHAR(255) NULL,
  expires_at BIGINT NOT NULL,
  last_timestamp BIGINT NOT NULL DEFAULT -1,
  version BIGINT NOT NULL DEFAULT 0,
  writer VARCHAR(64) NULL,
  lease_ms BIGINT NULL,
  grant_ms BIGINT NULL
);
