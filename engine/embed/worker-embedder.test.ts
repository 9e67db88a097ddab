import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createWorkerEmbedder } from './worker-embedder.ts';
import { createHashModel } from './hash-model.ts';

describe('worker embedder', () => {
  it('a query sent during a large batch is answered before the batch ends, with the same vectors', async () => {
    const e = await createWorkerEmbedder({ provider: 'hash', dims: 32 });
    try {
      const texts = Array.from({ length: 400 }, (_, i) => `record number ${i} about tea`);
      let batchDone = false;
      const batch = e.embed(texts).then((v) => ((batchDone = true), v));
      const [query] = await e.embed(['tea with lemon']);
      assert.equal(batchDone, false, 'the query waited for the whole batch');
      const vectors = await batch;
      assert.equal(vectors.length, texts.length);
      // Chunking keeps the order: each text gets the vector it gets alone.
      const [alone] = await e.embed([texts[123]!]);
      assert.deepEqual([...vectors[123]!], [...alone!]);
      assert.equal(query!.length, 32);
    } finally {
      await e.close();
    }
  });

  it('the worker starts from the source tree (through tsx) and from the bundle a test run names alike', async () => {
    const bundle = process.env.MNEMO_EMBED_WORKER_BUNDLE;
    const answers: number[][] = [];
    for (const from of bundle ? [undefined, bundle] : [undefined]) {
      // A worker's environment is a copy of the parent's when it starts.
      if (from === undefined) delete process.env.MNEMO_EMBED_WORKER_BUNDLE;
      else process.env.MNEMO_EMBED_WORKER_BUNDLE = from;
      try {
        const e = await createWorkerEmbedder({ provider: 'hash', dims: 16 });
        answers.push([...(await e.embed(['tea with lemon']))[0]!]);
        await e.close();
      } finally {
        if (bundle === undefined) delete process.env.MNEMO_EMBED_WORKER_BUNDLE;
        else process.env.MNEMO_EMBED_WORKER_BUNDLE = bundle;
      }
    }
    const inThread = createHashModel(16).embedOne('tea with lemon');
    for (const a of answers) assert.deepEqual(a, [...inThread]);
  });
});
