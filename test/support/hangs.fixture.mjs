// A test file that never ends (test/integration/test-runner.test.ts runs it): one test passes, the next
// waits on a promise nothing settles, with a timer keeping its process alive.
import { test } from 'node:test';

test('passes', () => {});

test('waits forever', async () => {
  setInterval(() => {}, 1_000);
  await new Promise(() => {});
});
