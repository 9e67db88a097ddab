import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCostLedger } from '../core/context/cost-ledger.ts';
import type { Embedder } from '../embed/embedder.ts';
import { brainWithRecords, tempStore } from '../adapters/sqlite/testing.ts';
import type { Lane, LaneCandidate, LaneInput } from './lane.ts';
import type { TimeIntent } from '../core/retrieve/time-expressions.ts';
import { retrieve, type RetrievalIndexing } from './retrieve.ts';
import { createSqliteLexicalIndex } from '../adapters/sqlite/lexical-index.ts';
import { createSqliteSlotIndex } from '../adapters/sqlite/slot-index.ts';
import { createSqliteThreadIndex } from '../adapters/sqlite/thread-index.ts';
import { createSqliteVectorIndex } from '../adapters/sqlite/vector-index.ts';

function setup(embed: Embedder['embed']) {
  const store = tempStore('mnemo-retrieve-');
  const identity = { provider: 'test', model: 'deferred', dims: 4 };
  const vectors = createSqliteVectorIndex(store, { now: () => '2024-01-01T00:00:00.000Z' });
  const model = vectors.sync.model(identity);
  const embedder: Embedder = { ...identity, embed, close: async () => {} };
  const indexer: RetrievalIndexing = {
    catchUp: () => {},
    vectorModel: () => model,
    embedder: () => embedder,
    loading: () => null,
  };
  const indexes = {
    lexical: createSqliteLexicalIndex(store),
    slots: createSqliteSlotIndex(store),
    threads: createSqliteThreadIndex(store),
    vectors,
  };
  const input = (lanes: Lane[], deadline?: number) => ({
    lanes,
    indexes,
    indexer,
    query: 'what about it',
    terms: ['it'],
    eligibility: { brainUid: 'brn_none', excludeLocalOnly: false },
    ledger: createCostLedger(),
    mode: 'fast' as const,
    reranker: null,
    deadline,
    emit: () => {},
  });
  return { input, store, indexes };
}

describe('retrieve', () => {
  it('runs the lanes that need no query vector while the query is being embedded', async () => {
    const events: string[] = [];
    const vector = Float32Array.from([1, 0, 0, 0]);
    // The embedding answers only when released: a retrieve() that awaited it before any lane would
    // run the lexical lane after the release (the timer below), which the order of events shows.
    let release: () => void = () => {};
    const { input } = setup(
      () =>
        new Promise((resolve) => {
          events.push('embed called');
          release = () => {
            events.push('embedding released');
            resolve([vector]);
          };
        }),
    );
    const fallback = setTimeout(() => release(), 50);
    const seen: Array<Float32Array | null | undefined> = [];
    const lane = (name: string, needsQueryVector: boolean): Lane => ({
      name,
      needsQueryVector,
      search(i: LaneInput) {
        events.push(`${name} ran`);
        seen.push(i.queryVector);
        if (name === 'lexical') release();
        return [{ recordId: `rec_${name}`, score: 1, reason: name }];
      },
    });
    const out = await retrieve(input([lane('semantic', true), lane('lexical', false)]));
    clearTimeout(fallback);
    assert.deepEqual(events, ['embed called', 'lexical ran', 'embedding released', 'semantic ran']);
    assert.deepEqual(seen, [null, vector], 'the lexical lane gets no vector; the semantic lane the query’s');
    // The Trace keeps the configured order, whichever lane ran first.
    assert.deepEqual(
      out.laneResults.map((r) => r.lane),
      ['semantic', 'lexical', 'prompt'],
    );
    assert.ok(
      'embed' in out.timings && 'embed_wait' in out.timings,
      'the embedding and the wait for it are timed',
    );
  });

  it('an embedding that outlasts budget.ms skips the semantic lane once, and keeps what the others found', async () => {
    const { input } = setup(() => new Promise(() => {}));
    const lane = (name: string, needsQueryVector: boolean): Lane => ({
      name,
      needsQueryVector,
      search: () => [{ recordId: `rec_${name}`, score: 1, reason: name }],
    });
    // retrieve()'s budget timer is unref'd (it must not hold a server's exit); this one keeps the test alive.
    const alive = setTimeout(() => {}, 1_000);
    const out = await retrieve(
      input([lane('lexical', false), lane('semantic', true)], performance.now() + 20),
    );
    clearTimeout(alive);
    // A timer may fire a little before performance.now() reaches the deadline, so the prompt lane may
    // still run: what must hold is that the semantic lane is skipped once and never run.
    assert.deepEqual(
      out.skipped.filter((l) => l === 'semantic'),
      ['semantic'],
    );
    assert.ok(!out.laneResults.some((r) => r.lane === 'semantic'));
    assert.equal(out.laneResults[0]?.lane, 'lexical');
  });

  it('the orderings after the fusion read the texts they weigh in one read of the lexical index', async () => {
    const { input, store, indexes } = setup(async (texts) =>
      texts.map(() => Float32Array.from([1, 0, 0, 0])),
    );
    const december = Date.UTC(2026, 11, 1);
    brainWithRecords(store, 0, '2026-11-20T00:00:00.000Z'); // Brain brn_a, its Records below
    const texts = ['Spanish lesson', 'Globex holiday party', 'Globex planning doc is due'];
    texts.forEach((text, i) =>
      store.run(
        `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
         VALUES (?, ?, 'brn_a', ?, 'event', '{}', ?, 'high', 'shareable', '2026-11-20T00:00:00.000Z', 0, '2026-11-20T00:00:00.000Z')`,
        i + 1,
        `rec_${i + 1}`,
        i + 1,
        text,
      ),
    );
    const reads: string[][] = [];
    const lexical = indexes.lexical;
    const counted = {
      ...lexical,
      texts: (brainUid: string, ids: readonly string[]) => {
        reads.push([...ids]);
        return lexical.texts(brainUid, ids);
      },
    };
    const intent: TimeIntent = {
      fromMs: december,
      toMs: Date.UTC(2027, 0, 1),
      timeWords: ['december'],
      label: 'December',
    };
    const lane = (name: string, found: LaneCandidate[]): Lane => ({
      name,
      search(i: LaneInput) {
        if (name === 'time') i.memo?.set('timeIntent', intent);
        return found;
      },
    });
    // The events of December lead where they share the question's other word: the party, not the lesson
    // the time lane ranked above it.
    const out = await retrieve({
      ...input([
        lane('lexical', [{ recordId: 'rec_3', score: 1, reason: 'globex' }]),
        lane('time', [
          { recordId: 'rec_1', score: 1, reason: 'in December', datedMs: december },
          { recordId: 'rec_2', score: 1, reason: 'in December', datedMs: december + 9 * 86_400_000 },
        ]),
      ]),
      indexes: { ...indexes, lexical: counted },
      query: 'What about Globex in December?',
      terms: ['globex', 'december'],
      eligibility: { brainUid: 'brn_a', excludeLocalOnly: false },
    });
    assert.deepEqual(
      out.fused.map((f) => f.recordId),
      ['rec_2', 'rec_1', 'rec_3'],
    );
    // bulkBehind weighs the best candidates' texts and datedFirst the events', from one read.
    assert.deepEqual(
      reads.map((ids) => ids.sort()),
      [['rec_1', 'rec_2', 'rec_3']],
      'one read of the texts',
    );
  });
});
