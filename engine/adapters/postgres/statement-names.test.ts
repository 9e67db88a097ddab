import assert from 'node:assert/strict';
import { it } from 'node:test';
import { statementNames } from './statement-names.ts';

it('names each statement text once, the same text alike, and none past the cap', () => {
  const nameOf = statementNames(2);
  const a = nameOf('SELECT $1');
  const b = nameOf('SELECT $1, $2');
  assert.ok(a !== undefined && b !== undefined && a !== b);
  assert.equal(nameOf('SELECT $1'), a);
  assert.equal(nameOf('SELECT $1, $2, $3'), undefined, 'a third text, past the cap of two, runs unnamed');
  assert.equal(nameOf('SELECT $1, $2'), b, 'texts named before the cap still are');
});
