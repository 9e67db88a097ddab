import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createEmbedder } from './index.ts';
import { writeTinyModel } from './testing/tiny-onnx-model.ts';
import { createWorkerEmbedder } from './worker-embedder.ts';

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

// The worker that has loaded onnxruntime is never terminated: an aborted load asks it to close, and it
// exits on its own once the model has loaded. Terminating it took the process down with SIGABRT.
test('closing while an onnx model still loads never takes the process down', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-onnx-abort-'));
  const modelDir = writeTinyModel(join(dir, 'tiny'), 8);
  try {
    for (let i = 0; i < 20; i++) {
      const abort = new AbortController();
      const loading = createWorkerEmbedder({ provider: 'onnx', modelDir, maxTokens: 6 }, abort.signal).then(
        (e) => e,
        (e: Error) => e,
      );
      await new Promise((r) => setTimeout(r, i * 15));
      abort.abort();
      const r = await loading;
      if (r instanceof Error) assert.match(r.message, /aborted/);
      else await r.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
