// Pure logic of Ask's evidence (what a person reads of a Context) and of how a Trace names a Record
// whose words are still to be read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContextReady, Memory } from '../../engine/contract/index.ts';
import { answerEvidence, sourcesShown } from '../../renderer/ask-evidence.ts';
import { recordName, wordsLoading } from '../../renderer/trace-words.ts';
import { citedQuoteLabel } from '../../renderer/record-text.ts';
import { factLine } from '../../engine/contract/fact-line.ts';
import { mem } from './memory-fixture.ts';

const citing = (m: Memory, ...recordIds: string[]): Memory => ({
  ...m,
  citations: recordIds.map((id) => ({ record_id: id, quote: `${m.statement} (${id})` })),
});

function context(over: Partial<ContextReady>): ContextReady {
  return {
    id: 'ctx_1',
    object: 'context',
    status: 'ready',
    query: 'Where does Ana live?',
    watermark: 'wm_1',
    text: 'Quoted evidence from memory…',
    citations: [],
    conflicts: [],
    unknowns: [],
    budget: { requested_tokens: 4000, estimated_tokens: 100, truncated: false },
    cost: { generative_calls: 0, processing_units: 0, model_calls_total: 0, embedding_calls: 0 },
    memories: [],
    ...over,
  };
}

test('each Memory of an answer lists the Records this answer quotes first, then its others, a few of them', () => {
  const home = citing(
    mem('mem_a', 'Ana', 'home_city', 'Ana lives in Lisbon'),
    'rec_9',
    'rec_8',
    'rec_2',
    'rec_1',
    'rec_7',
  );
  const c = context({
    citations: [
      { record_id: 'rec_1', quote: 'I live in Lisbon' },
      { record_id: 'rec_2', quote: 'Lisbon it is' },
    ],
    memories: [home],
  });
  const [item] = answerEvidence(c).items;
  assert.equal(item?.memory.id, 'mem_a');
  assert.deepEqual(
    item?.sources.map((s) => s.record_id),
    ['rec_2', 'rec_1', 'rec_9'].slice(0, sourcesShown),
  );
  assert.equal(item?.more, 5 - sourcesShown);
});

test('quotes of Records no Memory of the answer rests on are listed apart, each Record once', () => {
  const c = context({
    citations: [
      { record_id: 'rec_1', quote: 'I live in Lisbon' },
      { record_id: 'rec_q', quote: 'Did Rui park the blue van by the ferry?' },
      { record_id: 'rec_q', quote: 'the blue van' },
    ],
    memories: [citing(mem('mem_a', 'Ana', null, 'Ana lives in Lisbon'), 'rec_1')],
  });
  assert.deepEqual(
    answerEvidence(c).alsoQuoted.map((x) => x.record_id),
    ['rec_q'],
  );
  // Without `memories` (an include that left them out), every quote is listed.
  assert.deepEqual(
    answerEvidence({ ...c, memories: undefined }).alsoQuoted.map((x) => x.record_id),
    ['rec_1', 'rec_q'],
  );
});

test('the question among the unknowns of an answer given anyway means found by meaning alone', () => {
  const near = context({ unknowns: ['Where does Ana live?'] });
  assert.equal(answerEvidence(near).byMeaningAlone, true);
  assert.deepEqual(answerEvidence(near).otherUnknowns, []);
  // Not when the abstention says why (sources that disagree), nor when there is no text at all.
  const torn = context({ unknowns: ['Where does Ana live?'], abstained: { reason: 'conflicting_evidence' } });
  assert.equal(answerEvidence(torn).byMeaningAlone, false);
  assert.deepEqual(answerEvidence(torn).otherUnknowns, []);
  const none = context({
    text: null,
    unknowns: ['Where does Ana live?'],
    abstained: { reason: 'no_evidence' },
  });
  assert.equal(answerEvidence(none).byMeaningAlone, false);
  assert.equal(answerEvidence(context({})).byMeaningAlone, false);
});

test('only unknowns nothing else on the screen says are listed as not answered', () => {
  const whose = context({
    text: null,
    query: 'Where is my phone?',
    unknowns: ['ownership of: Where is my phone?'],
    abstained: { reason: 'no_attribution' },
  });
  assert.deepEqual(answerEvidence(whose).otherUnknowns, []);
  const part = context({ unknowns: ['When did Ana move?'] });
  assert.deepEqual(answerEvidence(part).otherUnknowns, ['When did Ana move?']);
});

test('a Trace names a Record by its words, by a placeholder until they are read, and by its id where they cannot be', () => {
  const id = 'rec_01M94ZH5Z4YK383RZ807D6C0X2';
  const words = new Map([[id, 'You: I moved to Lisbon']]);
  assert.equal(recordName(id, words, new Set()), 'You: I moved to Lisbon');
  assert.equal(recordName(id, new Map(), new Set()), wordsLoading);
  assert.doesNotMatch(wordsLoading, /rec_/);
  assert.equal(recordName(id, new Map(), new Set([id])), 'rec_…07D6C0X2');
});

test("a cited quote of a fact's line (a Trace's, Ask's \"Also quoted\") reads as the fact's sentence, any other as said", () => {
  const vegetarian = { kind: 'fact', subject: 'Lea', predicate: 'vegetarian', value: 'yes' } as const;
  const line = factLine(vegetarian);
  assert.equal(line, 'Lea vegetarian: yes', 'what the citation quotes, as the spec has it');
  assert.equal(citedQuoteLabel(line, vegetarian), 'Lea is vegetarian');
  const smokes = { kind: 'fact', subject: 'self', predicate: 'smokes', value: false } as const;
  assert.equal(citedQuoteLabel(factLine(smokes), smokes, 'Ana'), 'Ana does not smoke');
  assert.equal(citedQuoteLabel(factLine(smokes), smokes), 'You do not smoke');
  // Until its Record is read, or where it cannot be, the quote is shown as it is.
  assert.equal(citedQuoteLabel(line, undefined), line);
  // A span that is not the whole line is the Record's text quoted, not the fact to word.
  assert.equal(citedQuoteLabel('vegetarian: yes', vegetarian), 'vegetarian: yes');
  // Someone's words that look like a fact's line stay theirs.
  const said = 'self care: went for a run';
  assert.equal(citedQuoteLabel(said, { kind: 'message', speaker: 'self', text: said }), said);
});
