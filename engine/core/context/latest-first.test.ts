import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvidencePassage } from './evidence.ts';
import { asksPresentState, latestFirstInThreads } from './latest-first.ts';
import { evidencePassage } from './testing/evidence-passage.ts';

const said = (id: string, thread: string | null, day: number, lanes: string[], hour = 10): EvidencePassage =>
  evidencePassage(id, {
    speaker: 'Inês',
    thread,
    occurredAt: `2024-05-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`,
    lanes,
  });

describe('asksPresentState', () => {
  it('reads a question about how things stand now, not one about what was said', () => {
    for (const q of [
      'Is Inês still coming next weekend?',
      'Does he live in Porto anymore?',
      'Where do I work now?',
      'What book is Jon currently reading?',
    ])
      assert.equal(asksPresentState(q), true, q);
    for (const q of ['When does Inês land?', 'What did I know about the snowy mountains?'])
      assert.equal(asksPresentState(q), false, q);
  });
});

describe('latestFirstInThreads', () => {
  it("puts a thread's latest message by the person asked about in the first of their places", () => {
    const plan = said('plan', 'ines', 1, ['lexical', 'entity']);
    const flight = said('flight', 'ines', 2, ['entity']);
    const other = said('other', 'notes', 9, ['lexical']);
    const cancel = said('cancel', 'ines', 8, ['entity', 'prompt']);
    const out = latestFirstInThreads([plan, other, flight, cancel]);
    assert.deepEqual(
      out.map((e) => e.recordId),
      ['cancel', 'other', 'flight', 'plan'],
    );
  });

  it("keeps the ranking's order within one sitting of a thread: the person's newest words there are no change", () => {
    const answer = said('answer', 's1', 3, ['entity'], 10);
    const later = said('later', 's1', 3, ['entity'], 13);
    const before = said('before', 's1', 3, ['entity'], 9);
    assert.deepEqual(
      latestFirstInThreads([answer, later, before]).map((e) => e.recordId),
      ['answer', 'later', 'before'],
    );
    // A talk six hours or more later is another sitting: it goes first.
    const next = said('next', 's1', 3, ['entity'], 19);
    assert.deepEqual(
      latestFirstInThreads([answer, later, next, before]).map((e) => e.recordId),
      ['next', 'answer', 'later', 'before'],
    );
  });

  it('leaves in place what only words, a resemblance or another thread found', () => {
    const a = said('a', 't', 1, ['entity']);
    const wordsOnly = said('words', 't', 9, ['lexical', 'prompt']);
    const elsewhere = said('elsewhere', 'u', 9, ['entity']);
    const b = said('b', 't', 5, ['slot']);
    const none = said('none', null, 9, ['entity']);
    const out = latestFirstInThreads([a, wordsOnly, elsewhere, none, b]);
    assert.deepEqual(
      out.map((e) => e.recordId),
      ['b', 'words', 'elsewhere', 'none', 'a'],
    );
  });

  it("reorders the Brain's own person's messages only where the slot lane found them, not the entity lane", () => {
    const her = (id: string, day: number, lanes: string[]) => ({
      ...said(id, 'home', day, lanes),
      speaker: 'Lena Kovac',
    });
    const move = her('move', 1, ['lexical', 'entity', 'semantic']);
    const number = her('number', 2, ['lexical', 'entity']);
    const who = { self: { type: 'person' as const, name: 'Lena Kovac' } };
    assert.deepEqual(
      latestFirstInThreads([move, number], who).map((e) => e.recordId),
      ['move', 'number'],
    );
    // Without a self, "Lena Kovac" is a person asked about like any other.
    assert.deepEqual(
      latestFirstInThreads([move, number]).map((e) => e.recordId),
      ['number', 'move'],
    );
    const job = her('job', 1, ['slot']);
    const newJob = her('new-job', 4, ['slot', 'entity']);
    assert.deepEqual(
      latestFirstInThreads([job, newJob], who).map((e) => e.recordId),
      ['new-job', 'job'],
    );
  });
});
