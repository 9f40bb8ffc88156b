CREATE TABLE IF NOT EXISTS ${table} (
  worker_id BIGINT NOT NULL PRIMARY KEY,
  owner VARCHAR(255) NULL,
  expires_at BIGINT NOT NULL,
  last_timestamp BIGINT NOT NULL DEFAULT -1,
  version BIGINT NOT NULL DEFAULT 0,
  writer VARCHAR(64) NULL,
  lease_ms BIGINT NULL,
  grant_ms BIGINT NULL
)
