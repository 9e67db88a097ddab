/**
 * The hosted schema: the SQLite adapter's tables (engine/adapters/sqlite/migrations/ as of 018),
 * translated, with what a server with many processes needs besides. Every table of Brain data leads
 * its primary key with `brain_uid`, and every unique key and foreign key between them includes it, so
 * the tables can be distributed by Brain (Citus, docs/hosted-postgres.md) as they stand.
 *
 * - `brains` holds a Brain's sequence (`seq`): a write bumps it in its own transaction
 *   (`UPDATE brains SET seq = seq + 1 ... RETURNING seq`), which also locks the row, so writers of one
 *   Brain commit in sequence order. Its name in a tenant lives in `brain_names`, the one unique key
 *   that is not per Brain.
 * - `n` orders rows by write (an identity column; unique alone, but keyed with the Brain).
 * - Instants are kept as SQLite keeps them: the RFC 3339 text as written (`*_at`) and milliseconds
 *   (`*_ms`) for comparisons.
 * - `records.tsv`: the Record's words for the lexical lane (english: Porter stemming, as FTS5's
 *   `porter unicode61`), under a GIN index.
 * - `derive_jobs` carries the lease of a claim (`leased_until_ms`) beside `attempts` and
 *   `not_before_ms`.
 * - `traces` and `api_keys` live here, not in memory or a file: every process reads the same ones.
 */
export const initial = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE mnemo_meta (key text PRIMARY KEY, value text NOT NULL);

CREATE TABLE brains (
  uid text PRIMARY KEY,
  project text NOT NULL,
  env text NOT NULL CHECK (env IN ('test', 'live')),
  id text NOT NULL,
  name text,
  self_type text CHECK (self_type IN ('person', 'org')),
  self_name text,
  created_at text NOT NULL,
  seq bigint NOT NULL DEFAULT 0
);

CREATE TABLE brain_names (
  project text NOT NULL,
  env text NOT NULL,
  id text NOT NULL,
  uid text NOT NULL UNIQUE,
  PRIMARY KEY (project, env, id)
);

CREATE TABLE records (
  brain_uid text NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  n bigint GENERATED ALWAYS AS IDENTITY,
  id text NOT NULL,
  seq bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('message', 'document', 'event', 'fact', 'correction')),
  content text NOT NULL,
  text text NOT NULL,
  source_name text,
  external_id text,
  trust text NOT NULL CHECK (trust IN ('high', 'medium', 'low')),
  visibility text NOT NULL CHECK (visibility IN ('local_only', 'redacted_summary', 'shareable')),
  occurred_at text NOT NULL,
  occurred_ms bigint NOT NULL,
  created_at text NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
  PRIMARY KEY (brain_uid, n),
  UNIQUE (brain_uid, id)
);
CREATE INDEX records_external ON records (brain_uid, source_name, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX records_brain_source ON records (brain_uid, source_name, id) WHERE source_name IS NOT NULL;
CREATE INDEX records_brain_time ON records (brain_uid, occurred_ms);
CREATE INDEX records_brain_low_trust ON records (brain_uid, id) WHERE trust = 'low';
CREATE INDEX records_tsv ON records USING gin (tsv);

CREATE TABLE memories (
  brain_uid text NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  n bigint GENERATED ALWAYS AS IDENTITY,
  id text NOT NULL,
  lineage text NOT NULL,
  slot text,
  version integer NOT NULL CHECK (version >= 1),
  statement text NOT NULL,
  norm text NOT NULL,
  subject text NOT NULL,
  predicate text,
  owner_state text NOT NULL CHECK (owner_state IN ('self', 'other', 'unresolved')),
  owner_entity text,
  source_key text NOT NULL,
  valid_from text NOT NULL,
  valid_from_ms bigint NOT NULL,
  valid_to text,
  valid_to_ms bigint,
  status text NOT NULL CHECK (status IN ('active', 'superseded', 'retracted')),
  pending boolean NOT NULL DEFAULT false,
  corrects text,
  retracted_by text,
  revised_by text,
  seq bigint NOT NULL,
  learned_at text NOT NULL,
  cause text NOT NULL CHECK (cause IN ('derived', 'superseded_by_record', 'correction', 'rederived')),
  PRIMARY KEY (brain_uid, n),
  UNIQUE (brain_uid, id),
  UNIQUE (brain_uid, lineage, version),
  FOREIGN KEY (brain_uid, corrects) REFERENCES memories (brain_uid, id) ON DELETE SET NULL (corrects),
  FOREIGN KEY (brain_uid, retracted_by) REFERENCES records (brain_uid, id) ON DELETE SET NULL (retracted_by),
  FOREIGN KEY (brain_uid, revised_by) REFERENCES records (brain_uid, id) ON DELETE SET NULL (revised_by)
);
CREATE INDEX memories_brain_seq ON memories (brain_uid, seq);
CREATE INDEX memories_brain_slot ON memories (brain_uid, slot) WHERE slot IS NOT NULL;
CREATE INDEX memories_brain_slot_predicate ON memories (brain_uid, predicate) WHERE slot IS NOT NULL;
CREATE INDEX memories_brain_norm ON memories (brain_uid, norm);
CREATE INDEX memories_brain_subject ON memories (brain_uid, lower(subject));
CREATE INDEX memories_self_from ON memories (brain_uid, valid_from_ms) WHERE owner_state = 'self';
CREATE INDEX memories_corrects ON memories (brain_uid, corrects) WHERE corrects IS NOT NULL;
CREATE INDEX memories_retracted_by ON memories (brain_uid, retracted_by) WHERE retracted_by IS NOT NULL;
CREATE INDEX memories_revised_by ON memories (brain_uid, revised_by) WHERE revised_by IS NOT NULL;

-- A Memory cannot exist without lineage: citations may be inserted first (the deferred foreign key
-- allows it inside the transaction), a Memory with none is refused at commit, and deleting the last
-- citation of a live Memory is refused (forgetting must delete or re-derive the Memory first).
CREATE TABLE citations (
  brain_uid text NOT NULL,
  memory_id text NOT NULL,
  record_id text NOT NULL,
  quote text NOT NULL CHECK (length(quote) > 0),
  PRIMARY KEY (brain_uid, memory_id, record_id),
  FOREIGN KEY (brain_uid, memory_id) REFERENCES memories (brain_uid, id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  FOREIGN KEY (brain_uid, record_id) REFERENCES records (brain_uid, id) ON DELETE CASCADE
);
CREATE INDEX citations_record ON citations (brain_uid, record_id);

CREATE FUNCTION mnemo_memory_needs_lineage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM memories WHERE brain_uid = NEW.brain_uid AND id = NEW.id)
     AND NOT EXISTS (SELECT 1 FROM citations WHERE brain_uid = NEW.brain_uid AND memory_id = NEW.id) THEN
    RAISE EXCEPTION 'memory_without_lineage: a Memory must cite at least one Record';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER memories_need_lineage AFTER INSERT ON memories
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION mnemo_memory_needs_lineage();

CREATE FUNCTION mnemo_citations_keep_lineage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM memories WHERE brain_uid = OLD.brain_uid AND id = OLD.memory_id)
     AND NOT EXISTS (SELECT 1 FROM citations WHERE brain_uid = OLD.brain_uid AND memory_id = OLD.memory_id) THEN
    RAISE EXCEPTION 'memory_without_lineage: the last citation of a live Memory cannot be removed';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER citations_keep_lineage AFTER DELETE ON citations
FOR EACH ROW EXECUTE FUNCTION mnemo_citations_keep_lineage();

CREATE TABLE object_versions (
  brain_uid text NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  n bigint GENERATED ALWAYS AS IDENTITY,
  type text NOT NULL,
  key text NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  value text NOT NULL,
  accepted_at text NOT NULL,
  seq bigint NOT NULL,
  PRIMARY KEY (brain_uid, n),
  UNIQUE (brain_uid, type, key, version)
);

CREATE TABLE idempotency (
  brain_uid text NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  operation text NOT NULL,
  key text NOT NULL,
  body_hash text NOT NULL,
  record_id text,
  object_n bigint,
  CHECK ((record_id IS NULL) <> (object_n IS NULL)),
  PRIMARY KEY (brain_uid, operation, key),
  FOREIGN KEY (brain_uid, record_id) REFERENCES records (brain_uid, id) ON DELETE CASCADE,
  FOREIGN KEY (brain_uid, object_n) REFERENCES object_versions (brain_uid, n) ON DELETE CASCADE
);
CREATE INDEX idempotency_record ON idempotency (brain_uid, record_id) WHERE record_id IS NOT NULL;
CREATE INDEX idempotency_object ON idempotency (brain_uid, object_n) WHERE object_n IS NOT NULL;

-- A Record is 'processing' exactly while its 'derive' row exists. A claim sets leased_until_ms; until
-- then no other claim takes the row, and after it any claim may (its worker died or stalled).
CREATE TABLE derive_jobs (
  brain_uid text NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  n bigint GENERATED ALWAYS AS IDENTITY,
  job text NOT NULL CHECK (job IN ('derive', 'rederive')),
  record_id text,
  memory_id text,
  record_seq bigint NOT NULL,
  not_before_ms bigint NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  leased_until_ms bigint,
  CHECK ((job = 'derive') = (record_id IS NOT NULL)),
  PRIMARY KEY (brain_uid, n),
  FOREIGN KEY (brain_uid, record_id) REFERENCES records (brain_uid, id) ON DELETE CASCADE,
  FOREIGN KEY (brain_uid, memory_id) REFERENCES memories (brain_uid, id) ON DELETE CASCADE
);
CREATE INDEX derive_jobs_due ON derive_jobs (n, not_before_ms);
CREATE INDEX derive_jobs_record ON derive_jobs (brain_uid, record_id) WHERE record_id IS NOT NULL;
CREATE INDEX derive_jobs_memory ON derive_jobs (brain_uid, memory_id) WHERE memory_id IS NOT NULL;
CREATE INDEX derive_jobs_brain ON derive_jobs (brain_uid, job, record_seq);

CREATE TABLE derive_failures (
  brain_uid text NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  n bigint GENERATED ALWAYS AS IDENTITY,
  job text NOT NULL CHECK (job IN ('derive', 'rederive')),
  record_id text,
  memory_id text,
  error text NOT NULL,
  attempts integer NOT NULL,
  failed_at text NOT NULL,
  PRIMARY KEY (brain_uid, n),
  FOREIGN KEY (brain_uid, record_id) REFERENCES records (brain_uid, id) ON DELETE CASCADE,
  FOREIGN KEY (brain_uid, memory_id) REFERENCES memories (brain_uid, id) ON DELETE CASCADE
);
CREATE INDEX derive_failures_record ON derive_failures (brain_uid, record_id) WHERE record_id IS NOT NULL;
CREATE INDEX derive_failures_memory ON derive_failures (brain_uid, memory_id) WHERE memory_id IS NOT NULL;

-- Tombstones of Memories for delta reads: opaque ids and the step only, never text.
CREATE TABLE memory_removals (
  brain_uid text NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  memory_id text NOT NULL,
  seq bigint NOT NULL,
  reason text NOT NULL CHECK (reason IN ('deleted', 'pending_rederivation')),
  shareable boolean NOT NULL,
  PRIMARY KEY (brain_uid, memory_id)
);
CREATE INDEX memory_removals_brain_seq ON memory_removals (brain_uid, seq);

-- Every forgotten Record id at the Brain's step of the forget (the sync change feed); filled by
-- trigger so every path that deletes a Record leaves one. A Brain's deletion removes its own: the
-- brain row is gone when its Records cascade, so the trigger leaves none then.
CREATE TABLE record_tombstones (
  brain_uid text NOT NULL,
  record_id text NOT NULL,
  seq bigint NOT NULL,
  forgotten_at text NOT NULL,
  PRIMARY KEY (brain_uid, record_id)
);
CREATE INDEX record_tombstones_seq ON record_tombstones (brain_uid, seq);

CREATE FUNCTION mnemo_records_leave_tombstones() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO record_tombstones (brain_uid, record_id, seq, forgotten_at)
  SELECT OLD.brain_uid, OLD.id, b.seq, to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  FROM brains b WHERE b.uid = OLD.brain_uid
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER records_leave_tombstones AFTER DELETE ON records
FOR EACH ROW EXECUTE FUNCTION mnemo_records_leave_tombstones();

CREATE FUNCTION mnemo_brains_take_tombstones() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM record_tombstones WHERE brain_uid = OLD.uid;
  RETURN NULL;
END $$;
CREATE TRIGGER brains_take_tombstones AFTER DELETE ON brains
FOR EACH ROW EXECUTE FUNCTION mnemo_brains_take_tombstones();

-- Traces of Context requests, per Brain, newest by n; record_ids names every Record a trace names
-- (candidates, results, citations, cuts) so forgetting a Record finds its traces by index.
CREATE TABLE traces (
  brain_uid text NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  n bigint GENERATED ALWAYS AS IDENTITY,
  id text NOT NULL,
  trace json NOT NULL,
  record_ids text[] NOT NULL,
  PRIMARY KEY (brain_uid, n),
  UNIQUE (brain_uid, id)
);
CREATE INDEX traces_record_ids ON traces USING gin (record_ids);

-- Keys of every tenant: hashes only (never a key), read on every request by every process.
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  last4 text NOT NULL,
  scopes text[] NOT NULL,
  brain text,
  label text,
  admin boolean NOT NULL DEFAULT false,
  created_at text NOT NULL,
  revoked_at text
);

CREATE TABLE embedding_models (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  provider text NOT NULL,
  model text NOT NULL,
  dims integer NOT NULL,
  created_at text NOT NULL,
  UNIQUE (provider, model)
);
`,
};
