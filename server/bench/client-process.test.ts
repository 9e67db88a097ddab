import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { forkClient } from './client-process.ts';

type Start = { type: 'start'; bytes: number; fail: boolean };
type Done = { type: 'done'; payload: string };

/** A client module answering `start` with `bytes` characters, or failing when asked to. */
function clientModule(): URL {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-client-process-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'client.mjs');
  writeFileSync(
    file,
    `import { serveClient } from ${JSON.stringify(new URL('./client-process.ts', import.meta.url).href)};
serveClient(async ({ next, send }) => {
  const o = await next();
  if (o.fail) throw new Error('the client gave up: ' + 'x'.repeat(o.bytes));
  send({ type: 'done', payload: 'x'.repeat(o.bytes) });
});
`,
  );
  return pathToFileURL(file);
}

describe('benchmark client processes', () => {
  it('hand over a large last message whole before the client ends', async () => {
    const client = await forkClient<Start, Done>(clientModule(), 'test client', () => {});
    after(() => client.close());
    client.send({ type: 'start', bytes: 4_000_000, fail: false });
    const done = await client.next('done');
    assert.equal(done.payload.length, 4_000_000);
  });

  it("report the client's own error, however long, not only that it exited", async () => {
    const client = await forkClient<Start, Done>(clientModule(), 'test client', () => {});
    after(() => client.close());
    client.send({ type: 'start', bytes: 4_000_000, fail: true });
    await assert.rejects(client.next('done'), /test client: Error: the client gave up: x{100}/);
  });

  it('run from the bundle of their module in the folder MNEMO_BENCH_CLIENT_BUNDLES names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-client-bundles-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    // What scripts/build-cli.mjs writes for server/bench/x-client.ts; the .ts itself does not exist.
    writeFileSync(
      join(dir, 'bench-x-client.mjs'),
      `process.send({ type: 'ready' });
process.once('message', () => process.send({ type: 'done', payload: 'from the bundle' }, () => process.disconnect()));
`,
    );
    const before = process.env.MNEMO_BENCH_CLIENT_BUNDLES;
    process.env.MNEMO_BENCH_CLIENT_BUNDLES = dir;
    try {
      const client = await forkClient<Start, Done>(
        pathToFileURL(join(dir, 'x-client.ts')),
        'test client',
        () => {},
      );
      after(() => client.close());
      client.send({ type: 'start', bytes: 0, fail: false });
      assert.equal((await client.next('done')).payload, 'from the bundle');
    } finally {
      if (before === undefined) delete process.env.MNEMO_BENCH_CLIENT_BUNDLES;
      else process.env.MNEMO_BENCH_CLIENT_BUNDLES = before;
    }
  });
});
