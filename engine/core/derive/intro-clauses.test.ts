import assert from 'node:assert/strict';
import { test } from 'node:test';
import { introClauses } from './intro-clauses.ts';

test('an introduction\'s clauses are read with their "I", each quoted where it is', () => {
  const s = 'ok so quick intro: software engineer at globex, live in lisbon';
  const clauses = introClauses(s)!;
  assert.deepEqual(
    clauses.map((c) => s.slice(...c.at)),
    ['software engineer at globex', 'live in lisbon'],
  );
  assert.deepEqual(clauses[1]!.readings, ['I live in lisbon', "I'm live in lisbon", "I'm a live in lisbon"]);
  assert.deepEqual(
    introClauses('About me: 31, PM at Acme and vegetarian.')!.map((c) => c.readings[0]),
    ['I 31', 'I PM at Acme', 'I vegetarian'],
  );
  // A clause with its own subject is read as said.
  assert.deepEqual(introClauses('quick intro: i live in porto')![0]!.readings, ['i live in porto']);
  for (const s of ['The intro was long', 'intro music: the best', 'no colon intro here'])
    assert.equal(introClauses(s), null, s);
});
