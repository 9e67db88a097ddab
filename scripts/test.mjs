// `npm test`: build the UI, then every *.test.ts under node:test beside typecheck and lint, ending with
// one "N passed, M failed" line. Checks that are not node tests count as one test each in that line.
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const onlyTests = args.includes('--only-tests');
const writeTimings = args.includes('--write-timings');
// Typecheck and lint before the tests, as the suite ran before: to tell a test that fails only
// beside them from one that fails anyway.
const checksFirst = args.includes('--checks-first');
const filters = args.filter((a) => !a.startsWith('--'));
// Each file's wall time in seconds: the committed one (scripts/test-timings.json, refreshed with
// `npm test -- --write-timings`), overridden by this checkout's last runs.
const committedTimings = 'scripts/test-timings.json';
const localTimings = 'node_modules/.cache/mnemo/test-timings.json';

let passed = 0;
let failed = 0;
let skipped = 0;

/**
 * Runs the checks side by side (the machine's cores would otherwise idle through two single-threaded
 * tools), printing each one's output whole once `shown` has settled and it has ended, so the logs do
 * not interleave with each other or with the tests'.
 */
function steps(list, shown = Promise.resolve()) {
  return Promise.all(
    list.map(
      ([name, cmd, cmdArgs]) =>
        new Promise((done) => {
          const started = Date.now();
          const p = spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
          const out = [];
          p.stdout.on('data', (d) => out.push(d));
          p.stderr.on('data', (d) => out.push(d));
          p.on('close', async (code) => {
            const seconds = (Date.now() - started) / 1000;
            await shown;
            process.stdout.write(Buffer.concat(out));
            const ok = code === 0;
            console.log(`${ok ? 'ok' : 'FAILED'}: ${name} (${seconds.toFixed(1)} s)`);
            if (ok) passed += 1;
            else failed += 1;
            done();
          });
        }),
    ),
  );
}

function findTests(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) findTests(p, out);
    else if (name.endsWith('.test.ts') || name.endsWith('.test.tsx')) out.push(relative('.', p));
  }
  return out;
}

const readTimings = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
};

const known = { ...readTimings(committedTimings), ...readTimings(localTimings) };
// Slowest first, so the run does not end on one long file while the other core idles; a file with no
// timing yet goes first, as it may be slow.
const files = findTests('.')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort((a, b) => (known[b] ?? Infinity) - (known[a] ?? Infinity) || (a < b ? -1 : 1));
if (files.length === 0) {
  // node --test with no file runs its own discovery, which is not this suite.
  console.log(`FAILED: no test file matches ${filters.map((x) => JSON.stringify(x)).join(' or ')}`);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}

const sources = files.map((f) => readFileSync(f, 'utf8'));
/** Whether a file to run calls what `pattern` names: the run's shared fixtures start only for those. */
const someFileCalls = (pattern) => sources.some((text) => pattern.test(text));

// The TypeScript loader of the run's processes (a fraction of tsx's start-up): node:test starts each
// file's process with run-tests.mjs's flags, so by its absolute path, as a test may start it elsewhere.
const loader = pathToFileURL(resolve('scripts/test-loader.mjs')).href;

const sharedClusterEnv = 'MNEMO_TEST_POSTGRES';
let sharedCluster = null;
let sharedBrowser = null;
let testProcess = null;
/** Stops the run's PostgreSQL cluster, whatever ends this process (synchronous: it runs on 'exit'). */
function stopSharedCluster() {
  const server = sharedCluster;
  sharedCluster = null;
  if (!server) return;
  try {
    execFileSync(server.stopCommand[0], server.stopCommand[1], { stdio: 'ignore', timeout: 60_000 });
  } catch (e) {
    console.log(`postgres: the run's cluster did not stop cleanly: ${e.message}`);
  } finally {
    rmSync(server.dir, { recursive: true, force: true });
  }
}
process.on('exit', stopSharedCluster);
// Its stop signal closes Chromium too; killed outright, it would leave Chromium to notice its pipe close.
process.on('exit', () => sharedBrowser?.kill('SIGTERM'));
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  process.on(signal, () => {
    testProcess?.kill(signal);
    process.exit(code);
  });
}

/**
 * One PostgreSQL cluster for every test file that wants one (instead of an initdb and a server start
 * per file, seconds of CPU each): each file makes and drops its own databases in it, by the URL in
 * MNEMO_TEST_POSTGRES (engine/adapters/postgres/testing/cluster.ts). Only when a file to run starts a
 * cluster, and not over one the caller named already.
 */
async function startSharedCluster() {
  if (process.env[sharedClusterEnv]) return;
  if (!someFileCalls(/\b(?:startCluster|serverForTests)\(/)) return;
  const started = Date.now();
  const out = await new Promise((done) => {
    const p = spawn(process.execPath, ['--import', loader, 'scripts/test-postgres.ts'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    p.stdout.on('data', (d) => (text += d));
    p.on('close', () => done(text));
  });
  let result = null;
  try {
    result = JSON.parse(out);
  } catch {
    console.log('postgres: the shared cluster did not start; each file starts its own');
    return;
  }
  if (result.skip) return; // each file says why it skips
  sharedCluster = result.server;
  process.env[sharedClusterEnv] = sharedCluster.base;
  console.log(`postgres: one cluster for the run (${((Date.now() - started) / 1000).toFixed(1)} s to start)`);
}

/**
 * One Chromium for every e2e file (scripts/test-browser.ts), each working in a browser context of its
 * own (test/e2e/harness.ts), instead of a Chromium started and stopped by each file. Without it (no
 * Chromium here, or it did not start) each file starts its own, and says why it cannot.
 */
async function startSharedBrowser() {
  if (process.env.MNEMO_TEST_BROWSER_WS || !someFileCalls(/\bbrowserPerFile\(/)) return;
  const p = spawn(process.execPath, ['--import', loader, 'scripts/test-browser.ts'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise((done) => {
    let text = '';
    p.stdout.on('data', (d) => {
      text += d;
      if (text.includes('\n')) done(text.split('\n')[0]);
    });
    p.on('close', () => done(null));
  });
  try {
    process.env.MNEMO_TEST_BROWSER_WS = JSON.parse(line).wsEndpoint;
    sharedBrowser = p;
  } catch {
    console.log('e2e: no shared browser; each file starts its own');
    p.kill('SIGKILL');
  }
}

/** Closes the run's browser (its stdin ending is its signal), waiting a little for it to go. */
async function stopSharedBrowser() {
  const p = sharedBrowser;
  sharedBrowser = null;
  if (!p || p.exitCode !== null) return;
  const gone = new Promise((done) => p.once('close', done));
  p.stdin.end();
  const timer = setTimeout(() => p.kill('SIGKILL'), 10_000);
  await gone;
  clearTimeout(timer);
}

/**
 * The `mnemo` command as one bundle for the tests that start it (dozens of times: a CPU second each
 * through tsx, a third of that bundled); bin/mnemo.mjs loads it when MNEMO_TEST_CLI_BUNDLE names it.
 * The embedding worker every server starts and the benchmarks' clients are bundled beside it
 * (MNEMO_EMBED_WORKER_BUNDLE, MNEMO_BENCH_CLIENT_BUNDLES), and so is the derive thread
 * (MNEMO_DERIVE_THREAD_BUNDLE).
 * Without it (no esbuild, or the build failed) they start it through tsx.
 */
async function buildTestCli() {
  // Inside the checkout: the packages left out of the bundle are found from where it is.
  const out = join('node_modules', '.cache', 'mnemo', `test-cli-${process.pid}`, 'main.mjs');
  try {
    const { buildCli: build } = await import('./build-cli.mjs');
    const { embedWorker, deriveThread } = await build(out);
    process.env.MNEMO_EMBED_WORKER_BUNDLE = resolve(embedWorker);
    process.env.MNEMO_DERIVE_THREAD_BUNDLE = resolve(deriveThread);
    process.env.MNEMO_BENCH_CLIENT_BUNDLES = resolve(dirname(out));
  } catch (e) {
    // A bundle named from outside, or dist/cli, could be older than the sources: the tests use tsx.
    process.env.MNEMO_TEST_CLI_BUNDLE = '';
    delete process.env.MNEMO_EMBED_WORKER_BUNDLE;
    delete process.env.MNEMO_DERIVE_THREAD_BUNDLE;
    delete process.env.MNEMO_BENCH_CLIENT_BUNDLES;
    console.log(`test cli: not bundled, tests start bin/mnemo.mjs through tsx (${e.message})`);
    return;
  }
  process.env.MNEMO_TEST_CLI_BUNDLE = resolve(out);
  process.on('exit', () => rmSync(dirname(out), { recursive: true, force: true }));
}

/**
 * The PGlite data directories the PostgreSQL tests start from, made once (one initdb) before the files
 * start, when a file to run opens PGlite: on a fresh checkout the first files would each make them, at
 * once, beside each other. A failure here only leaves it to the files.
 */
async function preparePglite() {
  if (!someFileCalls(/\b(?:pglite|migratedPglite|pgliteDatabases)\(/)) return;
  const started = Date.now();
  const ok = await new Promise((done) => {
    // Its stdout is node:test's (the helper's module imports it), not a report.
    const p = spawn(process.execPath, ['--import', loader, 'scripts/prepare-pglite.ts'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    p.on('close', (code) => done(code === 0));
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `pglite: data directories ${ok ? 'ready' : 'not made, the files make their own'} (${seconds} s)`,
  );
}

/**
 * The test files bundled (scripts/bundle-tests.mjs): what each file runs as, its bundle or itself.
 * Inside the checkout, so the packages the bundles import are found from where they are. Without
 * bundles (`--no-bundle`, or the build failed) each file runs through the loader.
 */
const bundleDir = join('node_modules', '.cache', 'mnemo', `test-bundles-${process.pid}`);
let runAs = new Map();
/**
 * What the run's processes run, slowest first: each file (its bundle, or itself), or a group of small
 * bundled files sharing one process (scripts/test-groups.mjs; `--no-groups` runs each alone).
 */
let runList = null;
let groupsRun = [];
async function bundleTestFiles() {
  if (args.includes('--no-bundle')) return;
  const started = Date.now();
  process.on('exit', () => rmSync(bundleDir, { recursive: true, force: true }));
  try {
    const { bundleTests } = await import('./bundle-tests.mjs');
    runAs = await bundleTests(files, bundleDir, sources);
  } catch (e) {
    console.log(`test bundles: not built, the files run through the loader (${e.message})`);
    return;
  }
  process.env.MNEMO_TEST_BUNDLES = resolve(bundleDir);
  console.log(
    `test bundles: ${runAs.size} of ${files.length} files (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  if (args.includes('--no-groups')) return;
  const { groupSmallFiles, writeGroups } = await import('./test-groups.mjs');
  const { groups, alone } = groupSmallFiles({ files, sources, runAs, known });
  groupsRun = writeGroups(groups, runAs, join(bundleDir, 'groups'));
  runList = [
    ...alone.map((f) => ({ path: runAs.get(f) ?? f, seconds: known[f] ?? Infinity })),
    ...groupsRun.map((g) => ({ path: g.path, seconds: g.seconds })),
  ].sort((a, b) => b.seconds - a.seconds);
  if (groupsRun.length > 0) {
    const shared = groupsRun.reduce((n, g) => n + g.members.length, 0);
    console.log(`test groups: ${shared} small files share ${groupsRun.length} processes`);
  }
}

// The e2e tests serve dist/renderer, so the UI is built before any test starts; the cluster and the
// browser start, the CLI and the test files are bundled and PGlite's data directories are made
// meanwhile.
await Promise.all([
  startSharedCluster(),
  startSharedBrowser(),
  buildTestCli(),
  bundleTestFiles(),
  preparePglite(),
  onlyTests ? null : steps([['build ui', process.execPath, ['scripts/build-ui.mjs', '--force']]]),
]);
let testsEnded;
const testsDone = new Promise((resolve) => (testsEnded = resolve));
// Typecheck and lint run beside the tests at a low priority: they take up the time a core would
// otherwise idle while tests wait on processes, browsers and timers, and give way when a test wants
// it, though not entirely (memory, disk): `--checks-first` runs them before the tests instead. Without
// `nice` (Windows) they run at the usual priority.
const nice = process.platform !== 'win32' && existsSync('/usr/bin/nice') ? ['/usr/bin/nice', '-n', '15'] : [];
const niced = (cmd, cmdArgs) =>
  nice.length ? [nice[0], [...nice.slice(1), cmd, ...cmdArgs]] : [cmd, cmdArgs];
const checkSteps = [
  // One checker: the check's wall time is hidden beside the tests, its CPU is not (scripts/typecheck.mjs).
  ['typecheck', ...niced(process.execPath, ['scripts/typecheck.mjs', '--checkers', '1'])],
  ['lint', ...niced('npm', ['run', '--silent', 'lint'])],
];
if (!onlyTests && checksFirst) await steps(checkSteps);
const checks = onlyTests || checksFirst ? Promise.resolve() : steps(checkSteps, testsDone);

// The run's own directory: the runner's summary, and the temp dir every test file's process gets as
// TMPDIR, so that whatever a test leaves behind is seen (and counted a failure) rather than piling up
// in the machine's /tmp run after run.
const runDir = mkdtempSync(join(tmpdir(), 'mnemo-test-'));
process.on('exit', () => rmSync(runDir, { recursive: true, force: true }));
const summaryFile = join(runDir, 'summary.json');
const testsTmp = join(runDir, 'tmp');
mkdirSync(testsTmp);
// As /tmp is: the PostgreSQL tests run initdb and the server as the postgres user, in dirs made here.
chmodSync(runDir, 0o755);
chmodSync(testsTmp, 0o1777);
// The TypeScript loaders' caches of compiled sources (tsx's, jiti's) belong in a temp dir.
const toolCaches = /^(tsx-\d+|jiti)$/;
const started = Date.now();
const status = await new Promise((done) => {
  testProcess = spawn(
    process.execPath,
    [
      // Every test file's process inherits these. WebAssembly compiled by the baseline compiler only:
      // PGlite's 9 MB module is compiled anew in each of ~30 processes that run it for seconds, where
      // the optimising tier's background compiles cost more CPU than they save (~1 s a process).
      '--liftoff-only',
      '--import',
      loader,
      'scripts/run-tests.mjs',
      '--concurrency=3',
      `--summary=${summaryFile}`,
      ...(runList?.map((u) => u.path) ?? files.map((f) => runAs.get(f) ?? f)),
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, TMPDIR: testsTmp, MNEMO_LOG: process.env.MNEMO_LOG ?? 'silent' },
    },
  );
  testProcess.on('close', (code) => done(code));
});
testProcess = null;
testsEnded();
stopSharedCluster();
await stopSharedBrowser();
const testsSeconds = (Date.now() - started) / 1000;
try {
  const s = JSON.parse(readFileSync(summaryFile, 'utf8'));
  passed += s.passed;
  failed += s.failed;
  skipped += s.skipped;
  const inSeconds = (ms) => Math.round(ms / 100) / 10;
  const groupPaths = new Set(groupsRun.map((g) => resolve(g.path)));
  const seconds = Object.fromEntries(
    Object.entries(s.fileMs ?? {})
      .filter(([file]) => !groupPaths.has(resolve(file)))
      .map(([file, ms]) => [relative('.', file), inSeconds(ms)]),
  );
  // A file that shared a process is timed by its tests; one whose tests did not report keeps its time.
  for (const file of groupsRun.flatMap((g) => g.members)) {
    const ms = s.testsMs?.[resolve(file)];
    if (ms !== undefined) seconds[file] = inSeconds(ms);
  }
  const sorted = (t) =>
    Object.fromEntries(Object.entries(t).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
  mkdirSync(dirname(localTimings), { recursive: true });
  writeFileSync(
    localTimings,
    `${JSON.stringify(sorted({ ...readTimings(localTimings), ...seconds }), null, 2)}\n`,
  );
  if (writeTimings && filters.length === 0)
    writeFileSync(committedTimings, `${JSON.stringify(sorted(seconds), null, 2)}\n`);
  // Where the suite's time goes (files run three at a time, so these add up to about three times the wall time).
  const slowest = Object.entries(seconds)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8);
  if (slowest.length > 0) console.log('slowest test files:');
  for (const [file, sec] of slowest) console.log(`  ${sec.toFixed(1).padStart(6)} s  ${file}`);
} catch {
  failed += 1;
  console.log('FAILED: the test runner produced no summary');
}
const leftBehind = readdirSync(testsTmp).filter((name) => !toolCaches.test(name));
if (leftBehind.length > 0) {
  failed += 1;
  console.log(
    `FAILED: the tests left ${leftBehind.length} entr${leftBehind.length === 1 ? 'y' : 'ies'} in their temp dir: ` +
      leftBehind.slice(0, 20).join(', '),
  );
}
if (status !== 0 && failed === 0) failed += 1;
console.log(`tests: ${files.length} files in ${testsSeconds.toFixed(1)} s`);
await checks;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
