import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { after, describe, it } from 'node:test';
import { writeTinyModel } from './testing/tiny-onnx-model.ts';
import { onnxTelemetryVariable } from './onnx-offline.ts';

const root = mkdtempSync(join(tmpdir(), 'mnemo-onnx-offline-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Every file under dir, relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();

describe('onnxruntime stays offline', () => {
  it('embedding through the worker writes no device id, event queue or temp file', async () => {
    const modelDir = writeTinyModel(join(root, 'model'));
    // The child's home, caches and temp dir are empty directories of their own: whatever onnxruntime
    // writes (its device id and event queue under ~/.cache, its session files in the temp dir) shows.
    const home = join(root, 'home');
    const temp = join(root, 'temp');
    mkdirSync(home);
    mkdirSync(temp);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, TMPDIR: temp };
    delete env[onnxTelemetryVariable];
    delete env['XDG_CACHE_HOME'];
    const child = fileURLToPath(new URL('./testing/embed-once.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [...process.execArgv, child, modelDir], {
      env,
    });
    assert.equal(stdout.trim(), '8', 'the model was loaded and used');
    assert.deepEqual(filesUnder(home), []);
    // The TypeScript loader may keep its own cache in the temp dir; onnxruntime's files are named here.
    assert.deepEqual(
      filesUnder(temp).filter((f) => /(^|\/)(\.ses|mat-debug-.*|deviceid|onnxruntime\.db)$/.test(f)),
      [],
    );
  });

  it('a worker whose parent did not turn telemetry off refuses to load onnxruntime', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env[onnxTelemetryVariable];
    // Workers start without the test's TypeScript loader: this one registers tsx's, as the embedding
    // worker does (embed-worker-entry.mjs).
    const worker = new Worker(
      `(async () => {
         const { parentPort } = require('node:worker_threads');
         (await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})).register();
         const m = await import(${JSON.stringify(new URL('./onnx-offline.ts', import.meta.url).href)});
         try { m.keepOnnxRuntimeOffline(); parentPort.postMessage('allowed'); }
         catch (e) { parentPort.postMessage(e.message); }
       })();`,
      { eval: true, env },
    );
    const [message] = (await new Promise((resolve) => worker.once('message', (m) => resolve([m])))) as [
      string,
    ];
    await worker.terminate();
    assert.match(message, /ORT_DISABLE_TELEMETRY=1 must be set on the main thread/);
  });
});
