import type { AcceptedObject, ObjectAccept, ObjectListQuery, ObjectPage } from '../contract/index.ts';
import { decodeCursor, pageOf } from '../core/shared/page-cursor.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import type { Tenant, WriteOptions } from '../types.ts';
import { canonicalHash } from './canonical-hash.ts';
import { nowIso, requireBrain, watermarkOf, type LocalCtx } from './local-ctx.ts';

interface VersionRow {
  n: number;
  type: string;
  key: string;
  version: number;
  value: string;
  accepted_at: string;
  seq: number;
}

function toObject(brainId: string, v: VersionRow): AcceptedObject {
  return {
    object: 'object',
    brain_id: brainId,
    type: v.type,
    key: v.key,
    version: v.version,
    value: JSON.parse(v.value) as AcceptedObject['value'],
    accepted_at: v.accepted_at,
  };
}

/**
 * Appends a version of the application's own truth at (type, key). if_version (0 = must not exist
 * yet) is optimistic concurrency: a mismatch is stale_version with current_version. An
 * Idempotency-Key replays the original version for the identical body. Accepting advances the Brain's
 * sequence, so it returns the watermark after it (after the original accept, for a replay), as every
 * write does.
 */
export function acceptObject(
  ctx: LocalCtx,
  t: Tenant,
  brainId: string,
  body: ObjectAccept,
  opts: WriteOptions,
): { object: AcceptedObject; watermark: string; replayed: boolean } {
  const b = requireBrain(ctx, t, brainId);
  const { store } = ctx;
  const hash = canonicalHash(body);
  const out = store.tx(() => {
    if (opts.idempotencyKey !== undefined) {
      const prior = store.get<{ body_hash: string; object_n: number }>(
        "SELECT body_hash, object_n FROM idempotency WHERE brain_uid = ? AND operation = 'acceptObject' AND key = ?",
        b.uid,
        opts.idempotencyKey,
      );
      if (prior) {
        if (prior.body_hash !== hash) {
          throw new MnemoError('idempotency_conflict', 'Idempotency-Key: already used with a different body');
        }
        return {
          row: store.get<VersionRow>('SELECT * FROM object_versions WHERE n = ?', prior.object_n)!,
          replayed: true,
        };
      }
    }
    const current =
      store.get<{ v: number | null }>(
        'SELECT max(version) AS v FROM object_versions WHERE brain_uid = ? AND type = ? AND key = ?',
        b.uid,
        body.type,
        body.key,
      )?.v ?? 0;
    if (body.if_version !== undefined && body.if_version !== null && body.if_version !== current) {
      throw new MnemoError(
        'stale_version',
        `if_version: ${body.if_version} is not the current version of ${body.type}/${body.key} (${current})`,
        { current_version: current },
      );
    }
    const seq = store.nextSeq(b.uid);
    const { lastInsertRowid } = store.db
      .prepare(
        'INSERT INTO object_versions (brain_uid, type, key, version, value, accepted_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(b.uid, body.type, body.key, current + 1, JSON.stringify(body.value), nowIso(ctx), seq);
    if (opts.idempotencyKey !== undefined) {
      store.run(
        "INSERT INTO idempotency (brain_uid, operation, key, body_hash, object_n) VALUES (?, 'acceptObject', ?, ?, ?)",
        b.uid,
        opts.idempotencyKey,
        hash,
        Number(lastInsertRowid),
      );
    }
    return {
      row: store.get<VersionRow>('SELECT * FROM object_versions WHERE n = ?', Number(lastInsertRowid))!,
      replayed: false,
    };
  });
  return {
    object: toObject(brainId, out.row),
    watermark: watermarkOf(ctx, b, out.row.seq),
    replayed: out.replayed,
  };
}

export function getObject(
  ctx: LocalCtx,
  t: Tenant,
  brainId: string,
  type: string,
  key: string,
): AcceptedObject {
  const b = requireBrain(ctx, t, brainId);
  const v = ctx.store.get<VersionRow>(
    'SELECT * FROM object_versions WHERE brain_uid = ? AND type = ? AND key = ? ORDER BY version DESC LIMIT 1',
    b.uid,
    type,
    key,
  );
  if (!v)
    throw new MnemoError(
      'object_not_found',
      `object: nothing accepted at ${shortened(type)}/${shortened(key)}`,
    );
  return toObject(brainId, v);
}

/** A cursor names the last (type, key) served; neither holds this separator (both are slugs). */
const cursorSep = '\u001f';

/**
 * The current version of every Object of the Brain, by type then key (`type` narrows to one), paged by
 * an opaque cursor. A range read of the `(brain_uid, type, key, version)` key, newest version of each.
 */
export function listObjects(ctx: LocalCtx, t: Tenant, brainId: string, q: ObjectListQuery): ObjectPage {
  const b = requireBrain(ctx, t, brainId);
  const [afterType, afterKey] = q.cursor ? decodeCursor(q.cursor).split(cursorSep) : ['', ''];
  const rows = ctx.store.all<VersionRow>(
    `SELECT v.* FROM object_versions v
     WHERE v.brain_uid = ? AND (v.type, v.key) > (?, ?) ${q.type !== undefined ? 'AND v.type = ?' : ''}
       AND v.version = (SELECT max(o.version) FROM object_versions o
                        WHERE o.brain_uid = v.brain_uid AND o.type = v.type AND o.key = v.key)
     ORDER BY v.type, v.key LIMIT ?`,
    b.uid,
    afterType ?? '',
    afterKey ?? '',
    ...(q.type !== undefined ? [q.type] : []),
    q.limit + 1,
  );
  const page = pageOf(
    rows.map((r) => ({ id: `${r.type}${cursorSep}${r.key}`, r })),
    q.limit,
  );
  return { ...page, data: page.data.map(({ r }) => toObject(b.id, r)) };
}
