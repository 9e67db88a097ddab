import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCostLedger } from '../core/context/cost-ledger.ts';
import type { Embedder } from '../embed/embedder.ts';
import { tempStore } from '../adapters/sqlite/testing.ts';
import type { Lane, LaneInput } from './lane.ts';
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
  return { input };
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
});
