import { sameBackends, type RetrievalBackends } from '../core/retrieve/backends.ts';
import { dot } from '../embed/embedder.ts';
import type { CostLedger } from '../core/context/cost-ledger.ts';
import { asksAboutBulk, namesSender } from '../core/context/bulk-share.ts';
import type {
  LexicalIndex,
  QueryRewriter,
  SlotIndex,
  ThreadIndex,
  VectorIndex,
  VectorModelRef,
} from '../ports/index.ts';
import { errorMessage } from '../core/shared/error-message.ts';
import { feedbackTerms } from './expand-query.ts';
import { promptCandidates, type PromptCandidate } from './prompt-lane.ts';
import { fuse, fusionMethod, rrfK, type Fused, type LaneResult } from './fuse.ts';
import { namedSpeakers, selfNameWords, withoutSpeakers } from './entity-lane.ts';
import type { Eligibility, Lane, LaneCandidate, LaneInput } from './lane.ts';
import type { RetrievalIndexer } from './retrieval-indexer.ts';
import { searchTurns, sharedReason } from './turn-lexical-lane.ts';
import { similarityFloor } from './semantic-lane.ts';
import { rerankFeatures } from './rerank-features.ts';
import type { Reranker, RetrievalMode } from './reranker.ts';
import type { TimeIntent } from '../core/retrieve/time-expressions.ts';
import { languages } from '../core/retrieve/languages.ts';
import { matchedTerms, queryTerms } from '../core/retrieve/query-terms.ts';
import { askedWho, definitionsOf } from '../core/retrieve/who-question.ts';
import { foldText } from '../core/shared/fold-text.ts';
import { relation } from '../core/derive/about-another.ts';
import { readSlotQuestion, slotTopicWords } from '../core/retrieve/slot-question.ts';

/**
 * RRF weights per lane, tuned on the LoCoMo dev half (docs/decisions/retrieval.md). Lanes not listed
 * weigh 1.
 */
export const laneWeights: Readonly<Record<string, number>> = {
  lexical: 1,
  entity: 0.5,
  time: 1.5,
  recency: 0.5,
  semantic: 0.3,
  feedback: 0.25,
  rewrite: 0.5,
  when: 0.5,
  prompt: 0.4,
  slot: 1,
  tasks: 1,
  topic: 0.5,
};

/**
 * What retrieval asks of the indexer that keeps a storage's indexes (over SQLite, RetrievalIndexer; a
 * backend that keeps them in its writes needs only its embedder here).
 */
export interface RetrievalIndexing extends Pick<RetrievalIndexer, 'loading' | 'embedder'> {
  /** Indexes the Brain's Records still waiting, before the lanes search (a Context reads its own writes). */
  catchUp(brainUid: string): void | Promise<void>;
  /** The model whose vectors the query may meet, once the embedder has loaded; null without one. */
  vectorModel(): VectorModelRef | null;
  /**
   * Why the lanes that need a vector do not run with this storage (PostgreSQL without the `vector`
   * extension, an embedder that failed), or null: each Trace then lists them as not run, with the reason.
   */
  vectorLanesOff?(): string | null;
}

/** The indexes the lanes search, one storage's (Storage has them all). */
export interface RetrievalIndexSet {
  /** The lexical lanes' (lexical, entity, time, recency, when, and feedback). */
  lexical: LexicalIndex;
  /** The slot lane's reads of Memories holding a slot. */
  slots: SlotIndex;
  /** Messages: speakers, the prompt lane's threads and the reranker's facts. */
  threads: ThreadIndex;
  /** The semantic lane's. */
  vectors: VectorIndex;
}

export interface RetrieveInput {
  lanes: readonly Lane[];
  indexes: RetrievalIndexSet;
  /** Brings the indexes up to date and holds the embedder; null runs the lanes without vectors. */
  indexer: RetrievalIndexing | null;
  query: string;
  terms: string[];
  eligibility: Eligibility;
  ledger: CostLedger;
  mode: RetrievalMode;
  /** Reorders the best fused candidates last; null keeps the fusion's order. */
  reranker?: Reranker | null | undefined;
  /**
   * The generative model that rewrites a thorough question into search phrasings (the rewrite lane);
   * null or absent: thorough Traces list the lane as not run. Fast mode never calls it.
   */
  rewriter?: QueryRewriter | null | undefined;
  /** The backends the lanes search with (default: the lexical and vector indexes'); the reranker must know them. */
  backends?: RetrievalBackends | undefined;
  /** performance.now() after which no further stage starts (budget.ms); the best so far is kept. */
  deadline?: number | undefined;
  emit: (stage: string, data?: Record<string, unknown>) => void;
}

export interface Retrieved {
  laneResults: LaneResult[];
  fused: Fused[];
  /** How the final order was made, as Traces name it. */
  method: string;
  /** Words added by pseudo-relevance feedback (thorough only). */
  expansion: string[];
  /** Stages left out because budget.ms ran out. */
  skipped: string[];
  /** Lanes that could not run, and why (the embedder still loading, or its call failing). */
  unavailable: Array<{ lane: string; reason: string }>;
  timings: Record<string, number>;
  /** What the query says about time, as the time and recency lanes read it; null: nothing, or no such lane ran. */
  timeIntent: TimeIntent | null;
  /** The query's words as the lanes searched them: without the self's name in her own Brain (selfNameWords). */
  terms: string[];
}

const candidates = { fast: 50, thorough: 150 } as const;
/** How long a thorough Context without budget.ms waits for the query rewrite. */
export const rewriteWaitMs = 5000;
/** Words of the rewrites searched at most: a handful of short phrasings. */
const maxRewriteTerms = 16;
/** How long a Context without budget.ms waits for an embedder that is still loading. */
const embedderLoadWaitMs = 1000;

/** The query's vector, and its words' (in `terms` order) where it has two or more. */
interface QueryVectors {
  query: Float32Array;
  words: Float32Array[] | null;
}

function timeout(ms: number): Promise<'timeout'> {
  return new Promise((r) => setTimeout(() => r('timeout'), Math.max(0, ms)).unref());
}

/** The terms without `words`, unless nothing else is left ("Who is Lena?" searches her name). */
function withoutWords(terms: string[], words: readonly string[]): string[] {
  if (words.length === 0) return terms;
  const rest = terms.filter((t) => !words.includes(t));
  return rest.length > 0 ? rest : terms;
}

/**
 * Runs the lanes of one Context request: brings the lexical index up to date for the Brain, embeds
 * the query once (the request's only model call in fast mode), runs every lane, and fuses them by
 * weighted RRF. Thorough adds more candidates per lane and a pseudo-relevance-feedback pass. Last, the
 * prompt lane adds the message before each of the best candidates, and everything is fused again.
 */
export async function retrieve(o: RetrieveInput): Promise<Retrieved> {
  const timings: Record<string, number> = {};
  const skipped: string[] = [];
  const over = () => o.deadline !== undefined && performance.now() >= o.deadline;
  // Thorough hands the event loop back between stages: its lanes are synchronous SQLite work, and
  // without a turn of the loop the synchronous budget's timer could not fire until assembly ended (so
  // it would never answer 202). Fast is short enough not to pay for it.
  const pause = o.mode === 'thorough' ? () => new Promise<void>((r) => setImmediate(r)) : async () => {};
  let t = performance.now();
  await o.indexer?.catchUp(o.eligibility.brainUid);
  timings['index_catch_up'] = performance.now() - t;

  // Just after start the model may still be loading (the GloVe table from its cache in ~0.4 s): wait a
  // little, within budget.ms, rather than answer without the semantic lane; past that, say so.
  const loading = o.indexer?.loading() ?? null;
  const unavailable: Array<{ lane: string; reason: string }> = [];
  // The lanes that need the query's vector (the semantic lane, and any custom one that says so).
  const vectorLanes = o.lanes.filter((l) => l.needsQueryVector).map((l) => l.name);
  const off = o.indexer?.vectorLanesOff?.() ?? null;
  if (off !== null) for (const lane of vectorLanes) unavailable.push({ lane, reason: off });
  else if (loading) {
    t = performance.now();
    const wait = o.deadline === undefined ? embedderLoadWaitMs : o.deadline - performance.now();
    await Promise.race([loading, timeout(Math.max(0, wait))]);
    timings['embedder_load_wait'] = performance.now() - t;
    if (o.indexer?.loading())
      for (const lane of vectorLanes) unavailable.push({ lane, reason: 'the embedder is still loading' });
  }
  const embedder = o.indexer?.embedder() ?? null;
  const vectorModel = o.indexer?.vectorModel() ?? null;
  const memo = new Map<string, unknown>();
  // In her own Brain the self's name says whom the question is about, not what it asks: searched
  // without it, as a question in the first person is (entity-lane.ts selfNameWords).
  const selfWords = await selfNameWords({ ...o, ...o.indexes, memo });
  o = { ...o, terms: withoutWords(o.terms, selfWords) };
  const { lexical, slots, threads, vectors } = o.indexes;
  // The query is embedded in a worker thread while this one runs the lanes that do not need its
  // vector (SQLite work, synchronous): the embedding's time hides behind theirs instead of adding to it.
  let embedding: Promise<QueryVectors | null> | null = null;
  if (embedder && vectorModel) {
    t = performance.now();
    // The speakers' names are the entity lane's: in the sentence vector they would outweigh the topic.
    const text = withoutSpeakers(o.query, await namedSpeakers({ ...o, threads, slots, memo }));
    o.emit('embed', { provider: embedder.provider, model: embedder.model, text });
    // The question's words go in the same call, for similarityAlone: a fast Context makes one model
    // call (the spec's guarantee), and which Contexts need the words is known only after the lanes ran.
    const words = o.terms.length >= 2 ? o.terms : [];
    // A failed call (the worker gone, say) costs the lanes that need the vector, not the Context.
    const call = embedder.embed([text, ...words]).catch((e: unknown) => ({ failed: String(e) }));
    o.ledger.charge('embedding', 1);
    const started = t;
    embedding = (async () => {
      const got =
        o.deadline === undefined
          ? await call
          : await Promise.race([call, timeout(o.deadline - performance.now())]);
      // From the call to its answer being taken up, which happens once the thread is free: in fast mode
      // after every lane that needs no vector (they never yield), so it includes them; embed_wait is
      // what the request waited for it alone.
      timings['embed'] = performance.now() - started;
      if (got === 'timeout') skipped.push(...vectorLanes);
      else if ('failed' in got)
        for (const lane of vectorLanes)
          unavailable.push({ lane, reason: `the query embedding failed: ${got.failed}` });
      else if (got[0]) return { query: got[0], words: got.length === words.length + 1 ? got.slice(1) : null };
      return null;
    })();
  }

  // Asked now, so the model's answer is awaited while the lanes run rather than after them.
  const rewriting = o.mode === 'thorough' ? startRewrite(o, unavailable, skipped) : null;

  const limit = candidates[o.mode];
  const base: Omit<LaneInput, 'terms'> = {
    lexical,
    slots,
    threads,
    vectors,
    query: o.query,
    eligibility: o.eligibility,
    limit,
    ledger: o.ledger,
    queryVector: null,
    vectorModel,
    memo,
  };
  const results = new Map<Lane, LaneResult>();
  const runLane = async (lane: Lane, queryVector: Float32Array | null) => {
    // Already reported as not run (no query vector, or none in time): running it would list it a
    // second time, empty.
    if (unavailable.some((u) => u.lane === lane.name) || skipped.includes(lane.name)) return;
    if (over() && results.size > 0) {
      skipped.push(lane.name);
      return;
    }
    t = performance.now();
    o.emit('lane', { lane: lane.name });
    const found = await lane.search({ ...base, queryVector, terms: o.terms });
    results.set(lane, { lane: lane.name, candidates: found, ms: performance.now() - t });
    await pause();
  };
  for (const lane of o.lanes) if (!lane.needsQueryVector) await runLane(lane, null);
  t = performance.now();
  const embedded = embedding ? await embedding : null;
  const queryVector = embedded?.query ?? null;
  if (embedding) timings['embed_wait'] = performance.now() - t;
  for (const lane of o.lanes) if (lane.needsQueryVector) await runLane(lane, queryVector);
  const alone = over() ? null : await similarityAlone(o, results, base, embedded);
  const besideSlot = nothingAloneBesideSlot(results);
  const slotAnswered = besideSlot?.says ?? null;
  const newer = besideSlot === null ? null : await newerBesideSlot(o, results, besideSlot.left);
  // The Trace lists the lanes in their configured order, whichever ran first.
  const laneResults = o.lanes.flatMap((l) => results.get(l) ?? []);
  let fused = fuse(laneResults, rrfK, laneWeights);

  if (rewriting) {
    t = performance.now();
    const rewrites = await rewriting;
    timings['rewrite_wait'] = performance.now() - t;
    const words = [...new Set(rewrites.flatMap((p) => queryTerms(p)))].slice(0, maxRewriteTerms);
    o.emit('rewrite', { model: o.rewriter?.id, phrasings: rewrites, terms: words });
    // In time for the model's answer, but no further stage starts once budget.ms has run out.
    if (words.length > 0 && over()) skipped.push('rewrite');
    else if (words.length > 0) {
      const rows = await searchTurns({ ...base, terms: o.terms }, { terms: words, limit });
      laneResults.push(searchedLane('rewrite', rows, words, t));
      fused = fuse(laneResults, rrfK, laneWeights);
    }
  }

  const expansion: string[] = [];
  if (o.mode === 'thorough' && !over() && fused.length > 0) {
    t = performance.now();
    // In id order, so words that score alike keep one order whatever order the index answers in.
    const top = (
      await lexical.texts(
        o.eligibility.brainUid,
        fused.slice(0, 5).map((f) => f.recordId),
      )
    ).sort((a, b) => (a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0));
    expansion.push(
      ...(await feedbackTerms(
        lexical,
        o.eligibility.brainUid,
        top.map((r) => r.text),
        o.terms,
      )),
    );
    o.emit('expand', { method: 'pseudo_relevance_feedback', terms: expansion });
    if (expansion.length > 0) {
      const words = [...o.terms, ...expansion];
      const rows = await searchTurns({ ...base, terms: o.terms }, { terms: words, limit });
      laneResults.push(searchedLane('feedback', rows, words, t));
      fused = fuse(laneResults, rrfK, laneWeights);
    }
    timings['expand'] = performance.now() - t;
    await pause();
  } else if (o.mode === 'thorough' && over()) skipped.push('feedback');

  let prompts: PromptCandidate[] = [];
  if (over()) skipped.push('prompt');
  else if (fused.length > 0) {
    t = performance.now();
    o.emit('lane', { lane: 'prompt' });
    prompts = await promptCandidates(base.threads, o.eligibility, fused);
    o.ledger.charge('processing', prompts.length / 1000);
    laneResults.push({ lane: 'prompt', candidates: prompts, ms: performance.now() - t });
    fused = fuse(laneResults, rrfK, laneWeights);
  }
  o.emit('fuse', { method: fusionMethod, candidates: fused.length });
  await pause();

  let method = fusionMethod;
  const trainedOn = o.reranker?.embedder;
  const trainedWith = o.reranker?.backends;
  const backends = o.backends ?? { lexical: lexical.backend, vector: vectors.backend };
  if (o.reranker && trainedOn !== undefined && vectorModel?.provider !== trainedOn) {
    // Cosines of another model (or none yet) are inputs the model never saw: keep the fusion's order.
    method = `${fusionMethod} (${o.reranker.id} not applied: trained on ${trainedOn} cosines, the semantic lane has ${vectorModel?.provider ?? 'no embedder loaded'})`;
  } else if (o.reranker && trainedWith !== undefined && !sameBackends(trainedWith, backends)) {
    // So are another backend's BM25 and distances, on other scales.
    method = `${fusionMethod} (${o.reranker.id} not applied: trained on scores of ${trainedWith.lexical} and ${trainedWith.vector}, this engine searches with ${backends.lexical} and ${backends.vector})`;
  } else if (o.reranker?.modes && !o.reranker.modes.includes(o.mode)) {
    // Each mode's lanes return a different number of candidates: a model of the other mode's ranks does not fit.
    method = `${fusionMethod} (${o.reranker.id} not applied: it has no ${o.mode} model, only ${o.reranker.modes.join(' and ')})`;
  } else if (o.reranker && fused.length > 1) {
    if (over()) skipped.push('rerank');
    else {
      t = performance.now();
      const r = await reranked(o, o.reranker, laneResults, fused, threads, memo);
      fused = r.fused;
      method = `${fusionMethod}, then ${r.by} over the best ${o.reranker.depth}`;
      timings['rerank'] = performance.now() - t;
      o.emit('rerank', { model: o.reranker.id, candidates: Math.min(o.reranker.depth, fused.length) });
    }
  }
  if (alone) method = `${method}; ${alone}`;
  if (slotAnswered) method = `${method}; ${slotAnswered}`;
  if (newer) method = `${method}; ${newerSays}`;
  const timeIntent = (memo.get('timeIntent') as TimeIntent | null | undefined) ?? null;
  const who = askedWho(o.query);
  // The orderings below only reorder and drop candidates, so what each reads is among these.
  const textOf = await textsOf(lexical, o.eligibility.brainUid, [
    ...definingFirstReads(who, limit, fused),
    ...bulkBehindReads(o.terms, fused),
    ...datedFirstReads(timeIntent, o.terms, laneResults, fused),
    ...withoutFillerReads(prompts, fused),
  ]);
  const behind = bulkBehind(textOf, o.terms, fused);
  if (behind !== fused) {
    fused = behind;
    method = `${method}; bulk mail behind the Records that share the question's words`;
  }
  const dated = datedFirst(textOf, timeIntent, o.terms, laneResults, fused);
  if (dated !== fused) {
    fused = dated;
    method = `${method}; the events dated in the time asked about first`;
  }
  const defining = definingFirst(textOf, who, limit, fused);
  if (defining !== fused) {
    fused = defining;
    method = `${method}; the Records saying who ${who} is first`;
  }
  // The tasks lane's Records, then the slot lane's in front of them: the slot's lead.
  const tasksLed = laneFirst('tasks', laneResults, fused);
  if (tasksLed !== fused) {
    fused = tasksLed;
    method = `${method}; the tasks lane's Records first`;
  }
  const led = laneFirst('slot', laneResults, fused);
  if (led !== fused) {
    fused = led;
    method = `${method}; the slot lane's Records first`;
  }
  if (newer) fused = afterSlot(newer, laneResults, fused);
  const within = onlyTheTimeAsked(timeIntent, o.terms, laneResults, fused);
  if (within !== fused) {
    fused = within;
    method = `${method}; only Records of the time asked about`;
  }
  const needed = withoutFiller(textOf, o.terms, laneResults, prompts, fused);
  if (needed !== fused) {
    fused = needed;
    method = `${method}; no prompt before a Record that answers alone`;
  }
  return { laneResults, fused, method, expansion, skipped, unavailable, timings, timeIntent, terms: o.terms };
}

/** A lexical search of `words` beyond the query's own (thorough's rewrite and feedback) as a lane's result. */
function searchedLane(
  lane: string,
  rows: readonly { recordId: string; score: number; text: string }[],
  words: string[],
  startedAt: number,
): LaneResult {
  return {
    lane,
    candidates: rows.map((r) => ({
      recordId: r.recordId,
      score: r.score,
      reason: sharedReason(r.text, words),
    })),
    ms: performance.now() - startedAt,
  };
}

/**
 * Asks the rewriter for the question's search phrasings, charging the ledger one generative call. The
 * answer is awaited within budget.ms (else rewriteWaitMs); one too late, or unusable, is listed as not
 * run with its reason and the Context goes on without it. Resolves to the phrasings, or none.
 */
function startRewrite(
  o: RetrieveInput,
  unavailable: Array<{ lane: string; reason: string }>,
  skipped: string[],
): Promise<string[]> | null {
  const rewriter = o.rewriter;
  if (!rewriter) {
    unavailable.push({ lane: 'rewrite', reason: 'no generative model configured' });
    return null;
  }
  const wait =
    o.deadline === undefined ? rewriteWaitMs : Math.min(rewriteWaitMs, o.deadline - performance.now());
  if (wait <= 0) {
    skipped.push('rewrite');
    return null;
  }
  const controller = new AbortController();
  o.ledger.charge('generative', 1);
  const call = rewriter.rewrite(o.query, { signal: controller.signal }).then(
    (phrasings) => ({ phrasings }),
    (e: unknown) => ({ failed: errorMessage(e) }),
  );
  return (async () => {
    const got = await Promise.race([call, timeout(wait)]);
    if (got === 'timeout') {
      controller.abort();
      unavailable.push({
        lane: 'rewrite',
        reason: `the generative model (${rewriter.id}) did not answer within ${Math.round(wait)} ms`,
      });
      return [];
    }
    if ('failed' in got) {
      unavailable.push({ lane: 'rewrite', reason: `the query rewrite failed: ${got.failed}` });
      return [];
    }
    return got.phrasings;
  })();
}

/**
 * Where no lane but those that need the query's vector found anything (nothing in the Brain shares a
 * word, a name, a time, a slot or a topic with the question), a Record they found stays only if the
 * question's main word, embedded alone, finds it too (over the same floor): the word whose vector is
 * nearest the question's, the one its embedding weighs most. Similarity to the whole question can be
 * carried by a common word: "What is my dog's name?" in a Brain that never mentions a dog met "My
 * favourite colour is green." at cosine 0.38 (glove-sif, over its 0.35 floor) through "name"; "dog"
 * alone meets it at 0.26, and "I have a golden retriever called Max." at 0.53. Any one word would be
 * too weak ("name" still meets the colour) and every word too strict ("go" of "Where did we go on
 * holiday?" meets nothing). The lanes' candidates are narrowed in place; returns what the fusion
 * method then says, or null.
 *
 * A main word near most of the Brain singles out nothing (nearEverything): then none of them stays, and
 * the Context is a miss. "What's my mom's name?" in a Brain that never names her met, through "mom",
 * a favourite coffee (0.41), a ramen place (0.50), a surfing plan (0.45) and a sister's visit (0.40):
 * glove-sif puts that everyday word near everyday talk (30 of the 50 lines of an everyday chat nearest
 * it over the floor), where "dog" meets 9 and "mother" 8.
 */
async function similarityAlone(
  o: RetrieveInput,
  results: Map<Lane, LaneResult>,
  base: Omit<LaneInput, 'terms'>,
  embedded: QueryVectors | null,
): Promise<string | null> {
  const found = [...results.entries()].filter(([, r]) => r.candidates.length > 0);
  if (found.length === 0 || found.some(([lane]) => !lane.needsQueryVector)) return null;
  if (!embedded) return null;
  // A question of one word is that word: its own vector stands for it.
  if (o.terms.length === 1) {
    if (!(await nearEverything(base, embedded.query))) return null;
    for (const [, r] of found) r.candidates = [];
    return nearEverythingSays(o.terms[0]!);
  }
  const vectors = embedded.words;
  if (!vectors || vectors.length !== o.terms.length) return null;
  // Both L2-normalised (the Embedder's contract): their dot product is their cosine.
  const closeness = vectors.map((v) => dot(v, embedded.query));
  const main = closeness.indexOf(Math.max(...closeness));
  if (await nearEverything(base, vectors[main]!)) {
    for (const [, r] of found) r.candidates = [];
    return nearEverythingSays(o.terms[main]!);
  }
  for (const [lane, r] of found) {
    const near = await lane.search({ ...base, queryVector: vectors[main]!, terms: o.terms });
    const ids = new Set(near.map((c) => c.recordId));
    r.candidates = r.candidates.filter((c) => ids.has(c.recordId));
  }
  return `similarity alone found it, so only Records near its main word ("${o.terms[main]}")`;
}

/** Of the Records nearest a word, how many, and what share of them, over the floor make it near everything. */
const nearEverythingCount = 5;
const nearEverythingShare = 1 / 4;
/** How many of the Brain's Records nearest the word are looked at. */
const nearEverythingProbe = 50;

/**
 * Whether a word's vector meets over the similarity floor at least a quarter of the Brain's Records
 * nearest it (of the first 50; all of a smaller Brain's), and at least five: it resembles talk in
 * general, not something in particular. Measured with glove-sif over two Brains of everyday talk (25
 * messages and facts of a person's week; the 50 nearest of the 60-line everyday chat): "mom" met 9/25
 * and 30/50, "dad" 9/25 and 25/50; of 29 other everyday nouns ("dog", "mother", "birthday", "relax",
 * "holiday", "food", ...) none more than 4/25 or 10/50. Five, so that a Brain of a few Records keeps
 * the one its word singles out ("dog" meets "I have a golden retriever called Max." in a Brain of three).
 */
async function nearEverything(base: Omit<LaneInput, 'terms'>, word: Float32Array): Promise<boolean> {
  const model = base.vectorModel;
  if (!model) return false;
  const near = await base.vectors.nearest(
    model,
    'record',
    base.eligibility.brainUid,
    word,
    nearEverythingProbe,
  );
  base.ledger.charge('processing', near.length / 1000);
  const floor = similarityFloor(model.provider);
  const over = near.filter((h) => 1 - h.distance >= floor).length;
  return over >= nearEverythingCount && over >= near.length * nearEverythingShare;
}

const nearEverythingSays = (word: string) =>
  `similarity alone found it, and its main word ("${word}") is near a quarter or more of the Brain: no evidence`;

/**
 * Where the slot lane found the value asked about, the Records that only the lanes needing the query's
 * vector found are left out of their candidates (in place): they share no word, name, time, slot or
 * topic with the question, only a likeness of meaning, and beside the answer they are filler. "Where do
 * I do my job?" in a small Brain drew "Hello! How can I help you today?" and "Is that your third one?"
 * next to "I work as a nurse at Hospital Santa Maria." (glove-sif puts "help" near "job"); testing each
 * against the question's main word, as similarityAlone does, cannot tell them apart when "job" is the
 * question's only word. A Record saying more of the slot in other words ("My ward is on the third
 * floor") is lost with them. The slot lane never fires on LoCoMo, so its figures cannot move. Returns
 * what the fusion method then says, or null.
 */
function nothingAloneBesideSlot(results: Map<Lane, LaneResult>): { says: string; left: LeftOut[] } | null {
  const entries = [...results.entries()];
  const slot = entries.find(([lane]) => lane.name === 'slot')?.[1];
  if (!slot || slot.candidates.length === 0) return null;
  const named = new Set(
    entries
      .filter(([lane]) => !lane.needsQueryVector)
      .flatMap(([, r]) => r.candidates.map((c) => c.recordId)),
  );
  const left: LeftOut[] = [];
  for (const [lane, r] of entries) {
    if (!lane.needsQueryVector) continue;
    r.candidates.forEach((candidate, at) => {
      if (!named.has(candidate.recordId)) left.push({ result: r, candidate, at });
    });
    r.candidates = r.candidates.filter((c) => named.has(c.recordId));
  }
  return left.length === 0
    ? null
    : { says: 'the slot lane found the value asked about, so nothing found by similarity alone', left };
}

/** A candidate nothingAloneBesideSlot left out of a lane's result, and where it stood in it. */
interface LeftOut {
  result: LaneResult;
  candidate: LaneCandidate;
  at: number;
}

const newerSays =
  "but one found by similarity alone, newer than the slot's Records and of the slot's topic, is kept after them";

/**
 * Of the Records nothingAloneBesideSlot left out, the best one (in its lane's order) that is newer
 * than every Record of the slot lane and holds a word of the slot's topic (slotTopicWords) is put back
 * into its lane, its reason saying so, and its id returned (afterSlot then places it just after the
 * slot's Records); null when none is. The slot holds what a rule read, and a later Record may change
 * it in words no rule reads: "Moving day! New apartment on Vlaška 12." for "Where is my home?" beside a
 * fact holding "Ilica 42" was left out of the Context altogether. Only one, only newer, and only of the
 * topic: an older Record is what the slot's value already answers, and a greeting or a Record of
 * another subject near the question's meaning is the filler nothingAloneBesideSlot is for. The slot
 * lane never fires on LoCoMo, so its figures cannot move.
 */
async function newerBesideSlot(
  o: RetrieveInput,
  results: Map<Lane, LaneResult>,
  left: readonly LeftOut[],
): Promise<string | null> {
  const asked = readSlotQuestion(o.query, o.terms);
  const topic = slotTopicWords(asked.predicates);
  const slot = [...results.entries()].find(([lane]) => lane.name === 'slot')?.[1];
  if (topic.length === 0 || !slot) return null;
  const slotIds = slot.candidates.map((c) => c.recordId);
  const read = await o.indexes.lexical.texts(o.eligibility.brainUid, [
    ...new Set([...slotIds, ...left.map((l) => l.candidate.recordId)]),
  ]);
  const byId = new Map(read.map((r) => [r.recordId, r]));
  const slotMs = Math.max(...slotIds.map((id) => byId.get(id)?.occurredMs ?? Infinity));
  const best = [...left]
    .sort((a, b) => b.candidate.score - a.candidate.score)
    .find((l) => {
      const r = byId.get(l.candidate.recordId);
      return (
        r !== undefined &&
        r.occurredMs > slotMs &&
        matchedTerms(r.text, topic).length > 0 &&
        !(asked.aboutSelf && opensWithSomeoneElse.test(foldText(r.text)))
      );
    });
  if (best === undefined) return null;
  const { result, candidate, at } = best;
  const reason = `${candidate.reason}; newer than the slot's Records and of its topic: kept after them`;
  result.candidates.splice(Math.min(at, result.candidates.length), 0, { ...candidate, reason });
  return candidate.recordId;
}

/**
 * A text that opens with someone of the person's ("Mama moved to a new flat in Samobor", "My sister got
 * a job at Rimac"): a change of theirs, not of the self's slot.
 */
const opensWithSomeoneElse = new RegExp(
  String.raw`^[^\p{L}]*(?:(?:my|our|his|her|their)\s+)?(?:${relation}|mama|papa|he|she|they)(?![\p{L}\p{N}])`,
  'u',
);

/** FUSED with the Record `id` just after the slot lane's Records that lead it (laneFirst). */
function afterSlot(id: string, laneResults: readonly LaneResult[], fused: Fused[]): Fused[] {
  const slot = new Set(laneResults.find((l) => l.lane === 'slot')?.candidates.map((c) => c.recordId));
  const kept = fused.find((f) => f.recordId === id);
  if (kept === undefined) return fused;
  const rest = fused.filter((f) => f !== kept);
  let lead = 0;
  while (lead < rest.length && slot.has(rest[lead]!.recordId)) lead += 1;
  return [...rest.slice(0, lead), kept, ...rest.slice(lead)];
}

/**
 * Words of a question that asks what happened in a time, and nothing more ("what happened …?", "o que
 * aconteceu …?": languages.ts).
 */
const aboutAnyTime = new Set([
  ...`happened happen happening going went did do done doing anything something everything up new news
   between from until till since during day days week weeks month months year years time times
   talked talk say said`.split(/\s+/u),
  ...languages.flatMap((l) => [...l.happenedWords]),
]);

/**
 * A question that names a time and nothing else to find ("what happened between Nov 23 and Nov 29?",
 * "anything from last weekend?") is answered by the time lane's Records alone: its other matches are
 * Records of any time that share a word like "happened", which only pad the Context. None where the
 * question says more, or names no window.
 */
function onlyTheTimeAsked(
  intent: TimeIntent | null,
  terms: readonly string[],
  laneResults: readonly LaneResult[],
  fused: Fused[],
): Fused[] {
  if (intent?.fromMs === undefined) return fused;
  if (besideTheTime(intent, terms).length > 0) return fused;
  const inTime = new Set(laneResults.find((l) => l.lane === 'time')?.candidates.map((c) => c.recordId));
  return fused.filter((f) => inTime.has(f.recordId));
}

/** The question's words beside its time and the words that ask of any time ("happened", "doing"). */
const besideTheTime = (intent: TimeIntent, terms: readonly string[]) =>
  terms.filter((t) => !intent.timeWords.includes(t) && !aboutAnyTime.has(t));

/**
 * Words of a question that asks what is on in a time, beside the time itself ("What are my plans for
 * December?", "What's on my calendar next week?", "What is coming up this month?"). English only.
 */
const agendaWords = new Set(
  `plan plans planned planning schedule scheduled calendar agenda diary event events appointment
   appointments booked upcoming coming up next this on`.split(/\s+/u),
);

/**
 * The events dated inside the window the question names lead the order, earliest first (the time
 * lane's datedMs): "What are my plans for December?" is answered by the events on December's days. The
 * reranker never saw an event Record (it was trained on LoCoMo's messages) and it put the December
 * events, found by the time lane alone, below every message saying "planning" (scored -5.7 to -6.5
 * against -2.3 to -3.1). Where the question asks more than the time ("What did Ana say about Kyoto in
 * December?"), only the events sharing one of its other words lead, so a full calendar does not bury
 * the message asked about. Unchanged when no window is named ("What are my plans?") or no event of it
 * was found; LoCoMo holds no events, so its figures cannot move.
 */
function datedFirst(
  textOf: TextOf,
  intent: TimeIntent | null,
  terms: readonly string[],
  laneResults: readonly LaneResult[],
  fused: Fused[],
): Fused[] {
  const dated = datedLeadOf(intent, terms, laneResults, fused);
  if (dated === null) return fused;
  const { datedMs, asked } = dated;
  let lead = dated.lead;
  if (asked.length > 0) lead = lead.filter((f) => matchedTerms(textOf(f.recordId), asked).length > 0);
  // Stable: events of one instant keep the order they had.
  lead.sort((a, b) => datedMs.get(a.recordId)! - datedMs.get(b.recordId)!);
  return inFront(lead, fused);
}

/**
 * The events of the window asked about among FUSED (datedFirst), each one's date, and the question's
 * words beside the time and the agenda's. Null when no window is named or none of its events was found.
 */
function datedLeadOf(
  intent: TimeIntent | null,
  terms: readonly string[],
  laneResults: readonly LaneResult[],
  fused: readonly Fused[],
): { lead: Fused[]; datedMs: ReadonlyMap<string, number>; asked: string[] } | null {
  if (intent?.fromMs === undefined) return null;
  const datedMs = new Map<string, number>();
  for (const c of laneResults.find((l) => l.lane === 'time')?.candidates ?? [])
    if (c.datedMs !== undefined) datedMs.set(c.recordId, c.datedMs);
  if (datedMs.size === 0) return null;
  const asked = besideTheTime(intent, terms).filter((t) => !agendaWords.has(t));
  return { lead: fused.filter((f) => datedMs.has(f.recordId)), datedMs, asked };
}

/** The Records whose texts datedFirst reads: the events, where the question asks more than the time. */
function datedFirstReads(
  intent: TimeIntent | null,
  terms: readonly string[],
  laneResults: readonly LaneResult[],
  fused: readonly Fused[],
): string[] {
  const dated = datedLeadOf(intent, terms, laneResults, fused);
  return dated === null || dated.asked.length === 0 ? [] : dated.lead.map((f) => f.recordId);
}

/**
 * For a question asking who someone named is ("Who is Luka?", "who's luka", "Tko je Luka?":
 * who-question.ts), the Records among the best `window` that say who the person is to the self ("Luka
 * is my brother-in-law", "my colleague Luka") lead, then those that say what the person is ("Luka is a
 * carpenter", "Luka works at Infobip"), each group in the order it had. In a Brain where the name comes
 * up in every other Record, each mention shares the question's one word as much as the definition does,
 * and the reranker (trained on LoCoMo, whose questions of this shape are few) put "Dinner at Ana and
 * Luka's place" first and "Luka is my brother-in-law, Ana's husband." below ten mentions. Unchanged
 * when the question asks anything else or no Record says who the person is.
 */
function definingFirst(textOf: TextOf, who: string | null, window: number, fused: Fused[]): Fused[] {
  if (who === null) return fused;
  const defines = definitionsOf(who);
  const tiers: Fused[][] = [[], []];
  for (const f of fused.slice(0, window)) {
    const tier = defines(textOf(f.recordId));
    if (tier > 0) tiers[tier - 1]!.push(f);
  }
  return inFront(tiers.flat(), fused);
}

/** The Records whose texts definingFirst reads. */
const definingFirstReads = (who: string | null, window: number, fused: readonly Fused[]) =>
  who === null ? [] : fused.slice(0, window).map((f) => f.recordId);

/** How many of the best candidates bulkBehind reads: the fast mode's lanes' depth. */
const bulkWindow = candidates.fast;
/** The mail importer's header block (server/import/formats/mbox.ts), marked as mail sent to a list. */
const bulkHead = /^(?:Subject|From): [^\n]*(?:\n[^\n]+)*?\nPrecedence: bulk(?:\n|$)/u;
const bulkLine = '\nPrecedence: bulk\n';
/** Of the 2,000 characters the index gives of a text, as many as two revisions surely share. */
const sameTextChars = 1_900;

/**
 * Mail sent to a list of subscribers (a newsletter, a digest: the importer writes "Precedence: bulk" in
 * its header lines) goes behind the Records among the best that share a word of the question: it is what
 * the person received, not what anyone in their life said. The reranker was trained on LoCoMo's chats
 * and never saw mail: it put a newsletter's "rent a flat instead of a hotel" first for "What's the new
 * rent?", above the landlord's "We agree on 700 EUR". Each moves to just after the last such Record, the
 * order of the others unchanged; none moves when the question names its sender or list (a word of its
 * sender's name, "What did the Medium digest say about PostgreSQL?") or asks about newsletters, and none
 * when no other Record shares a word (it may be the only answer). LoCoMo holds no mail, so its figures
 * cannot move.
 */
function bulkBehind(textOf: TextOf, terms: readonly string[], fused: Fused[]): Fused[] {
  const window = bulkWindowOf(terms, fused);
  if (window.length === 0) return fused;
  const said = (f: Fused) => textOf(f.recordId);
  const asked = [...terms];
  if (asksAboutBulk(asked)) return fused;
  // A mail imported before the mark and imported again is two revisions, the older one without the
  // line (a Context serves the newer in the older's place): the older goes with the newer.
  const unmarked = (t: string) => t.replace(bulkLine, '\n').slice(0, sameTextChars);
  const marked = new Map<string, string>();
  for (const f of window) {
    const head = bulkHead.exec(said(f))?.[0];
    if (head !== undefined) marked.set(unmarked(said(f)), head);
  }
  if (marked.size === 0) return fused;
  const bulk = new Set(
    window.filter((f) => {
      const head = bulkHead.exec(said(f))?.[0] ?? marked.get(unmarked(said(f)));
      if (head === undefined) return false;
      const from = (head.split('\n').find((l) => l.startsWith('From: ')) ?? '').slice('From: '.length);
      // The importer writes "Name <address>", or the address alone.
      const name = from.endsWith('>') && from.includes(' <') ? from.slice(0, from.lastIndexOf(' <')) : from;
      return !namesSender(name, asked);
    }),
  );
  if (bulk.size === 0) return fused;
  let last = -1;
  window.forEach((f, i) => {
    if (!bulk.has(f) && matchedTerms(said(f), asked).length > 0) last = i;
  });
  if (last === -1 || window.slice(0, last).every((f) => !bulk.has(f))) return fused;
  const before = window.slice(0, last + 1);
  return [
    ...before.filter((f) => !bulk.has(f)),
    ...before.filter((f) => bulk.has(f)),
    ...fused.slice(last + 1),
  ];
}

/** The best of FUSED, which bulkBehind reorders: none for a question of no words or a single candidate. */
function bulkWindowOf(terms: readonly string[], fused: readonly Fused[]): Fused[] {
  return terms.length === 0 || fused.length < 2 ? [] : fused.slice(0, bulkWindow);
}

/** The Records whose texts bulkBehind reads. */
const bulkBehindReads = (terms: readonly string[], fused: readonly Fused[]) =>
  bulkWindowOf(terms, fused).map((f) => f.recordId);

/** FUSED with LEAD (some of its own entries) in front, in LEAD's order; FUSED itself when nothing moves. */
function inFront(lead: readonly Fused[], fused: Fused[]): Fused[] {
  if (lead.length === 0 || lead.every((f, i) => fused[i] === f)) return fused;
  const ids = new Set(lead.map((f) => f.recordId));
  return [...lead, ...fused.filter((f) => !ids.has(f.recordId))];
}

/** Lanes that can find a message through its thread neighbours' words rather than its own. */
const throughNeighbours = new Set(['prompt', 'lexical', 'feedback', 'rewrite']);

/**
 * The message just before a strong match is evidence when the match needs it to be read ("What was it
 * about?" before "It was about loss and identity"), filler when the match answers alone: the
 * assistant's "Hello! How can I help you today?" before "My favourite colour is green." cost a model's
 * tokens and attention for "What is my favourite colour?". A match answers alone when its own text
 * holds every word of the query, or when the slot lane found it (the deriver read it as the value of
 * the slot asked about: "I work as a nurse at Hospital Santa Maria." for "Where do I do my job?"). Only
 * a prompt that nothing found on its own is left out: none of the query's words in its text (the
 * lexical lane finds a message through its neighbours' words too), and no other lane's (its speaker
 * named, its time asked about, its meaning near the query's), and that the match does not take up (a
 * reply repeating a word of the message before it answers that message). Statements are prompts too, as
 * often evidence as questions (docs/decisions/retrieval.md), so the rule looks at the match, not the
 * prompt's form.
 */
function withoutFiller(
  said: TextOf,
  terms: readonly string[],
  laneResults: readonly LaneResult[],
  prompts: readonly PromptCandidate[],
  fused: Fused[],
): Fused[] {
  const { answerOf, onlyPrompted } = promptedOf(prompts, fused);
  if (onlyPrompted.length === 0) return fused;
  const slot = new Set(laneResults.find((l) => l.lane === 'slot')?.candidates.map((c) => c.recordId));
  const holds = (id: string) => matchedTerms(said(id), [...terms]).length;
  const answersAlone = (id: string) => slot.has(id) || (terms.length > 0 && holds(id) === terms.length);
  const takesUp = (answer: string, prompt: string) =>
    matchedTerms(said(answer), queryTerms(said(prompt))).length > 0;
  const filler = new Set(
    onlyPrompted
      .filter((f) => {
        const answer = answerOf.get(f.recordId)!;
        return holds(f.recordId) === 0 && answersAlone(answer) && !takesUp(answer, f.recordId);
      })
      .map((f) => f.recordId),
  );
  return filler.size === 0 ? fused : fused.filter((f) => !filler.has(f.recordId));
}

/**
 * The prompts among FUSED that only the lanes reading a message's neighbours found (withoutFiller), and
 * the answer each prompt is before.
 */
function promptedOf(
  prompts: readonly PromptCandidate[],
  fused: readonly Fused[],
): { answerOf: ReadonlyMap<string, string>; onlyPrompted: Fused[] } {
  const answerOf = new Map(prompts.map((p) => [p.recordId, p.answer]));
  const onlyPrompted = fused.filter(
    (f) => answerOf.has(f.recordId) && f.lanes.every((l) => throughNeighbours.has(l)),
  );
  return { answerOf, onlyPrompted };
}

/** The Records whose texts withoutFiller reads: each prompt it may leave out, and its answer. */
function withoutFillerReads(prompts: readonly PromptCandidate[], fused: readonly Fused[]): string[] {
  const { answerOf, onlyPrompted } = promptedOf(prompts, fused);
  return onlyPrompted.flatMap((f) => [f.recordId, answerOf.get(f.recordId)!]);
}

/** A Record's text as the lexical index gives it (its first 2,000 characters); '' for one it does not hold. */
type TextOf = (recordId: string) => string;

/** The texts of these Records, in one read of the lexical index. */
async function textsOf(
  lexical: LexicalIndex,
  brainUid: string,
  recordIds: readonly string[],
): Promise<TextOf> {
  const ids = [...new Set(recordIds)];
  const text = new Map((await lexical.texts(brainUid, ids)).map((r) => [r.recordId, r.text]));
  return (id) => text.get(id) ?? '';
}

/**
 * The slot lane's Records lead the order, in the lane's order: they are what the deriver read as the
 * value holding the slot asked about at the read time ("Where does Ana work?": the Record of "I now work
 * at Feedzai"). The reranker never saw the lane (it does not fire on LoCoMo, which it was trained on), and
 * it put that Record eighth, below the Record of the employer she had left and her sister's. So do the
 * tasks lane's, after them, for a question of what is still to do: the tasks the deriver read, open
 * first. The reranker never saw that lane either, and put "I still eat it though." first for "What is
 * still to do?", by its one word. Unchanged when the lane found nothing, so the order of every other
 * question is the fusion's or the reranker's.
 */
function laneFirst(lane: 'slot' | 'tasks', laneResults: readonly LaneResult[], fused: Fused[]): Fused[] {
  const found = laneResults.find((l) => l.lane === lane);
  if (!found || found.candidates.length === 0) return fused;
  const byId = new Map(fused.map((f) => [f.recordId, f]));
  return inFront(
    found.candidates.flatMap((c) => byId.get(c.recordId) ?? []),
    fused,
  );
}

/**
 * The fusion with its best `depth` candidates reordered by the reranker's scores (ties keep their
 * order), and what ran (for the Trace).
 */
async function reranked(
  o: RetrieveInput,
  reranker: Reranker,
  laneResults: LaneResult[],
  fused: Fused[],
  threads: ThreadIndex,
  memo: Map<string, unknown>,
): Promise<{ fused: Fused[]; by: string }> {
  const candidates = await rerankFeatures({
    threads,
    query: o.query,
    terms: o.terms,
    names: await namedSpeakers({ ...o, threads, slots: o.indexes.slots, memo }),
    eligibility: o.eligibility,
    laneResults,
    fused,
    depth: reranker.depth,
  });
  const { ids } = candidates;
  const { scores, tiers, by } = reranker.score(candidates, o.mode);
  o.ledger.charge('processing', ids.length / 1000);
  const byId = new Map(fused.map((f) => [f.recordId, f]));
  const order = ids
    .map((id, i) => ({ f: byId.get(id)!, s: scores[i]!, tier: tiers?.[i] ?? 0, i }))
    .sort((a, b) => a.tier - b.tier || b.s - a.s || a.i - b.i);
  const moved = new Set(ids);
  return {
    fused: [
      ...order.map((x) => ({ ...x.f, rerankScore: x.s })),
      ...fused.filter((f) => !moved.has(f.recordId)),
    ],
    by: by ?? reranker.id,
  };
}
