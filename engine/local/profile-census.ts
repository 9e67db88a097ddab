import {
  namesAsked,
  profileGroups,
  saysNothingOfSelf,
  type Census,
  type Profile,
  type ProfileGroup,
} from '../contract/index.ts';
import type { BrainReadOfWork, MemoryRepository, MemoryVersionRow, NoiseKind } from '../ports/index.ts';
import type { Tenant } from '../types.ts';
import { foldName } from '../core/derive/resolve-owner.ts';
import { selfOf } from '../core/shared/brain-self.ts';
import {
  decodeProfileCursor,
  encodeProfileCursor,
  type ProfilePosition,
} from '../core/shared/profile-cursor.ts';
import { nowIso, requireBrain, watermarkOf, type EngineCtx } from './local-ctx.ts';
import { toMemories } from './memories.ts';

/**
 * The self card: current Memories owned by self (a value scheduled to start later is not on it yet),
 * in the profile's groups (contract/profile-group.ts): health first (an allergy, a condition,
 * medication: what an agent must not miss), then those that hold a slot (home, job, partner, diet,
 * ...: what an agent asks for first), then the rest, less what says nothing of her ("Jonas, ok.",
 * profileLines); each group newest (world time) first, each line
 * cited, paged by a cursor holding the last line's (group, valid_from, write order). A hosted
 * deployment shows only lines with a supporting Record that is not local_only, citing only those.
 */
export async function getProfile(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  q: { limit: number; cursor?: string | undefined },
): Promise<Profile> {
  const b = await requireBrain(ctx, t, brainId);
  const after = q.cursor !== undefined ? decodeProfileCursor(b.id, q.cursor) : undefined;
  // Read before the lines, so the lines are at least as new as the step the watermark names.
  const watermark = await watermarkOf(ctx, b);
  const nowMs = ctx.clock().getTime();
  const hosted = ctx.deployment === 'hosted';
  return ctx.units.read(b.uid, async (u) => {
    const rows = await profileLines(u.memories, {
      nowMs,
      shareableOnly: hosted,
      limit: q.limit + 1,
      after,
      selfName: selfOf(b)?.name ?? null,
      knownNames: (words) => knownNames(u, words),
    });
    const shown = rows.slice(0, q.limit);
    const groups = new Map(shown.map((r) => [r.id, r.group]));
    const page = await toMemories(u, shown, nowMs, hosted);
    const last = shown.at(-1);
    const hasMore = rows.length > q.limit && last !== undefined;
    return {
      object: 'profile',
      brain_id: b.id,
      self: selfOf(b),
      watermark,
      lines: page.map((m) => ({
        memory_id: m.id,
        statement: m.statement,
        subject: m.subject,
        valid_from: m.valid_from,
        citations: m.citations,
        group: groups.get(m.id)!,
      })),
      has_more: hasMore,
      next_cursor: hasMore
        ? encodeProfileCursor(b.id, { group: last.group, validFromMs: last.valid_from_ms, n: last.n })
        : null,
    };
  });
}

/** A profile line as read: its Memory version and the group it was read in. */
export type ProfileRow = MemoryVersionRow & { group: ProfileGroup };

/** Past this many lines left out in a page, the page reads on this many rows at a time. */
const readAhead = 200;

/**
 * The profile's lines from `after` on, up to `limit`: the self's current Memories of each group in
 * turn (health, slot, other), each read in its index's order (MemoryRepository.currentOfSelf), less an
 * `other` line that says nothing of the person (saysNothingOfSelf: "Perfect, obrigada!", "Jonas, ok."
 * where the Brain knows a Jonas, her name alone; `selfName` is the Brain's self's, `knownNames` which
 * of a batch's words the Brain knows as people's first names). A page that ends inside a group goes on
 * in it from its last line; the groups after it are read whole from their newest line, those before it
 * not at all. Such a line stays a Memory: it is left out here, read past until the lines asked for are
 * read, `readAhead` rows at a time once one is left out (a read of the lines still missing each time
 * was one query per line asked past thousands of "Thanks!": 1.6 s for a page of one).
 */
export async function profileLines(
  memories: Pick<MemoryRepository, 'currentOfSelf'>,
  q: {
    nowMs: number;
    shareableOnly: boolean;
    limit: number;
    after?: ProfilePosition | undefined;
    selfName?: string | null | undefined;
    knownNames?: ((words: readonly string[]) => Promise<ReadonlySet<string>>) | undefined;
  },
): Promise<ProfileRow[]> {
  const { after, selfName = null, knownNames: known, ...read } = q;
  const out: ProfileRow[] = [];
  let leftOut = false;
  // Each word asked once a page: the same "Jonas" thanked a thousand times.
  const answered = new Set<string>();
  const names = new Set<string>();
  for (const group of profileGroups.slice(after ? profileGroups.indexOf(after.group) : 0)) {
    let from: { validFromMs: number; n: number } | undefined = after?.group === group ? after : undefined;
    while (out.length < q.limit) {
      const missing = q.limit - out.length;
      const asked = leftOut ? Math.max(missing, readAhead) : missing;
      const rows = await memories.currentOfSelf({ ...read, limit: asked, group, after: from });
      const words = group === 'other' ? rows.flatMap((r) => namesAsked(r.statement, selfName)) : [];
      const unasked = [...new Set(words)].filter((w) => !answered.has(w));
      if (unasked.length > 0 && known) {
        const found = await known(unasked);
        for (const w of unasked) {
          answered.add(w);
          if (found.has(w)) names.add(w);
        }
      }
      for (const r of rows) {
        if (out.length === q.limit) break;
        if (group === 'other' && saysNothingOfSelf(r.statement, selfName, names)) leftOut = true;
        else out.push({ ...r, group });
      }
      const last = rows.at(-1);
      if (rows.length < asked || last === undefined) break;
      from = { validFromMs: last.valid_from_ms, n: last.n };
    }
  }
  return out;
}

/**
 * Which of these words (lower case: namesAsked) the Brain knows as a person's first name: a speaker's
 * of its messages (BrainUnitOfWork.speakersFirstNamed, read once per process and then only what is
 * new) or the first word of a whole name that holds a slot ("Inês Sousa"; subjectsFirstNamed, one
 * read of the slot index). A word it knows no one by is no name: "No Peanuts!" is a line of hers.
 */
async function knownNames(
  u: Pick<BrainReadOfWork, 'speakersFirstNamed' | 'memories'>,
  words: readonly string[],
): Promise<Set<string>> {
  const known = new Set((await u.memories.subjectsFirstNamed(words)).map((r) => r.first));
  for (const w of words)
    if (!known.has(w) && (await u.speakersFirstNamed(foldName(w))).length > 0) known.add(w);
  return known;
}

/** What each kind of noise is, in the order kinds of equal count are shown. */
const noiseDescriptions: Record<NoiseKind, string> = {
  duplicates: 'Records whose text repeats an earlier Record word for word',
  conflicts: 'Current Memories sharing a slot with another current value from a different source',
  unresolved_owner: 'Current Memories whose owner could not be attributed',
  pending_rederivation: 'Memories that lost some supporting Records and wait to be derived again',
  low_trust_source: 'Records from sources marked low trust',
  retracted: 'Memories retracted by a correction',
  derivation_failed:
    'Records (or Memories derived again) whose derivation failed on every attempt; the server log says why',
};

const examplesShown = 5;

/** Counts, and what is noisy in this Brain's own data, noisiest first (kinds with nothing are left out). */
export async function getCensus(ctx: EngineCtx, t: Tenant, brainId: string): Promise<Census> {
  const b = await requireBrain(ctx, t, brainId);
  // Read before the counts, so the counts are at least as new as the step the watermark names.
  const watermark = await watermarkOf(ctx, b);
  const nowMs = ctx.clock().getTime();
  const c = await ctx.units.read(b.uid, (u) =>
    u.census.census({ nowMs, shareableOnly: ctx.deployment === 'hosted', examples: examplesShown }),
  );
  const noise = (Object.keys(noiseDescriptions) as NoiseKind[])
    .map((kind) => ({
      kind,
      count: c.noise[kind].count,
      description: noiseDescriptions[kind],
      examples: c.noise[kind].examples,
    }))
    .filter((n) => n.count > 0)
    .sort((a, z) => z.count - a.count);
  return {
    object: 'census',
    brain_id: b.id,
    watermark,
    generated_at: nowIso(ctx),
    counts: {
      records: c.records,
      records_processing: c.recordsProcessing,
      memories_active: c.memoriesActive,
      memories_scheduled: c.memoriesScheduled,
      memories_superseded: c.memoriesSuperseded,
      memories_pending_rederivation: c.memoriesPending,
      objects: c.objects,
    },
    noise,
  };
}
