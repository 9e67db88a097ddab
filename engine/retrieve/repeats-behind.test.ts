import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  laneRepeatKey,
  laneRepeatKeys,
  laneTextChars,
  repeatsBehind,
  type LaneText,
} from './repeats-behind.ts';

const row = (recordId: string, score: number, occurredMs: number, key: string | null) => ({
  recordId,
  score,
  occurredMs,
  key,
});

describe('repeatsBehind', () => {
  it('keeps one row of each repeat in place, its newest, with the score of its first row', () => {
    const { rows, distinct } = repeatsBehind(
      [
        row('a1', 9, 10, 'a'),
        row('a2', 9, 30, 'a'),
        row('b', 8, 5, 'b'),
        row('a3', 7, 20, 'a'),
        row('c', 6, 1, null),
        row('d', 5, 2, null),
      ],
      (r) => r.key,
      (r) => r.occurredMs,
    );
    assert.equal(distinct, 4);
    assert.deepEqual(
      rows.map((r) => [r.recordId, r.score]),
      [
        ['a2', 9],
        ['b', 8],
        ['c', 6],
        ['d', 5],
        ['a1', 5],
        ['a3', 5],
      ],
    );
  });

  it('of equal times keeps the first row; rows without a key are never repeats', () => {
    const { rows, distinct } = repeatsBehind(
      [row('x1', 3, 7, 'x'), row('n1', 2, 7, null), row('x2', 2, 7, 'x'), row('n2', 1, 7, null)],
      (r) => r.key,
      (r) => r.occurredMs,
    );
    assert.equal(distinct, 3);
    assert.deepEqual(
      rows.map((r) => r.recordId),
      ['x1', 'n1', 'n2', 'x2'],
    );
  });

  it('returns rows without repeats as they came', () => {
    const given = [row('a', 3, 1, 'a'), row('b', 2, 1, 'b')];
    const { rows, distinct } = repeatsBehind(
      given,
      (r) => r.key,
      (r) => r.occurredMs,
    );
    assert.equal(distinct, 2);
    assert.deepEqual(rows, given);
  });
});

describe('laneRepeatKey', () => {
  const text = (t: string, over: Partial<LaneText> = {}): LaneText => ({
    recordId: 'r',
    text: t,
    kind: 'message',
    speakerNorm: 'ana',
    occurredMs: 0,
    ...over,
  });

  it('tells the same words by the same speaker from the same words by another', () => {
    const terms = ['deploy', 'key'];
    assert.equal(
      laneRepeatKey(text('The deploy key is in the vault.'), terms),
      laneRepeatKey(text('The deploy key is in the vault.'), terms),
    );
    assert.notEqual(
      laneRepeatKey(text('The deploy key is in the vault.'), terms),
      laneRepeatKey(text('The deploy key is in the vault.', { speakerNorm: 'bob' }), terms),
    );
  });

  it('repeats no message found through its neighbours, but repeats one found by its meaning', () => {
    assert.equal(laneRepeatKey(text('Yes.'), ['deploy', 'key']), null);
    assert.notEqual(laneRepeatKey(text('Yes.'), null), null);
  });

  it('of rows, keys those that end as another does, and a mail by its body under other headers', () => {
    const mail = (date: string) =>
      `From: news@shop.example\nDate: ${date}\nSubject: Deals\n\nNew deploy key offers inside.`;
    const rows = [
      text('The deploy key is in the vault.', { recordId: 'a' }),
      text('The deploy key is in the vault.', { recordId: 'b' }),
      text('Where is the deploy key kept? In the vault.', { recordId: 'c' }),
      text('The deploy key rotates monthly.', { recordId: 'd' }),
      text(mail('Mon, 1 Sep 2026'), { recordId: 'm1', speakerNorm: null }),
      text(mail('Mon, 8 Sep 2026'), { recordId: 'm2', speakerNorm: null }),
    ];
    const keyOf = laneRepeatKeys(rows, ['deploy', 'key']);
    const [a, b, c, d, m1, m2] = rows.map(keyOf);
    assert.ok(a !== null && a === b);
    assert.notEqual(c, a);
    assert.equal(d, null);
    assert.ok(m1 !== null && m1 === m2);
  });

  it('repeats nothing of a text cut at what a lane reads', () => {
    assert.equal(laneRepeatKey(text('a'.repeat(laneTextChars), { kind: 'document' }), ['a']), null);
    assert.notEqual(laneRepeatKey(text('a'.repeat(laneTextChars - 1), { kind: 'document' }), ['a']), null);
  });
});
