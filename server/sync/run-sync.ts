import {
  newerContentFields,
  SelfEntity,
  type Brain,
  type RecordPage,
  type RecordReplica,
  type ReplicateResult,
  type ReplicaOutcome,
} from '../../engine/contract/index.ts';
import type { RemoteOf, Tenant } from '../../engine/types.ts';
import { errorMessage, parseApiKey, type EngineSync } from '../../engine/index.ts';
import { writeKeptAdvice } from '../../engine/errors/store-unavailable.ts';
import { MnemoApiError, createMnemoClient, type MnemoClient } from '../client/index.ts';
import { limitedFetch, type FetchLimits } from '../client/limited-fetch.ts';
import { createLoopbackFetch } from '../client/loopback-fetch.ts';
import { addPulled, dayTotals, pausedUntil, type PullBudget } from './pull-budget.ts';

/** What bounds a run's requests to its remote, and its pull (docs/sync.md, "What a run takes from its remote"). */
export interface RunLimits extends FetchLimits, PullBudget {
  /**
   * Longest run, in ms: past it the run asks for nothing more, a request still in flight is cut, and
   * the run fails with `run_deadline`, keeping every batch and page it finished; the next run goes on
   * from there (soon when this one kept something, after the backoff when it kept nothing).
   */
  runMs: number;
  /** Change-feed pages one run asks for at most; the next run reads on from there. */
  pagesPerRun: number;
  /** Ids per tombstone request: the most the replication route takes. */
  tombstonesPerRequest: number;
}

/**
 * The remote's answer to a request must start within a minute (a push of 200 Records or a page of the
 * feed takes well under a second on the benchmark; the wait grows by a second per 64 KiB sent, so a
 * push of 8 MiB has 3 min on a 0.5 Mbit/s uplink), its body may not stall a minute, and no exchange
 * takes over 10 minutes. An answer of over 32 MiB (as much as any Mnemo route takes in one request)
 * is not read: a feed page that large is asked for again in smaller pages. A run ends after 30
 * minutes (the benchmark pulls 100 pages in well under one; 30 minutes is three requests at their
 * longest): a slow remote holds a Brain's runs no longer. The next run comes soon when this one kept
 * something (a big first sync over a slow link takes several runs), after the backoff when it did not.
 */
export const runLimits: RunLimits = {
  idleMs: 60_000,
  sendBytesPerSecond: 64 * 1024,
  totalMs: 10 * 60_000,
  maxResponseBytes: 32 * 1024 * 1024,
  runMs: 30 * 60_000,
  pagesPerRun: 100,
  tombstonesPerRequest: 1000,
  // The pull's budget (docs/sync.md, "The pull's budget"): a day's is some 40 times the largest history
  // an import here brings in one go, and a few minutes of pulling at the benchmark's pace; a hub
  // writing without end fills a device's disk by some 2 to 5 GB a day (3 to 9 times what it reads, by
  // the size of its Records, as measured), and the status says so.
  pullRecordsPerRun: 20_000,
  pullBytesPerRun: 128 * 1024 * 1024,
  pullRecordsPerDay: 250_000,
  pullBytesPerDay: 512 * 1024 * 1024,
};

export interface RunSyncOptions {
  /** Sends the run's requests (default: loopback-fetch's), under the limits. */
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Records per push request (the remote takes up to 200). */
  batchSize?: number;
  /** Tests shorten them; the default is runLimits. */
  limits?: Partial<RunLimits>;
  /**
   * The person allows the pull another day's budget from now (the admin key's `allow_more`): what it
   * read in the day before is no longer counted.
   */
  allowMore?: boolean;
}

export interface RunOutcome {
  pushed: number;
  pulled: number;
  error: string | null;
  /** What the run read from the remote's feed: Records, and bytes as the feed's JSON. */
  read: { records: number; bytes: number };
  /** What the pull read in the last 24 hours, this run's reads with it. */
  day: { records: number; bytes: number };
  /** The pull stopped at its day's budget and waits until then (ISO); null when it did not. */
  pausedUntil: string | null;
  /** Records of this device the run forgot because the remote said so (push answers, feed removals). */
  forgotten: number;
  /** Forgets the remote asked for that the run held for the person to confirm (docs/sync.md). */
  held: number;
  /**
   * The run stopped at pagesPerRun, or its budget of a run, with more of the feed to read: the next run
   * should come soon.
   */
  more: boolean;
  /** The run stopped at its deadline (runMs): `error` is its `run_deadline`. */
  deadline: boolean;
  /**
   * The run kept at least one step: a push batch the remote answered, a tombstone request, a feed
   * page applied. Its cursors moved, whatever the counts say (a page may hold only a new watermark,
   * a batch only refusals).
   */
  progressed: boolean;
  /**
   * The run stopped before the end with what it did kept (`more`, or its deadline or its server's stop
   * after progress): the next run goes on soon, and the status says `catching_up`, not a failure.
   */
  catchingUp: boolean;
}

/** Records per page of the feed asked for (the remote gives up to 200). */
const pageSize = 200;

/**
 * The last guard before a Record is serialised for the remote: the outbox never reads a local_only
 * Record, and this refuses to send one if it ever did.
 */
export function assertShareable(replicas: readonly RecordReplica[]): void {
  for (const r of replicas) {
    if (r.visibility !== 'shareable' && r.visibility !== 'redacted_summary') {
      throw new Error(`refusing to send the ${r.visibility} Record ${r.id}: it never leaves this device`);
    }
  }
}

/**
 * One sync run of a paired Brain: push the outbox (batch by batch, each confirmed before the cursor
 * moves, so a crash or a dropped connection repeats at most one batch, which the remote answers
 * `unchanged`), send the tombstones of Records that travelled, then pull the remote's change feed page by
 * page. The run's end (its error, if any) is kept with the pairing.
 */
export async function runSync(
  sync: EngineSync,
  t: Tenant,
  brainId: string,
  o: RunSyncOptions = {},
): Promise<RunOutcome> {
  const remote = await sync.remoteOf(t, brainId);
  const limits = { ...runLimits, ...o.limits };
  const client = createMnemoClient({
    baseUrl: remote.remote,
    apiKey: remote.remoteKey,
    // Every call of a run is idempotent: a connection the remote closed as it was reused (keep-alive)
    // is tried once more; a remote that stays away (or breaks a limit) is the service's backoff's to
    // wait for.
    retry: { maxInternalRetries: 1, maxRateLimitRetries: 2 },
    // The limits below bound every request (remote_timeout); the client's own 30 s would cut a large
    // batch on a slow uplink first.
    timeoutMs: false,
    fetch: limitedFetch(
      o.fetch ?? createLoopbackFetch({ maxResponseBytes: limits.maxResponseBytes }),
      limits,
    ),
  });
  // The run's requests end when the caller's signal aborts (shutdown, the Brain paired again) or at the
  // deadline, whichever comes first; the caller's is forwarded by hand (see limitedFetch).
  const cut = new AbortController();
  const overdue = deadlinePassed(limits.runMs);
  const onAbort = () => cut.abort(o.signal!.reason);
  if (o.signal?.aborted) onAbort();
  else o.signal?.addEventListener('abort', onAbort, { once: true });
  const deadline = setTimeout(() => cut.abort(overdue), limits.runMs);
  deadline.unref();
  const call = { signal: cut.signal };
  /** Called before each request: past the deadline the run asks for nothing more. */
  const onTime = () => {
    if (cut.signal.aborted && cut.signal.reason === overdue) throw overdue;
  };
  let pushed = 0;
  let pulled = 0;
  /** What the remote's forgets did in this run (RemoteForgets), summed. */
  const forgets = { forgotten: 0, held: 0 };
  const noteForgets = (f: { forgotten: number; held: number }) => {
    forgets.forgotten += f.forgotten;
    forgets.held += f.held;
  };
  let more = false;
  /** What the pull read, by the hour over the last day: its budget (pull-budget.ts). */
  let hours = remote.pulledHours;
  const read = { records: 0, bytes: 0 };
  let paused: number | null = null;
  const day = () => dayTotals(hours, Date.now());
  const pausedAt = () =>
    paused === null ? null : new Date(Number.isFinite(paused) ? paused : 8.64e15).toISOString();
  let progressed = false;
  /** What the run found of the remote Brain's self; undefined until it has asked. */
  let warning: string | null | undefined;
  /** The run's outcome as it ends, what it did so far with how it ended. */
  const outcome = (end: Pick<RunOutcome, 'error' | 'more' | 'deadline' | 'catchingUp'>): RunOutcome => ({
    pushed,
    pulled,
    ...forgets,
    read,
    day: day(),
    pausedUntil: pausedAt(),
    progressed,
    ...end,
  });
  try {
    warning = await ensureRemoteBrain(client, remote, call, (self) =>
      sync.takeSelf(t, brainId, remote.pairingId, self),
    );
    /** Newer content fields the remote refused as unknown in this run (`kind.field`): left out from then on. */
    const refused = new Set<string>();
    /**
     * Sends a part of a batch. An older remote that refuses a newer content field it does not know
     * (newerContentFields) is sent the part again without it, rather than the push stopping at this
     * batch until the remote is upgraded: a Record is whole without such a field, only less precise.
     */
    const pushPart = async (part: readonly RecordReplica[]) => {
      for (;;) {
        const sending = part.map((r) => withoutFields(r, refused));
        try {
          const result = await client.replicateRecords(remote.remoteBrain, sending, call);
          return {
            result,
            dropped: sending.filter((r, i) => r !== part[i]).length,
            taken: sending.some((r) => newerFieldsOf(r).length > 0),
          };
        } catch (e) {
          const fields = refusedNewerFields(e, sending);
          // Refused for anything else: the batch fails the run, as any refusal does.
          if (!fields || fields.every((f) => refused.has(f))) throw e;
          for (const f of fields) refused.add(f);
          onTime();
        }
      }
    };
    const pushAndForget = async () => {
      for (;;) {
        onTime();
        const batch = await sync.outbox(t, brainId, o.batchSize ?? 200);
        if (batch.items.length === 0 && batch.kept.length === 0) break;
        const outcomes = new Map<string, ReplicaOutcome>();
        const replicas = batch.items.map((i) => i.replica);
        assertShareable(replicas);
        const fields = { dropped: 0, taken: false };
        for (const part of bySize(replicas)) {
          onTime();
          const { result, dropped, taken } = await pushPart(part);
          fields.dropped += dropped;
          fields.taken ||= taken;
          for (const [id, outcome] of outcomesOf(part, result)) outcomes.set(id, outcome);
        }
        noteForgets(await sync.markPushed(t, brainId, remote.pairingId, batch, outcomes, fields));
        progressed = true;
        pushed += [...outcomes.values()].filter((v) => v === 'created' || v === 'unchanged').length;
      }
      // A request at a time, each kept as sent: a forgotten import is one step of any number of ids.
      for (;;) {
        onTime();
        const { ids, through } = await sync.tombstonesToSend(t, brainId, limits.tombstonesPerRequest);
        if (!through) break;
        if (ids.length > 0) await client.forgetReplicas(remote.remoteBrain, ids, call);
        await sync.markTombstonesSent(t, brainId, remote.pairingId, through);
        progressed = true;
      }
    };
    await pushAndForget();
    if (o.allowMore) {
      hours = [];
      await sync.keepPulledHours(t, brainId, remote.pairingId, hours);
    }
    // Requests for pages in this run, the pull's and the re-read's together (pagesPerRun).
    let asked = 0;
    let limit = pageSize;
    /**
     * The feed's page after `watermark`, or null once the run has asked for its pages. A page over the
     * size limit is asked for again in smaller ones. `seen` holds every watermark of this pass: a feed
     * that hands one back again is going round in circles.
     */
    const nextPage = async (watermark: string, seen: Set<string>): Promise<RecordPage | null> => {
      for (;;) {
        if (asked === limits.pagesPerRun) return null;
        if (read.records >= limits.pullRecordsPerRun || read.bytes >= limits.pullBytesPerRun) return null;
        // Past the day's budget the pull asks for nothing until it has room again: `paused` says when.
        paused = pausedUntil(hours, Date.now(), limits);
        if (paused !== null) return null;
        // No page holds more Records than either budget has room for, nor, once the day has read some,
        // more than the bytes left hold at the day's size of a Record. Bytes are known only once read:
        // the day's first page (at most maxResponseBytes) may go past them, a later one by a Record.
        const today = day();
        const bytesLeft = Math.min(limits.pullBytesPerRun - read.bytes, limits.pullBytesPerDay - today.bytes);
        const room = Math.min(
          limits.pullRecordsPerRun - read.records,
          limits.pullRecordsPerDay - today.records,
          today.records > 0 ? Math.floor(bytesLeft / (today.bytes / today.records)) : pageSize,
        );
        asked += 1;
        onTime();
        let page: RecordPage;
        const wanted = Math.max(1, Math.min(limit, room));
        try {
          page = await client.listRecords(
            remote.remoteBrain,
            { since_watermark: watermark, limit: wanted },
            call,
          );
        } catch (e) {
          if (!(e instanceof MnemoApiError) || e.code !== 'response_too_large' || limit === 1) throw e;
          limit = Math.max(1, Math.floor(limit / 4));
          continue;
        }
        // Counted whatever it holds, and kept with the page when it is applied (applyPulled), in its
        // transaction: no page is kept uncounted.
        const records = Array.isArray(page.data) ? page.data.length : 0;
        // A Mnemo's feed answers at most the limit asked for. One that sends more would take the run and
        // the day past their budgets in a single page, all of it written in one transaction.
        if (records > wanted)
          throw new Error(
            `the remote answered ${records} Records to a request for at most ${wanted}; the pull stops here, ` +
              'and nothing of that page is kept',
          );
        const bytes = Buffer.byteLength(JSON.stringify(page));
        read.records += records;
        read.bytes += bytes;
        hours = addPulled(hours, Date.now(), records, bytes);
        if (page.has_more) {
          // A Mnemo's feed fills a page before it says has_more. An empty one that says it, with a new
          // watermark each time, kept a device asking 100 pages a run and a run 2 s after, for ever.
          if (page.data.length === 0 && (page.removed?.length ?? 0) === 0)
            throw new Error(
              `the change feed does not advance: after watermark ${JSON.stringify(watermark)} it answered ` +
                'has_more with an empty page; the pull stops here',
            );
          if (typeof page.watermark !== 'string' || seen.has(page.watermark))
            throw new Error(
              `the change feed does not advance: after watermark ${JSON.stringify(watermark)} it answered ` +
                `has_more with ${typeof page.watermark === 'string' ? `the watermark ${JSON.stringify(page.watermark)} again` : 'no watermark'}; the pull stops here`,
            );
          seen.add(page.watermark);
          limit = Math.min(pageSize, limit * 2);
        }
        return page;
      }
    };
    let watermark = remote.pullWatermark ?? 'start';
    let restarted = false;
    const seen = new Set([watermark]);
    for (;;) {
      const first = asked === 0;
      let page: RecordPage | null;
      try {
        page = await nextPage(watermark, seen);
      } catch (e) {
        // A remote Brain that does not know the pairing's watermark is not the one it synced with
        // (deleted and made again, or another Brain of that id): push and pull from the start, once.
        const unknownWatermark = e instanceof MnemoApiError && e.code === 'invalid_watermark';
        if (!unknownWatermark || !first || restarted || watermark === 'start') throw e;
        restarted = true;
        await sync.restart(t, brainId, remote.pairingId);
        await pushAndForget();
        watermark = 'start';
        seen.add(watermark);
        continue;
      }
      if (!page) {
        more = paused === null;
        break;
      }
      const applied = await sync.applyPulled(t, brainId, remote.pairingId, page, { pulledHours: hours });
      pulled += applied.pulled;
      noteForgets(applied);
      progressed = true;
      watermark = page.watermark ?? watermark;
      if (!page.has_more) break;
    }
    // The pull is through: what an older version skipped of the feed, this one may take (beginReread).
    let reread = more || paused !== null ? null : await sync.beginReread(t, brainId, remote.pairingId);
    const rereadSeen = new Set(reread === null ? [] : [reread]);
    while (reread !== null) {
      let page: RecordPage | null;
      try {
        page = await nextPage(reread, rereadSeen);
      } catch (e) {
        // The pull's own watermark is known there, so the Brain is the one it synced with; a place of
        // it that is not known any more is read from the start instead, once.
        const unknownWatermark = e instanceof MnemoApiError && e.code === 'invalid_watermark';
        if (!unknownWatermark || rereadSeen.has('start')) throw e;
        reread = 'start';
        rereadSeen.add(reread);
        continue;
      }
      if (!page) {
        more = paused === null;
        break;
      }
      pulled += (
        await sync.applyPulled(t, brainId, remote.pairingId, page, { reread: true, pulledHours: hours })
      ).pulled;
      progressed = true;
      reread = page.has_more ? (page.watermark ?? reread) : null;
    }
    await sync.finishRun(t, brainId, remote.pairingId, { error: null, catchingUp: more, warning });
    return outcome({ error: null, more, deadline: false, catchingUp: more });
  } catch (e) {
    // A request the deadline or the caller cut fails as the client saw it (an abort): the cut is why.
    const late = cut.signal.aborted && cut.signal.reason === overdue;
    const stopped = cut.signal.aborted && !late;
    const error = describe(late ? overdue : stopped ? runStopped : e, remote.remote, remote.remoteKey);
    // Cut by its server's stop (a restart in the middle of a long sync), a run that kept something is
    // catching up as at its deadline, not a failure to show until the next run ends. A run cut because
    // its Brain was paired again or unpaired writes nothing: its pairing is gone.
    const catchingUp = (late || stopped) && progressed;
    await sync.finishRun(t, brainId, remote.pairingId, { error, catchingUp, warning }).catch(() => {});
    return outcome({ error, more: false, deadline: late, catchingUp });
  } finally {
    clearTimeout(deadline);
    o.signal?.removeEventListener('abort', onAbort);
  }
}

/** The end of a run its caller cut (its server stopping), kept when the run's pairing is still in place. */
const runStopped = new MnemoApiError(0, {
  type: 'internal',
  code: 'run_stopped',
  message:
    'the run was stopped before its end (its server stopped); what it pushed, sent and pulled is kept, ' +
    'and the next run goes on from there',
});

/** The failure of a run that reached its deadline (`runMs`), reported as a limit's failure is. */
function deadlinePassed(ms: number): MnemoApiError {
  const took = ms >= 60_000 ? `${+(ms / 60_000).toFixed(1)} min` : `${+(ms / 1000).toFixed(1)} s`;
  return new MnemoApiError(0, {
    type: 'internal',
    code: 'run_deadline',
    message:
      `the run stopped at its deadline of ${took}; what it pushed, sent and pulled is kept, ` +
      'and the next run goes on from there',
  });
}

/**
 * The outcome of each Record of a push request, from the remote's answer: one of the four for every
 * id sent and for nothing else. Anything else is a malformed answer, which fails the run before the
 * push cursor moves, so the batch stays pending: a Record the answer misses is not counted as refused.
 */
function outcomesOf(sent: readonly RecordReplica[], result: ReplicateResult): Map<string, ReplicaOutcome> {
  const known = new Set<unknown>(['created', 'unchanged', 'forgotten', 'conflict']);
  const ids = new Set(sent.map((r) => r.id));
  const outcomes = new Map<string, ReplicaOutcome>();
  const data: unknown = (result as { data?: unknown } | null)?.data;
  let wrong = Array.isArray(data) ? 0 : 1;
  for (const d of Array.isArray(data) ? (data as unknown[]) : []) {
    const { id, outcome } = (d ?? {}) as { id?: unknown; outcome?: unknown };
    if (typeof id !== 'string' || !ids.has(id) || !known.has(outcome) || outcomes.has(id)) wrong += 1;
    else outcomes.set(id, outcome as ReplicaOutcome);
  }
  const missing = sent.filter((r) => !outcomes.has(r.id));
  if (wrong > 0 || missing.length > 0)
    throw new Error(
      `the answer to a push of ${sent.length} Records is malformed (${missing.length} without an outcome` +
        `${wrong > 0 ? `, ${wrong} entries that are not an outcome of an id sent` : ''}); the batch stays pending`,
    );
  return outcomes;
}

/** The newer content fields (newerContentFields) a Record carries, as `kind.field`. */
function newerFieldsOf(r: RecordReplica): string[] {
  const content = r.content as Record<string, unknown>;
  return (newerContentFields[r.content.kind] ?? [])
    .filter((f) => content[f] !== undefined)
    .map((f) => `${r.content.kind}.${f}`);
}

/** `r` without the content fields named in `fields` (`kind.field`); `r` itself when it has none of them. */
function withoutFields(r: RecordReplica, fields: ReadonlySet<string>): RecordReplica {
  const drop = newerFieldsOf(r).filter((f) => fields.has(f));
  if (drop.length === 0) return r;
  const content = { ...(r.content as Record<string, unknown>) };
  for (const f of drop) delete content[f.slice(r.content.kind.length + 1)];
  return { ...r, content: content as RecordReplica['content'] };
}

/**
 * The newer content fields (`kind.field`) a refused push was refused for, when those are all it was
 * refused for: an older remote's replication route takes no content field it does not know, and says
 * so with the spec's validation error, `400 invalid_request_body`, one clause per problem joined by
 * "; " (at most five), each "records[i].content.<field>: unknown field". Null when the refusal names
 * anything else, or a field that is no newer field of the Record it names.
 */
function refusedNewerFields(e: unknown, sent: readonly RecordReplica[]): string[] | null {
  if (!(e instanceof MnemoApiError) || e.status !== 400 || e.code !== 'invalid_request_body') return null;
  const fields = new Set<string>();
  for (const clause of e.message.split('; ')) {
    const m = /^records\[(\d+)\]\.content\.([A-Za-z_]+): unknown field$/.exec(clause);
    const r = m ? sent[Number(m[1])] : undefined;
    const field = r ? `${r.content.kind}.${m![2]}` : '';
    if (!r || !newerFieldsOf(r).includes(field)) return null;
    fields.add(field);
  }
  return fields.size > 0 ? [...fields] : null;
}

/** Bytes of JSON per push request at most (a Record alone may be larger; the route takes 32 MiB). */
const requestBytes = 8 * 1024 * 1024;

/** Splits a batch so that large documents do not make one request too large for the remote. */
function* bySize(replicas: readonly RecordReplica[]): Generator<RecordReplica[]> {
  let part: RecordReplica[] = [];
  let bytes = 0;
  for (const r of replicas) {
    const size = Buffer.byteLength(JSON.stringify(r));
    if (part.length > 0 && bytes + size > requestBytes) {
      yield part;
      part = [];
      bytes = 0;
    }
    part.push(r);
    bytes += size;
  }
  if (part.length > 0) yield part;
}

/**
 * The remote Brain, made when missing, with this Brain's self (its type and name; the Brain's own name
 * stays here), and given that self when it has none (a hub Brain made before sync carried it, or by
 * hand): the hub resolves whose each Record's words are by it (docs/sync.md, "The self"). This Brain,
 * when it has none, takes the remote's (`take`: a second device paired with a hub Brain that has one,
 * or a self set on the hub). Where both have one and they differ, each keeps its own: what the run
 * found is its warning (null: nothing to say).
 */
async function ensureRemoteBrain(
  client: MnemoClient,
  remote: Pick<RemoteOf, 'remote' | 'remoteBrain' | 'remoteKey' | 'self'>,
  call: { signal?: AbortSignal },
  take: (self: SelfEntity) => Promise<boolean>,
): Promise<string | null> {
  const { remoteBrain: brainId, self } = remote;
  let there: Brain;
  try {
    there = await client.getBrain(brainId, call);
  } catch (e) {
    if (!(e instanceof MnemoApiError) || e.code !== 'brain_not_found') throw e;
    try {
      await client.createBrain({ id: brainId, ...(self ? { self } : {}) }, call);
      return null;
    } catch (created) {
      if (!(created instanceof MnemoApiError) || created.code !== 'brain_exists') throw created;
      // Made meanwhile (another device's first run): as found.
      there = await client.getBrain(brainId, call);
    }
  }
  // A remote's answer is not trusted to have the shape: a self it does not give is none.
  const theirs = selfOfAnswer(there);
  if (self === null) {
    // Set here meanwhile (the person, in the app): kept, and compared with the hub's at the next run.
    if (theirs !== null) await take(theirs);
    return null;
  }
  if (theirs === null) {
    try {
      await client.updateBrain(brainId, { self }, call);
      return null;
    } catch (e) {
      // Refused (a hosted Mnemo older than updateBrain answers 405): the Records travel all the same.
      // What did not answer (the network, a failing remote, the run's deadline) fails the run, as any
      // of its requests would.
      const refused = e instanceof MnemoApiError && e.status >= 400 && e.status < 500 && e.status !== 429;
      if (!refused) throw e;
      return (
        `the hosted Brain ${JSON.stringify(brainId)} has no self, and giving it this Brain's was refused ` +
        `(POST /v1/brains/${brainId} answered ${e.status} ${oneLine(withoutKey(e.code, remote.remoteKey), 100)}` +
        `${e.status === 405 ? ': a hosted Mnemo older than this device' : ''}), so it cannot tell whose words ` +
        'are whose; the next run tries again'
      );
    }
  }
  if (theirs.type === self.type && theirs.name === self.name) return null;
  const shown = (s: SelfEntity) =>
    `${JSON.stringify(oneLine(withoutKey(s.name, remote.remoteKey), 200))} (${oneLine(s.type, 20)})`;
  return (
    `the hosted Brain ${JSON.stringify(brainId)}'s self is ${shown(theirs)}, this Brain's ${shown(self)}; ` +
    'sync changes neither (it gives a self only to a side that has none), so the two sides may tell whose words are whose apart ' +
    `differently: change one of them (POST /v1/brains/${brainId} with {"self": …}, here or on the hosted Mnemo)`
  );
}

/** The self a remote's Brain answer gives, when it gives one of the contract's shape; else null. */
function selfOfAnswer(b: unknown): SelfEntity | null {
  const s = (b as { self?: unknown } | null)?.self;
  const parsed = SelfEntity.safeParse(s);
  return parsed.success ? parsed.data : null;
}

/**
 * The base URL a redirect (limited-fetch's `remote_redirected`) of a request to `base` points to: its
 * Location with the request's path under the base taken off its end (`https://new.example/v1` for a
 * request to `/v1/brains/ana` sent to `/v1/brains/ana` there); null when its path does not end so.
 */
export function movedBase(base: string, e: MnemoApiError): string | null {
  const { location, request_url: requestUrl } = e.body;
  if (typeof location !== 'string' || typeof requestUrl !== 'string') return null;
  if (!URL.canParse(location) || !URL.canParse(requestUrl) || !URL.canParse(base)) return null;
  const basePath = new URL(base).pathname.replace(/\/$/, '');
  const sent = new URL(requestUrl).pathname;
  if (!sent.startsWith(basePath)) return null;
  const rest = sent.slice(basePath.length);
  const to = new URL(location);
  if (rest === '' || !to.pathname.endsWith(rest)) return null;
  return to.origin + to.pathname.slice(0, -rest.length);
}

/** A store_unavailable message without the advice to a writer of /v1 that ends it. */
function beforeAdvice(message: string): string {
  const at = message.indexOf(writeKeptAdvice);
  const situation = at < 0 ? message : message.slice(0, at).trimEnd();
  return situation.endsWith('.') ? situation.slice(0, -1) : situation;
}

/**
 * A run's error as kept in the status and logged: the key never in it, whatever the remote answered,
 * and the remote's own text (its error code and message, a watermark) on one line and bounded.
 */
function describe(e: unknown, remote: string, key: string): string {
  const own = (text: string, max: number) => oneLine(withoutKey(text, key), max);
  let what =
    e instanceof MnemoApiError ? `${own(e.code, 100)}: ${own(e.message, 500)}` : own(errorMessage(e), 600);
  // The remote's advice to a writer of /v1 (resend rememberRecord with the same Idempotency-Key) is
  // not the person's to follow: sync resends by itself, under its own keys.
  if (e instanceof MnemoApiError && e.code === 'store_unavailable')
    what = `${own(e.code, 100)}: ${own(beforeAdvice(e.message), 500)}; sync tries again by itself, and sends nothing twice`;
  if (e instanceof MnemoApiError && e.code === 'remote_redirected') {
    const moved = movedBase(remote, e);
    what += moved
      ? `; if the hosted Mnemo moved there, pair again with ${own(moved, 300)}`
      : '; check the address of the pairing';
  }
  return `${own(remote, 300)}: ${what}`;
}

/**
 * `text` with `key` replaced by `[remote key]`, as given and as a header holds it (trimmed: a text that
 * quotes the header, fetch's own, has it so), and its secret segment alone too: with the prefix, which
 * is no secret (`sk_live_home_`), that segment is the whole key.
 */
export function withoutKey(text: string, key: string): string {
  const trimmed = key.trim();
  const secret = parseApiKey(trimmed)?.secret;
  let out = text;
  for (const part of [key, trimmed, ...(secret !== undefined && secret.length >= 8 ? [secret] : [])])
    if (part.length > 0) out = out.split(part).join('[remote key]');
  return out;
}

/** Characters that would break a log line or a terminal: controls, formats (bidi), separators, halves. */
const unsafe = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/**
 * Text from elsewhere, safe to log and to show on a terminal: every control or format character (a
 * newline, an ANSI escape, a bidi override) written as `\u{hex}`, and at most `max` characters kept.
 */
export function oneLine(text: string, max: number): string {
  let out = '';
  for (const c of text) {
    if (out.length >= max) return `${out}… (${text.length} characters)`;
    out += unsafe.test(c) ? `\\u{${c.codePointAt(0)!.toString(16)}}` : c;
  }
  return out;
}
