import { createHmac, randomBytes } from 'node:crypto';
import type {
  RecordPage,
  RecordReplica,
  ReplicaOutcome,
  SyncPairing,
  SyncStatus,
  TypedContent,
} from '../../contract/index.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { nowIso, type BrainRow, type LocalCtx } from '../local-ctx.ts';
import type { RecordRow } from '../../ports/index.ts';
import type { Store } from '../../adapters/sqlite/store.ts';
import { createRedactor, type KnownPeople } from './redact.ts';
import { redactedCopyId } from './replica-id.ts';
import { applyTombstones, replicateInto, writeTombstones } from './replicate.ts';
import type { OutboxBatch, RemoteOf } from '../../types.ts';

interface PairingRow {
  brain_uid: string;
  remote_url: string;
  remote_brain: string;
  remote_key: string;
  push_seq: number;
  tombstone_seq: number;
  pull_watermark: string | null;
  pushed: number;
  pulled: number;
  held_back: number;
  skipped: number;
  last_success_at: string | null;
  last_attempt_at: string | null;
  last_error: string | null;
  paired_at: string;
  pairing_id: string;
}

/** Where and as whom a paired Brain syncs. Only the sync runner reads it; no route ever shows the key. */
export type { OutboxBatch, OutboxItem, RemoteOf } from '../../types.ts';

const pairingOf = (ctx: LocalCtx, b: BrainRow) =>
  ctx.store.get<PairingRow>('SELECT * FROM sync_pairings WHERE brain_uid = ?', b.uid);

function requirePairing(ctx: LocalCtx, b: BrainRow): PairingRow {
  const p = pairingOf(ctx, b);
  if (!p) throw new MnemoError('sync_not_paired', `brain_id: Brain ${b.id} is not paired with a remote`);
  return p;
}

/**
 * The pairing a run started under (RemoteOf.pairingId), still in place. A Brain paired again or
 * unpaired while the run was in flight ends the run here: its cursors, counts and fates belong to a
 * pairing that is gone.
 */
function requireRunPairing(ctx: LocalCtx, b: BrainRow, pairingId: string): PairingRow {
  const p = pairingOf(ctx, b);
  if (!p || p.pairing_id !== pairingId) {
    throw new MnemoError(
      'sync_not_paired',
      `brain_id: Brain ${b.id} was paired again or unpaired during this sync run, which ends here`,
    );
  }
  return p;
}

/**
 * The outbox: this Brain's Records after the push cursor that may leave the device. `local_only`
 * Records are not read at all, and pulled ones are never pushed back.
 */
const outboxSql = `
  SELECT r.* FROM records r
  WHERE r.brain_uid = ? AND r.seq > ? AND r.visibility <> 'local_only'
    AND NOT EXISTS (SELECT 1 FROM sync_records s
                    WHERE s.brain_uid = r.brain_uid AND s.record_id = r.id AND s.fate = 'pulled')`;

export function syncStatus(ctx: LocalCtx, b: BrainRow): SyncStatus {
  const p = pairingOf(ctx, b);
  const pending = p
    ? ctx.store.get<{ c: number }>(`SELECT count(*) AS c FROM (${outboxSql})`, b.uid, p.push_seq)!.c
    : 0;
  return {
    object: 'sync_status',
    brain_id: b.id,
    paired: p !== undefined,
    remote: p?.remote_url ?? null,
    remote_brain: p?.remote_brain ?? null,
    paired_at: p?.paired_at ?? null,
    last_success_at: p?.last_success_at ?? null,
    last_attempt_at: p?.last_attempt_at ?? null,
    pending,
    pushed: p?.pushed ?? 0,
    pulled: p?.pulled ?? 0,
    held_back: p?.held_back ?? 0,
    skipped: p?.skipped ?? 0,
    last_error: p?.last_error ?? null,
  };
}

/**
 * Pairs the Brain (or re-pairs it: a new remote or Brain there starts both cursors again, a new key
 * alone keeps them). The key is stored in the encrypted store and nowhere else.
 */
export function pair(ctx: LocalCtx, b: BrainRow, body: SyncPairing): SyncStatus {
  const remote = body.remote.endsWith('/') ? body.remote.slice(0, -1) : body.remote;
  const remoteBrain = body.remote_brain ?? b.id;
  ctx.store.tx(() => {
    const p = pairingOf(ctx, b);
    if (p && p.remote_url === remote && p.remote_brain === remoteBrain) {
      ctx.store.run(
        'UPDATE sync_pairings SET remote_key = ?, last_error = NULL WHERE brain_uid = ?',
        body.remote_key,
        b.uid,
      );
      return;
    }
    ctx.store.run('DELETE FROM sync_pairings WHERE brain_uid = ?', b.uid);
    ctx.store.run(
      `INSERT INTO sync_pairings (brain_uid, remote_url, remote_brain, remote_key, paired_at, pairing_id)
       VALUES (?, ?, ?, ?, ?, ?)`,
      b.uid,
      remote,
      remoteBrain,
      body.remote_key,
      nowIso(ctx),
      randomBytes(16).toString('hex'),
    );
  });
  return syncStatus(ctx, b);
}

/** Unpairs: the key and cursors go; every Record stays, here and there. */
export function unpair(ctx: LocalCtx, b: BrainRow): SyncStatus {
  requirePairing(ctx, b);
  ctx.store.run('DELETE FROM sync_pairings WHERE brain_uid = ?', b.uid);
  return syncStatus(ctx, b);
}

export function remoteOf(ctx: LocalCtx, b: BrainRow): RemoteOf {
  const p = requirePairing(ctx, b);
  return {
    remote: p.remote_url,
    remoteBrain: p.remote_brain,
    remoteKey: p.remote_key,
    pullWatermark: p.pull_watermark,
    pairingId: p.pairing_id,
  };
}

/** Every paired Brain of the store, for the background loop. */
export function pairedBrains(ctx: LocalCtx): { project: string; env: 'test' | 'live'; brainId: string }[] {
  return ctx.store.all<{ project: string; env: 'test' | 'live'; brainId: string }>(
    'SELECT b.project, b.env, b.id AS brainId FROM sync_pairings p JOIN brains b ON b.uid = p.brain_uid ORDER BY b.uid',
  );
}

/** The people whose names a redacted copy hides: the self, message speakers, contacts, participants. */
function knownPeople(ctx: LocalCtx, b: BrainRow): KnownPeople {
  const rows = ctx.store.all<{ name: string }>(
    `SELECT DISTINCT name FROM (
       SELECT json_extract(content, '$.speaker') AS name FROM records WHERE brain_uid = ? AND kind = 'message'
       UNION SELECT json_extract(content, '$.subject') FROM records WHERE brain_uid = ? AND kind = 'fact' AND source_name = 'vcf'
       UNION SELECT p.value FROM records r, json_each(r.content, '$.participants') p
             WHERE r.brain_uid = ? AND r.kind = 'event')
     WHERE name IS NOT NULL`,
    b.uid,
    b.uid,
    b.uid,
  );
  const self = b.self_name;
  return { self, others: rows.map((r) => r.name).filter((n) => n !== self) };
}

/** Per Brain and store, secret: the same name gets the same pseudonym in every copy of this Brain. */
const pseudonymSecret = (ctx: LocalCtx, b: BrainRow) =>
  createHmac('sha256', ctx.store.watermarkSecret).update(`sync pseudonyms\n${b.uid}`).digest();

function replicaOf(r: RecordRow): RecordReplica {
  return {
    id: r.id,
    content: JSON.parse(r.content) as Exclude<TypedContent, { kind: 'correction' }>,
    source: {
      ...(r.source_name !== null ? { name: r.source_name } : {}),
      ...(r.external_id !== null ? { external_id: r.external_id } : {}),
      trust: r.trust,
    },
    visibility: r.visibility,
    occurred_at: r.occurred_at,
  };
}

/**
 * The next batch of the outbox. A shareable Record goes whole; a redacted_summary one as a copy the
 * redactor made (under redactedCopyId), or is held back when the redactor is unsure; a correction is
 * skipped (it names a Memory of this device). The batch ends on a whole step.
 */
export function outbox(ctx: LocalCtx, b: BrainRow, limit: number): OutboxBatch {
  const p = requirePairing(ctx, b);
  const rows = ctx.store.all<RecordRow>(
    `${outboxSql} ORDER BY r.seq, r.id LIMIT ?`,
    b.uid,
    p.push_seq,
    limit,
  );
  // Each Record has a step of its own, so a batch of `limit` never cuts one.
  const page = rows.slice(0, limit);
  const batch: OutboxBatch = { items: [], kept: [], throughSeq: page.at(-1)?.seq ?? p.push_seq };
  let redactor: ReturnType<typeof createRedactor> | null = null;
  for (const r of page) {
    if (r.visibility === 'local_only') throw new Error(`the outbox read the local_only Record ${r.id}`);
    if (r.kind === 'correction') {
      batch.kept.push({
        localId: r.id,
        fate: 'skipped',
        reason: 'a correction names a Memory of this device',
      });
      continue;
    }
    const replica = replicaOf(r);
    if (r.visibility === 'shareable') {
      batch.items.push({ localId: r.id, replica });
      continue;
    }
    redactor ??= createRedactor(knownPeople(ctx, b), pseudonymSecret(ctx, b));
    const redacted = redactor.redact({ ...replica, id: redactedCopyId(r.id) });
    if (redacted.ok) batch.items.push({ localId: r.id, replica: redacted.replica });
    else batch.kept.push({ localId: r.id, fate: 'held_back', reason: redacted.reason });
  }
  return batch;
}

/**
 * Records what the remote answered for a batch and moves the push cursor past it, in one transaction:
 * a crash before this pushes the batch again, which the remote answers `unchanged` (exactly once).
 * An id the remote had forgotten is forgotten here too.
 */
export async function markPushed(
  ctx: LocalCtx,
  b: BrainRow,
  pairingId: string,
  batch: OutboxBatch,
  outcomes: ReadonlyMap<string, ReplicaOutcome>,
): Promise<void> {
  const forgotten: string[] = [];
  ctx.store.tx(() => {
    requireRunPairing(ctx, b, pairingId);
    let pushed = 0;
    let skipped = 0;
    let heldBack = 0;
    const fate = (localId: string, f: string, remoteId: string | null) =>
      ctx.store.run(
        'INSERT OR REPLACE INTO sync_records (brain_uid, record_id, fate, remote_id) VALUES (?, ?, ?, ?)',
        b.uid,
        localId,
        f,
        remoteId,
      );
    for (const item of batch.items) {
      const outcome = outcomes.get(item.replica.id);
      if (outcome === 'created' || outcome === 'unchanged') {
        fate(item.localId, 'pushed', item.replica.id);
        pushed += 1;
      } else if (outcome === 'forgotten') {
        forgotten.push(item.localId);
      } else {
        // A redacted copy the hub holds other content under (an earlier build's redaction) is still
        // this Record's copy there: its id is kept so that forgetting the Record forgets it.
        fate(
          item.localId,
          'skipped',
          item.replica.visibility === 'redacted_summary' ? item.replica.id : null,
        );
        skipped += 1;
      }
    }
    for (const k of batch.kept) {
      // A held-back Record may have gone up before (pushed by an earlier build, or under an earlier
      // pairing): the id of its copy is kept for the tombstone. A correction never travels in any form.
      fate(k.localId, k.fate, k.fate === 'held_back' ? redactedCopyId(k.localId) : null);
      if (k.fate === 'held_back') heldBack += 1;
      else skipped += 1;
    }
    ctx.store.run(
      `UPDATE sync_pairings SET push_seq = max(push_seq, ?), pushed = pushed + ?, skipped = skipped + ?,
         held_back = held_back + ? WHERE brain_uid = ? AND pairing_id = ?`,
      batch.throughSeq,
      pushed,
      skipped,
      heldBack,
      b.uid,
      pairingId,
    );
  });
  if (forgotten.length > 0) await applyTombstones(ctx, b, forgotten);
}

/**
 * Tombstones to send: ids of Records forgotten here after the cursor that may have travelled (pushed,
 * as the id the remote knows, or pulled; a redacted_summary one under its copy's id whatever became of
 * its push). Tombstones of Records that never left the device stay here.
 */
export function tombstonesToSend(
  ctx: LocalCtx,
  b: BrainRow,
  limit: number,
): { ids: string[]; throughSeq: number } {
  const p = requirePairing(ctx, b);
  const rows = ctx.store.all<{ seq: number; remote_id: string | null }>(
    `SELECT t.seq, s.remote_id FROM record_tombstones t
       LEFT JOIN sync_records s ON s.brain_uid = t.brain_uid AND s.record_id = t.record_id
                                AND s.remote_id IS NOT NULL
     WHERE t.brain_uid = ? AND t.seq > ? ORDER BY t.seq LIMIT ?`,
    b.uid,
    p.tombstone_seq,
    limit + 1,
  );
  let page = rows.slice(0, limit);
  if (rows.length > limit) {
    // A whole step, however many ids it holds (a removed import).
    const lastSeq = rows[limit - 1]!.seq;
    page = ctx.store.all<{ seq: number; remote_id: string | null }>(
      `SELECT t.seq, s.remote_id FROM record_tombstones t
         LEFT JOIN sync_records s ON s.brain_uid = t.brain_uid AND s.record_id = t.record_id
                                  AND s.remote_id IS NOT NULL
       WHERE t.brain_uid = ? AND t.seq > ? AND t.seq <= ? ORDER BY t.seq`,
      b.uid,
      p.tombstone_seq,
      lastSeq,
    );
  }
  return {
    ids: [...new Set(page.flatMap((r) => (r.remote_id ? [r.remote_id] : [])))],
    throughSeq: page.at(-1)?.seq ?? p.tombstone_seq,
  };
}

export function markTombstonesSent(ctx: LocalCtx, b: BrainRow, pairingId: string, throughSeq: number): void {
  const { changes } = ctx.store.run(
    'UPDATE sync_pairings SET tombstone_seq = max(tombstone_seq, ?) WHERE brain_uid = ? AND pairing_id = ?',
    throughSeq,
    b.uid,
    pairingId,
  );
  if (changes === 0) requireRunPairing(ctx, b, pairingId);
}

/**
 * Applies one page of the remote's change feed in one transaction: its Records are written here under
 * their ids and marked pulled (skipping ids forgotten here, ids already here, and this device's own
 * redacted copies); its removals are applied as tombstones; the page's watermark is kept. A crash
 * re-reads at most this page, which changes nothing the second time.
 */
export async function applyPulled(
  ctx: LocalCtx,
  b: BrainRow,
  pairingId: string,
  page: RecordPage,
): Promise<{ pulled: number }> {
  // This device's own redacted copies, whatever became of their push, and Records already pulled.
  const own = (id: string) =>
    ctx.store.get('SELECT 1 FROM sync_records WHERE brain_uid = ? AND remote_id = ?', b.uid, id);
  const { pulled, settle } = await ctx.units.write(b.uid, async (u) => {
    const p = requireRunPairing(ctx, b, pairingId);
    const replicas: RecordReplica[] = [];
    for (const r of page.data) {
      if (r.visibility === 'local_only' || r.kind === 'correction' || own(r.id)) continue;
      replicas.push({
        id: r.id,
        content: r.content as RecordReplica['content'],
        source: {
          ...(r.source.name !== null ? { name: r.source.name } : {}),
          ...(r.source.external_id !== null ? { external_id: r.source.external_id } : {}),
          trust: r.source.trust,
        },
        visibility: r.visibility,
        occurred_at: r.occurred_at,
      });
    }
    // Marked pulled as each is written, so it is never pushed back.
    const markPulled = (id: string) =>
      void ctx.store.run(
        "INSERT OR REPLACE INTO sync_records (brain_uid, record_id, fate, remote_id) VALUES (?, ?, 'pulled', ?)",
        b.uid,
        id,
        id,
      );
    const created =
      replicas.length > 0 ? (await replicateInto(u, replicas, nowIso(ctx), markPulled)).created : 0;
    const removed = (page.removed ?? []).map((r) => r.id);
    const forgotten = removed.length > 0 ? await writeTombstones(ctx, b, u, removed) : null;
    ctx.store.run(
      'UPDATE sync_pairings SET pull_watermark = ?, pulled = pulled + ? WHERE brain_uid = ? AND pairing_id = ?',
      page.watermark ?? p.pull_watermark,
      created,
      b.uid,
      pairingId,
    );
    return { pulled: created, settle: forgotten?.settle };
  });
  await settle?.();
  if (pulled > 0) ctx.worker.kick();
  return { pulled };
}

/** Ends a run: its time, and its error (null on success; never the key, which no error text holds). */
export function finishRun(ctx: LocalCtx, b: BrainRow, pairingId: string, error: string | null): void {
  const now = nowIso(ctx);
  // The end of a run whose pairing was replaced meanwhile is not the new pairing's to show.
  ctx.store.run(
    error === null
      ? 'UPDATE sync_pairings SET last_attempt_at = ?, last_success_at = ?, last_error = NULL WHERE brain_uid = ? AND pairing_id = ?'
      : 'UPDATE sync_pairings SET last_attempt_at = ?, last_error = ? WHERE brain_uid = ? AND pairing_id = ?',
    now,
    error === null ? now : error.slice(0, 2000),
    b.uid,
    pairingId,
  );
}

/**
 * The Records whose redacted copies (pushed under ids of their own) are among `ids`: a tombstone of
 * the copy forgets the original. Read inside the tombstones' unit of work, on the store's connection.
 */
export function originalsOfPushedCopies(store: Store, brainUid: string, ids: readonly string[]): string[] {
  return store
    .all<{ id: string }>(
      `SELECT r.id FROM sync_records s JOIN records r ON r.id = s.record_id AND r.brain_uid = s.brain_uid
       WHERE s.brain_uid = ? AND s.remote_id IN (SELECT value FROM json_each(?))`,
      brainUid,
      JSON.stringify(ids),
    )
    .map((r) => r.id);
}
