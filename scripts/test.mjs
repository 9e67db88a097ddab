// `npm test`: typecheck, lint, build the UI, then every *.test.ts under node:test, ending with one
// "N passed, M failed" line. Checks that are not node tests count as one test each in that line.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const args = process.argv.slice(2);
const onlyTests = args.includes('--only-tests');
const filters = args.filter((a) => !a.startsWith('--'));

let passed = 0;
let failed = 0;
let skipped = 0;

/**
 * Runs the checks side by side (the machine's cores would otherwise idle through two single-threaded
 * tools), printing each one's output whole when it ends so the logs do not interleave.
 */
async function steps(list) {
  await Promise.all(
    list.map(
      ([name, cmd, cmdArgs]) =>
        new Promise((done) => {
          const started = Date.now();
          const p = spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
          const out = [];
          p.stdout.on('data', (d) => out.push(d));
          p.stderr.on('data', (d) => out.push(d));
          p.on('close', (code) => {
            process.stdout.write(Buffer.concat(out));
            const ok = code === 0;
            console.log(`${ok ? 'ok' : 'FAILED'}: ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
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

if (!onlyTests) {
  await steps([
    ['typecheck', process.execPath, ['scripts/typecheck.mjs']],
    ['lint', 'npm', ['run', '--silent', 'lint']],
    ['build ui', process.execPath, ['scripts/build-ui.mjs', '--force']],
  ]);
}

const files = findTests('.').filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  // node --test with no file runs its own discovery, which is not this suite.
  console.log(`FAILED: no test file matches ${filters.map((x) => JSON.stringify(x)).join(' or ')}`);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}
const summaryFile = join(mkdtempSync(join(tmpdir(), 'mnemo-test-')), 'summary.json');
const started = Date.now();
const r = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/summary-reporter.mjs',
    `--test-reporter-destination=${summaryFile}`,
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, MNEMO_LOG: process.env.MNEMO_LOG ?? 'silent' } },
);
try {
  const s = JSON.parse(readFileSync(summaryFile, 'utf8'));
  passed += s.passed;
  failed += s.failed;
  skipped += s.skipped;
  // Where the suite's time goes (files run two at a time, so these add up to about twice the wall time).
  const slowest = Object.entries(s.fileMs ?? {})
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8);
  if (slowest.length > 0) console.log('slowest test files:');
  for (const [file, ms] of slowest)
    console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${relative('.', file)}`);
} catch {
  failed += 1;
  console.log('FAILED: the test runner produced no summary');
}
if (r.status !== 0 && failed === 0) failed += 1;
console.log(`tests: ${files.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
