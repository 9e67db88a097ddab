import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchedTerms, queryTerms } from './query-terms.ts';
import { readSlotQuestion, slotTopicWords, type SlotQuestion } from './slot-question.ts';

const read = (q: string): SlotQuestion => readSlotQuestion(q, queryTerms(q));

test('questions about a home or a job, in strong words or in words about much else asked where, who or which', () => {
  for (const q of [
    'where do I live?',
    'Where does the user live now?',
    "What's my home city?",
    'Where am I based?',
    "What is Marta's home town?",
    'who lives where?',
    'Where is my home?',
  ])
    assert.deepEqual(read(q).predicates, ['lives in'], q);
  // Asked where or who, the employer; what one does there is asked by "job" or "what do I do".
  for (const q of ['Where do I work?', "who is Ana's employer?", 'Who does Carol work for?'])
    assert.deepEqual(read(q).predicates, ['works at'], q);
  for (const q of [
    'What is my job?',
    'Which job do I have now?',
    'What is my occupation?',
    'where does Rui work and what does he do?',
    'who is my employer and what is my position?',
    "What is Lena's job title?",
    "what's my job title",
    'What was my old job?',
    "What was Marta's previous job?",
  ])
    assert.deepEqual(read(q).predicates, ['works at', 'occupation'], q);
});

test("one's job, birthday, diet and partner, and what one does for a living, are slots asked about", () => {
  for (const [q, predicates] of [
    ['what do I do for work?', ['works at', 'occupation']],
    ['What does Ana do for a living?', ['works at', 'occupation']],
    ["what's the user's occupation?", ['works at', 'occupation']],
    ['when is my birthday?', ['birthday']],
    ['When was Ana born?', ['birthday']],
    ['is the user vegetarian?', ['diet']],
    ["what's my partner's name?", ['partner', 'wife', 'husband', 'girlfriend', 'boyfriend']],
  ] as const)
    assert.deepEqual(read(q).predicates, predicates, q);
  for (const q of [
    'What did you do yesterday?',
    'what should I do about it?',
    'what do I do for fun?',
    'what do I usually do on weekends?',
    'what does this button do?',
    'where was I born?',
    'what did I get for my birthday?',
    'who came to my birthday party?',
    "what's my diet plan for the gym?",
    'what vegetarian recipe did I save?',
    "What is my book's title?",
  ])
    assert.deepEqual(read(q).predicates, [], q);
  // About the partner, not the asker: someone of one's own, whose slot no one here holds.
  for (const q of ["when is my boyfriend's birthday?", 'is my boyfriend vegetarian?']) {
    const r = read(q);
    assert.deepEqual(
      [r.predicates.includes('boyfriend'), r.aboutSelf, r.aboutOther],
      [false, false, true],
      q,
    );
  }
});

test('a word about much else is no question about a home or a job', () => {
  for (const q of [
    'how was the weather?',
    'How does my printer work?',
    'What is my thesis based on?',
    'Can you help me move the meeting?',
    'Did I finish the job on the deck?',
    'When do I get home?',
    "What's my home wifi password?",
  ])
    assert.deepEqual(read(q).predicates, [], q);
});

test('whose slot: a named subject, the user, someone unnamed, or anyone', () => {
  const whose = (q: string) => {
    const r = read(q);
    return {
      names: r.names,
      subject: r.namesSubject,
      self: r.aboutSelf,
      other: r.aboutOther,
      anyone: r.aboutAnyone,
    };
  };
  // Question words are capitalised only for opening the sentence; a place after a preposition is no one.
  assert.deepEqual(whose('Where does Rita live?'), {
    names: ['Rita'],
    subject: true,
    self: false,
    other: false,
    anyone: true,
  });
  assert.deepEqual(whose("Who is Rita's employer?").subject, true);
  assert.deepEqual(whose('Which town is Rita living in?').subject, true);
  assert.deepEqual(whose('Where do I live in Lisbon?'), {
    names: [],
    subject: false,
    self: true,
    other: false,
    anyone: true,
  });
  // "my" with a slot noun is the user's own; with anyone else it is someone the query does not name.
  assert.equal(whose("What's my home city?").self, true);
  assert.deepEqual(whose('Where does my sister live?'), {
    names: [],
    subject: false,
    self: false,
    other: true,
    anyone: true,
  });
  assert.equal(whose('Remind me where my sister lives').self, false);
  assert.equal(whose('Where does she work?').other, true);
  assert.equal(whose('Where do I live with my sister?').self, true);
  // A strong word after "my" is a slot of one's own too, and "me" the one asking when nobody of theirs is.
  for (const q of [
    'Who is my employer?',
    'Where is my workplace?',
    'Where is my residence?',
    'My home city?',
  ])
    assert.deepEqual([whose(q).self, whose(q).other, whose(q).subject], [true, false, false], q);
  assert.equal(whose('Which company employs me?').self, true);
  assert.deepEqual(whose('My home city?').names, []);
  // Only where and who ask about people in general; "which" does with a word only about a home or job.
  assert.equal(whose('Which city is the concert in?').anyone, false);
  assert.equal(whose('Which city does everyone live in?').anyone, true);
  assert.equal(whose('Where does everyone work?').anyone, true);
});

test("a slot's topic words meet a change said in other words, and not a word that only starts like one", () => {
  const home = slotTopicWords(['lives in']);
  assert.deepEqual(matchedTerms('Finally settled into the flat on Vlaška, boxes everywhere', home), [
    'settled',
    'flat',
  ]);
  const job = slotTopicWords(['works at', 'occupation']);
  assert.deepEqual(matchedTerms('Handed in my resignation to my boss today', job), ['boss', 'resigned']);
  assert.deepEqual(matchedTerms('Great workout at the gym this morning', job), []);
  assert.deepEqual(slotTopicWords(['email']), []);
});
