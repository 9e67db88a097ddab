import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createCostLedger } from '../context/cost-ledger.ts';
import type { Embedder } from '../embed/embedder.ts';
import { openStore } from '../store/store.ts';
import type { Lane, LaneInput } from './lane.ts';
import type { RetrievalIndexer } from './retrieval-indexer.ts';
import { retrieve } from './retrieve.ts';
import { ensureVectorModel } from './vector-store.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('retrieve', () => {
  it('runs the lanes that need no query vector while the query is being embedded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-retrieve-'));
    dirs.push(dir);
    const store = openStore({ dataDir: dir, key: null });
    const identity = { provider: 'test', model: 'deferred', dims: 4 };
    const model = ensureVectorModel(store, identity, '2024-01-01T00:00:00.000Z');
    const events: string[] = [];
    const vector = Float32Array.from([1, 0, 0, 0]);
    // The embedding answers only when released: a retrieve() that awaited it before any lane would
    // run the lexical lane after the release (the timer below), which the order of events shows.
    let release: () => void = () => {};
    const embedder: Embedder = {
      ...identity,
      embed: () =>
        new Promise((resolve) => {
          events.push('embed called');
          release = () => {
            events.push('embedding released');
            resolve([vector]);
          };
        }),
      close: async () => {},
    };
    const fallback = setTimeout(() => release(), 50);
    const indexer: RetrievalIndexer = {
      kick: () => {},
      idle: async () => {},
      catchUp: () => {},
      vectorModel: () => model,
      embedder: () => embedder,
      loading: () => null,
      close: async () => {},
    };
    const seen: Array<Float32Array | null | undefined> = [];
    const lane = (name: string, needsQueryVector: boolean): Lane => ({
      name,
      needsQueryVector,
      search(input: LaneInput) {
        events.push(`${name} ran`);
        seen.push(input.queryVector);
        if (name === 'lexical') release();
        return [{ recordId: `rec_${name}`, score: 1, reason: name }];
      },
    });
    const out = await retrieve({
      store,
      lanes: [lane('semantic', true), lane('lexical', false)],
      indexer,
      query: 'what about it',
      terms: ['it'],
      eligibility: { brainUid: 'brn_none', excludeLocalOnly: false },
      ledger: createCostLedger(),
      mode: 'fast',
      reranker: null,
      emit: () => {},
    });
    clearTimeout(fallback);
    store.close();
    assert.deepEqual(events, ['embed called', 'lexical ran', 'embedding released', 'semantic ran']);
    assert.deepEqual(seen, [null, vector], 'the lexical lane gets no vector; the semantic lane the query’s');
    // The Trace keeps the configured order, whichever lane ran first.
    assert.deepEqual(
      out.laneResults.map((r) => r.lane),
      ['semantic', 'lexical', 'prompt'],
    );
    assert.ok((out.timings['embed'] ?? -1) >= 0, 'the embedding is timed');
  });
});
