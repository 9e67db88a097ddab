import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { test } from 'node:test';
import { createEmbedder } from './index.ts';

// Regression: the worker used to load onnxruntime's addon for every provider, and terminating a worker
// that holds it aborts the whole process ("terminate called after throwing Napi::Error"). A server
// closed while the GloVe table was still loading did exactly that, at random, under load.
test('closing while the default embedder still loads never takes the process down', async () => {
  for (let i = 0; i < 15; i++) {
    const abort = new AbortController();
    const loading = createEmbedder({ provider: 'glove-sif', dataDir: tmpdir() }, abort.signal).then(
      (e) => e,
      (e: Error) => e,
    );
    await new Promise((r) => setTimeout(r, 20 + i * 20));
    abort.abort();
    const r = await loading;
    if (r instanceof Error) assert.match(r.message, /aborted/);
    else await r.close();
  }
});
