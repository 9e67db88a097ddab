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

interface Grouping {
  groups: { members: string[]; seconds: number }[];
  alone: string[];
}
const testGroups = async () =>
  (await import(new URL('../../scripts/test-groups.mjs', import.meta.url).href)) as {
    mayShareProcess: (source: string) => boolean;
    groupSmallFiles: (o: {
      files: string[];
      sources: string[];
      runAs: Map<string, string>;
      known: Record<string, number>;
      maxSeconds?: number;
      groupSeconds?: number;
    }) => Grouping;
    writeGroups: (
      groups: Grouping['groups'],
      runAs: Map<string, string>,
      dir: string,
    ) => { path: string; members: string[]; seconds: number }[];
  };

test('small bundled files share one process, each reported, timed and located as its own', async () => {
  const { bundleTests } = (await import(new URL('../../scripts/bundle-tests.mjs', import.meta.url).href)) as {
    bundleTests: (files: string[], outdir: string) => Promise<Map<string, string>>;
  };
  const { groupSmallFiles, writeGroups } = await testGroups();
  const outdir = join('node_modules', '.cache', 'mnemo', `test-bundles-groups-${process.pid}`);
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-runner-'));
  after(() => {
    rmSync(outdir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });
  const files = [
    'test/support/bundled.fixture.ts',
    'test/support/fails-to-load.fixture.ts',
    'test/support/grouped.fixture.ts',
  ];
  const runAs = await bundleTests(files, outdir);
  const sources = files.map((f) => readFileSync(f, 'utf8'));
  const { groups, alone } = groupSmallFiles({
    files,
    sources,
    runAs,
    known: { [files[0]!]: 0.2, [files[1]!]: 0.1, [files[2]!]: 0.1 },
  });
  assert.deepEqual(alone, []);
  const [group, ...more] = writeGroups(groups, runAs, join(outdir, 'groups'));
  assert.ok(group && more.length === 0);
  const summary = join(dir, 'summary.json');
  const loader = pathToFileURL(resolve('scripts/test-loader.mjs')).href;
  const run = spawnSync(
    process.execPath,
    ['--import', loader, 'scripts/run-tests.mjs', `--summary=${summary}`, group.path],
    {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, MNEMO_TEST_BUNDLES: resolve(outdir) },
    },
  );
  assert.equal(run.status, 1, run.stdout);
  // The file that throws is a failure under its own name, and the file after it still runs.
  assert.match(run.stdout, /✖ test\/support\/fails-to-load\.fixture\.ts loads/);
  assert.match(run.stdout, /this file cannot load\n\s+at .*\/test\/support\/fails-to-load\.fixture\.ts:4:7/);
  assert.match(run.stdout, /test at .*\/groups\/group-1\.test\.mjs:\d+:\d+\n✖ test\/support\/fails-to-load/);
  assert.match(run.stdout, /✔ runs in the process of the file before it/);
  assert.match(run.stdout, /test at test\/support\/bundled\.fixture\.ts:13:1\n/);
  const counts = JSON.parse(readFileSync(summary, 'utf8')) as {
    passed: number;
    failed: number;
    fileMs: Record<string, number>;
    testsMs: Record<string, number>;
  };
  assert.deepEqual([counts.passed, counts.failed], [2, 2]);
  // One process ran them: one file-level entry, the group's, and each file timed by its tests (the
  // load failure is the group's own test).
  assert.deepEqual(Object.keys(counts.fileMs), [resolve(group.path)]);
  assert.deepEqual(
    Object.keys(counts.testsMs).sort(),
    [resolve(group.path), resolve(files[0]!), resolve(files[2]!)].sort(),
  );
});

test('a file that changes its process, or has not been timed, or is slow, runs alone', async () => {
  const { groupSmallFiles, mayShareProcess } = await testGroups();
  for (const changes of [
    "process.env.MNEMO_LOG = 'debug';",
    "process.env['X'] ??= '1';",
    'delete process.env.HOME;',
    "process.on('exit', () => {});",
    'process.exitCode = 1;',
    "mock.method(fs, 'readFileSync');",
    'mock.timers.enable();',
    'globalThis.fetch = f;',
    'Date.now = () => 0;',
    'before(() => start());',
    'beforeEach(() => reset());',
  ])
    assert.equal(mayShareProcess(`import { test } from 'node:test';\n${changes}\n`), false, changes);
  for (const harmless of [
    'const home = process.env.HOME;',
    "if (process.env.X === '1') skip();",
    't.mock.method(fs, "readFileSync");',
    'after(() => rmSync(dir));',
    'const now = Date.now();',
  ])
    assert.equal(mayShareProcess(`import { test } from 'node:test';\n${harmless}\n`), true, harmless);

  const files = ['a.test.ts', 'b.test.ts', 'c.test.ts', 'd.test.ts', 'e.test.ts', 'f.test.ts', 'g.test.ts'];
  const sources = files.map((f) => (f === 'd.test.ts' ? "process.env.X = '1';" : ''));
  const runAs = new Map(files.filter((f) => f !== 'e.test.ts').map((f) => [f, `out/${f}`]));
  const known = {
    'a.test.ts': 4,
    'b.test.ts': 5,
    'c.test.ts': 2,
    'd.test.ts': 1,
    'e.test.ts': 1,
    'g.test.ts': 30,
  };
  const { groups, alone } = groupSmallFiles({
    files,
    sources,
    runAs,
    known,
    maxSeconds: 5,
    groupSeconds: 10,
  });
  // a and b fill one group; c starts the next, alone in it, so it runs alone; d changes its process,
  // e is not bundled, f has no timing yet, g is slow.
  assert.deepEqual(
    groups.map((g) => g.members),
    [['a.test.ts', 'b.test.ts']],
  );
  assert.deepEqual(alone.sort(), ['c.test.ts', 'd.test.ts', 'e.test.ts', 'f.test.ts', 'g.test.ts']);
});
