import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeRegExp } from './escape-reg-exp.ts';

test('escaped text matches itself alone, with or without the u flag', () => {
  const text = String.raw`a.b*c+d?e^f$g{h}i(j)k|l[m]n\o/p :) C++ (Rita)`;
  for (const flags of ['', 'u', 'iu']) {
    const re = new RegExp(`^${escapeRegExp(text)}$`, flags);
    assert.ok(re.test(text), flags);
    assert.ok(!re.test(text.replace('.', 'x')), flags);
  }
});
