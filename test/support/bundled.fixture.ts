// Run by test/integration/test-runner.test.ts as a bundle (scripts/bundle-tests.mjs): one test holds
// what a bundle must keep of its source, one fails so that its report can be read.
import assert from 'node:assert/strict';
import { test } from 'node:test';

test('keeps its own import.meta, and strings that name it', () => {
  assert.match(import.meta.url, /^file:\/\/.*\/test\/support\/bundled\.fixture\.ts$/);
  assert.match(import.meta.dirname, /\/test\/support$/);
  assert.match(import.meta.filename, /\/test\/support\/bundled\.fixture\.ts$/);
  assert.equal('createRequire(import.meta.url)'.length, 30);
});

test('fails, to be reported under its source', () => {
  assert.fail('as the runner test expects');
});
