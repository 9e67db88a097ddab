import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FileKeyRegistry } from '../../../engine/auth/key-registry.ts';
import { testStoreKey } from '../../../engine/adapters/sqlite/testing.ts';
import { registryPathFor } from '../../data-dir.ts';
import { slowCreateBrain } from '../../http/testing/slow-request.ts';

const env = {
  ...process.env,
  MNEMO_LOG: '',
  MNEMO_EMBEDDER: 'none',
  MNEMO_DB_KEY: testStoreKey,
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function serve(extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-serve-stop-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const child = spawn(
    process.execPath,
    ['bin/mnemo.mjs', 'serve', '--port', '0', '--data-dir', dir, '--no-ui', ...extra],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  after(() => child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (!/listening on/.test(stdout) && Date.now() < deadline) await sleep(50);
  const port = Number(/:(\d+)\/v1/.exec(stdout)?.[1]);
  assert.ok(port > 0, `serve did not start: ${stderr}`);
  const key = (await new FileKeyRegistry(registryPathFor(dir)).create({ env: 'test', project: 'stop' })).key;
  return { child, port, key, exited, stderr: () => stderr };
}

describe('mnemo serve stops cleanly on SIGTERM', () => {
  it('finishes the request in flight, then closes the store and exits 0', async () => {
    const server = await serve();
    const slow = await slowCreateBrain(server.port, server.key, 'inflight');
    server.child.kill('SIGTERM');
    // Past the old fixed 2 s after which connections were dropped.
    await sleep(2_500);
    assert.equal(server.child.exitCode, null, 'still serving the request in flight');
    slow.finish();
    const reply = await slow.reply;
    assert.equal(reply.status, 201);
    assert.equal(reply.body.id, 'inflight');
    assert.equal(await server.exited, 0);
    assert.doesNotMatch(server.stderr(), /internal_error|engine is closed/);
  });

  it('a second signal stops waiting: the request gets a 500 error body and the exit code is 0', async () => {
    const server = await serve();
    const slow = await slowCreateBrain(server.port, server.key, 'cut');
    server.child.kill('SIGINT');
    // A repeat within a second is the same Ctrl-C seen twice (npm start forwards it), not a second one.
    await sleep(100);
    server.child.kill('SIGINT');
    await sleep(1_500);
    assert.equal(server.child.exitCode, null, 'the echo of the first signal did not force the stop');
    server.child.kill('SIGINT');
    const reply = await slow.reply;
    assert.equal(reply.status, 500);
    assert.equal(reply.body.code, 'internal_error');
    assert.equal(await server.exited, 0);
    assert.match(server.stderr(), /SIGINT again: not waiting/);
  });
});
