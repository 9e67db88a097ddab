import type {
  Citation,
  Context,
  ContextProcessing,
  ContextReady,
  ContextRequest,
  Memory,
  SelfEntity,
  Trace,
} from '../contract/index.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { newId } from '../ids.ts';
import type { Deployment, ContextOptions } from '../types.ts';
import { readTimeMs, type Eligibility, type Lane } from '../retrieve/lane.ts';
import {
  retrieve,
  type RetrievalIndexing,
  type RetrievalIndexSet,
  type RetrieveInput,
} from '../retrieve/retrieve.ts';
import { matchedTerms, pointsOnlyBack, queryTerms } from '../core/retrieve/query-terms.ts';
import { citationsByMemory, toMemory } from '../core/shared/memory-shape.ts';
import { statusAt, timesOf } from '../core/temporal/memory-time.ts';
import type { BrainUnitOfWork, ContextReadTime, JobQueue, QueryRewriter } from '../ports/index.ts';
import type { WatermarkCodec } from '../watermark.ts';
import { createCostLedger } from '../core/context/cost-ledger.ts';
import { findConflicts, visibleRecords } from './find-conflicts.ts';
import { fitBudget, type Fitted } from '../core/context/fit-budget.ts';
import { questionsAfterAnswers } from '../core/context/questions-last.ts';
import { theQuestionAsked } from '../core/context/question-asked.ts';
import { asksPresentState, latestFirstInThreads } from '../core/context/latest-first.ts';
import { asksFormer } from '../core/retrieve/held-span.ts';
import { holdsOnlyNames, namesAsked } from '../core/context/names-only.ts';
import {
  changeSpan,
  changeTopicTerms,
  type ChangeSpan,
  type ChangeTopic,
} from '../core/retrieve/change-question.ts';
import { recordChanges, type RecordChanges } from '../core/context/changes.ts';
import { selfFirstNameOf } from '../core/derive/resolve-owner.ts';
import { loadTokenizer } from '../core/shared/count-tokens.ts';
import { selectEvidence } from './select-evidence.ts';
import { withinBulkShare } from '../core/context/bulk-share.ts';
import type { EvidencePassage } from '../core/context/evidence.ts';
import type { TraceStore } from '../ports/trace-store.ts';
import { recordIdsOf } from './trace-buffer.ts';
import { fusionMethod, type Fused, type LaneResult } from '../retrieve/fuse.ts';
import type { Reranker } from '../retrieve/reranker.ts';

/**
 * Lanes that find a Record by what the query names: its words, a person, a topic, a slot, the tasks
 * it names, or the changes it asks for.
 */
const namingLanes = new Set(['lexical', 'entity', 'topic', 'slot', 'tasks', 'changes']);
/** Lanes that find a Record by meaning alone, or as the neighbour of one so found. */
const meaningLanes = new Set(['semantic', 'prompt']);
/**
 * Lanes that read what a question asks beyond its words: a slot, a time, a topic, the tasks or the
 * changes it asks for. What they find answers it their way, whatever words the Brain says.
 */
const askingLanes = new Set(['slot', 'time', 'when', 'topic', 'tasks', 'changes']);

const privateNamesOnly = (visibility: EvidencePassage['visibility']) =>
  `${visibility}: names whom the question asks of, not what it asks, and a Record that is not shareable is served only for what the question names`;
const privateByMeaning = (visibility: EvidencePassage['visibility']) =>
  `${visibility}: found by meaning alone, and a Record that is not shareable is served only for what the question names`;

const notAChange =
  'not a change: a question asking what changed is answered by the changes of its span and what it names';

/** What a Context reads of its Brain: the step its watermark names, Records, Memories, evidence. */

export type ContextUnit = Pick<
  BrainUnitOfWork,
  'sequence' | 'records' | 'memories' | 'context' | 'speakersFirstNamed'
>;

export interface ContextDeps {
  /** What retrieval's lanes search: a Storage's indexes. */
  indexes: RetrievalIndexSet;
  /** One consistent snapshot of a Brain per call (Storage.read): what the Context reads besides. */
  units: { read<T>(brainUid: string, work: (u: ContextUnit) => Promise<T>): Promise<T> };
  /** Derivation's queue: a watermark waits for the Records up to its step. */
  jobs: Pick<JobQueue, 'oldestPendingSeq'>;
  codec: WatermarkCodec;
  deployment: Deployment;
  lanes: Lane[];
  /** Reorders the best fused candidates; null or absent keeps the fusion's order. */
  reranker?: Reranker | null;
  /** Brings the indexes up to date and holds the embedder; null runs the lanes without vectors. */
  indexer?: RetrievalIndexing | null;
  /** Rewrites a thorough question into search phrasings; null or absent: the rewrite lane does not run. */
  rewriter?: QueryRewriter | null;
  traces: TraceStore;
  now: () => Date;
}

export interface ContextBrain {
  uid: string;
  id: string;
  self: SelfEntity | null;
}

export const defaultBudgetTokens = 4000;
// Enough distinct Records for a top-25 (the LoCoMo benchmark's deepest cut) when the budget allows.
const maxEvidenceRecords = 40;
// The changes a change question reads of its span at most ("What changed this week?"), newest first:
// each is a block, and the rest of the evidence follows them within the budget.
const maxChanges = 24;
// First person, singular or plural: "our dog" needs to know who "we" are as much as "my dog" does.
const possessive = /\b(my|mine|myself|our|ours|ourselves)\b/iu;

/**
 * The purpose of a Context that leaves the device: an agent sending it to a model or service
 * elsewhere. Only `shareable` Records are its evidence; a `local_only` one stays on the device and a
 * `redacted_summary` one leaves only redacted (as sync sends it), which a quote cannot be.
 */
export const offDevicePurpose = 'off_device';
const offDeviceRule = 'purpose off_device: only shareable Records are evidence';

/**
 * Whether an off-device Context that found no evidence missed only because of its purpose: the lanes
 * that need no model call, run again over every Record the request may otherwise see, find one the
 * first run did not (so not shareable). Then it abstains `out_of_policy`, not `no_evidence`: the Brain
 * knows, and keeps it on the device. The vector lanes and the rewrite are left out so the answer costs
 * no second model call; what only they would find is a `no_evidence`.
 */
async function withheldFromOffDevice(input: RetrieveInput, found: readonly Fused[]): Promise<boolean> {
  const seen = new Set(found.map((f) => f.recordId));
  const again = await retrieve({
    ...input,
    lanes: input.lanes.filter((l) => !l.needsQueryVector),
    indexer: null,
    reranker: null,
    rewriter: null,
    eligibility: { ...input.eligibility, shareableOnly: undefined },
    emit: () => {},
  });
  return again.fused.some((f) => !seen.has(f.recordId));
}

/**
 * Assembles one Context: cited evidence within a token budget, conflicts, unknowns and abstention,
 * asserting nothing of its own (fast mode composes no answer; thorough reuses it for now). Every
 * request, answered or not, leaves a Trace.
 */
export async function assembleContext(
  deps: ContextDeps,
  brain: ContextBrain,
  body: ContextRequest,
  opts: ContextOptions,
  /** Given when the Context's id was announced before assembly (a thorough 202). */
  id: string = newId('ctx'),
): Promise<Context> {
  const started = performance.now();
  const { codec } = deps;
  const forgetsAtStart = deps.traces.forgets();
  const mode = body.mode ?? 'fast';
  const requested = body.budget?.tokens ?? defaultBudgetTokens;
  const emit = (stage: string, data: Record<string, unknown> = {}) =>
    opts.onEvent?.({ event: 'stage', data: { stage, ...data } });
  const ledger = createCostLedger();
  const current = async () =>
    codec.encode(brain.uid, await deps.units.read(brain.uid, (u) => u.sequence.current()));
  const baseTrace = (): Trace => ({
    id,
    object: 'trace',
    brain_id: brain.id,
    request_id: opts.requestId,
    created_at: deps.now().toISOString(),
    query: body.query,
    mode,
    purpose: body.purpose ?? null,
    status: 'ready',
    watermark: null,
    request: body as Record<string, unknown>,
    lanes: [],
    fusion: { method: fusionMethod, results: [] },
    budget: { requested_tokens: requested, estimated_tokens: 0, truncated: false, cut: [] },
    citations: [],
    abstained: null,
    timings_ms: {},
    cost: ledger.snapshot(),
    error: null,
  });

  if (opts.watermark !== undefined) {
    const seq = codec.decode(opts.watermark, brain.uid, 'Brain-Watermark');
    const oldest = await deps.jobs.oldestPendingSeq(brain.uid);
    if (oldest !== null && oldest <= seq) {
      const processing: ContextProcessing = {
        id,
        object: 'context',
        status: 'processing',
        query: body.query,
        watermark: await current(),
        citations: [],
        unknowns: [body.query],
        budget: { estimated_tokens: 0, truncated: false },
      };
      await deps.traces.add(brain.uid, {
        ...baseTrace(),
        status: 'processing',
        watermark: processing.watermark,
        timings_ms: { total: performance.now() - started },
      });
      return processing;
    }
  }
  const watermark = await current();
  const asOfMs = body.as_of ? Date.parse(body.as_of) : undefined;
  const base = {
    id,
    object: 'context' as const,
    status: 'ready' as const,
    query: body.query,
    watermark,
  };
  // Stages budget.ms left out: the Context is the best found before the deadline, and says so.
  let skippedStages: string[] = [];
  const finish = async (ctx: ContextReady, trace: Partial<Trace>): Promise<ContextReady> => {
    const total = performance.now() - started;
    if (body.budget?.ms !== undefined) {
      ctx.budget.ms = body.budget.ms;
      ctx.budget.ms_exceeded = total > body.budget.ms || skippedStages.length > 0;
    }
    if (body.schema !== undefined) {
      ctx.structured = {
        available: false,
        reason: 'this version composes no structured output; use text and citations',
      };
    }
    ctx.cost = ledger.snapshot();
    const full: Trace = {
      ...baseTrace(),
      ...trace,
      watermark,
      citations: ctx.citations,
      abstained: ctx.abstained?.reason ?? null,
      cost: ctx.cost,
      timings_ms: { ...(trace.timings_ms ?? {}), total },
    };
    // A Record forgotten while this assembly ran took its traces with it; this one must not bring its
    // text back. (The Context itself is answered: the request began before the forget.) A forget is
    // counted once its Records are gone from the store (afterForget), so a check begun after the count
    // is read sees them gone. The count is read again after each check, and the add or remove follows
    // the last reading with no await between them: a forget counted during a check is checked for
    // anew, and one called after the add or remove is applied after it (the TraceStore applies calls
    // in the order they are made) and drops this Trace itself.
    let seen = forgetsAtStart;
    let gone = false;
    while (deps.traces.forgets() !== seen) {
      seen = deps.traces.forgets();
      gone = await namesForgotten(deps, brain.uid, full);
    }
    await (gone ? deps.traces.remove(brain.uid, id) : deps.traces.add(brain.uid, full));
    emit('done');
    // The final `context` frame is the HTTP layer's to send (once); the engine reports stages only.
    return ctx;
  };
  const include = new Set(body.include ?? []);
  /** No answer: abstained for `reason`, or (null) evidence found that the budget could not hold. */
  const miss = (
    reason: 'no_evidence' | 'no_attribution' | 'out_of_policy' | null,
    unknown: string,
    truncated = false,
  ): ContextReady => ({
    ...base,
    text: null,
    citations: [],
    conflicts: [],
    unknowns: [unknown],
    ...(reason ? { abstained: { reason } } : {}),
    budget: { requested_tokens: requested, estimated_tokens: 0, truncated },
    cost: ledger.snapshot(),
    ...(include.has('memories') ? { memories: [] } : {}),
  });

  if (brain.self === null && possessive.test(body.query)) {
    return finish(miss('no_attribution', `ownership of: ${body.query}`), {});
  }
  // "What was it about?", "Tell me more about that": what "it" is lies in the asker's conversation, which
  // a request does not carry, and the words left ("about", "that") matched most messages. Answering with
  // the Brain's latest thread would guess: the latest Record may be a mail or a note, not the talk the
  // asker is in. So the miss says the question could not be answered as asked; the asker, who knows
  // what "it" is, can name it.
  if (pointsOnlyBack(body.query)) {
    const reason = 'the question names nothing but something said before it';
    return finish(miss('no_evidence', body.query), {
      lanes: [{ name: `retrieval (not run: ${reason})`, ms: 0, candidates: [] }],
    });
  }

  emit('retrieve');
  const offDevice = body.purpose === offDevicePurpose;
  const eligibility: Eligibility = {
    brainUid: brain.uid,
    excludeLocalOnly: deps.deployment === 'hosted',
    shareableOnly: offDevice || undefined,
    sinceMs: body.filter?.since ? Date.parse(body.filter.since) : undefined,
    untilMs: body.filter?.until ? Date.parse(body.filter.until) : undefined,
    sources: body.filter?.sources,
    asOfMs,
  };
  const terms = queryTerms(body.query);
  const retrieveInput = {
    lanes: deps.lanes,
    indexes: deps.indexes,
    reranker: deps.reranker ?? null,
    rewriter: deps.rewriter ?? null,
    indexer: deps.indexer ?? null,
    query: body.query,
    terms,
    eligibility,
    ledger,
    mode,
    deadline: body.budget?.ms !== undefined ? started + body.budget.ms : undefined,
    emit,
  };
  const retrieved = await retrieve(retrieveInput);
  const { laneResults, fused, terms: searched } = retrieved;
  skippedStages = retrieved.skipped;
  const tRetrieve = performance.now() - started;

  emit('assemble');
  // Its first load takes half a second: here, where the answer is known to need it, and outside the read.
  await loadTokenizer();
  // What was current is read at as_of, or at the end of a filter.until window in the past: a Memory
  // superseded only by what came after the window was still current within it, and is evidence there.
  // The engine's clock, read once: every Memory of this Context is read at the same instant.
  const nowMs = deps.now().getTime();
  const readMs = readTimeMs(eligibility, nowMs);
  const at: ContextReadTime = { scope: eligibility, readMs, nowMs };
  // The window of time the query names ("in September"), in which what held then is evidence too.
  // A former value asked for with no time named ("What was my old job?") asks for any time before now.
  const intent = retrieved.timeIntent;
  const asked =
    intent?.fromMs !== undefined && intent.toMs !== undefined
      ? { fromMs: intent.fromMs, toMs: intent.toMs }
      : asksFormer(body.query)
        ? { fromMs: 0, toMs: readMs ?? nowMs }
        : undefined;
  // A question asking what changed in a span ("What changed this week?") is led by the changes made
  // then (core/context/changes.ts), of what it names when it names something ("… about my dentist").
  const span = changeSpan(body.query, intent, readMs ?? nowMs);
  const topic = span
    ? changeTopicTerms(terms, intent?.timeWords ?? [], brain.self?.name ?? null, body.query)
    : [];
  /** Whether the question named a passage: its words, a person, a topic, a slot or a task found it. */
  const namedIt = (e: EvidencePassage) =>
    e.lanes.some((l) => namingLanes.has(l)) ||
    matchedTerms(`${e.title ?? ''}\n${e.passage}`, searched).length > 0;
  // A question asking a fact of someone that the Brain holds ("When is Marko's birthday?", the slot lane
  // finding its holder): the names it writes, which a private Record holding only them names, without
  // what is asked. Where no slot holds the fact, a private Record may be the answer in its own words
  // ("Marko was born on 13 March 1990"): then none is left out.
  // The slot lane finds a holder only for a question that asks a slot: it read the question already.
  const holders = laneResults.find((r) => r.lane === 'slot')?.candidates ?? [];
  const namesOfFact =
    holders.length > 0
      ? namesAsked(
          body.query,
          searched,
          holders.flatMap((c) => c.subjects ?? []),
        )
      : null;
  const namesOnly = (e: EvidencePassage) =>
    namesOfFact !== null &&
    !e.lanes.includes('slot') &&
    holdsOnlyNames(`${e.title ?? ''}\n${e.passage}`, searched, namesOfFact);
  /** Found by no lane that names, and holding none of the question's words: the nearest by meaning. */
  const foundByMeaningAlone = (e: EvidencePassage) =>
    e.lanes.every((l) => meaningLanes.has(l)) && !namedIt(e);
  // The question's words no Record says, read before the Brain's state is (the lexical index is not
  // to be read inside it).
  const neverSaid = await wordsNoRecordSays(deps.indexes.lexical, brain.uid, searched, laneResults);
  // The evidence, its conflicts and its Memories, read from one state of the Brain.
  const { dropped, fitted, conflicts, conflicted, memories, byMeaningAlone, unsaid, changed } =
    await deps.units.read(brain.uid, async (u) => {
      const changed = span ? await changesIn(u, span, at, topic) : null;
      const lead = new Map(
        (changed?.records ?? []).map((c) => [
          c.recordId,
          queryTerms(c.shown.map((x) => x.to ?? x.from ?? '').join('\n')),
        ]),
      );
      // The changes first, in their order, each also where a lane found it.
      const candidates: Fused[] =
        lead.size === 0
          ? fused
          : [
              ...(changed?.records ?? []).map((c, i, all) => ({
                recordId: c.recordId,
                score: all.length - i,
                lanes: ['changes', ...(fused.find((f) => f.recordId === c.recordId)?.lanes ?? [])],
              })),
              ...fused.filter((f) => !lead.has(f.recordId)),
            ];
      const selected = await selectEvidence(
        u.context,
        candidates,
        searched,
        at,
        maxEvidenceRecords,
        asked,
        lead,
      );
      const shown = new Map((changed?.records ?? []).map((c) => [c.recordId, c.shown]));
      for (const e of selected.evidence) {
        const changes = shown.get(e.recordId);
        if (changes) e.changes = changes;
      }
      // Whose words a passage is, by derivation's rule: "Maya" is the self "Maya Costa" unless a "Maya
      // Silva" speaks in the Brain too. The store is asked only when a passage's speaker is that first
      // name alone, and then reads the messages written since it was last asked.
      const who = {
        self: brain.self,
        selfFirstName: await selfFirstNameOf(
          brain.self,
          selected.evidence.map((e) => e.speaker),
          (first) => u.speakersFirstNamed(first),
        ),
      };
      const ownQuestion = theQuestionAsked(selected.evidence, body.query, who);
      // A question about how things stand now reads a conversation's latest sitting first: a plan
      // said in an earlier one may have changed since.
      const leading = ownQuestion.evidence.filter((e) => e.changes !== undefined);
      // Once changes lead, the rest is what the question names ("… with Marko"): the span's other
      // Records are what happened then, not what changed, and would fill the budget with chatter.
      const unchanged = ownQuestion.evidence.filter((e) => e.changes === undefined);
      const notChanges = leading.length > 0 ? unchanged.filter((e) => !namedIt(e)) : [];
      const rest = notChanges.length > 0 ? unchanged.filter((e) => !notChanges.includes(e)) : unchanged;
      const ranked = asksPresentState(body.query) ? latestFirstInThreads(rest, who) : rest;
      // A Record its writer kept on this device, or let leave only redacted, is served for what the
      // question names, not for resembling it: "Who is my dentist?" does not bring the person's
      // allergy or therapy along to an agent because they sit near a dentist by meaning.
      // Nor for naming whom a fact is asked of: a diary line naming Marko, for his birthday.
      const unasked = ranked.filter((e) => e.visibility !== 'shareable' && foundByMeaningAlone(e));
      const namedOnly = ranked.filter(
        (e) => e.visibility !== 'shareable' && !unasked.includes(e) && namesOnly(e),
      );
      const notAsked = [...unasked, ...namedOnly];
      const inOrder = [
        ...leading,
        ...questionsAfterAnswers(
          notAsked.length > 0 ? ranked.filter((e) => !notAsked.includes(e)) : ranked,
          who,
        ),
      ];
      // The person's question asked again, where a reply answers it: after everything else.
      // Bulk mail to a small share of the blocks, where Records not sent to a list share the question's words.
      const bulkShared = withinBulkShare(
        [
          ...inOrder.filter((e) => !ownQuestion.last.has(e)),
          ...inOrder.filter((e) => ownQuestion.last.has(e)),
        ],
        terms,
        (e) => matchedTerms(`${e.title ?? ''}\n${e.subject ?? ''}\n${e.wide}`, searched).length > 0,
      );
      const ordered = bulkShared.kept;
      // Evidence no lane found by the question's words, a person, a time or a slot, and whose text holds
      // none of its words: the nearest by meaning, which may answer nothing ("Who is my sister?" where no
      // sister is known). Served, but said so, and the question is among the unknowns.
      const byMeaningAlone = ordered.length > 0 && ordered.every(foundByMeaningAlone);
      // "What is my blood type?" where no Record says "blood": what shares its other words ("Thinking
      // with Type", the messages around it) is served, but answers nothing the Brain was told of it.
      const unsaid = byMeaningAlone ? [] : neverSaid;
      const fitted = fitBudget(ordered, requested, who, undefined, byMeaningAlone, unsaid);
      const servedIds = [...new Set(fitted.blocks.flatMap((b) => b.evidence.memoryIds))];
      const found = await findConflicts(u, servedIds, at);
      const memories =
        include.has('memories') && fitted.blocks.length > 0
          ? await memoriesShown(u, servedIds, fitted, at)
          : undefined;
      const held = [
        ...notChanges.map((e) => ({ recordId: e.recordId, reason: notAChange })),
        ...unasked.map((e) => ({ recordId: e.recordId, reason: privateByMeaning(e.visibility) })),
        ...namedOnly.map((e) => ({ recordId: e.recordId, reason: privateNamesOnly(e.visibility) })),
        ...bulkShared.held,
      ];
      const dropped = [...selected.dropped, ...ownQuestion.dropped, ...held];
      return { dropped, fitted, ...found, memories, byMeaningAlone, unsaid, changed };
    });
  ledger.charge('processing', fitted.estimatedTokens / 1000);
  const citations: Citation[] = fitted.blocks.map((b) => ({
    record_id: b.evidence.recordId,
    quote: b.quote,
  }));
  const top = fitted.blocks[0]?.evidence;
  // The conflict the top evidence holds is what the query asks where the query names it: its words,
  // a person or a topic it names found that evidence, or found nothing else. "When is my wedding?" was
  // refused as "the sources disagree" over two disputed birthdays that only a date's likeness ranked
  // first, above the note of the wedding its topic found.
  const aboutConflict =
    top !== undefined &&
    top.memoryIds.some((m) => conflicted.has(m)) &&
    (namedIt(top) || !fitted.blocks.some((b) => namedIt(b.evidence)));

  const trace: Partial<Trace> = {
    lanes: (changed ? [changesLane(changed, span!)] : [])
      .concat(
        laneResults.map((r) => ({
          name: r.lane,
          ms: r.ms,
          candidates: r.candidates.map((c, i) => ({
            record_id: c.recordId,
            memory_id: null,
            rank: i + 1,
            score: c.score,
            reason: c.reason,
          })),
        })),
      )
      .concat(
        retrieved.skipped.map((name) => ({
          name: `${name} (skipped: budget.ms ran out)`,
          ms: 0,
          candidates: [],
        })),
        retrieved.unavailable.map((u) => ({
          name: `${u.lane} (not run: ${u.reason})`,
          ms: 0,
          candidates: [],
        })),
      ),
    fusion: {
      method: offDevice ? `${retrieved.method}; ${offDeviceRule}` : retrieved.method,
      results: fused.map((f) => ({
        record_id: f.recordId,
        score: f.score,
        rerank_score: f.rerankScore ?? null,
        lanes: f.lanes,
      })),
    },
    budget: {
      requested_tokens: requested,
      estimated_tokens: fitted.estimatedTokens,
      truncated: fitted.truncated,
      cut: fitted.cut,
    },
    dropped: dropped.map((d) => ({ record_id: d.recordId, reason: d.reason })),
    timings_ms: {
      ...retrieved.timings,
      retrieve: tRetrieve,
      assemble: performance.now() - started - tRetrieve,
    },
  };
  // Evidence that a budget too small to hold any of it cut is no miss of the Brain's: the Context says
  // it was truncated, and does not abstain as if nothing were known.
  if (fitted.blocks.length === 0) {
    const withheld = offDevice && !fitted.truncated && (await withheldFromOffDevice(retrieveInput, fused));
    const reason = fitted.truncated ? null : withheld ? 'out_of_policy' : 'no_evidence';
    return finish(miss(reason, body.query, fitted.truncated), trace);
  }

  const ctx: ContextReady = {
    ...base,
    text: fitted.text,
    citations,
    conflicts,
    unknowns: aboutConflict || byMeaningAlone || unsaid.length > 0 ? [body.query] : [],
    ...(aboutConflict ? { abstained: { reason: 'conflicting_evidence' as const } } : {}),
    budget: {
      requested_tokens: requested,
      estimated_tokens: fitted.estimatedTokens,
      truncated: fitted.truncated,
    },
    cost: ledger.snapshot(),
  };
  if (memories !== undefined) ctx.memories = memories;
  if (include.has('explain')) {
    ctx.explain = {
      terms: searched,
      lanes: (changed
        ? [{ name: 'changes', candidates: changed.records.length, ms: changed.ms }]
        : []
      ).concat(laneResults.map((r) => ({ name: r.lane, candidates: r.candidates.length, ms: r.ms }))),
      fusion: retrieved.method,
      expansion: retrieved.expansion,
      skipped: retrieved.skipped,
      dropped: dropped.map((d) => ({ record_id: d.recordId, reason: d.reason })),
      evidence: fitted.blocks.map((b) => ({
        record_id: b.evidence.recordId,
        lanes: b.evidence.lanes,
        score: b.evidence.score,
        rerank_score: b.evidence.rerankScore,
      })),
    };
  }
  return finish(ctx, trace);
}

/** The changes of a change question's span, and how long reading them took. */
interface ChangesRead {
  records: RecordChanges[];
  ms: number;
}

/** What changed in the span (ContextReads.changes), a block per Record that made it (recordChanges). */
async function changesIn(
  u: ContextUnit,
  span: ChangeSpan,
  at: ContextReadTime,
  topic: readonly ChangeTopic[],
): Promise<ChangesRead> {
  const started = performance.now();
  const records = recordChanges(await u.context.changes(span, at, maxChanges), topic);
  return { records, ms: performance.now() - started };
}

/**
 * The Trace's lane of a change question: the Records that made the span's changes, in the order they
 * lead the Context, each with the version it made first and what it did. The reasons name no words of
 * a Record: a change shows the value before, which another Record said.
 */
function changesLane(changed: ChangesRead, span: ChangeSpan): Trace['lanes'][number] {
  return {
    name: 'changes',
    ms: changed.ms,
    candidates: changed.records.map((c, i) => ({
      record_id: c.recordId,
      memory_id: c.memoryIds[0] ?? null,
      rank: i + 1,
      score: changed.records.length - i,
      reason: `${[...new Set(c.shown.map((x) => x.how))].join(', ')} ${span.label} (${c.shown[0]!.on})${
        c.memoryIds.length > 1 ? `; also ${c.memoryIds.slice(1).join(', ')}` : ''
      }`,
    })),
  };
}

/**
 * The Memories the fitted evidence serves, as include=memories shows them, most relevant first: each
 * citing only the Records this request may see (as findConflicts counts values; citations a filter,
 * as_of or hosted local_only excludes are left out, not a reason to drop it), and only those whose every
 * such citation is quoted within the Context.
 */
async function memoriesShown(
  u: ContextUnit,
  servedIds: string[],
  fitted: Fitted,
  at: ContextReadTime,
): Promise<Memory[]> {
  const inWindow = new Map(fitted.blocks.map((b) => [b.evidence.recordId, b.quote]));
  // In the order of the evidence that serves them, best first, as the text and citations are: a store
  // reads them back in its own order.
  const rank = new Map(servedIds.map((id, i) => [id, i]));
  const rows = (await u.context.served(servedIds, at)).sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
  const cites = citationsByMemory(
    await u.memories.citations(
      rows.map((r) => r.id),
      { shareableOnly: false },
    ),
  );
  const memories = rows.map((r) => toMemory(r, statusAt(timesOf(r), at.nowMs), cites.get(r.id) ?? []));
  const visible = await visibleRecords(
    u.context,
    memories.flatMap((m) => m.citations.map((c) => c.record_id)),
    at.scope,
  );
  return memories
    .map((m) => ({ ...m, citations: m.citations.filter((c) => visible.has(c.record_id)) }))
    .filter(
      (m) =>
        m.citations.length > 0 &&
        m.citations.every((c) => inWindow.get(c.record_id)?.includes(c.quote) === true),
    );
}

/** Whether the Trace names a Record no longer in the Brain (or the Brain is gone). */
async function namesForgotten(deps: ContextDeps, brainUid: string, trace: Trace): Promise<boolean> {
  const ids = [...recordIdsOf(trace)];
  if (ids.length === 0) return false;
  try {
    return (await deps.units.read(brainUid, (u) => u.records.getMany(ids))).length < ids.length;
  } catch (e) {
    if (e instanceof MnemoError && e.code === 'brain_not_found') return true;
    throw e;
  }
}

/**
 * The question's words no Record of the Brain says in its own text (FTS5's stems: "painting" says
 * "paint"), where no lane that reads what it asks (a slot, a time, a topic, the tasks, the changes)
 * found anything: its evidence shares only its other words. None for a question of one word, or one
 * nothing was found for (a miss answers those). A speaker's name is in no text of theirs: the entity
 * lane says the words that name its speakers ("marko" of "What does Marko love?"), as the lexical lane
 * says those its Records' texts hold, and neither is looked up.
 */
async function wordsNoRecordSays(
  lexical: RetrievalIndexSet['lexical'],
  brainUid: string,
  searched: readonly string[],
  laneResults: readonly LaneResult[],
): Promise<string[]> {
  const found = laneResults.filter((r) => r.candidates.length > 0);
  // Nothing found is a miss, which names the question without them.
  if (searched.length < 2 || found.length === 0 || found.some((r) => askingLanes.has(r.lane))) return [];
  // A word a candidate's own text says is said: only the others are looked up.
  const said = new Set(found.flatMap((r) => r.candidates.flatMap((c) => c.words ?? [])));
  const words = searched.filter((w) => !said.has(w) && !functionWords.has(w));
  if (words.length === 0) return [];
  const says = await lexical.saysWords(brainUid, words);
  return words.filter((_, i) => !says[i]);
}

/**
 * Words that say how, not what ("after", "before", "more", "same"): a question's meaning does not hang
 * on them, and PostgreSQL's English search configuration indexes none of them (its stop words,
 * Snowball's list), so neither engine names them.
 */
const functionWords = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
   hers herself it its itself they them their theirs themselves what which who whom this that these those
   am is are was were be been being have has had having do does did doing a an the and but if or because
   as until while of at by for with about against between into through during before after above below
   to from up down in out on off over under again further then once here there when where why how all
   any both each few more most other some such no nor not only own same so than too very s t can will
   just don should now`.split(/\s+/u),
);
