import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { createEmbedder } from './index.ts';
import { writeTinyModel } from './testing/tiny-onnx-model.ts';
import { createWorkerEmbedder } from './worker-embedder.ts';

// Terminating a worker that holds onnxruntime's addon aborts the whole process ("terminate called after
// throwing Napi::Error"), so only the onnx provider may load it: a server closed while the GloVe table
// still loads must not hold it.
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

// And if the process runs out of work while the aborted load still runs, it waits for the thread
// instead of stopping it at exit (the same teardown as terminate, which ends in exit code 134).
test('a process that aborts an onnx load and ends exits cleanly, whenever it aborts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-onnx-exit-'));
  const modelDir = writeTinyModel(join(dir, 'tiny'), 8);
  const child = fileURLToPath(new URL('./testing/abort-load-then-exit.ts', import.meta.url));
  const run = (delay: number) =>
    new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) => {
      // Under the TypeScript loader this file runs under (npm test's is a fraction of tsx's start-up).
      const p = spawn(process.execPath, [...process.execArgv, child, modelDir, String(delay)], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      p.on('exit', (code, signal) => resolve({ code, signal, stderr }));
    });
  try {
    // Before the worker has started, while it loads onnxruntime, while it reads the model, and after.
    for (const delays of [
      [0, 120],
      [250, 400],
    ]) {
      for (const [i, r] of (await Promise.all(delays.map(run))).entries())
        assert.deepEqual([r.code, r.signal], [0, null], `abort at ${delays[i]} ms: ${r.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
