import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';

test('a test file that never ends fails after the file timeout, counted, and the run goes on', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-runner-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const summary = join(dir, 'summary.json');
  const run = spawnSync(
    process.execPath,
    [
      'scripts/run-tests.mjs',
      '--file-timeout-ms=1500',
      `--summary=${summary}`,
      'test/support/hangs.fixture.mjs',
    ],
    // Without this test's own node:test context, which would make the runner report to it instead.
    { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_TEST_CONTEXT: undefined } },
  );
  assert.equal(run.signal, null, 'the runner ended by itself');
  assert.equal(run.status, 1, run.stdout);
  assert.match(run.stdout, /timed out after 1500ms/);
  const counts = JSON.parse(readFileSync(summary, 'utf8')) as { passed: number; failed: number };
  assert.deepEqual([counts.passed, counts.failed], [1, 1]);
});

test('a bundled test file keeps its own import.meta and is reported, timed and located as its source', async () => {
  const { bundleTests } = (await import(new URL('../../scripts/bundle-tests.mjs', import.meta.url).href)) as {
    bundleTests: (files: string[], outdir: string) => Promise<Map<string, string>>;
  };
  // Inside the checkout, as `npm test` puts them: the bundles import packages from its node_modules.
  const outdir = join('node_modules', '.cache', 'mnemo', `test-bundles-runner-${process.pid}`);
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-runner-'));
  after(() => {
    rmSync(outdir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });
  const source = 'test/support/bundled.fixture.ts';
  const bundles = await bundleTests([source], outdir);
  const bundle = bundles.get(source);
  assert.equal(bundle, join(outdir, 'test/support/bundled.fixture.mjs'));
  const summary = join(dir, 'summary.json');
  // As scripts/test.mjs starts it: the loader's flag turns source maps on in each file's process.
  const loader = pathToFileURL(resolve('scripts/test-loader.mjs')).href;
  const args = ['--import', loader, 'scripts/run-tests.mjs', `--summary=${summary}`, bundle];
  const run = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NODE_TEST_CONTEXT: undefined, MNEMO_TEST_BUNDLES: resolve(outdir) },
  });
  assert.equal(run.status, 1, run.stdout);
  assert.match(run.stdout, /✔ keeps its own import\.meta, and strings that name it/);
  // Located in the source, not the bundle, by the report and by the stack alike.
  assert.match(run.stdout, /test at test\/support\/bundled\.fixture\.ts:13:1\n/);
  assert.match(run.stdout, /at .*\/test\/support\/bundled\.fixture\.ts:14:10\)/);
  assert.doesNotMatch(run.stdout, /bundled\.fixture\.mjs/);
  const counts = JSON.parse(readFileSync(summary, 'utf8')) as {
    passed: number;
    failed: number;
    fileMs: Record<string, number>;
  };
  assert.deepEqual([counts.passed, counts.failed], [1, 1]);
  assert.deepEqual(Object.keys(counts.fileMs), [resolve(source)]);
});
