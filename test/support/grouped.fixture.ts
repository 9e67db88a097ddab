// Run by test/integration/test-runner.test.ts in a group with bundled.fixture.ts (scripts/test-groups.mjs):
// a second file sharing its process.
import { test } from 'node:test';

test('runs in the process of the file before it', () => {});
