import { randomBytes } from 'node:crypto';
import type {
  AcceptedObject,
  Brain,
  Census,
  DeletionReceipt,
  Memory,
  MemoryPage,
  MemoryRemoval,
  MnemoRecord,
  RecordPage,
  SourceList,
  SourceSummary,
} from '../contract/index.ts';
import { profileGroupOf, profileGroups, saysNothingOfSelf, type ProfileGroup } from '../contract/index.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { quoted } from '../errors/shown-value.ts';
import { createTraceBuffer, failedTrace } from '../context/trace-buffer.ts';
import { newId } from '../ids.ts';
import { canonicalJson } from '../core/shared/canonical-json.ts';
import { decodeCursor, decodeIdCursor, pageOf } from '../core/shared/page-cursor.ts';
import { sourceFilterAgrees } from '../core/shared/source-filter.ts';
import { decodeProfileCursor, encodeProfileCursor } from '../core/shared/profile-cursor.ts';
import { recordText } from '../core/derive/record-text.ts';
import { slotValueAsSaid } from '../core/derive/slot-value.ts';
import { isErasable } from '../core/shared/erasable.ts';
import { chatNotFound, chatsOf, ofChat } from '../core/shared/source-chat.ts';
import { refuseFullReadInDelta } from '../core/shared/memory-delta-read.ts';
import { normalizeContent } from '../core/shared/record-text.ts';
import type { Deployment, Engine, Tenant } from '../types.ts';
import { WatermarkCodec, type MemoryStepPlace } from '../watermark.ts';
import { hiddenHere, inSpan } from './eligible.ts';
import { referenceContext } from './reference-context.ts';
import { loadTokenizer } from '../core/shared/count-tokens.ts';
import type { BrainState, StoredMemory, StoredRecord } from './state.ts';
import { foldText, searchWords } from '../core/shared/fold-text.ts';
import { isOwnerState } from '../core/shared/owner-state.ts';
import { namesName } from '../core/shared/person-names.ts';

export interface ReferenceEngineOptions {
  deployment?: Deployment;
  traceBufferSize?: number;
  clock?: () => Date;
}

const referenceKinds = ['message', 'document', 'event', 'fact'] as const;

/** What a Records search reads of a Record, folded: its text, a message's speaker, a document's title. */
const searchedText = (r: MnemoRecord): string => {
  const c = r.content as { speaker?: string; title?: string };
  return foldText(`${recordText(r.content)}\n${c.speaker ?? ''}\n${c.title ?? ''}`);
};

/**
 * The spec's conformance engine: in-process and empty after restart; one Memory per Record with subject
 * `record`; retrieval is a substring scan needing a shared word; no extraction, entity resolution,
 * supersession or conflicts; no model calls, so every cost is 0; thorough returns what fast returns.
 */
export function createReferenceEngine(options: ReferenceEngineOptions = {}): Engine {
  const deployment = options.deployment ?? 'local';
  const traceCapacity = options.traceBufferSize ?? 1000;
  const now = () => (options.clock ?? (() => new Date()))().toISOString();
  const codec = new WatermarkCodec(randomBytes(32));
  const brains = new Map<string, BrainState>();
  const traceBuffer = createTraceBuffer(traceCapacity);
  /** Memories written so far, of every Brain: the next one's `n`. */
  let memoriesWritten = 0;

  const keyOf = (t: Tenant, id: string) => `${t.env}\u0000${t.project}\u0000${id}`;
  function state(t: Tenant, brainId: string): BrainState {
    const s = brains.get(keyOf(t, brainId));
    if (!s) throw new MnemoError('brain_not_found', `brain_id: no Brain ${quoted(brainId)} in this project`);
    return s;
  }
  const watermark = (s: BrainState) => codec.encode(s.uid, s.seq);

  /** Deletes a Memory at the current step, leaving a tombstone (id only) for delta reads. */
  function removeMemory(s: BrainState, memoryId: string, visibility: string): boolean {
    if (!s.memories.delete(memoryId)) return false;
    s.removals.set(memoryId, { seq: s.seq, reason: 'deleted', visibility });
    return true;
  }

  function visibleRecord(s: BrainState, recordId: string): StoredRecord {
    const r = s.records.get(recordId);
    if (!r)
      throw new MnemoError('record_not_found', `record_id: no Record ${quoted(recordId)} in this Brain`);
    if (hiddenHere(deployment, r.record.visibility)) {
      throw new MnemoError(
        'local_only_record',
        `record_id: "${recordId}" is local_only and stays on its device`,
      );
    }
    return r;
  }

  function checkIdempotency(s: BrainState, scope: string, key: string | undefined, body: unknown) {
    if (!key) return null;
    const prior = s.idempotency.get(`${scope}:${key}`);
    const fingerprint = canonicalJson(body);
    if (!prior)
      return {
        remember: (resultId: string) =>
          s.idempotency.set(`${scope}:${key}`, { fingerprint, resultId, seq: s.seq }),
      };
    if (prior.fingerprint !== fingerprint) {
      throw new MnemoError(
        'idempotency_conflict',
        `Idempotency-Key: "${key}" was already used with different content`,
      );
    }
    // A replay answers with the original write's boundary (types.ts), not the Brain's current one.
    return { replay: prior.resultId, watermark: codec.encode(s.uid, prior.seq) };
  }

  function receipt(
    target: DeletionReceipt['target'],
    counts: DeletionReceipt['deleted'],
    wm: string | null,
  ): DeletionReceipt {
    return {
      object: 'deletion_receipt',
      target,
      deleted: counts,
      rederiving: { memories: 0 },
      watermark: wm,
      deleted_at: now(),
    };
  }

  /** The distinct external ids of SOURCENAME's Records that this deployment serves. */
  function externalIdsOf(s: BrainState, sourceName: string): Set<string> {
    const ids = new Set<string>();
    for (const { record: r } of s.records.values())
      if (
        r.source.name === sourceName &&
        r.source.external_id !== null &&
        !hiddenHere(deployment, r.visibility)
      )
        ids.add(r.source.external_id);
    return ids;
  }

  /** Forgets `doomed` (Records of `sourceName`) with what rests on them alone: forgetSource and its items. */
  async function forgetOfSource(
    s: BrainState,
    sourceName: string,
    doomed: StoredRecord[],
  ): Promise<DeletionReceipt> {
    let memories = 0;
    const ids = new Set(doomed.map((r) => r.record.id));
    if (doomed.length > 0) s.seq += 1;
    for (const r of doomed) {
      s.records.delete(r.record.id);
      for (const id of r.record.memory_ids) if (removeMemory(s, id, r.record.visibility)) memories += 1;
    }
    for (const [k, v] of s.idempotency) if (ids.has(v.resultId)) s.idempotency.delete(k);
    await traceBuffer.forgetRecords(s.uid, [...ids]);
    return receipt(
      { type: 'source', id: sourceName },
      { records: doomed.length, memories, objects: 0 },
      watermark(s),
    );
  }

  const engine: Engine = {
    info: { name: 'reference', kinds: referenceKinds, unknownKindCode: 'invalid_request_body', deployment },

    async listBrains(t) {
      return [...brains.values()].filter((s) => brains.get(keyOf(t, s.brain.id)) === s).map((s) => s.brain);
    },

    async createBrain(t, body) {
      const key = keyOf(t, body.id);
      if (brains.has(key))
        throw new MnemoError('brain_exists', `id: a Brain ${quoted(body.id)} already exists`);
      const brain: Brain = {
        id: body.id,
        object: 'brain',
        name: body.name ?? null,
        self: body.self ?? null,
        created_at: now(),
      };
      const uid = randomBytes(9).toString('base64url');
      const created: BrainState = {
        brain,
        uid,
        seq: 0,
        records: new Map(),
        memories: new Map(),
        removals: new Map(),
        objects: new Map(),
        idempotency: new Map(),
        traces: {
          add: (trace) => traceBuffer.add(uid, trace),
          list: (limit, cursor) => traceBuffer.list(uid, limit, cursor),
          get: (id) => traceBuffer.get(uid, id),
        },
      };
      brains.set(key, created);
      return { brain, watermark: watermark(created) };
    },

    async getBrain(t, brainId) {
      return state(t, brainId).brain;
    },

    // It resolves no owners, so a new self changes no Memory.
    async updateBrain(t, brainId, body) {
      const s = state(t, brainId);
      s.brain = {
        ...s.brain,
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.self !== undefined ? { self: body.self } : {}),
      };
      return { brain: s.brain, watermark: watermark(s) };
    },

    async forgetBrain(t, brainId) {
      const s = state(t, brainId);
      brains.delete(keyOf(t, brainId));
      await traceBuffer.purge(s.uid);
      // Objects as the Census counts them: each type/key once, whatever its versions.
      return receipt(
        { type: 'brain', id: brainId },
        { records: s.records.size, memories: s.memories.size, objects: s.objects.size },
        null,
      );
    },

    async getProfile(t, brainId, q) {
      const s = state(t, brainId);
      const after = q.cursor !== undefined ? decodeProfileCursor(brainId, q.cursor) : undefined;
      // As the local engine orders them: by group (health, slot, other), in each the latest valid_from
      // first, then the last written first; the cursor is the last line's (group, valid_from, write order).
      const rank = (g: ProfileGroup) => profileGroups.indexOf(g);
      const speakers = new Set(
        [...s.records.values()].flatMap(({ record: r }) =>
          r.content.kind === 'message' && r.content.speaker?.trim()
            ? [r.content.speaker.trim().split(/\s+/u)[0]!.normalize('NFC').toLowerCase()]
            : [],
        ),
      );
      const own = [...s.memories.values()]
        .map(({ memory, n }) => ({
          memory,
          group: profileGroupOf(memory),
          validFromMs: Date.parse(memory.valid_from),
          n,
        }))
        .filter(({ memory }) => memory.owner.state === 'self')
        // As the local engine reads them: an acknowledgement or her name alone is no line of hers, with
        // the first names of the Brain's speakers as the names it knows (it holds no slot).
        .filter(
          (l) =>
            l.group !== 'other' ||
            !saysNothingOfSelf(l.memory.statement, s.brain.self?.name ?? null, speakers),
        )
        .sort((a, z) => rank(a.group) - rank(z.group) || z.validFromMs - a.validFromMs || z.n - a.n)
        .filter(
          (l) =>
            !after ||
            rank(l.group) > rank(after.group) ||
            (l.group === after.group &&
              (l.validFromMs < after.validFromMs || (l.validFromMs === after.validFromMs && l.n < after.n))),
        );
      const shown = own.slice(0, q.limit);
      const last = shown.at(-1);
      const hasMore = own.length > q.limit && last !== undefined;
      return {
        object: 'profile',
        brain_id: brainId,
        self: s.brain.self,
        watermark: watermark(s),
        lines: shown.map(({ memory: m, group }) => ({
          memory_id: m.id,
          statement: m.statement,
          subject: m.subject,
          valid_from: m.valid_from,
          citations: m.citations,
          group,
        })),
        has_more: hasMore,
        next_cursor: hasMore
          ? encodeProfileCursor(brainId, { group: last.group, validFromMs: last.validFromMs, n: last.n })
          : null,
      };
    },

    async getCensus(t, brainId): Promise<Census> {
      const s = state(t, brainId);
      const byText = new Map<string, string[]>();
      for (const { memory } of s.memories.values())
        byText.set(memory.statement, [...(byText.get(memory.statement) ?? []), memory.id]);
      const dupes = [...byText.values()].filter((ids) => ids.length > 1);
      const lowTrust = [...s.records.values()].filter((r) => r.record.source.trust === 'low');
      const noise: Census['noise'] = [
        {
          kind: 'duplicates',
          count: dupes.reduce((n, ids) => n + ids.length - 1, 0),
          description: 'Memories stating exactly what another Memory states.',
          examples: dupes.flat().slice(0, 5),
        },
        {
          kind: 'unresolved_owner',
          count: s.memories.size,
          description: 'Memories whose owner is unresolved (this engine resolves no owners).',
          examples: [...s.memories.keys()].slice(0, 5),
        },
        {
          kind: 'low_trust_source',
          count: lowTrust.length,
          description: 'Records from sources marked low trust.',
          examples: lowTrust.slice(0, 5).map((r) => r.record.id),
        },
      ];
      return {
        object: 'census',
        brain_id: brainId,
        watermark: watermark(s),
        generated_at: now(),
        counts: {
          records: s.records.size,
          records_processing: 0,
          memories_active: s.memories.size,
          memories_scheduled: 0,
          memories_superseded: 0,
          memories_pending_rederivation: 0,
          objects: s.objects.size,
        },
        noise: noise.filter((n) => n.count > 0).sort((a, b) => b.count - a.count),
      };
    },

    async rememberRecord(t, brainId, body, opts) {
      const s = state(t, brainId);
      if (hiddenHere(deployment, body.visibility)) {
        throw new MnemoError(
          'local_only_record',
          'visibility: local_only Records are not accepted by a hosted deployment',
        );
      }
      const idem = checkIdempotency(s, 'records', opts.idempotencyKey, body);
      if (idem && 'replay' in idem && idem.replay) {
        const prior = s.records.get(idem.replay);
        if (prior) return { record: prior.record, watermark: idem.watermark, replayed: true };
      }
      const content = normalizeContent(body.content);
      const text = recordText(content);
      const created = now();
      const recordId = newId('rec');
      const memoryId = newId('mem');
      s.seq += 1;
      const record: MnemoRecord = {
        id: recordId,
        object: 'record',
        status: 'ready',
        kind: content.kind,
        content,
        source: {
          name: body.source?.name ?? null,
          external_id: body.source?.external_id ?? null,
          trust: body.source?.trust ?? 'medium',
        },
        visibility: body.visibility ?? 'shareable',
        erasable: isErasable({
          name: body.source?.name ?? null,
          external_id: body.source?.external_id ?? null,
        }),
        occurred_at: body.occurred_at ?? created,
        memory_ids: [memoryId],
        created_at: created,
      };
      const memory: Memory = {
        id: memoryId,
        object: 'memory',
        statement: text,
        subject: 'record',
        predicate: null,
        slot: null,
        owner: { state: 'unresolved' },
        valid_from: record.occurred_at,
        valid_to: null,
        version: 1,
        status: 'active',
        citations: [{ record_id: recordId, quote: text }],
      };
      s.records.set(recordId, { record, text, content, seq: s.seq });
      s.memories.set(memoryId, { memory, seq: s.seq, n: (memoriesWritten += 1) });
      if (idem && 'remember' in idem) idem.remember?.(recordId);
      return { record, watermark: watermark(s), replayed: false };
    },

    async getRecord(t, brainId, recordId) {
      return visibleRecord(state(t, brainId), recordId).record;
    },

    async listRecords(t, brainId, q): Promise<RecordPage> {
      // Whatever the Brain, as its replication routes answer: a device asking whether it can sync here
      // learns it before the first run has made the Brain.
      if (q.since_watermark !== undefined)
        throw new MnemoError('not_implemented', 'since_watermark: the reference engine keeps no change feed');
      const s = state(t, brainId);
      const before = q.cursor ? decodeIdCursor(q.cursor, 'rec_', 'listRecords') : null;
      sourceFilterAgrees(q);
      const rows = [...s.records.values()]
        .map((r) => r.record)
        .filter((r) => !hiddenHere(deployment, r.visibility))
        .filter((r) => (!q.kind || r.kind === q.kind) && (!q.source || r.source.name === q.source))
        .filter((r) => !q.has_source || (q.has_source === 'true') === Boolean(r.source.name))
        .filter(
          (r) => (!q.visibility || r.visibility === q.visibility) && (!q.status || r.status === q.status),
        )
        .filter((r) => inSpan(r.occurred_at, q.since, q.until))
        .filter((r) => q.q === undefined || searchWords(q.q).every((w) => searchedText(r).includes(w)))
        .filter((r) => q.ids === undefined || q.ids.split(',').includes(r.id))
        .sort((a, b) => (a.id < b.id ? 1 : -1))
        .filter((r) => !before || r.id < before);
      return pageOf(rows, q.limit);
    },

    async sourceExternalIds(t, brainId, sourceName) {
      return [...externalIdsOf(state(t, brainId), sourceName)];
    },

    async forgetRecord(t, brainId, recordId) {
      const s = state(t, brainId);
      // Erasure is not serving: a hosted deployment erases a local_only Record too.
      const r = s.records.get(recordId);
      if (!r)
        throw new MnemoError('record_not_found', `record_id: no Record ${quoted(recordId)} in this Brain`);
      if (!r.record.erasable) {
        throw new MnemoError(
          'record_not_erasable',
          `record_id: "${recordId}" is reconciled from ${r.record.source.name ?? 'an external source'}; remove the import instead`,
        );
      }
      s.seq += 1;
      s.records.delete(recordId);
      for (const id of r.record.memory_ids) removeMemory(s, id, r.record.visibility);
      for (const [k, v] of s.idempotency) if (v.resultId === recordId) s.idempotency.delete(k);
      await traceBuffer.forgetRecords(s.uid, [recordId]);
      return receipt(
        { type: 'record', id: recordId },
        { records: 1, memories: r.record.memory_ids.length, objects: 0 },
        watermark(s),
      );
    },

    async listSources(t, brainId) {
      const s = state(t, brainId);
      const by = new Map<string, SourceSummary>();
      // The external ids seen per source: an item's revisions are one item.
      const ids = new Map<string, Set<string>>();
      const none: NonNullable<SourceList['without_source']> = {
        records: 0,
        first_occurred_at: '',
        last_occurred_at: '',
      };
      for (const { record: r } of s.records.values()) {
        if (hiddenHere(deployment, r.visibility)) continue;
        if (r.source.name === null) {
          const at = new Date(r.occurred_at).toISOString();
          if (none.records === 0 || at < none.first_occurred_at) none.first_occurred_at = at;
          if (none.records === 0 || at > none.last_occurred_at) none.last_occurred_at = at;
          none.records += 1;
          continue;
        }
        const cur = by.get(r.source.name);
        const at = new Date(r.occurred_at).toISOString();
        const seen = ids.get(r.source.name) ?? new Set<string>();
        ids.set(r.source.name, seen);
        const revision = r.source.external_id !== null && seen.has(r.source.external_id);
        if (r.source.external_id !== null) seen.add(r.source.external_id);
        if (!cur) {
          by.set(r.source.name, {
            object: 'source',
            name: r.source.name,
            records: 1,
            reconciled_records: r.source.external_id === null ? 0 : 1,
            items: 1,
            first_occurred_at: at,
            last_occurred_at: at,
          });
          continue;
        }
        cur.records += 1;
        if (!revision) cur.items += 1;
        if (r.source.external_id !== null) cur.reconciled_records += 1;
        if (at < cur.first_occurred_at) cur.first_occurred_at = at;
        if (at > cur.last_occurred_at) cur.last_occurred_at = at;
      }
      return {
        data: [...by.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
        without_source: none.records > 0 ? none : null,
      };
    },

    async forgetSource(t, brainId, sourceName) {
      const s = state(t, brainId);
      const doomed = [...s.records.values()].filter((r) => r.record.source.name === sourceName);
      if (doomed.length === 0) {
        throw new MnemoError(
          'source_not_found',
          `source_name: no Record in this Brain has source.name ${quoted(sourceName)}`,
        );
      }
      return forgetOfSource(s, sourceName, doomed);
    },

    async forgetSourceItems(t, brainId, sourceName, externalIds) {
      const s = state(t, brainId);
      const wanted = new Set(externalIds);
      const doomed = [...s.records.values()].filter(
        (r) =>
          r.record.source.name === sourceName &&
          r.record.source.external_id !== null &&
          wanted.has(r.record.source.external_id),
      );
      return forgetOfSource(s, sourceName, doomed);
    },

    async listSourceChats(t, brainId, sourceName) {
      return { data: chatsOf(sourceName, externalIdsOf(state(t, brainId), sourceName)) };
    },

    async forgetSourceChat(t, brainId, sourceName, chat) {
      const s = state(t, brainId);
      const isOfChat = ofChat(sourceName, chat);
      const doomed = [...s.records.values()].filter(
        (r) =>
          r.record.source.name === sourceName &&
          r.record.source.external_id !== null &&
          isOfChat(r.record.source.external_id),
      );
      if (doomed.length === 0) throw chatNotFound(sourceName, chat);
      return forgetOfSource(s, sourceName, doomed);
    },

    async listMemories(t, brainId, q): Promise<MemoryPage> {
      const s = state(t, brainId);
      refuseFullReadInDelta(q);
      const hidden = (m: Memory) =>
        m.citations.some((c) => hiddenHere(deployment, s.records.get(c.record_id)?.record.visibility));
      const rows = [...s.memories.values()].filter(({ memory: m }) => {
        if (hidden(m)) return false;
        if (q.status && q.status !== 'all' && m.status !== q.status) return false;
        // A subject or an owner's name as the other engines name them (person-names.ts).
        if (q.subject && !namesName(q.subject, m.subject)) return false;
        if (
          q.owner &&
          (isOwnerState(q.owner) ? m.owner.state !== q.owner : !namesName(q.owner, m.owner.entity ?? ''))
        )
          return false;
        if (q.as_of && Date.parse(m.valid_from) > Date.parse(q.as_of)) return false;
        const searched = foldText(`${m.statement}\n${m.subject}\n${m.owner.entity ?? ''}`);
        if (q.q && !searchWords(q.q).every((w) => searched.includes(w))) return false;
        // One Memory per Record, none in a slot: nothing here is ever contested.
        if (q.contested === 'true' || q.slot !== undefined) return false;
        return true;
      });
      if (q.since_watermark !== undefined) {
        const { seq: since, within } = codec.decodeMemoryPlace(q.since_watermark, s.uid);
        // Changes and removals in one stream by transaction time (at a step, the removals by id, then
        // the changes in write order); removals carry no content, so only the deployment narrows them.
        type Entry = { seq: number; stored?: StoredMemory; removal?: MemoryRemoval };
        // Ids are ASCII: compared as strings, they sort bytewise, as the local engine's do.
        const inStep = (a: Entry, b: Entry) =>
          (a.removal ? 0 : 1) - (b.removal ? 0 : 1) ||
          (a.removal ? (a.removal.id < b.removal!.id ? -1 : 1) : a.stored!.n - b.stored!.n);
        // Past the boundary: a later step, or a later entry of the step a place is inside.
        const past = (e: Entry) => {
          if (e.seq !== since) return e.seq > since;
          if (within === undefined) return false;
          if (within.removal) return e.removal === undefined || e.removal.id > within.id;
          return e.stored !== undefined && e.stored.n > within.n;
        };
        const stream: Entry[] = [
          ...[...s.removals]
            .filter(([, r]) => !hiddenHere(deployment, r.visibility))
            .map(([id, r]) => ({ seq: r.seq, removal: { id, reason: r.reason } })),
          ...rows.map((m) => ({ seq: m.seq, stored: m })),
        ]
          .filter(past)
          .sort((a, b) => a.seq - b.seq || inStep(a, b));
        // At most `limit` a page: a step with more (one forgetSource removes many Memories in one step)
        // goes on in the next, from a watermark naming the page's last entry inside it.
        const page = stream.slice(0, q.limit);
        const more = stream.length > q.limit;
        let next = watermark(s);
        if (more) {
          const last = page[page.length - 1]!;
          const place: MemoryStepPlace = last.removal
            ? { removal: true, id: last.removal.id }
            : { removal: false, n: last.stored!.n };
          next = codec.encodeMemoryPlace(
            s.uid,
            last.seq,
            stream[q.limit]!.seq === last.seq ? place : undefined,
          );
        }
        return {
          data: page.flatMap((e) => (e.stored ? [e.stored.memory] : [])),
          has_more: more,
          next_cursor: null,
          watermark: next,
          removed: page.flatMap((e) => (e.removal ? [e.removal] : [])),
        };
      }
      const after = q.cursor ? decodeIdCursor(q.cursor, 'mem_', 'listMemories') : null;
      // A cursor is a place in the order it is sent with: past it is after it, or before it for desc.
      const sign = q.order === 'desc' ? -1 : 1;
      const ordered = rows
        .map((m) => m.memory)
        .sort((a, b) => (a.id < b.id ? -sign : sign))
        .filter((m) => !after || (sign > 0 ? m.id > after : m.id < after));
      return pageOf(ordered, q.limit);
    },

    async getMemory(t, brainId, memoryId) {
      const s = state(t, brainId);
      const m = s.memories.get(memoryId)?.memory;
      if (!m)
        throw new MnemoError('memory_not_found', `memory_id: no Memory ${quoted(memoryId)} in this Brain`);
      const record = s.records.get(m.citations[0]!.record_id);
      if (!record)
        throw new MnemoError(
          'memory_without_lineage',
          `memory_id: ${quoted(memoryId)} has no supporting Record`,
        );
      if (hiddenHere(deployment, record.record.visibility)) {
        // As getRecord answers for its Record: it exists, and this deployment does not serve it.
        throw new MnemoError(
          'local_only_record',
          `memory_id: "${memoryId}" is derived only from local_only Records, which stay on their device`,
        );
      }
      return {
        ...m,
        revisions: [
          {
            id: m.id,
            version: 1,
            statement: m.statement,
            status: m.status,
            valid_from: m.valid_from,
            valid_to: null,
            learned_at: record.record.created_at,
            cause: 'derived',
          },
        ],
        evidence: m.citations.map((c) => ({
          record_id: c.record_id,
          quote: c.quote,
          text: record.text,
          kind: record.record.kind,
          speaker: record.content.kind === 'message' ? (record.content.speaker ?? null) : null,
          source_name: record.record.source.name,
          occurred_at: record.record.occurred_at,
        })),
        value: slotValueAsSaid(m),
        // The reference engine withdraws nothing.
        withdrawn_by: null,
      };
    },

    async acceptObject(t, brainId, body, opts) {
      const s = state(t, brainId);
      const slot = `${body.type}\u0000${body.key}`;
      const idem = checkIdempotency(s, 'objects', opts.idempotencyKey, body);
      const versions = s.objects.get(slot) ?? [];
      if (idem && 'replay' in idem && idem.replay) {
        const prior = versions.find((v) => `${v.type}\u0000${v.key}\u0000${v.version}` === idem.replay);
        if (prior) return { object: prior, watermark: idem.watermark, replayed: true };
      }
      const current = versions.length;
      if (body.if_version !== undefined && body.if_version !== null && body.if_version !== current) {
        throw new MnemoError(
          'stale_version',
          `if_version: ${body.if_version} is not the current version ${current}`,
          { current_version: current },
        );
      }
      const accepted: AcceptedObject = {
        object: 'object',
        brain_id: brainId,
        type: body.type,
        key: body.key,
        version: current + 1,
        value: body.value,
        accepted_at: now(),
      };
      s.objects.set(slot, [...versions, accepted]);
      s.seq += 1;
      if (idem && 'remember' in idem) idem.remember?.(`${slot}\u0000${accepted.version}`);
      return { object: accepted, watermark: watermark(s), replayed: false };
    },

    async getObject(t, brainId, type, key) {
      const versions = state(t, brainId).objects.get(`${type}\u0000${key}`);
      const last = versions?.[versions.length - 1];
      if (!last)
        throw new MnemoError(
          'object_not_found',
          `object: nothing accepted at type ${quoted(type)}, key ${quoted(key)}`,
        );
      return last;
    },

    async listObjects(t, brainId, q) {
      const s = state(t, brainId);
      const after = q.cursor ? decodeCursor(q.cursor) : '';
      // Slot keys are `type\u0000key`: their order is (type, key) order, as the local engine's.
      const current = [...s.objects.entries()]
        .filter(([slot, versions]) => versions.length > 0 && slot > after)
        .filter(([, versions]) => q.type === undefined || versions[0]!.type === q.type)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const page = pageOf(
        current.map(([id, versions]) => ({ id, current: versions[versions.length - 1]! })),
        q.limit,
      );
      return { ...page, data: page.data.map((o) => o.current) };
    },

    async createContext(t, brainId, body, opts) {
      // Before the Brain is read: from there to the answer nothing awaits, so no write lands between.
      await loadTokenizer();
      const s = state(t, brainId);
      if (opts.watermark !== undefined) codec.decode(opts.watermark, s.uid, 'Brain-Watermark');
      return referenceContext(s, body, opts, { deployment, now, watermark: watermark(s) });
    },

    async recordFailedContext(t, brainId, failure) {
      const s = brains.get(keyOf(t, brainId));
      if (!s) return null;
      const trace = failedTrace(brainId, failure, now());
      await s.traces.add(trace);
      return trace.id;
    },

    async listTraces(t, brainId, q) {
      return state(t, brainId).traces.list(q.limit, q.cursor);
    },

    async getTrace(t, brainId, traceId) {
      return state(t, brainId).traces.get(traceId);
    },

    async idle() {},
    // Its store is this process's memory.
    async ping() {},
    async close() {
      brains.clear();
    },
  };
  return engine;
}
