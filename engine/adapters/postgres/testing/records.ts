import type { PgQueryable } from '../client.ts';

export interface RecordSpec {
  brainUid: string;
  id: string;
  text: string;
  kind?: 'message' | 'document' | 'event' | 'fact' | 'correction';
  /** The Record's content as JSON; a message's `thread` names its thread. Default: `{ text }`. */
  content?: Record<string, unknown>;
  occurredMs?: number;
  source?: string | null;
  visibility?: 'local_only' | 'redacted_summary' | 'shareable';
  seq?: number;
}

/** A Record row as the records repository writes it, for tests of what reads them; returns its n. */
export async function insertRecord(db: PgQueryable, r: RecordSpec): Promise<number> {
  const ms = r.occurredMs ?? 0;
  const at = new Date(ms).toISOString();
  const made = await db.query<{ n: number }>(
    `INSERT INTO records (brain_uid, id, seq, kind, content, text, source_name, trust, visibility, occurred_at, occurred_ms, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'medium', $8, $9, $10, $9) RETURNING n`,
    [
      r.brainUid,
      r.id,
      r.seq ?? 1,
      r.kind ?? 'message',
      JSON.stringify(r.content ?? { text: r.text }),
      r.text,
      r.source ?? null,
      r.visibility ?? 'shareable',
      at,
      ms,
    ],
  );
  return made.rows[0]!.n;
}

/** A live Memory citing `recordId` with `quote` (the citation is what makes a correction evidence). */
export async function insertMemory(
  db: PgQueryable,
  brainUid: string,
  id: string,
  recordId: string,
  quote: string,
): Promise<void> {
  await db.query(
    `WITH m AS (
       INSERT INTO memories (brain_uid, id, lineage, version, statement, norm, subject, owner_state, source_key,
                             valid_from, valid_from_ms, status, seq, learned_at, cause)
       VALUES ($1, $2, $2, 1, $4, lower($4), 'user', 'self', 'k', '2026-01-01T00:00:00Z', 0, 'active', 1,
               '2026-01-01T00:00:00Z', 'derived'))
     INSERT INTO citations (brain_uid, memory_id, record_id, quote) VALUES ($1, $2, $3, $4)`,
    [brainUid, id, recordId, quote],
  );
}
