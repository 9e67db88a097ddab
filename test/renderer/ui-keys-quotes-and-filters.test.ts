// Pure logic of the UI: the window's own key, a quote in its context, disagreeing profile lines, and
// how many Records a trace reads at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isOwnKey } from '../../renderer/api/own-key.ts';
import { disagreements } from '../../renderer/disagreements.ts';
import { quoteExcerpt } from '../../renderer/excerpt.ts';
import { readsToStart } from '../../renderer/reads-to-start.ts';
import { mem } from './memory-fixture.ts';

test('the own key is told by its prefix and last four characters, and only while it works', () => {
  const key = 'sk_live_local_AbCdEfGh1234';
  const k = { prefix: 'sk_live_local', last4: '1234', revoked_at: null };
  assert.equal(isOwnKey(k, key), true);
  assert.equal(isOwnKey({ ...k, last4: '9999' }, key), false);
  assert.equal(isOwnKey({ ...k, prefix: 'sk_test_local' }, key), false);
  assert.equal(isOwnKey({ ...k, revoked_at: '2024-01-01T00:00:00Z' }, key), false);
  assert.equal(isOwnKey(k, 'not-a-key-1234'), false);
});

test('a quote is shown with a bounded stretch of its Record around it, marked', () => {
  const before = 'alpha '.repeat(2000);
  const after = ' omega'.repeat(2000);
  const text = `${before}Ana moved to Porto.${after}`;
  const ex = quoteExcerpt(text, 'moved to Porto', 300);
  const shown = ex.segments.map((s) => s.text).join('');
  assert.ok(shown.length <= 300 * 2 + 'moved to Porto'.length + 2, `${shown.length} characters shown`);
  assert.ok(shown.length >= 300 * 2 - 2 * 40, 'about the asked context either side');
  assert.deepEqual(
    ex.segments.filter((s) => s.mark).map((s) => s.text),
    ['moved to Porto'],
  );
  assert.equal(ex.cutBefore, true);
  assert.equal(ex.cutAfter, true);
  assert.match(shown, /^alpha /, 'cut at a space, not inside a word');
  assert.match(shown, / omega$/);
  assert.ok(text.includes(shown));
});

test('a short Record is shown whole; a quote not found shows the start; a quote at the start is not cut before', () => {
  const short = quoteExcerpt('Ana moved to Porto.', 'Porto', 300);
  assert.equal(short.cutBefore || short.cutAfter, false);
  assert.equal(short.segments.map((s) => s.text).join(''), 'Ana moved to Porto.');
  const long = 'word '.repeat(1000);
  const missing = quoteExcerpt(long, 'not there', 300);
  assert.equal(missing.cutBefore, false);
  assert.equal(missing.cutAfter, true);
  assert.ok(missing.segments.map((s) => s.text).join('').length <= 600);
  const first = quoteExcerpt(`Porto ${long}`, 'Porto', 300);
  assert.equal(first.cutBefore, false);
  assert.equal(first.segments[0]?.mark, true);
});

test('a cut never splits a surrogate pair', () => {
  // 'x' first, so the cut after 600 characters falls between the halves of an emoji.
  const text = `x${'😀'.repeat(1000)}`;
  const shown = quoteExcerpt(text, 'not there', 300)
    .segments.map((s) => s.text)
    .join('');
  assert.doesNotMatch(shown, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  assert.ok(shown.length > 500);
});

test('each contested Memory is paired with the other values of its slot, however they are spelled', () => {
  const lisbon = mem('mem_1', 'Ana', 'lives_in', 'Ana lives in Lisbon', 'active', 'lin_home');
  const porto = mem('mem_2', 'me', 'Lives In', 'me lives in: Porto', 'active', 'lin_home');
  const lone = mem('mem_3', 'Ana', 'works_as', 'Ana works as a nurse', 'active', 'lin_work');
  const d = disagreements([lisbon, porto, lone]);
  assert.deepEqual(
    d.get('mem_1')?.map((m) => m.id),
    ['mem_2'],
  );
  assert.deepEqual(
    d.get('mem_2')?.map((m) => m.id),
    ['mem_1'],
  );
  assert.deepEqual(d.get('mem_3'), [], 'still contested, its other value not among those read');
  assert.equal(d.has('mem_4'), false);
});

test('Records are read a few at a time, first wanted first, skipping those already read', () => {
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  assert.deepEqual([...readsToStart(ids, () => false, 4)], ['a', 'b', 'c', 'd']);
  const done = new Set(['a', 'c']);
  assert.deepEqual([...readsToStart(ids, (id) => done.has(id), 4)], ['b', 'd', 'e', 'f']);
  assert.deepEqual([...readsToStart(ids, () => true, 4)], []);
});
