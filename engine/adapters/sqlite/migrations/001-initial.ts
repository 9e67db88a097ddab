/**
 * The core schema. Records are immutable rows; Memory versions carry world time (valid_from/valid_to)
 * and transaction time (seq: the Brain's sequence when learned or last revised); Objects append
 * versions. Only lifecycle columns (status, valid_to, pending, seq) of a Memory version ever change.
 */
export const initial = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

CREATE TABLE brains (
  uid TEXT PRIMARY KEY,
  project TEXT NOT NULL,
  env TEXT NOT NULL CHECK (env IN ('test', 'live')),
  id TEXT NOT NULL,
  name TEXT,
  self_type TEXT CHECK (self_type IN ('person', 'org')),
  self_name TEXT,
  created_at TEXT NOT NULL,
  seq INTEGER NOT NULL DEFAULT 0,
  UNIQUE (project, env, id)
) STRICT;

CREATE TABLE records (
  n INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  brain_uid TEXT NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('message', 'document', 'event', 'fact', 'correction')),
  content TEXT NOT NULL,
  text TEXT NOT NULL,
  source_name TEXT,
  external_id TEXT,
  trust TEXT NOT NULL CHECK (trust IN ('high', 'medium', 'low')),
  visibility TEXT NOT NULL CHECK (visibility IN ('local_only', 'redacted_summary', 'shareable')),
  occurred_at TEXT NOT NULL,
  occurred_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX records_brain_seq ON records (brain_uid, seq);
CREATE INDEX records_external ON records (brain_uid, source_name, external_id) WHERE external_id IS NOT NULL;

CREATE TABLE memories (
  n INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  brain_uid TEXT NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  lineage TEXT NOT NULL,
  slot TEXT,
  version INTEGER NOT NULL CHECK (version >= 1),
  statement TEXT NOT NULL,
  norm TEXT NOT NULL,
  subject TEXT NOT NULL,
  predicate TEXT,
  owner_state TEXT NOT NULL CHECK (owner_state IN ('self', 'other', 'unresolved')),
  owner_entity TEXT,
  source_key TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_from_ms INTEGER NOT NULL,
  valid_to TEXT,
  valid_to_ms INTEGER,
  status TEXT NOT NULL CHECK (status IN ('active', 'superseded', 'retracted')),
  pending INTEGER NOT NULL DEFAULT 0 CHECK (pending IN (0, 1)),
  corrects TEXT REFERENCES memories(id) ON DELETE SET NULL,
  retracted_by TEXT REFERENCES records(id) ON DELETE SET NULL,
  -- A newer revision (same source name and external_id) of the only Record(s) supporting it.
  revised_by TEXT REFERENCES records(id) ON DELETE SET NULL,
  seq INTEGER NOT NULL,
  learned_at TEXT NOT NULL,
  cause TEXT NOT NULL CHECK (cause IN ('derived', 'superseded_by_record', 'correction', 'rederived')),
  UNIQUE (lineage, version)
) STRICT;
CREATE INDEX memories_brain_seq ON memories (brain_uid, seq);
CREATE INDEX memories_brain_slot ON memories (brain_uid, slot) WHERE slot IS NOT NULL;
CREATE INDEX memories_brain_norm ON memories (brain_uid, norm);
CREATE INDEX memories_brain_subject ON memories (brain_uid, subject);
CREATE INDEX memories_corrects ON memories (corrects) WHERE corrects IS NOT NULL;
CREATE INDEX memories_retracted_by ON memories (retracted_by) WHERE retracted_by IS NOT NULL;
CREATE INDEX memories_revised_by ON memories (revised_by) WHERE revised_by IS NOT NULL;

-- A Memory cannot exist without lineage: citations are inserted first (the deferred foreign key
-- allows it inside the transaction), the Memory insert is refused without one, and deleting the last
-- citation of a live Memory is refused (forgetting must delete or re-derive the Memory first).
CREATE TABLE citations (
  memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  record_id TEXT NOT NULL REFERENCES records(id) ON DELETE CASCADE,
  quote TEXT NOT NULL CHECK (length(quote) > 0),
  PRIMARY KEY (memory_id, record_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX citations_record ON citations (record_id);

CREATE TRIGGER memories_need_lineage BEFORE INSERT ON memories
WHEN NOT EXISTS (SELECT 1 FROM citations WHERE memory_id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'memory_without_lineage: a Memory must cite at least one Record'); END;

CREATE TRIGGER citations_keep_lineage AFTER DELETE ON citations
WHEN EXISTS (SELECT 1 FROM memories WHERE id = OLD.memory_id)
  AND NOT EXISTS (SELECT 1 FROM citations WHERE memory_id = OLD.memory_id)
BEGIN SELECT RAISE(ABORT, 'memory_without_lineage: the last citation of a live Memory cannot be removed'); END;

CREATE TABLE object_versions (
  n INTEGER PRIMARY KEY,
  brain_uid TEXT NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  type TEXT NOT NULL,
  key TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version >= 1),
  value TEXT NOT NULL,
  accepted_at TEXT NOT NULL,
  seq INTEGER NOT NULL,
  UNIQUE (brain_uid, type, key, version)
) STRICT;

CREATE TABLE idempotency (
  brain_uid TEXT NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  operation TEXT NOT NULL,
  key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  record_id TEXT REFERENCES records(id) ON DELETE CASCADE,
  object_n INTEGER REFERENCES object_versions(n) ON DELETE CASCADE,
  CHECK ((record_id IS NULL) <> (object_n IS NULL)),
  PRIMARY KEY (brain_uid, operation, key)
) STRICT, WITHOUT ROWID;
CREATE INDEX idempotency_record ON idempotency (record_id) WHERE record_id IS NOT NULL;
CREATE INDEX idempotency_object ON idempotency (object_n) WHERE object_n IS NOT NULL;

-- Background derivation, persisted so a crash between write and derivation resumes on reopen.
-- A Record is 'processing' exactly while its 'derive' row exists.
CREATE TABLE derive_queue (
  n INTEGER PRIMARY KEY,
  brain_uid TEXT NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  job TEXT NOT NULL CHECK (job IN ('derive', 'rederive')),
  record_id TEXT REFERENCES records(id) ON DELETE CASCADE,
  memory_id TEXT REFERENCES memories(id) ON DELETE CASCADE,
  record_seq INTEGER NOT NULL,
  not_before_ms INTEGER NOT NULL DEFAULT 0,
  CHECK ((job = 'derive') = (record_id IS NOT NULL))
) STRICT;
CREATE INDEX derive_queue_record ON derive_queue (record_id) WHERE record_id IS NOT NULL;
CREATE INDEX derive_queue_memory ON derive_queue (memory_id) WHERE memory_id IS NOT NULL;
CREATE INDEX derive_queue_brain ON derive_queue (brain_uid, job, record_seq);
`,
};
