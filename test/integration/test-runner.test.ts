import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
