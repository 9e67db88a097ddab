import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MemoryVersionRow } from '../ports/index.ts';
import { profileLines } from './profile-census.ts';

/**
 * The Profile read on past small talk asking only for the lines still missing, one
 * query per line asked past: a page of one line past 6,000 "Thanks!" took 1.6 s.
 */
test('a page reads on past thousands of lines left out in a few reads, the lines asked for in order', async () => {
  const statements = [
    'I moved to Berlin.',
    ...Array.from({ length: 3000 }, () => 'Perfect, thanks Jonas!'),
    'No Peanuts!',
    ...Array.from({ length: 3000 }, () => 'Thanks!'),
    'I started the cello.',
  ];
  // Newest first, as currentOfSelf reads the `other` group: n counts down.
  const rows = statements.map(
    (statement, i) =>
      ({ id: `m${i}`, statement, valid_from_ms: 0, n: statements.length - i }) as unknown as MemoryVersionRow,
  );
  let reads = 0;
  const asked: string[][] = [];
  const memories = {
    currentOfSelf: async (q: { limit: number; group: string; after?: { n: number } | undefined }) => {
      reads += 1;
      if (q.group !== 'other') return [];
      const from = q.after === undefined ? 0 : rows.findIndex((r) => r.n < q.after!.n);
      return from === -1 ? [] : rows.slice(from, from + q.limit);
    },
  };
  const page = async (limit: number, after?: MemoryVersionRow) =>
    profileLines(memories, {
      nowMs: 0,
      shareableOnly: false,
      limit,
      selfName: 'Maya Lindqvist',
      knownNames: async (words) => {
        asked.push([...words]);
        return new Set(words.filter((w) => w === 'jonas'));
      },
      ...(after ? { after: { group: 'other' as const, validFromMs: 0, n: after.n } } : {}),
    });
  const first = await page(2);
  assert.deepEqual(
    first.map((r) => r.statement),
    ['I moved to Berlin.', 'No Peanuts!'],
  );
  assert.ok(reads <= 3 + 3000 / 200, `${reads} reads`);
  assert.deepEqual(asked.flat().sort(), ['jonas', 'peanuts'], 'each word asked once');
  reads = 0;
  const next = await page(1, first[1]);
  assert.deepEqual(
    next.map((r) => r.statement),
    ['I started the cello.'],
  );
  assert.ok(reads <= 3 + 3000 / 200, `${reads} reads`);
});
