import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { matchesOf } from './matches-of.ts';

const plain = (ms: RegExpExecArray[] | RegExpMatchArray[]) =>
  ms.map((m) => ({ at: m.index, all: [...m], groups: m.groups ? { ...m.groups } : undefined }));

describe('matchesOf', () => {
  it('finds what matchAll finds, empty matches and surrogate pairs included', () => {
    const patterns = [
      /a+/gu,
      /(?<w>\p{L}+)|(?=x)/gu,
      /\b/g,
      /(?:)/gu,
      /(?:)/g,
      /x*/g,
      /[😀-🙏]?/gu,
      /(?<=a)b?/g,
      /I\s+(?:live|work)\s+(?:in|at)\s+(?<value>\p{Lu}\p{L}*)/gu,
    ];
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', 'x', ' ', 'I', 'live', ' in ', 'Porto', '😀', '\ud83d', '\ude00', 'é'),
      maxLength: 12,
    });
    fc.assert(
      fc.property(fc.constantFrom(...patterns), text, (re, s) => {
        assert.deepEqual(plain([...matchesOf(re, s)]), plain([...s.matchAll(re)]));
        assert.equal(re.lastIndex, 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads from the start whatever the pattern was left at, and leaves it at the start', () => {
    const re = /o/g;
    re.lastIndex = 3;
    assert.deepEqual(
      [...matchesOf(re, 'foo bo')].map((m) => m.index),
      [1, 2, 5],
    );
    assert.equal(re.lastIndex, 0);
  });

  it('lets the caller use the pattern while it goes through the matches, and stop', () => {
    const re = /\d/g;
    const seen: string[] = [];
    for (const m of matchesOf(re, 'a1b2c3d4')) {
      // The pattern moved on by the caller, and read whole again inside: the outer walk goes on.
      assert.ok(re.exec('x9'));
      assert.deepEqual(
        [...matchesOf(re, 'x9y8')].map((n) => n[0]),
        ['9', '8'],
      );
      seen.push(m[0]);
      assert.ok(seen.length <= 3, `read again from the start: ${seen.join()}`);
      if (m[0] === '3') break;
    }
    assert.deepEqual(seen, ['1', '2', '3']);
    assert.equal(re.lastIndex, 0);
  });

  it('refuses a pattern that is not global, as matchAll does', () => {
    assert.throws(() => matchesOf(/a/u, 'a'), TypeError);
  });
});
