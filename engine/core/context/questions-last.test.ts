import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvidencePassage } from './evidence.ts';
import { questionsAfterAnswers } from './questions-last.ts';
import { evidencePassage } from './testing/evidence-passage.ts';

const ana = { type: 'person', name: 'Ana' } as const;

const said = (
  id: string,
  speaker: string,
  at: string,
  extra: Partial<EvidencePassage> = {},
): EvidencePassage => evidencePassage(id, { speaker, occurredAt: `2024-05-01T10:00:${at}Z`, ...extra });
const ids = (e: EvidencePassage[]) => e.map((x) => x.recordId);

describe('questions whose answer is evidence go last', () => {
  it("moves an agent's question below every statement once the person answered it", () => {
    const q = said('q', 'assistant', '00', { asksOnly: true });
    const evidence = [q, said('a', 'user', '05'), said('other', 'Bob', '09')];
    assert.deepEqual(ids(questionsAfterAnswers(evidence, { self: ana })), ['a', 'other', 'q']);
  });

  it('keeps the order when nobody known answered: no self, an earlier answer, another thread, her own question', () => {
    const q = said('q', 'assistant', '30', { asksOnly: true });
    assert.deepEqual(ids(questionsAfterAnswers([q, said('a', 'Ana', '40')], { self: null })), ['q', 'a']);
    assert.deepEqual(ids(questionsAfterAnswers([q, said('a', 'Ana', '05')], { self: ana })), ['q', 'a']);
    const elsewhere = said('a', 'Ana', '40', { thread: 'other' });
    assert.deepEqual(ids(questionsAfterAnswers([q, elsewhere], { self: ana })), ['q', 'a']);
    const hers = said('q', 'Ana', '30', { asksOnly: true });
    assert.deepEqual(ids(questionsAfterAnswers([hers, said('a', 'Ana', '40')], { self: ana })), ['q', 'a']);
  });

  it("reads the self's first name alone as derivation does: hers, unless another person has it", () => {
    const maya = { type: 'person', name: 'Maya Costa' } as const;
    const q = said('q', 'assistant', '00', { asksOnly: true });
    const evidence = [q, said('a', 'Maya', '05')];
    assert.deepEqual(ids(questionsAfterAnswers(evidence, { self: maya, selfFirstName: 'self' })), ['a', 'q']);
    assert.deepEqual(ids(questionsAfterAnswers(evidence, { self: maya, selfFirstName: 'ambiguous' })), [
      'q',
      'a',
    ]);
    // Nobody asked the Brain: another person's name.
    assert.deepEqual(ids(questionsAfterAnswers(evidence, { self: maya })), ['q', 'a']);
  });
});
