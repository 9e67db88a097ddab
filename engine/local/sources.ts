import { sourceExternalIds } from './records.ts';
import type { DeletionReceipt, SourceChatList, SourceList } from '../contract/index.ts';
import { chatSources } from '../contract/index.ts';
import { chatNotFound, chatsOf, ofChat } from '../core/shared/source-chat.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { quoted } from '../errors/shown-value.ts';
import type { BrainUnitOfWork } from '../ports/index.ts';
import type { Tenant } from '../types.ts';
import { forgetRecordRows } from './forget-cascade.ts';
import { afterForget, nowIso, requireBrain, watermarkAt, watermarkOf, type EngineCtx } from './local-ctx.ts';

/** The source.name values of a Brain's Records, by name, with counts and the span of occurred_at. */
export async function listSources(ctx: EngineCtx, t: Tenant, brainId: string): Promise<SourceList> {
  const b = await requireBrain(ctx, t, brainId);
  const hideLocalOnly = ctx.deployment === 'hosted';
  const [rows, none] = await ctx.units.read(b.uid, (u) =>
    Promise.all([u.records.sources({ hideLocalOnly }), u.records.withoutSource({ hideLocalOnly })]),
  );
  return {
    data: rows.map((r) => ({
      object: 'source',
      name: r.name,
      records: r.records,
      reconciled_records: r.reconciled,
      items: r.items,
      first_occurred_at: new Date(r.first_ms).toISOString(),
      last_occurred_at: new Date(r.last_ms).toISOString(),
    })),
    without_source:
      none === null
        ? null
        : {
            records: none.records,
            first_occurred_at: new Date(none.first_ms).toISOString(),
            last_occurred_at: new Date(none.last_ms).toISOString(),
          },
  };
}

/**
 * Forgets every Record whose source.name is `sourceName` (reconciled from an import or not) in one
 * transaction, with forgetRecord's cascade over the whole set: a Memory is deleted only when none of
 * its support survives outside the set, otherwise it is re-derived from what remains. The WAL is then
 * checkpointed so the forgotten bytes leave the log too.
 */
export async function forgetSource(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  sourceName: string,
): Promise<DeletionReceipt> {
  // Erasure takes local_only Records too, also on a hosted deployment (see forgetRecord).
  return forgetOfSource(ctx, t, brainId, sourceName, async (u) => {
    const ids = await u.records.idsOfSource(sourceName);
    // Only Records pulled from a sync remote name it: no source of this device (listSources).
    const pulled = ids.length > 0 ? (await ctx.fromRemote(u.brainUid, ids)).length : 0;
    if (ids.length === pulled) {
      throw new MnemoError(
        'source_not_found',
        `source_name: no Record in this Brain has source.name ${quoted(sourceName)}` +
          (pulled > 0 ? ' but those pulled from its sync remote, which are forgotten one by one' : ''),
      );
    }
    return ids;
  });
}

/**
 * Forgets the Records of one source.name that carry one of EXTERNALIDS (every revision of those items)
 * as forgetSource forgets a whole source: an import with forget_missing removes so the items gone from
 * its files. Ids no Record carries are passed over; when none is carried, nothing is written and the
 * receipt counts nothing (the same call again is harmless).
 */
export async function forgetSourceItems(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  sourceName: string,
  externalIds: readonly string[],
): Promise<DeletionReceipt> {
  return forgetOfSource(ctx, t, brainId, sourceName, (u) =>
    u.records.idsOfSourceItems(sourceName, externalIds),
  );
}

/** The chats of one source.name, by name, each with its messages (items, however revised). */
export async function listSourceChats(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  sourceName: string,
): Promise<SourceChatList> {
  if (chatSources.includes(sourceName))
    return { data: chatsOf(sourceName, await sourceExternalIds(ctx, t, brainId, sourceName)) };
  await requireBrain(ctx, t, brainId);
  return { data: [] };
}

/**
 * Forgets every Record of one chat of a source.name (its items by external id, chatOfItem), in one
 * transaction as forgetSource forgets a whole source; source_not_found when no Record is of the chat.
 */
export async function forgetSourceChat(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  sourceName: string,
  chat: string,
): Promise<DeletionReceipt> {
  // Erasure takes local_only Records too, also on a hosted deployment (see forgetRecord).
  return forgetOfSource(ctx, t, brainId, sourceName, async (u) => {
    const items = (await u.records.externalIdsOfSource(sourceName, { hideLocalOnly: false })).filter(
      ofChat(sourceName, chat),
    );
    if (items.length === 0) throw chatNotFound(sourceName, chat);
    return u.records.idsOfSourceItems(sourceName, items);
  });
}

/** Forgets the Records `find` names, in one unit with forgetRecord's cascade, and gives the receipt. */
async function forgetOfSource(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  sourceName: string,
  find: (u: BrainUnitOfWork) => Promise<string[]>,
): Promise<DeletionReceipt> {
  const b = await requireBrain(ctx, t, brainId);
  const result = await ctx.units.write(b.uid, async (u) => {
    const found = await find(u);
    // Records pulled from a sync remote are the remote's, not this device's import of that name: each
    // is forgotten on its own (docs/sync.md).
    const pulled = new Set(found.length > 0 ? await ctx.fromRemote(b.uid, found) : []);
    const ids = found.filter((id) => !pulled.has(id));
    if (ids.length === 0) return null;
    // The cascade runs inside this unit's transaction.
    const counts = await forgetRecordRows(ctx, u, ids);
    return { ids, records: ids.length, ...counts };
  });
  if (result !== null) {
    await afterForget(ctx, b.uid, result.ids);
    await ctx.emptyLog();
    if (result.pending > 0) ctx.worker.kick();
  }
  return {
    object: 'deletion_receipt',
    target: { type: 'source', id: sourceName },
    deleted: { records: result?.records ?? 0, memories: result?.deleted ?? 0, objects: 0 },
    rederiving: { memories: result?.pending ?? 0 },
    watermark: result ? watermarkAt(ctx, b, result.seq) : await watermarkOf(ctx, b),
    deleted_at: nowIso(ctx),
  };
}
