import type { Census, Profile } from '../contract/index.ts';
import { memoryColumns, toMemories, type MemoryRow } from '../store/memory-view.ts';
import type { Tenant } from '../types.ts';
import { nowIso, requireBrain, selfOf, watermarkOf, type LocalCtx } from './local-ctx.ts';

/** The self card: current Memories owned by self, newest (world time) first, each cited. */
export function getProfile(ctx: LocalCtx, t: Tenant, brainId: string, q: { limit: number }): Profile {
  const b = requireBrain(ctx, t, brainId);
  const rows = ctx.store.all<MemoryRow>(
    `SELECT ${memoryColumns} FROM memories m
     WHERE m.brain_uid = ? AND m.owner_state = 'self' AND m.status = 'active' AND m.valid_to IS NULL AND m.pending = 0
     ORDER BY m.valid_from_ms DESC, m.n DESC LIMIT ?`,
    b.uid,
    q.limit + 1,
  );
  const page = toMemories(ctx.store, rows.slice(0, q.limit));
  return {
    object: 'profile',
    brain_id: b.id,
    self: selfOf(b),
    watermark: watermarkOf(ctx, b),
    lines: page.map((m) => ({
      memory_id: m.id,
      statement: m.statement,
      subject: m.subject,
      valid_from: m.valid_from,
      citations: m.citations,
    })),
    has_more: rows.length > q.limit,
  };
}

type NoiseKind = Census['noise'][number]['kind'];

const noiseQueries: { kind: NoiseKind; description: string; sql: string }[] = [
  {
    kind: 'duplicates',
    description: 'Records whose text repeats an earlier Record word for word',
    sql: `SELECT id FROM records WHERE brain_uid = ?
            AND n NOT IN (SELECT min(n) FROM records WHERE brain_uid = ? GROUP BY text) ORDER BY id`,
  },
  {
    kind: 'conflicts',
    description: 'Current Memories sharing a slot with another current value from a different source',
    sql: `SELECT m.id FROM memories m WHERE m.brain_uid = ? AND m.status = 'active' AND m.pending = 0 AND m.slot IS NOT NULL
            AND EXISTS (SELECT 1 FROM memories o WHERE o.lineage = m.lineage AND o.id <> m.id
                        AND o.status = 'active' AND o.pending = 0) ORDER BY m.id`,
  },
  {
    kind: 'unresolved_owner',
    description: 'Current Memories whose owner could not be attributed',
    sql: `SELECT id FROM memories WHERE brain_uid = ? AND status = 'active' AND pending = 0 AND owner_state = 'unresolved' ORDER BY id`,
  },
  {
    kind: 'pending_rederivation',
    description: 'Memories that lost some supporting Records and wait to be derived again',
    sql: 'SELECT id FROM memories WHERE brain_uid = ? AND pending = 1 ORDER BY id',
  },
  {
    kind: 'low_trust_source',
    description: 'Records from sources marked low trust',
    sql: "SELECT id FROM records WHERE brain_uid = ? AND trust = 'low' ORDER BY id",
  },
  {
    kind: 'retracted',
    description: 'Memories retracted by a correction',
    sql: "SELECT id FROM memories WHERE brain_uid = ? AND status = 'retracted' ORDER BY id",
  },
];

/** Counts, and what is noisy in this Brain's own data, noisiest first (kinds with nothing are left out). */
export function getCensus(ctx: LocalCtx, t: Tenant, brainId: string): Census {
  const b = requireBrain(ctx, t, brainId);
  const { store } = ctx;
  const count = (sql: string) => store.get<{ c: number }>(sql, b.uid)!.c;
  const noise = noiseQueries
    .map((q) => {
      const ids = store
        .all<{ id: string }>(
          q.sql,
          ...q.sql
            .split('?')
            .slice(1)
            .map(() => b.uid),
        )
        .map((r) => r.id);
      return { kind: q.kind, count: ids.length, description: q.description, examples: ids.slice(0, 5) };
    })
    .filter((n) => n.count > 0)
    .sort((a, c) => c.count - a.count);
  return {
    object: 'census',
    brain_id: b.id,
    watermark: watermarkOf(ctx, b),
    generated_at: nowIso(ctx),
    counts: {
      records: count('SELECT count(*) AS c FROM records WHERE brain_uid = ?'),
      records_processing: count(
        "SELECT count(*) AS c FROM derive_queue WHERE brain_uid = ? AND job = 'derive'",
      ),
      memories_active: count(
        "SELECT count(*) AS c FROM memories WHERE brain_uid = ? AND status = 'active' AND pending = 0",
      ),
      memories_superseded: count(
        "SELECT count(*) AS c FROM memories WHERE brain_uid = ? AND status = 'superseded'",
      ),
      memories_pending_rederivation: count(
        'SELECT count(*) AS c FROM memories WHERE brain_uid = ? AND pending = 1',
      ),
      objects: count(
        'SELECT count(*) AS c FROM (SELECT DISTINCT type, key FROM object_versions WHERE brain_uid = ?)',
      ),
    },
    noise,
  };
}
