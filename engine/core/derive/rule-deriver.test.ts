import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TypedContent } from '../../contract/index.ts';
import { recordText } from './record-text.ts';
import { createRuleDeriver } from './rule-deriver.ts';

/** The claims of a Record's content in the Brain of `self` (Ana unless told otherwise). */
const derived = (content: TypedContent, sourceName: string | null, self = 'Ana') => {
  const record = {
    id: 'rec_1',
    content,
    text: recordText(content),
    sourceName,
    occurredAt: '2024-01-01T00:00:00Z',
  };
  return createRuleDeriver().derive(record, { self: { type: 'person', name: self } });
};
/** The claims of a message in Ana's own Brain (or `self`'s). */
const claimsOf = (text: string, speaker: string | undefined, self?: string) =>
  derived({ kind: 'message', text, speaker }, null, self);
/** The claims of a note kept in Obsidian in `self`'s Brain. */
const noteClaims = (title: string, text: string, self: string) =>
  derived({ kind: 'document', title, text }, 'obsidian', self);

const said = (text: string) => claimsOf(text, 'Ana').map((c) => [c.statement, c.quote]);

test('a home and a statement joined after it: the slot quotes its clause, the statement stands alone', () => {
  assert.deepEqual(said('I live in Porto and my dentist is Carla Silva.'), [
    ['Ana lives in Porto', 'I live in Porto'],
    ['my dentist is Carla Silva.', 'my dentist is Carla Silva.'],
  ]);
  // Two slots: each quotes its own clause.
  assert.deepEqual(said('I live in Lisbon and I work at Globex.'), [
    ['Ana lives in Lisbon', 'I live in Lisbon'],
    ['Ana works at Globex', 'I work at Globex'],
  ]);
});

test('a second slot clause whose "I" is left out is the speaker\'s too, not a Memory "work at Sonae."', () => {
  assert.deepEqual(said('I live in Porto and work at Sonae.'), [
    ['Ana lives in Porto', 'I live in Porto'],
    ['Ana works at Sonae', 'work at Sonae'],
  ]);
  assert.deepEqual(said('I work at Globex and live in Braga.'), [
    ['Ana works at Globex', 'I work at Globex'],
    ['Ana lives in Braga', 'live in Braga'],
  ]);
  assert.deepEqual(said('I moved to Porto and started a new job at Sonae as a designer.'), [
    ['Ana lives in Porto', 'I moved to Porto'],
    ['Ana works at Sonae', 'started a new job at Sonae as a designer'],
    ["Ana's occupation is designer", 'as a designer'],
  ]);
});

test('a clause of its own after the one who holds a role is a Memory of its own', () => {
  const of = (text: string) =>
    claimsOf(text, 'Ana').map((c) => [c.statement, c.predicate, c.owner.entity, c.quote]);
  assert.deepEqual(of('My dentist is Dr. Sousa, my appointment is on Tuesday December 8.'), [
    ["Ana's dentist is Dr. Sousa", 'dentist', 'Ana', 'My dentist is Dr. Sousa'],
    [
      'My dentist is Dr. Sousa, my appointment is on Tuesday December 8.',
      null,
      'Ana',
      'my appointment is on Tuesday December 8.',
    ],
  ]);
  assert.deepEqual(of('My boss is Tom Reyes, he is strict.'), [
    ["Ana's manager is Tom Reyes", 'manager', 'Ana', 'My boss is Tom Reyes'],
    ['Tom Reyes is strict.', null, 'Tom Reyes', 'he is strict.'],
  ]);
  // What says the role again stays its quote.
  assert.deepEqual(of("My partner is Jordan, we've been together 4 years."), [
    ["Ana's partner is Jordan", 'partner', 'Ana', "My partner is Jordan, we've been together 4 years."],
  ]);
});

test('a change of home, job or diet said as news holds its slot', () => {
  const slots = (text: string) =>
    claimsOf(text, 'Ana')
      .filter((c) => c.predicate !== null)
      .map((c) => [c.predicate, c.statement]);
  assert.deepEqual(slots('We moved! Our new address is Avenida da Boavista 800, Porto.'), [
    ['lives in', 'Ana lives at Avenida da Boavista 800, Porto'],
  ]);
  assert.deepEqual(slots("I got a new job: I'm now a product manager at Sonae."), [
    ['works at', 'Ana works at Sonae'],
    ['occupation', "Ana's occupation is product manager"],
  ]);
  assert.deepEqual(slots("I've started a pescatarian diet now, I eat fish again."), [
    ['diet', "I've started a pescatarian diet now, I eat fish again."],
  ]);
  // "Our" is the speaker's household for an address only.
  assert.deepEqual(slots('Our favourite colour is green.'), []);
});

test('"he" or "she" after the one person the speaker met is that person, never the speaker', () => {
  const of = (text: string) =>
    claimsOf(text, 'Ana Silva')
      .filter((c) => /^(?:he|she)\b/iu.test(c.quote))
      .map((c) => [c.statement, c.owner.state, c.owner.entity]);
  assert.deepEqual(of('I had lunch with Tom Baker today. He is a doctor.'), [
    ["Tom Baker's occupation is doctor", 'other', 'Tom Baker'],
  ]);
  assert.deepEqual(of('Met João Pereira for coffee. He’s moving to Berlin in January.'), [
    ['He’s moving to Berlin in January.', 'other', 'João Pereira'],
  ]);
  // Two people met, or a place named beside the one: whose "she" is, the words do not say.
  for (const text of ['I met Tom and Sarah. She is a nurse.', 'I saw Tom at Starbucks. He looked tired.'])
    assert.deepEqual(
      of(text).map((c) => c[2]),
      ['Ana Silva'],
      text,
    );
});

test('what "she" does after another person\'s home is hers in a Memory of its own, quoting its clause', () => {
  const of = (text: string) =>
    claimsOf(text, 'Ana').map((c) => [c.statement, c.predicate, c.subject, c.quote]);
  assert.deepEqual(of('My brother Rui lives in Porto, and he works at Google.'), [
    ['My brother Rui lives in Porto', 'lives in', 'Rui', 'My brother Rui lives in Porto'],
    ['Rui works at Google', 'works at', 'Rui', 'he works at Google'],
    ["Ana's brother is Rui", null, 'Rui', 'My brother Rui'],
  ]);
  assert.deepEqual(of('My sister Lea lives in Lisbon, she is vegetarian so keep that in mind for recipes.'), [
    ['My sister Lea lives in Lisbon', 'lives in', 'Lea', 'My sister Lea lives in Lisbon'],
    ["Lea's diet is vegetarian", 'diet', 'Lea', 'she is vegetarian'],
    ["Ana's sister is Lea", null, 'Lea', 'My sister Lea'],
  ]);
  // Of the home, reported, or a "she" or "he" nothing says is them: the sentence stays whole, as before.
  for (const whole of [
    'My sister Lea lives in Lisbon, she loves it there.',
    'My brother Rui lives in Porto, he told me.',
    'Tom lives in Leeds; she is vegan.',
    'My brother Marko lives in Berlin, she visits him often.',
  ])
    assert.equal(
      claimsOf(whole, 'Ana').some((c) => c.quote !== whole && /^(?:she|he)\s/u.test(c.quote)),
      false,
      whole,
    );
});

test('what is no statement of its own, or leans on the home, keeps the sentence whole', () => {
  // The home quotes the sentence, in the sentence's own words: no Memory of it outlives a move.
  assert.deepEqual(said('I live in Porto, and thanks for asking!'), [
    ['I live in Porto, and thanks for asking!', 'I live in Porto, and thanks for asking!'],
  ]);
  // Who Rita is to her is a Memory of its own, with no home in it.
  const sister = 'I live in Porto and so does my sister Rita.';
  assert.deepEqual(said(sister), [
    [sister, sister],
    ["Ana's sister is Rita", 'my sister Rita'],
  ]);
});

test("a home said with more holds the slot in the sentence's words, not beside a Memory of its own", () => {
  const s = 'I live in Lisbon with my partner Tom.';
  assert.deepEqual(
    claimsOf(s, 'Ana').map((c) => [c.statement, c.predicate, c.quote]),
    [[s, 'lives in', s]],
  );
  // Two slots and more said: each slot is its part of the sentence, in its words; no Memory of the
  // whole sentence beside them outlives a move.
  const two = 'I live in Lisbon with Tom and I work at Globex with his sister.';
  assert.deepEqual(
    claimsOf(two, 'Ana').map((c) => [c.statement, c.predicate, c.quote]),
    [
      ['I live in Lisbon with Tom', 'lives in', 'I live in Lisbon with Tom'],
      ['I work at Globex with his sister.', 'works at', 'I work at Globex with his sister.'],
    ],
  );
  // A part that says no more than its clause, or does not read back alone, keeps the slot's words.
  const bare = 'I live in Lisbon and work at Globex with my old friends from school.';
  assert.deepEqual(
    claimsOf(bare, 'Ana').map((c) => [c.statement, c.predicate, c.quote]),
    [
      ['Ana lives in Lisbon', 'lives in', 'I live in Lisbon'],
      ['Ana works at Globex', 'works at', 'work at Globex with my old friends from school.'],
    ],
  );
});

test('a favourite said alone holds its slot, quoting the sentence; said with more, it stays a sentence', () => {
  assert.deepEqual(
    createRuleDeriver()
      .derive(
        {
          id: 'rec_1',
          content: { kind: 'message', text: 'Actually my favourite colour is blue now.', speaker: 'Ana' },
          text: 'Actually my favourite colour is blue now.',
          sourceName: null,
          occurredAt: '2024-01-01T00:00:00Z',
        },
        { self: { type: 'person', name: 'Ana' } },
      )
      .map((c) => [c.statement, c.predicate, c.quote]),
    [["Ana's favourite colour is blue", 'favourite colour', 'Actually my favourite colour is blue now.']],
  );
  assert.deepEqual(said('My favourite band is Muse, they are amazing live.'), [
    [
      'My favourite band is Muse, they are amazing live.',
      'My favourite band is Muse, they are amazing live.',
    ],
  ]);
});

test('a role after an employer is part of the job: the sentence is no Memory that outlives the home and the job', () => {
  assert.deepEqual(said('I live in Berlin and I work at Zalando as a data engineer.'), [
    ['Ana lives in Berlin', 'I live in Berlin'],
    ['Ana works at Zalando', 'I work at Zalando as a data engineer'],
    ["Ana's occupation is data engineer", 'as a data engineer'],
  ]);
  // A role before the employer is part of the clause too: no Memory of the sentence outlives the job,
  // and the occupation quotes its own words, so a new employer leaves it standing.
  assert.deepEqual(said('I work as a nurse at Santa Maria Hospital.'), [
    ['Ana works at Santa Maria Hospital', 'I work as a nurse at Santa Maria Hospital.'],
    ["Ana's occupation is nurse", 'I work as a nurse'],
  ]);
  // What follows and points back at the job stays with it.
  const whole = 'I work at Globex as a senior engineer and I love it.';
  assert.deepEqual(said(whole), [
    [whole, whole],
    ["Ana's occupation is senior engineer", 'as a senior engineer'],
  ]);
});

test('"we moved to Lisbon" is the speaker\'s home too, as "I moved to Lisbon" is', () => {
  assert.deepEqual(said('We moved to Lisbon.'), [['Ana lives in Lisbon', 'We moved to Lisbon.']]);
});

test('"we moved to Slack" is a statement of its own, not the speaker\'s home', () => {
  for (const s of ['We moved to Slack.', 'We moved to Postgres last year.', 'We moved to a new office.'])
    assert.deepEqual(said(s), [[s, s]], s);
});

test('a question is no Memory: a message that asks and states nothing has none', () => {
  for (const asked of [
    'What city do you live in?',
    'Would you like me to remember that?',
    'Really?!',
    'Where do you live? And where do you work?',
  ])
    assert.deepEqual(said(asked), [], asked);
  // What else a message that asks holds, with no statement, is a word or two: no Memory "Cool!".
  for (const asked of ['Ok. Where to?', 'Cool! What did it look like?'])
    assert.deepEqual(said(asked), [], asked);
  // A message with no question is still remembered whole, and a statement beside a question as before;
  // reactions alone are no Memory ("ok", "lol no", "not really.", "it's fine.").
  assert.deepEqual(said('see u at 8'), [['see u at 8', 'see u at 8']]);
  for (const reaction of [
    'ok',
    'lol no',
    'pls dont',
    'yep 🥹',
    'not really.',
    'BIG NEWS.',
    "it's fine.",
    '👍',
  ])
    assert.deepEqual(said(reaction), [], reaction);
  assert.deepEqual(said("it's fine. I live in Porto."), [['Ana lives in Porto', 'I live in Porto.']]);
  assert.deepEqual(said('I like Porto. Do you like it?'), [['I like Porto.', 'I like Porto.']]);
});

test('a question a chat asks without its mark is no Memory either; a statement that opens alike is one', () => {
  for (const asked of [
    'do i live in porto or lisbon lol',
    'Are you still at Acme',
    'did you see the game last night',
    // A wh-word before the verb that asks: "I live in Berlin" inside it is not said of herself.
    'How do I say I live in Berlin in German',
    'what should i cook tonight',
    // After a wh-word, someone's or the thing asked of.
    'where does my sister live these days',
    'when is the party',
    'What is your new address',
  ])
    assert.deepEqual(said(asked), [], asked);
  assert.deepEqual(said('I like Porto. Do you like it'), [['I like Porto.', 'I like Porto.']]);
  for (const stated of [
    'Had I known, I would have stayed.',
    'Where I live it rains a lot.',
    'Dogs are great.',
    'Do the dishes before you go.',
    'What the doctor said was reassuring.',
  ])
    assert.deepEqual(said(stated), [[stated, stated]], stated);
});

test('a home said with where in the place is the slot alone: nothing of it outlives a move', () => {
  const s = 'I live in Berlin, in Kreuzberg, near the canal.';
  assert.deepEqual(said(s), [['Ana lives in Berlin', s]]);
});

test('a message holding a link with a query string is a statement, not a question', () => {
  const text = 'My reading list is at https://docs.example.com/d/1/edit?usp=sharing';
  assert.deepEqual(said(text), [[text, text]]);
});

test('a message whose speaker is blank is of nobody named, as one with no speaker', () => {
  for (const speaker of [undefined, '', '   '])
    assert.deepEqual(
      claimsOf('The boat leaves at nine.', speaker).map((c) => [c.subject, c.owner.state]),
      [['unknown speaker', 'unresolved']],
      JSON.stringify(speaker),
    );
});

test('a home or a job the speaker no longer has ends that value, and holds no new one', () => {
  const claims = (text: string) =>
    claimsOf(text, 'Ana').map((c) => [c.statement, c.predicate, c.quote, c.ends]);
  assert.deepEqual(claims('I no longer work at Acme.'), [
    ['Ana no longer works at Acme', 'works at', 'I no longer work at Acme.', 'Acme'],
  ]);
  // Beside a slot, each quotes its own clause.
  assert.deepEqual(claims("I don't work at Acme anymore and I live in Porto."), [
    ['Ana lives in Porto', 'lives in', 'I live in Porto', undefined],
    ['Ana no longer works at Acme', 'works at', "I don't work at Acme anymore", 'Acme'],
  ]);
  // Said with more, the ending quotes the whole sentence, and no Memory of the sentence is beside it.
  const bust = "I don't work at Acme anymore, they went bust last spring.";
  assert.deepEqual(claims(bust), [['Ana no longer works at Acme', 'works at', bust, 'Acme']]);
  const moreOfBoth = "I don't work at Acme anymore and I live in Porto with my sister now.";
  assert.deepEqual(claims(moreOfBoth), [
    ['I live in Porto with my sister now.', 'lives in', 'I live in Porto with my sister now.', undefined],
    ['Ana no longer works at Acme', 'works at', "I don't work at Acme anymore", 'Acme'],
  ]);
  const third = 'She no longer works at Acme.';
  assert.deepEqual(claims(third), [[third, null, third, undefined]]);
});

test('a chat all in lower case holds the home, named as a name, quoting the chat as written', () => {
  assert.deepEqual(said('i live in porto'), [['Ana lives in Porto', 'i live in porto']]);
  // Its "I" and first letter capitalised, as a phone does, it is still a chat's.
  assert.deepEqual(said('I live in porto'), [['Ana lives in Porto', 'I live in porto']]);
  assert.deepEqual(said("I'm based out of Berlin."), [['Ana lives in Berlin', "I'm based out of Berlin."]]);
});

test('a document about the self is hers, sentence by sentence, its home and job in their slots', () => {
  const maya = { type: 'person' as const, name: 'Maya Costa' };
  const doc = (title: string, text: string) =>
    noteClaims(title, text, maya.name).map((c) => [c.statement, c.predicate, c.owner.state]);
  const text = '# About me\n\nI live in Lisbon. I work at Feedzai. I love hiking.';
  for (const title of ['About me', 'about me:', 'Me', 'About myself', 'maya costa', 'About Maya Costa'])
    assert.deepEqual(
      doc(title, text),
      [
        ['Maya Costa lives in Lisbon', 'lives in', 'self'],
        ['Maya Costa works at Feedzai', 'works at', 'self'],
        ['I love hiking.', null, 'self'],
      ],
      title,
    );
  // Another title: hers too, by her "I" (own-note.ts), except a mail's title; one that says no "I" is
  // one passage of nobody known, as before.
  for (const title of ['Notes', 'Maya', 'About Maya Silva'])
    assert.deepEqual(
      doc(title, 'I live in Lisbon. I work at Feedzai.'),
      [
        ['Maya Costa lives in Lisbon', 'lives in', 'self'],
        ['Maya Costa works at Feedzai', 'works at', 'self'],
      ],
      title,
    );
  for (const [title, text] of [
    ['Forwarded: about me and my move', 'I live in Lisbon. I work at Feedzai.'],
    ['Notes', 'Ana lives in Lisbon. Tom works at Feedzai.'],
  ] as const)
    assert.deepEqual(doc(title, text), [[text, null, 'unresolved']], title);
});

test('a note of hers about a facet of her (titled or tagged Health, Allergies, …) is hers without an "I"', () => {
  const maya = 'Maya Lindqvist';
  const owned = (title: string, text: string, known?: ReadonlyMap<string, string>) =>
    createRuleDeriver()
      .derive(
        {
          id: 'rec_1',
          content: { kind: 'document', title, text },
          text: recordText({ kind: 'document', title, text }),
          sourceName: 'obsidian',
          occurredAt: '2026-09-30T00:00:00Z',
        },
        { self: { type: 'person', name: maya }, ...(known ? { knownFirstNames: known } : {}) },
      )
      .map((c) => [c.statement, c.owner.state]);
  const health = '# Health\n\n- Allergy: penicillin (rash, 2019).\n- GP: Dr. Markus Huber.';
  for (const [title, text] of [
    ['Health', `${health}\n\nTags: #health`],
    ['My allergies', health],
    ['Medications:', health],
    ['Blood tests 2026', `${health}\n\nTags: #health/labs`],
  ] as const)
    assert.deepEqual(
      owned(title, text),
      [
        ['Allergy: penicillin (rash, 2019).', 'self'],
        ['GP: Dr. Markus Huber.', 'self'],
      ],
      title,
    );
  // Nobody's, as before: a note of another title and tag, one tagged as a people folder's note, one
  // titled by a person ("Ana's meds", "Ana Petrović") or by a first name the Brain knows, one listing
  // what holds for others by name, and a mail pasted into it.
  const unowned = (title: string, text: string, known?: ReadonlyMap<string, string>) =>
    assert.ok(
      owned(title, text, known).every(([, owner]) => owner !== 'self'),
      `${title}: ${JSON.stringify(owned(title, text, known))}`,
    );
  unowned('Vienna cafés', '- Café Sperl: best Melange.\n- Café Prückel: quiet.\n\nTags: #cafes');
  unowned('Ana Petrović', 'Friend from uni. Allergic to cats.\n\nTags: #people #health');
  unowned('Health', '- Allergic to cats.\n\nTags: #people/family #health');
  unowned("Ana's meds", '- Ibuprofen 400 mg.\n\nTags: #health');
  unowned('Ana Petrović', '- Ibuprofen 400 mg.\n\nTags: #health');
  unowned('Lena', '- Allergic to cats.\n\nTags: #health', new Map([['lena', 'Lena Lindqvist']]));
  unowned('Allergies', '- Ana Petrović: nuts\n- Allergy: penicillin');
  unowned('Allergies', '- Ana: nuts\n- Jonas: shellfish', new Map([['ana', 'Ana Petrović']]));
  unowned('Health', 'On Mon, 4 Mar 2024 at 10:02, Dr. Huber <h@x.at> wrote:\n> Vitamin D low.');
  // Nobody's, not hers: a line of someone else's, keyed or named by a kin word, a name in parentheses
  // or a key "For …"; a note saying it is shared or family's; one that reads as an article.
  unowned('Health', 'Mum: blood pressure 150/90, on Ramipril 5 mg.\nDad: type 2 diabetes, metformin.');
  unowned('Health', '- Allergy: penicillin (rash, 2019).\n- Son: peanuts.');
  unowned('Allergies', 'Peanuts (Leo).\nPenicillin (Maya).');
  unowned('Medications', 'For Grandma: Warfarin 3 mg every evening, Donepezil 10 mg.');
  unowned('Medications', 'For Leo: Ventolin as needed.');
  unowned('Allergien', '- Oma: Penicillin.\n\nTags: #allergies');
  unowned('Alergije', '- Baka: penicilin.\n\nTags: #allergies');
  unowned('Blood tests 2026', 'Dad: LDL 190, HbA1c 7.9.\n\nTags: #health');
  unowned('Medical history', 'Tonsillectomy at 7. Asthma since childhood.\n\nShared vault: family');
  unowned('Family health', '- Asthma.\n\nTags: #health');
  const article = 'Intermittent fasting lowers blood pressure in adults over 50, a 2025 study found.';
  unowned('Health', `${article}\nSource: nytimes.com`);
  unowned('Health', `source: https://www.nytimes.com/2025/health.html\nauthor: Jane Brody\n\n${article}`);
  unowned('Health', `By Jane Brody\n\n${article}`);
  const prose = `${article} ${'Researchers followed the participants for two years and measured them every month. '.repeat(3)}`;
  unowned('Diet', `${prose}\n\n${prose}`);
  // Hers still: a pet in an allergy, "baby aspirin", a date or her own name in parentheses.
  for (const text of [
    '- Allergy: cat dander.',
    '- Baby aspirin 81 mg daily.',
    '- Tetanus shot (March 2024).',
    '- Allergy: penicillin (Maya).',
  ])
    assert.deepEqual(owned('Health', text), [[text.slice(2), 'self']], text);
  // Her own name as a key is hers; a sentence opening with another person in her note stays theirs.
  assert.deepEqual(owned('Allergies', '- Maya Lindqvist: penicillin\n- Ana is allergic to nuts.'), [
    ['Maya Lindqvist: penicillin', 'self'],
    ['Ana is allergic to nuts.', 'other'],
  ]);
});

test('"she" or "he" just after a sentence of where someone lives is theirs, not the speaker\'s', () => {
  const said = (text: string) =>
    claimsOf(text, 'Ana').map((c) => [c.statement, c.subject, c.owner.state, c.predicate]);
  assert.deepEqual(said("my sister Maya lives in Madrid. she's a nurse"), [
    ['my sister Maya lives in Madrid.', 'Maya', 'other', 'lives in'],
    ["Ana's sister is Maya", 'Maya', 'self', null],
    ["Maya's occupation is nurse", 'Maya', 'other', 'occupation'],
  ]);
  // "Her …" or "His …" opening the next sentence is whose thing it says, as a "she" or "he" is.
  assert.deepEqual(said('My sister Klara moved to Graz last week. Her new address is Sporgasse 12.').at(-1), [
    'Her new address is Sporgasse 12.',
    'Klara',
    'other',
    null,
  ]);
  assert.deepEqual(said('My brother Rui lives in Porto. Her flat is tiny.').at(-1), [
    'Her flat is tiny.',
    'Ana',
    'self',
    null,
  ]);
  // A "she" after "my dad" is not him; a "she" that would change what was just said of him holds no slot.
  assert.deepEqual(said('My dad Rui is a doctor. He works at Santa Maria. She is a nurse.').at(-1), [
    'She is a nurse.',
    'Ana',
    'self',
    null,
  ]);
  assert.deepEqual(said('Rui is a doctor. She is a nurse.'), [
    ["Rui's occupation is doctor", 'Rui', 'other', 'occupation'],
    ['She is a nurse.', 'Rui', 'other', null],
  ]);
  // A move says itself that the home changed: the new home is his, after the one just said, where the
  // text says he is a "he".
  assert.deepEqual(said('My brother Sam lives in Leeds. He moved to York.').at(-1), [
    'Sam lives in York',
    'Sam',
    'other',
    'lives in',
  ]);
  assert.deepEqual(said('Sam, my brother, lives in Leeds. He moved to York.').at(-1), [
    'Sam lives in York',
    'Sam',
    'other',
    'lives in',
  ]);
  // Where nothing says it, the "he" may be anyone's: no move replaces the home just said.
  for (const [text, home] of [
    ['Sam lives in Leeds. He moved to York.', 'Sam lives in Leeds'],
    ['Rui lives in Porto. She moved to Lisbon.', 'Rui lives in Porto'],
    ['Rui lives in Porto. He works at Acme. He moved to Lisbon.', 'Rui lives in Porto'],
  ] as const)
    assert.deepEqual(
      said(text)
        .filter((c) => c[3] === 'lives in')
        .map((c) => c[0]),
      [home],
      text,
    );
  assert.deepEqual(said('My sister Marta lives in Leeds. She just moved to York.').at(-1), [
    'Marta lives in York',
    'Marta',
    'other',
    'lives in',
  ]);
  // Not a home said after one ("lives in Alfama now"), nor a move with its day, which may be before.
  assert.deepEqual(said('Inês moved to Lisbon. She lives in Alfama now.').at(-1), [
    'She lives in Alfama now.',
    'Inês',
    'other',
    null,
  ]);
  assert.deepEqual(said('Sam lives in Leeds. He moved to York in 2023.').at(-1), [
    'He moved to York in 2023.',
    'Sam',
    'other',
    null,
  ]);
  // Another name beside them may be the one meant: no one is taken for the "she".
  for (const text of [
    'Rui lives in Porto with Marta. She works at Google.',
    'My sister Inês lives in Madrid with her husband Paulo. He is a pilot.',
    'Rui lives in Porto. He has a daughter, Sofia. She is a doctor.',
    'My dog Max loves Rui. He is a vet.',
  ])
    assert.deepEqual(said(text).at(-1)!.slice(2), ['self', null], text);
  // What holds a slot of theirs holds it, said with "she" as with the name.
  assert.deepEqual(said('My brother Rui is a nurse. He works at Santa Maria. He loves it.'), [
    ['My brother Rui is a nurse.', 'Rui', 'other', 'occupation'],
    ["Ana's brother is Rui", 'Rui', 'self', null],
    ['Rui works at Santa Maria', 'Rui', 'other', 'works at'],
    ['He loves it.', 'Rui', 'other', null],
  ]);
  // A place named in the sentence is where, not who: the "she" is still the person it is about.
  assert.deepEqual(said('My sister Marta works at Siemens in Munich. She hates the commute.').at(-1), [
    'She hates the commute.',
    'Marta',
    'other',
    null,
  ]);
  // A "she" is not the person the text gives "he": his kin word, his "his", a "he" of his before.
  for (const text of [
    'My brother Rui lives in Porto. She moved to Lisbon.',
    'Rui, my brother, lives in Porto. She works at Google.',
    'Rui lives in Porto with his wife. She works at Google.',
    'Rui lives in Porto. He works at Acme. She is a nurse.',
    'My sister Marta lives in Leeds. He works at Acme.',
    'Marta lives in Leeds with her husband. He moved to York.',
  ])
    assert.deepEqual(said(text).at(-1)!.slice(1), ['Ana', 'self', null], text);
  // With nobody named just before, it stays the speaker's words.
  assert.deepEqual(said("i'm tired. she's a nurse"), [
    ["i'm tired.", 'Ana', 'self', null],
    ["she's a nurse", 'Ana', 'self', null],
  ]);
});

test('an agent\'s note of "the user" through MCP is about the self; the same words in a note are not', () => {
  const maya = { type: 'person' as const, name: 'Maya Costa' };
  const owners = (text: string, sourceName: string) => {
    const content = { kind: 'document' as const, text };
    return createRuleDeriver()
      .derive(
        { id: 'r', content, text: recordText(content), sourceName, occurredAt: '2024-01-01T00:00:00Z' },
        {
          self: maya,
        },
      )
      .map((c) => [c.subject, c.owner.state]);
  };
  for (const text of ['The user prefers green tea.', 'Preferences:\n- user is allergic to peanuts'])
    assert.deepEqual(owners(text, 'mcp'), [['Maya Costa', 'self']], text);
  // Her kin named as the user's are theirs, as "My sister Ana is a nurse." in her words is Ana's.
  assert.deepEqual(owners("User's sister Ana is a nurse. The user visits her in Valencia.", 'mcp'), [
    ['Ana', 'other'],
    ['Maya Costa', 'self'],
  ]);
  assert.deepEqual(owners('User lives in Leeds.', 'mcp'), [['Maya Costa', 'self']]);
  // Its slots are hers as an agent's read-back's are: they hold an empty slot, never replace a value.
  const content = { kind: 'document' as const, text: "User lives in Leeds. The user's birthday is July 12." };
  const claims = createRuleDeriver().derive(
    { id: 'r', content, text: recordText(content), sourceName: 'mcp', occurredAt: '2024-01-01T00:00:00Z' },
    { self: maya },
  );
  assert.deepEqual(
    claims.map((c) => [c.statement, c.predicate, c.restated !== undefined]),
    [
      ['Maya Costa lives in Leeds', 'lives in', true],
      ["Maya Costa's birthday is July 12", 'birthday', true],
    ],
  );
  // "User" before a noun is about the noun: research, an interface.
  assert.deepEqual(owners('User research notes: Tom lives in Berlin.', 'mcp'), [['mcp', 'unresolved']]);
  // Her kin's slots, said as the user's or by her name, are held as her own words would hold them
  // ("she" too), each an agent's restatement that never replaces what was said, in the note's words.
  const agentsNote = (text: string) => {
    const note = { kind: 'document' as const, text };
    return createRuleDeriver()
      .derive(
        {
          id: 'r',
          content: note,
          text: recordText(note),
          sourceName: 'mcp',
          occurredAt: '2024-01-01T00:00:00Z',
        },
        { self: maya },
      )
      .map((c) => [c.subject, c.owner.state, c.predicate, c.quote, c.restated?.statement ?? null]);
  };
  assert.deepEqual(agentsNote("User's sister Ana lives in Madrid. She is a nurse."), [
    ['Ana', 'other', 'lives in', "User's sister Ana lives in Madrid.", "User's sister Ana lives in Madrid."],
    ['Ana', 'other', 'occupation', 'She is a nurse.', 'Ana is a nurse.'],
  ]);
  assert.deepEqual(agentsNote("Maya's brother Sam works at Google. He lives in Leeds."), [
    [
      'Sam',
      'other',
      'works at',
      "Maya's brother Sam works at Google.",
      "Maya's brother Sam works at Google.",
    ],
    ['Sam', 'other', 'lives in', 'He lives in Leeds.', 'Sam lives in Leeds.'],
  ]);
  // Her own things by her name stay hers.
  assert.deepEqual(agentsNote("Maya's flight is at 9."), [
    ['Maya Costa', 'self', null, "Maya's flight is at 9.", null],
  ]);
  // Not hers in a note of another source either: Ana's, as another person's sentence is there.
  assert.deepEqual(owners("User's sister Ana is a nurse.", 'markdown'), [['Ana', 'other']]);
  // Another person named by the note is theirs, not the self's (below).
  assert.deepEqual(owners('Ana is a nurse.', 'mcp'), [['Ana', 'other']]);
});

test("an untitled note's passage that opens with another person is theirs; a titled one keeps its title", () => {
  const read = (text: string, sourceName: string, title?: string) =>
    derived(
      { kind: 'document', text, ...(title === undefined ? {} : { title }) },
      sourceName,
      'Maya Costa',
    ).map((c) => [c.statement, c.subject, c.owner.state, c.predicate]);
  assert.deepEqual(read('Sam prefers the window seat.', 'mcp'), [
    ['Sam prefers the window seat.', 'Sam', 'other', null],
  ]);
  // A slot said of them is held as a message's would be.
  assert.deepEqual(read('Sam lives in Leeds.', 'api'), [['Sam lives in Leeds', 'Sam', 'other', 'lives in']]);
  // Each passage by its own opening.
  assert.deepEqual(read('Sam prefers the window seat.\n\nPorto is lovely in May.', 'mcp'), [
    ['Sam prefers the window seat.', 'Sam', 'other', null],
    ['Porto is lovely in May.', 'mcp', 'unresolved', null],
  ]);
  // A place, a lead-in or "the user's" names no other person.
  assert.deepEqual(read('User research notes: Tom lives in Berlin.', 'mcp'), [
    ['User research notes: Tom lives in Berlin.', 'mcp', 'unresolved', null],
  ]);
  // A title says what the note is about: its passages keep it.
  assert.deepEqual(read('Sam prefers the window seat.', 'markdown', 'Trip'), [
    ['Sam prefers the window seat.', 'Trip', 'unresolved', null],
  ]);
});

test("an agent's note that names the person by her name is hers, as its message would be", () => {
  const read = (text: string, sourceName = 'mcp') =>
    derived({ kind: 'document', text }, sourceName, 'Maya Costa').map((c) => [
      c.statement,
      c.subject,
      c.owner.state,
    ]);
  assert.deepEqual(read('Maya prefers tea.'), [['Maya prefers tea.', 'Maya Costa', 'self']]);
  assert.deepEqual(read('Maya said she prefers the aisle.'), [
    ['Maya said she prefers the aisle.', 'Maya Costa', 'self'],
  ]);
  assert.deepEqual(read('Reminder: Maya Costa is allergic to penicillin.'), [
    ['Reminder: Maya Costa is allergic to penicillin.', 'Maya Costa', 'self'],
  ]);
  // Beside another person's: each is whose it is.
  assert.deepEqual(read('Maya prefers tea. Sam prefers coffee.'), [
    ['Maya prefers tea.', 'Maya Costa', 'self'],
    ['Sam prefers coffee.', 'Sam', 'other'],
  ]);
  // Her name called, or another's note, is not about her.
  assert.deepEqual(read('Maya, try the new cafe on Rua Augusta.'), [
    ['Maya, try the new cafe on Rua Augusta.', 'mcp', 'unresolved'],
  ]);
  assert.deepEqual(read('Maya prefers tea.', 'markdown'), [['Maya prefers tea.', 'markdown', 'unresolved']]);
});

test("an untitled note's passage of two people gives each what opens with them; of one, with a pronoun, is theirs", () => {
  const read = (text: string) =>
    derived({ kind: 'document', text }, 'api', 'Maya Costa').map((c) => [
      c.statement,
      c.subject,
      c.owner.state,
    ]);
  // Ana's job is hers, not Sam's.
  assert.deepEqual(read('Sam lives in Leeds.\nAna is a nurse.'), [
    ['Sam lives in Leeds', 'Sam', 'other'],
    ["Ana's occupation is nurse", 'Ana', 'other'],
  ]);
  assert.deepEqual(read('Sam moved to Paris. Ana moved to Rome.'), [
    ['Sam lives in Paris', 'Sam', 'other'],
    ['Ana lives in Rome', 'Ana', 'other'],
  ]);
  // What follows a person's sentence without naming anyone goes with them.
  assert.deepEqual(read('Porto is lovely in May. Ana is a nurse. She loves it.'), [
    ['Porto is lovely in May.', 'api', 'unresolved'],
    ["Ana's occupation is nurse", 'Ana', 'other'],
    ['She loves it.', 'Ana', 'other'],
  ]);
  // What opens with the user, the writer or her first name is not the person's before it.
  assert.deepEqual(read('Sam lives in Leeds. The user visits him often.'), [
    ['Sam lives in Leeds', 'Sam', 'other'],
    ['The user visits him often.', 'api', 'unresolved'],
  ]);
  assert.deepEqual(read('Sam lives in Leeds. Maya visits him often. He loves it.'), [
    ['Sam lives in Leeds', 'Sam', 'other'],
    ['Maya visits him often. He loves it.', 'api', 'unresolved'],
  ]);
  // Her own first name is no one's, not a namesake's.
  assert.deepEqual(read('Sam lives in Leeds. Maya is a nurse.'), [
    ['Sam lives in Leeds', 'Sam', 'other'],
    ['Maya is a nurse.', 'api', 'unresolved'],
  ]);
  assert.deepEqual(read('Sam prefers the window seat. He hates turbulence.'), [
    ['Sam prefers the window seat. He hates turbulence.', 'Sam', 'other'],
  ]);
});

test("an untitled note's second person of the same first name is not the one before", () => {
  const read = (text: string) =>
    derived({ kind: 'document', text }, 'api', 'Maya Costa').map((c) => [
      c.statement,
      c.subject,
      c.predicate,
    ]);
  // Sam Jones's home was Sam Lee's, moving him to York.
  assert.deepEqual(read('Sam Lee lives in Leeds. Sam Jones lives in York.'), [
    ['Sam Lee lives in Leeds', 'Sam Lee', 'lives in'],
    ['Sam Jones lives in York', 'Sam Jones', 'lives in'],
  ]);
  assert.deepEqual(read('Sam lives in Leeds. Sam Jones lives in York. He works at Acme.'), [
    ['Sam lives in Leeds', 'Sam', 'lives in'],
    ['Sam Jones lives in York', 'Sam Jones', 'lives in'],
    ['Sam Jones works at Acme', 'Sam Jones', 'works at'],
  ]);
  // The first name alone after the whole is still them.
  assert.deepEqual(read('Sam Lee lives in Leeds. Sam works at Acme.'), [
    ['Sam Lee lives in Leeds', 'Sam Lee', 'lives in'],
    ['Sam works at Acme', 'Sam Lee', 'works at'],
  ]);
});

test("an untitled note's sentence that opens with another name, a person's or not, is not the one's before", () => {
  const read = (text: string) =>
    derived({ kind: 'document', text }, 'api', 'Maya Costa').map((c) => [
      c.statement,
      c.subject,
      c.owner.state,
    ]);
  // Each was a Memory of Sam's or Sarah's.
  assert.deepEqual(read('Sam works at Acme Corp. Acme Corp moved to Berlin.'), [
    ['Sam works at Acme Corp', 'Sam', 'other'],
    ['Acme Corp moved to Berlin.', 'api', 'unresolved'],
  ]);
  assert.deepEqual(read('Sarah works at Stripe. Stripe is moving to Dublin.'), [
    ['Sarah works at Stripe', 'Sarah', 'other'],
    ['Stripe is moving to Dublin.', 'api', 'unresolved'],
  ]);
  assert.deepEqual(read('Sam lives in Leeds. Ana has two kids.'), [
    ['Sam lives in Leeds', 'Sam', 'other'],
    ['Ana has two kids.', 'api', 'unresolved'],
  ]);
  assert.deepEqual(read('Sam lives in Leeds. Ana and Tom live in York.'), [
    ['Sam lives in Leeds', 'Sam', 'other'],
    ['Ana and Tom live in York.', 'api', 'unresolved'],
  ]);
  assert.deepEqual(read('Sam prefers tea. Leeds is lovely in spring.'), [
    ['Sam prefers tea.', 'Sam', 'other'],
    ['Leeds is lovely in spring.', 'api', 'unresolved'],
  ]);
  // One that says "his" or "him" may be of them; one naming no one goes with them, as before.
  assert.deepEqual(read('Sam works at Acme. Tom Reyes is his manager.'), [
    ['Sam works at Acme', 'Sam', 'other'],
    ['Tom Reyes is his manager.', 'Sam', 'other'],
  ]);
  // What says only what his place is like goes with his home (withPlaceSaidAfter).
  assert.deepEqual(read('Sam lives in Leeds. It rains a lot there.'), [
    ['Sam lives in Leeds', 'Sam', 'other'],
  ]);
  assert.deepEqual(read('Sam Lee lives in Leeds. Sam has two kids.'), [
    ['Sam Lee lives in Leeds', 'Sam Lee', 'other'],
    ['Sam has two kids.', 'Sam Lee', 'other'],
  ]);
});

test("a daily note titled by its date is the writer's journal: a sentence opening with a person is theirs", () => {
  const daily = (title: string, text: string) =>
    derived({ kind: 'document', title, text: `${text}\n\nTags: #journal` }, 'markdown', 'Ivo Marić').map(
      (c) => [c.statement, c.subject, c.predicate, c.owner.state],
    );
  for (const title of ['2026-11-13', '13.11.2026'])
    assert.deepEqual(
      daily(title, 'Marko works at Span now.'),
      [['Marko works at Span now.', 'Marko', 'works at', 'other']],
      title,
    );
  // Another's slot is theirs; what follows with no one named is the writer's day.
  assert.deepEqual(
    daily('2026-12-04', 'Ana has a new job at Infobip starting in January. Celebrated with cake.'),
    [
      ['Ana works at Infobip', 'Ana', 'works at', 'other'],
      ['Celebrated with cake.', 'Ivo Marić', null, 'self'],
    ],
  );
  // What opens with no person is the writer's, though it says no "I".
  assert.deepEqual(daily('2026-11-02', 'Started the week slow.'), [
    ['Started the week slow.', 'Ivo Marić', null, 'self'],
  ]);
  // A title that is more than a date is a title.
  assert.deepEqual(daily('Trip 2026-11-13', 'Marko works at Span now.'), [
    ['Marko works at Span now.', 'Trip 2026-11-13', null, 'unresolved'],
  ]);
});

test("an untitled note's passage about another person holds the slots its sentences say of them", () => {
  const read = (text: string, sourceName = 'api') =>
    derived({ kind: 'document', text }, sourceName, 'Maya Costa').map((c) => [
      c.statement,
      c.subject,
      c.predicate,
      c.quote,
    ]);
  // By name or as "he": each slot as a message's sentence holds it; the passage's name is its subject.
  assert.deepEqual(read('Sam Lee lives in Leeds. Sam works at Acme.'), [
    ['Sam Lee lives in Leeds', 'Sam Lee', 'lives in', 'Sam Lee lives in Leeds.'],
    ['Sam works at Acme', 'Sam Lee', 'works at', 'Sam works at Acme.'],
  ]);
  // What holds none is theirs as it was said, a Memory for each run of such sentences.
  assert.deepEqual(
    read('Sam prefers the window seat. He lives in Leeds. He hates turbulence. He likes tea.'),
    [
      ['Sam prefers the window seat.', 'Sam', null, 'Sam prefers the window seat.'],
      ['Sam lives in Leeds', 'Sam', 'lives in', 'He lives in Leeds.'],
      ['He hates turbulence. He likes tea.', 'Sam', null, 'He hates turbulence. He likes tea.'],
    ],
  );
  // Read from the words as they show, quoting the note's own characters.
  assert.deepEqual(read('**Sam** lives in Leeds.'), [
    ['Sam lives in Leeds', 'Sam', 'lives in', '**Sam** lives in Leeds.'],
  ]);
  assert.deepEqual(read('**Sam** lives in Leeds. *He* works at Acme.'), [
    ['Sam lives in Leeds', 'Sam', 'lives in', '**Sam** lives in Leeds.'],
    ['Sam works at Acme', 'Sam', 'works at', '*He* works at Acme.'],
  ]);
  // A "she" that may be someone else keeps the passage whole, as said.
  assert.deepEqual(read('Sam lives in Leeds with Ana. She is a nurse.'), [
    [
      'Sam lives in Leeds with Ana. She is a nurse.',
      'Sam',
      null,
      'Sam lives in Leeds with Ana. She is a nurse.',
    ],
  ]);
  // A "he" that would move them again just after is not taken for them.
  assert.deepEqual(read('Sam lives in Leeds. He lives in York.'), [
    ['Sam lives in Leeds', 'Sam', 'lives in', 'Sam lives in Leeds.'],
    ['He lives in York.', 'Sam', null, 'He lives in York.'],
  ]);
  // An agent's note restates each in a sentence that stands alone.
  const restated = derived(
    { kind: 'document', text: 'Sam prefers tea. He lives in Leeds.' },
    'mcp',
    'Maya Costa',
  ).map((c) => c.restated?.statement ?? null);
  assert.deepEqual(restated, [null, 'Sam lives in Leeds.']);
});

test("an agent's note of the user's: a sentence that opens with another person is theirs, not hers", () => {
  const read = (text: string) =>
    derived({ kind: 'document', text }, 'mcp', 'Maya Costa').map((c) => [
      c.statement,
      c.owner.state,
      c.predicate,
      c.restated !== undefined,
    ]);
  // Sam's seat was in her Profile once the note also said something of her.
  assert.deepEqual(read('Sam prefers the window seat. User prefers the aisle.'), [
    ['Sam prefers the window seat.', 'other', null, false],
    ['User prefers the aisle.', 'self', null, false],
  ]);
  // His slot as an agent says it: held where it is empty, never replacing what was said (below).
  assert.deepEqual(read('Sam lives in Leeds. User lives in Porto.'), [
    ['Sam lives in Leeds', 'other', 'lives in', true],
    ['Maya Costa lives in Porto', 'self', 'lives in', true],
  ]);
  // Her own slot said by her name is still only restated.
  assert.deepEqual(read("Maya Costa's birthday is March 4. User lives in Porto."), [
    ["Maya Costa's birthday is March 4", 'self', 'birthday', true],
    ['Maya Costa lives in Porto', 'self', 'lives in', true],
  ]);
});

test("a note's list markers, links and emphasis are not its Memories' words; its quotes keep them", () => {
  const content = {
    kind: 'document' as const,
    title: 'Trip',
    text: '# Trip to Porto\n\n- Hotel: Casa das Flores\n* [ ] Book the train\n\nSee also [[Packing list]].\n\nWe visit [[Ana Costa|Ana]] in **May**.',
  };
  const record = {
    id: 'rec_1',
    content,
    text: recordText(content),
    sourceName: 'markdown',
    occurredAt: '2024-01-01T00:00:00Z',
  };
  const claims = createRuleDeriver().derive(record, { self: { type: 'person', name: 'Maya Costa' } });
  assert.deepEqual(
    claims.map((c) => [c.statement, c.quote]),
    [
      ['Hotel: Casa das Flores', 'Hotel: Casa das Flores'],
      ['To do: Book the train', 'Book the train'],
      ['We visit Ana in May.', 'We visit [[Ana Costa|Ana]] in **May**.'],
    ],
  );
  for (const c of claims) assert.ok(record.text.includes(c.quote), c.quote);
  // A checklist of sentences without full stops: an item a Memory, no marker in any; its box said in
  // words, so a ticked task is not one still to do.
  const list = {
    kind: 'document' as const,
    title: 'Move',
    text: '- [x] Sign lease for Gloucester Road flat\n- [ ] Register with a GP in Bristol\n- [ ] Update address with the bank (Monzo) and DVLA',
  };
  const items = createRuleDeriver().derive(
    { ...record, content: list, text: recordText(list) },
    { self: { type: 'person', name: 'Maya Costa' } },
  );
  assert.deepEqual(
    items.map((c) => c.statement),
    [
      'Done: Sign lease for Gloucester Road flat',
      'To do: Register with a GP in Bristol',
      'To do: Update address with the bank (Monzo) and DVLA',
    ],
  );
});

test('a ticked task is done and an open one still to do, in her notes, an untitled one and a message', () => {
  const tasks = '- [x] renew passport\n- [ ] send Priya the onboarding doc';
  const expected = [
    ['Done: renew passport', 'renew passport'],
    ['To do: send Priya the onboarding doc', 'send Priya the onboarding doc'],
  ];
  for (const [title, sourceName] of [
    ['To do', 'markdown'],
    ['', 'markdown'],
    ['Week', 'obsidian'],
  ] as const)
    assert.deepEqual(
      derived({ kind: 'document', title, text: tasks }, sourceName, 'Maria Silva').map((c) => [
        c.statement,
        c.quote,
      ]),
      expected,
      `${sourceName} "${title}"`,
    );
  assert.deepEqual(
    claimsOf(`My list:\n${tasks}`, 'Maria Silva', 'Maria Silva')
      .slice(1)
      .map((c) => [c.statement, c.quote]),
    expected,
  );
  // "[X]" ticks too. A note of no one's keeps a passage whole; in her own words, where each sentence
  // is its own Memory, the box ticks the task's first sentence, not what is said of it after.
  assert.deepEqual(
    noteClaims('Week', '- [X] Call mum. She sounded tired.\n- [ ] TODO book the dentist', 'Maria Silva').map(
      (c) => c.statement,
    ),
    ['Done: Call mum. She sounded tired.', 'TODO book the dentist'],
  );
  assert.deepEqual(
    noteClaims('Week', 'I live in Porto.\n- [X] I called mum. She sounded tired.', 'Maria Silva').map(
      (c) => c.statement,
    ),
    ['Maria Silva lives in Porto', 'Done: I called mum.', 'She sounded tired.'],
  );
  // A list with no boxes is no checklist: its items say nothing of being done.
  assert.deepEqual(
    noteClaims('Trip', '- passport\n- charger', 'Maria Silva').map((c) => c.statement),
    ['passport', 'charger'],
  );
});

test("a calendar's to-do is a task as a checklist's is, open or done; its description its own", () => {
  // As server/import/formats/ics.ts writes a VTODO: the Record keeps when it is due and when it was
  // done; the Memory is the task, quoting its words.
  const todo = (text: string, sourceName = 'ics') =>
    derived({ kind: 'document', title: text.split('\n')[0], text }, sourceName, 'Maria Silva').map((c) => [
      c.statement,
      c.quote,
    ]);
  assert.deepEqual(
    todo('To-do: Renew passport\nDue: 2026-02-01T00:00:00.000Z\nBring the old one and two photos.'),
    [
      ['To do: Renew passport', 'Renew passport'],
      ['Bring the old one and two photos.', 'Bring the old one and two photos.'],
    ],
  );
  assert.deepEqual(todo('To-do: Book flights\nDone: 2026-01-15T12:00:00.000Z'), [
    ['Done: Book flights', 'Book flights'],
  ]);
  assert.deepEqual(todo('To-do: Book flights\nDone'), [['Done: Book flights', 'Book flights']]);
  // Its description may hold a checklist of its own.
  assert.deepEqual(todo('To-do: Move\nDue: 2026-05-01\n- [x] Sign the lease\n- [ ] Book the van'), [
    ['To do: Move', 'Move'],
    ['Done: Sign the lease', 'Sign the lease'],
    ['To do: Book the van', 'Book the van'],
  ]);
  // A note a person opens so is a task too, however she spells it; one that opens a list, or with
  // something else, is read as before.
  assert.deepEqual(todo('TODO: call the bank about the mortgage', 'markdown'), [
    ['To do: call the bank about the mortgage', 'call the bank about the mortgage'],
  ]);
  assert.deepEqual(todo('To do:\n- [ ] call the bank', 'markdown'), [
    ['To do:', 'To do:'],
    ['To do: call the bank', 'call the bank'],
  ]);
  assert.deepEqual(todo('Errands\n\nTo-do: call the bank', 'markdown'), [
    ['Errands', 'Errands'],
    ['To-do: call the bank', 'To-do: call the bank'],
  ]);
  // A message is no to-do's Record, but it says a task as a sentence does (task-said.ts).
  assert.deepEqual(
    claimsOf('To-do: call the bank', 'Maria Silva', 'Maria Silva').map((c) => [c.statement, c.quote]),
    [['To do: call the bank', 'call the bank']],
  );
});

test("a note's code, tables and lines of tags are no Memories; its prose around them is, quoted exactly", () => {
  const text = [
    '# 4 March',
    '',
    'Knee felt better after the swim.',
    '```bash',
    '# I love cron',
    'crontab -e',
    '```',
    '| Race | Time |',
    '|------|------|',
    '| Laser | 10:00 |',
    'The regatta starts at ten.',
    '#todo #health/knee',
  ].join('\n');
  const content = { kind: 'document' as const, title: '4 March', text };
  const record = {
    id: 'rec_1',
    content,
    text: recordText(content),
    sourceName: 'obsidian',
    occurredAt: '2024-03-04T00:00:00Z',
  };
  const claims = createRuleDeriver().derive(record, { self: { type: 'person', name: 'Maya Costa' } });
  assert.deepEqual(
    claims.map((c) => c.statement),
    ['Knee felt better after the swim.', 'The regatta starts at ten.'],
  );
  for (const c of claims) assert.ok(text.includes(c.quote), c.quote);
});

test('a sentence the next one takes back holds no slot and ends none: a joke owned, a doubt, a "but not"', () => {
  const slots = (text: string) => claimsOf(text, 'Ana').filter((c) => c.predicate !== null);
  for (const text of [
    'we broke up. jk lol',
    'we broke up. jk lol, jordan just ate the last of my biscoitos',
    "We broke up. But we're working on it.",
    'we broke up. then got back together',
    "i'm vegan. not really",
    'i live in rio. i think',
    'I live in Porto. But not for long.',
  ])
    assert.deepEqual(slots(text), [], text);
  // A parting the next sentence only talks about stands.
  for (const text of [
    'We broke up. Kidding aside, it hurt.',
    'We broke up. Just kidding aside, it hurt.',
    'We broke up. JK Rowling helped me through it.',
    'We broke up. Psych 101 was cancelled too.',
    'We broke up. Just kidding around with friends now.',
    "We broke up. I don't think we'll get back together.",
  ])
    assert.ok(
      slots(text).some((c) => c.endsHeld !== undefined),
      text,
    );
  // What goes on to say more takes nothing back.
  for (const text of [
    "I live in Porto. I think it's great.",
    'I live in Porto. But I work from home.',
    "I live in Porto. But I'm still looking for a flat.",
    'I live in Porto. Not really a fan of the rain though.',
  ])
    assert.deepEqual(
      slots(text).map((c) => c.statement),
      ['Ana lives in Porto'],
      text,
    );
});

test("a message's fenced code is no Memory; the words around it are", () => {
  const answer = [
    'Here is how to do it:',
    '',
    '```python',
    'items = [1, 2, 3]',
    'for i in items:',
    '    print(i)',
    '```',
    '',
    'This prints each item.',
  ].join('\n');
  assert.deepEqual(
    claimsOf(answer, 'ChatGPT').map((c) => c.statement),
    ['Here is how to do it:', 'This prints each item.'],
  );
  assert.deepEqual(said('```\nls -la\n```'), [], 'code alone: no Memory');
  // Backticks inline open no block.
  assert.deepEqual(said('I ran ```npm ci``` and it worked.'), [
    ['I ran ```npm ci``` and it worked.', 'I ran ```npm ci``` and it worked.'],
  ]);
});

test("an Obsidian note's comments are no Memories; '%%' in any other note is its text", () => {
  const text = 'Tomatoes go in on %% maybe earlier? %% 1 June.\n\n%%\nask Rui about the fence\n%%';
  const content = { kind: 'document' as const, title: 'Garden', text };
  const note = (sourceName: string) =>
    createRuleDeriver()
      .derive(
        { id: 'rec_1', content, text: recordText(content), sourceName, occurredAt: '2024-01-01T00:00:00Z' },
        { self: { type: 'person', name: 'Ana' } },
      )
      .map((c) => c.statement);
  assert.deepEqual(note('obsidian'), ['Tomatoes go in on 1 June.']);
  assert.deepEqual(note('markdown'), [
    'Tomatoes go in on %% maybe earlier? %% 1 June.',
    '%%\nask Rui about the fence\n%%',
  ]);
});

test('a parting after a story of an ex is his, near it; after a night out with friends, or far on, it is not', () => {
  const ended = (text: string) =>
    claimsOf(text, 'Ana')
      .filter((c) => c.predicate === 'boyfriend')
      .map((c) => c.endsHeld);
  assert.deepEqual(ended('I dated Jake in college. He dumped me.'), [{ values: ['Jake'], oneOf: 'partner' }]);
  assert.deepEqual(ended('I went out with friends last night. He dumped me this morning.'), [
    { oneOf: 'partner' },
  ]);
  assert.deepEqual(
    ended('I dated Jake in college. It was fun. We travelled. I moved. I got a job. He dumped me.'),
    [{ oneOf: 'partner' }],
    'five sentences on, the story has moved on',
  );
});

test('a value said to come starts on its day; a day gone holds no slot', () => {
  // Said on Monday 1 January 2024.
  const start = (text: string) => claimsOf(text, 'Ana').map((c) => [c.statement, c.predicate, c.startsAt]);
  assert.deepEqual(start("I'm starting at Revolut on Friday"), [
    ['Ana works at Revolut', 'works at', '2024-01-05T00:00:00.000Z'],
  ]);
  // The new job named with its day: held from that day, one claim.
  assert.deepEqual(start('My new job at Google starts Monday.'), [
    ['Ana works at Google', 'works at', '2024-01-08T00:00:00.000Z'],
  ]);
  // Today holds from when it was said, as "I started at Stripe today" does.
  assert.deepEqual(start('first day at Stripe today!'), [['Ana works at Stripe', 'works at', undefined]]);
  assert.deepEqual(start("I'm starting at Acme on March 3 2020"), [
    ["I'm starting at Acme on March 3 2020", null, undefined],
  ]);
  // The day said after the value, "starting …": the job and the role said with it start then.
  assert.deepEqual(start("I got promoted! I'm now Lead Data Scientist at Brightwave, starting January 15."), [
    ['I got promoted!', null, undefined],
    ['Ana works at Brightwave', 'works at', '2024-01-15T00:00:00.000Z'],
    ["Ana's occupation is lead data scientist", 'occupation', '2024-01-15T00:00:00.000Z'],
  ]);
  assert.deepEqual(start('I have a new job at Infobip starting in March.'), [
    ['Ana works at Infobip', 'works at', '2024-03-01T00:00:00.000Z'],
  ]);
  // Said of another, theirs from then.
  assert.deepEqual(
    claimsOf('Rui has a new job at Infobip, starting next week.', 'Ana').map((c) => [
      c.statement,
      c.subject,
      c.startsAt,
    ]),
    [['Rui works at Infobip', 'Rui', '2024-01-08T00:00:00.000Z']],
  );
  assert.deepEqual(start('I have a new job interview at Infobip.'), [
    ['I have a new job interview at Infobip.', null, undefined],
  ]);
  assert.deepEqual(start('I live in Porto, as of next month.'), [
    ['Ana lives in Porto', 'lives in', '2024-02-01T00:00:00.000Z'],
  ]);
  // Days of the week one works are no start.
  assert.deepEqual(start('I work at Acme, starting Monday to Friday.'), [
    ['I work at Acme, starting Monday to Friday.', 'works at', undefined],
  ]);
  // The day said in the next sentence: the job starts then, and that sentence is no Memory beside it.
  assert.deepEqual(start('I accepted the offer from Helix Bio! I start on January 15th.'), [
    ['Ana works at Helix Bio', 'works at', '2024-01-15T00:00:00.000Z'],
  ]);
  // The role said in the job's own sentence starts with it; a month alone is its first day.
  assert.deepEqual(start('I accepted a job offer at Spotify as a senior designer. I start in February.'), [
    ['Ana works at Spotify', 'works at', '2024-02-01T00:00:00.000Z'],
    ["Ana's occupation is senior designer", 'occupation', '2024-02-01T00:00:00.000Z'],
  ]);
  assert.deepEqual(start('I got a job at Helix Bio! Start date is next Monday 🎉'), [
    ['Ana works at Helix Bio', 'works at', '2024-01-08T00:00:00.000Z'],
  ]);
  // A chat's "Starting …" with its role before it (use9 H3): the job and the role from that day, shouted
  // news too.
  assert.deepEqual(start('I GOT THE RIMAC JOB! Data analyst, starting 7 January.'), [
    ['Ana works at Rimac', 'works at', '2024-01-07T00:00:00.000Z'],
    ["Ana's occupation is data analyst", 'occupation', '2024-01-07T00:00:00.000Z'],
  ]);
  assert.deepEqual(start('I got the job at Rimac! Starting 7 January.'), [
    ['Ana works at Rimac', 'works at', '2024-01-07T00:00:00.000Z'],
  ]);
  // Words before it that name no role start nothing: the sentence stays as said.
  assert.deepEqual(start('I got the job at Rimac! Really, starting 7 January.'), [
    ['Ana works at Rimac', 'works at', undefined],
    ['Really, starting 7 January.', null, undefined],
  ]);
  // "there" is the employer the sentence before names; the role said with the day starts with it, quoting
  // the sentence that says it.
  const there = claimsOf(
    'Big news: I accepted the offer from Sonae. I start there on 11 January 2024 as a senior data engineer.',
    'Ana',
  ).map((c) => [c.statement, c.startsAt, c.quote]);
  assert.deepEqual(there, [
    ['Ana works at Sonae', '2024-01-11T00:00:00.000Z', 'Big news: I accepted the offer from Sonae.'],
    [
      "Ana's occupation is senior data engineer",
      '2024-01-11T00:00:00.000Z',
      'I start there on 11 January 2024 as a senior data engineer.',
    ],
  ]);
  for (const next of [
    "I'm starting there on January 11.",
    'My first day there is January 11.',
    'I start on January 11 as a senior data engineer.',
  ])
    assert.deepEqual(
      start(`I accepted the offer from Sonae! ${next}`).map((c) => [c[1], c[2]]),
      [
        ['works at', '2024-01-11T00:00:00.000Z'],
        ...(next.includes(' as a ') ? [['occupation', '2024-01-11T00:00:00.000Z']] : []),
      ],
      next,
    );
  // The employer, the day and the role in one sentence, the role before the day or after it.
  for (const one of [
    'I start at Sonae on 11 January 2024 as a senior data engineer.',
    "I'm starting at Sonae on January 11 as a senior data engineer.",
    "I'm starting at Sonae as a senior data engineer on January 11.",
  ])
    assert.deepEqual(
      start(one),
      [
        ['Ana works at Sonae', 'works at', '2024-01-11T00:00:00.000Z'],
        ["Ana's occupation is senior data engineer", 'occupation', '2024-01-11T00:00:00.000Z'],
      ],
      one,
    );
  // "I start there at 9": no day, no start.
  assert.deepEqual(
    start('I accepted the offer from Sonae! I start there at 9 every day as a trainee.').map((c) => c[2]),
    [undefined, undefined],
  );
  // The news and its day later in the message: both start that day, and the role said with the news;
  // the job held ends after its last day (Friday 5 January), where it is the one held.
  assert.deepEqual(
    start(
      'Big news: I accepted an offer from Figma as a designer. My last day at Dell is Friday and I start at Figma on January 15.',
    ).map((c) => [c[1], c[2]]),
    [
      ['works at', '2024-01-15T00:00:00.000Z'],
      ['occupation', '2024-01-15T00:00:00.000Z'],
      ['works at', '2024-01-15T00:00:00.000Z'],
      ['works at', '2024-01-06T00:00:00.000Z'],
    ],
  );
  // A last day in May is a day, not a doubt; "might be" is one.
  assert.deepEqual(
    start('My last day at Dell is May 3.').map((c) => [c[1], c[2]]),
    [
      [null, undefined],
      ['works at', '2024-05-04T00:00:00.000Z'],
    ],
  );
  assert.deepEqual(
    start('My last day at Dell might be Friday.').map((c) => c[1]),
    [null],
  );
  // No day read: the job as said, the sentence as said.
  assert.deepEqual(start('I work at Globex. I start at 9 every day.'), [
    ['Ana works at Globex', 'works at', undefined],
    ['I start at 9 every day.', null, undefined],
  ]);
});

test("someone else's words forwarded under a line that hands them over hold none of the speaker's slots", () => {
  const claims = claimsOf('forwarding from ines:\nI live in Porto now and work at Farfetch.', 'Ana');
  assert.deepEqual(
    claims.filter((c) => c.predicate !== null),
    [],
  );
});

test("a people note's key lines hold that person's slots; her sentences are hers; the rest as any note", () => {
  const note = (title: string, text: string) =>
    noteClaims(title, text, 'Maria Santos').map((c) => [c.statement, c.predicate, c.owner.state, c.quote]);
  assert.deepEqual(
    note(
      'Priya Shah',
      'birthday: 1990-03-14\ncompany: [[Acme Corp]]\n\nMet at the climbing gym\nLoves spicy food.\nShe lives in Bristol.',
    ),
    [
      ["Priya Shah's birthday is 1990-03-14", 'birthday', 'other', 'birthday: 1990-03-14'],
      ['Priya Shah works at Acme Corp', 'works at', 'other', 'company: [[Acme Corp]]'],
      [
        'Met at the climbing gym\nLoves spicy food.',
        null,
        'unresolved',
        'Met at the climbing gym\nLoves spicy food.',
      ],
      ['Priya Shah lives in Bristol', 'lives in', 'other', 'She lives in Bristol.'],
    ],
  );
  // A first name alone as the title: a person only where a line gives what only a person has.
  assert.deepEqual(
    note('Priya', 'Birthday: 14 March').map((c) => c[0]),
    ["Priya's birthday is 14 March"],
  );
  assert.deepEqual(
    note('Budget', 'Rent: 900\nFood: 300').map((c) => c[1]),
    [null],
  );
});

test('a note named after a person: what "she" and "her" say is that person\'s, not the note\'s writer\'s', () => {
  const note = (title: string, text: string) =>
    noteClaims(title, text, 'Maria Santos').map((c) => [c.statement, c.owner.state, c.subject]);
  assert.deepEqual(
    note('Ana Lima', 'Ana Lima is my best friend. She lives in Porto. Her partner is Pedro.'),
    [
      ['Ana Lima is my best friend.', 'self', 'Maria Santos'],
      // Who she is to Maria, as "Ana Lima, my best friend, …" says it.
      ["Maria Santos's best friend is Ana Lima", 'self', 'Ana Lima'],
      ['Ana Lima lives in Porto', 'other', 'Ana Lima'],
      ['Her partner is Pedro.', 'other', 'Ana Lima'],
    ],
  );
  // A note named after no one, or after the person herself, keeps its sentences hers.
  assert.deepEqual(
    note('Trip Ideas', 'I want to go to Japan. She said it is lovely.').map((c) => c[1]),
    ['self', 'self'],
  );
  assert.deepEqual(
    note('Maria Santos', 'I live in Lisbon. She is me.').map((c) => c[1]),
    ['self', 'self'],
  );
});

test('a people note the self writes in the first person: its key lines and what it says of them are theirs', () => {
  const note = (title: string, text: string) =>
    noteClaims(title, text, 'Ana Sousa').map((c) => [c.statement, c.predicate, c.owner.state, c.subject]);
  // As Obsidian's import gives "People/Rui Sousa.md": its properties, then the note's own words.
  assert.deepEqual(
    note(
      'Rui Sousa',
      'birthday: 1990-03-23\nphone: +351 912 345 678\n\nMy younger brother. Allergic to peanuts! Lives in Porto.\nI owe him 20 euros.',
    ),
    [
      ["Rui Sousa's birthday is 1990-03-23", 'birthday', 'other', 'Rui Sousa'],
      ["Rui Sousa's phone number is +351 912 345 678", 'phone number', 'other', 'Rui Sousa'],
      // Who he is to her is hers to say, as "Rui Sousa is my younger brother." would be.
      ['Rui Sousa is my younger brother.', null, 'self', 'Ana Sousa'],
      ["Ana Sousa's younger brother is Rui Sousa", null, 'self', 'Rui Sousa'],
      ['Allergic to peanuts!', null, 'other', 'Rui Sousa'],
      ['Lives in Porto.', null, 'other', 'Rui Sousa'],
      // What she says of herself stays hers.
      ['I owe him 20 euros.', null, 'self', 'Ana Sousa'],
    ],
  );
  // A line opening with a verb of his, its subject left out, is his though it says "me" or "my".
  assert.deepEqual(note('Rui Sousa', 'Owes me a dinner for the Hvar trip.\nStill has my drill.'), [
    ['Owes me a dinner for the Hvar trip.', null, 'other', 'Rui Sousa'],
    ['Still has my drill.', null, 'other', 'Rui Sousa'],
  ]);
  // A sentence that names someone else is still theirs; "he" is still the note's person.
  assert.deepEqual(note('Rui Sousa', 'My brother. Marta lives in Braga. He works at Sonae.'), [
    ['Rui Sousa is my brother.', null, 'self', 'Ana Sousa'],
    ["Ana Sousa's brother is Rui Sousa", null, 'self', 'Rui Sousa'],
    ['Marta lives in Braga', 'lives in', 'other', 'Marta'],
    ['Rui Sousa works at Sonae', 'works at', 'other', 'Rui Sousa'],
  ]);
  // A first name alone as the title, where a line gives what only a person has.
  assert.deepEqual(note('Rui', 'Birthday: 23 March\n\nMy younger brother. Allergic to peanuts!'), [
    ["Rui's birthday is 23 March", 'birthday', 'other', 'Rui'],
    ['Rui is my younger brother.', null, 'self', 'Ana Sousa'],
    ["Ana Sousa's younger brother is Rui", null, 'self', 'Rui'],
    ['Allergic to peanuts!', null, 'other', 'Rui'],
  ]);
  // Her own first name as the title is no one else's: her note stays hers.
  assert.deepEqual(
    note('Ana', 'Birthday: 23 March\n\nMy notes. Allergic to peanuts!').map((c) => c[2]),
    ['self', 'self', 'self'],
  );
});

test("a people note of one heading a person: each section's lines are that person's, not the title's", () => {
  const text =
    '# People\n\n## Ana Kovač\n- Birthday: March 12\n- Phone: +385 91 555 1234\n- Best friend since university.\n\n' +
    '## Mum (Vesna Marić)\n- Birthday: December 19\n\n## Shopping\n- Milk and eggs for Sunday.\n\nTags: #people';
  const claims = noteClaims('People', text, 'Ivo Marić');
  assert.deepEqual(
    claims.map((c) => [c.statement, c.predicate, c.owner.state, c.subject]),
    [
      ['Milk and eggs for Sunday.', null, 'unresolved', 'People'],
      ["Ana Kovač's birthday is March 12", 'birthday', 'other', 'Ana Kovač'],
      ["Ana Kovač's phone number is +385 91 555 1234", 'phone number', 'other', 'Ana Kovač'],
      ['Best friend since university.', null, 'unresolved', 'Ana Kovač'],
      ["Vesna Marić's birthday is December 19", 'birthday', 'other', 'Vesna Marić'],
    ],
  );
  // Quotes are the note's own words, where they stand in it.
  for (const c of claims) assert.ok(text.includes(c.quote), c.quote);
  // Two capitalised words under which nothing only a person has is said are no one: "Key Decisions".
  assert.deepEqual(
    noteClaims('Garden App', '# Garden App\n\n## Key Decisions\n- Use PostgreSQL for sync.', 'Ivo Marić').map(
      (c) => [c.statement, c.subject, c.owner.state],
    ),
    [['Use PostgreSQL for sync.', 'Garden App', 'unresolved']],
  );
  // A note with no person's heading is read whole, as before: its headings name no one.
  assert.deepEqual(
    noteClaims('Recipes', '# Recipes\n\n## Lentil soup\nSimmer the lentils 25 minutes.', 'Ivo Marić').map(
      (c) => c.statement,
    ),
    ['Simmer the lentils 25 minutes.'],
  );
});

test("an assistant's sentence about the person by her name is about her; called by it, it is the assistant's", () => {
  const owners = (text: string) => claimsOf(text, 'assistant').map((c) => [c.owner.state, c.subject]);
  assert.deepEqual(owners('Reminder: Ana prefers window seats on long flights.'), [['self', 'Ana']]);
  assert.deepEqual(owners("Ana's passport expires in May."), [['self', 'Ana']]);
  assert.deepEqual(owners('Ana, you should try the new café.'), [['other', 'assistant']]);
  // What she did, as what she does.
  assert.deepEqual(owners('Ana moved to Lisbon last year.'), [['self', 'Ana']]);
  assert.deepEqual(owners('Ana said she would call back.'), [['self', 'Ana']]);
});

test('"NOT" alone after a sentence takes it back', () => {
  assert.deepEqual(
    claimsOf('GOT THE JOB AT REVOLUT... NOT', 'Ana').map((c) => c.predicate),
    [null],
  );
});

test("an assistant's sentence opening with a word that is also the person's first name is not about her", () => {
  const owner = (text: string) => claimsOf(text, 'assistant', 'Hope Davis').map((c) => c.owner.state);
  assert.deepEqual(owner('Hope the trip goes well!'), ['other']);
  assert.deepEqual(owner('Hope prefers tea.'), ['self']);
  assert.deepEqual(owner('Hope needed no help there.'), ['self']);
  assert.deepEqual(owner('Hope red is fine for the invite.'), ['other']);
});

test('a job lost is the end of the job held then, of the name given where one is', () => {
  const held = (text: string) =>
    claimsOf(text, 'Ana')
      .filter((c) => c.predicate === 'works at')
      .map((c) => c.endsHeld);
  assert.deepEqual(held('got laid off today'), [{}]);
  assert.deepEqual(held('i got laid off from revolut today :('), [{ values: ['revolut'] }]);
  assert.deepEqual(held('my last day at revolut was friday'), [{ values: ['revolut'] }]);
  assert.deepEqual(held('today was my last day at sword health'), [{ values: ['sword health'] }]);
  assert.deepEqual(held('got fired lol'), [{}]);
  assert.deepEqual(held('sunday was my last day at revolut'), [{ values: ['revolut'] }]);
  assert.deepEqual(held('got laid off today, not surprised'), [{}]);
  for (const text of [
    'i almost got fired',
    'got fired up about it',
    'my sister got laid off',
    'did you get laid off?',
    'my last day at revolut is next month',
    'my last day at revolut will be in june',
    'i got laid off from revolut in 2015',
    "i didn't get laid off",
    'got laid off today lol jk',
    'got laid off today, kidding',
    'got laid off today NOT',
    'i got laid off today from my side gig',
    'i got laid off in a dream',
    'i got laid off last year',
  ])
    assert.deepEqual(held(text), [], text);
});

test('a partner dated or seen for a while, a number or an address given in a chat’s words, hold their slots', () => {
  const slots = (text: string) =>
    claimsOf(text, 'Ana')
      .filter((c) => c.predicate !== null)
      .map((c) => [c.predicate, c.statement]);
  assert.deepEqual(slots("i'm dating carla"), [['partner', "Ana's partner is Carla"]]);
  assert.deepEqual(slots('been dating carla for a few months, she’s great'), [
    ['partner', "Ana's partner is Carla"],
  ]);
  assert.deepEqual(slots('started dating Carla Mendes'), [['partner', "Ana's partner is Carla Mendes"]]);
  assert.deepEqual(slots('my number is +351 912 345 678 if u need it'), [
    ['phone number', "Ana's phone number is +351 912 345 678"],
  ]);
  assert.deepEqual(slots('my email is ana@x.com from now on'), [
    ['email address', "Ana's email address is ana@x.com"],
  ]);
  assert.deepEqual(slots('email is ana@x.com'), [['email address', "Ana's email address is ana@x.com"]]);
  assert.deepEqual(slots('my number changed, its 911 222 333 now'), [
    ['phone number', "Ana's phone number is 911 222 333"],
  ]);
  assert.deepEqual(slots('my email is ana3@x.com. see u tmrw'), [
    ['email address', "Ana's email address is ana3@x.com"],
  ]);
  assert.deepEqual(slots('my number is 912 345 678 if u ever need to put it in a form'), [
    ['phone number', "Ana's phone number is 912 345 678"],
  ]);
  assert.deepEqual(slots('new number btw since i switched carriers: 933 222 111'), [
    ['phone number', "Ana's phone number is 933 222 111"],
  ]);
  assert.deepEqual(slots("i'm vegetarian now btw, 2 weeks in 💪"), [['diet', "Ana's diet is vegetarian"]]);
  assert.deepEqual(slots('i went vegetarian 2 weeks ago'), [['diet', "Ana's diet is vegetarian"]]);
  assert.deepEqual(slots('vegetarian era over lol'), [['diet', "Ana's diet is no longer vegetarian"]]);
  assert.deepEqual(slots('pls use ana.new@gmail.com from now on'), [
    ['email address', "Ana's email address is ana.new@gmail.com"],
  ]);
  for (const text of [
    "I'm seeing Tom tomorrow",
    "I'm seeing Tom again, can't wait",
    "I'm seeing Coldplay now!!",
    "i'm seeing Carla now",
    'been seeing things lol',
    'my email is in my bio if u need it',
    "I've been seeing Dr. Silva for 3 months",
    'please use billing@acme.com instead',
    "i'm seeing my therapist now",
    'my brother is dating carla',
    "I'm not dating Carla",
    'dating apps are the worst',
    'number is 7',
    'email is down again',
    'use the stairs from now on',
    'my number is 7 if you need it',
    'new phone: iphone 15',
    'the vegan days are over',
  ])
    assert.deepEqual(slots(text), [], text);
});

test('a relation named in passing is the sentence and the relation it names', () => {
  const claims = (text: string) => claimsOf(text, 'Ana').map((c) => [c.predicate, c.statement, c.quote]);
  assert.deepEqual(claims('went hiking with my wife Sarah yesterday'), [
    [null, 'went hiking with my wife Sarah yesterday', 'went hiking with my wife Sarah yesterday'],
    ['wife', "Ana's wife is Sarah", 'my wife Sarah'],
  ]);
  // The relation quotes its own words: "March 4" mended leaves no Record naming it as she holds it.
  assert.deepEqual(claims("My partner Priya's birthday is March 4."), [
    ['birthday', "Priya's birthday is March 4", "My partner Priya's birthday is March 4."],
    ['partner', "Ana's partner is Priya", 'My partner Priya'],
  ]);
  // The parting names that partner, and holds no new one.
  assert.deepEqual(
    claimsOf('I broke up with my boyfriend Tom', 'Ana')
      .filter((c) => c.predicate === 'boyfriend')
      .map((c) => c.endsHeld),
    [{ values: ['Tom'], oneOf: 'partner' }],
  );
});

test("an attribute said of a named person holds that person's slot; of the Brain's own person, hers as who said it", () => {
  const slots = (text: string, speaker = 'self') =>
    claimsOf(text, speaker)
      .filter((c) => c.predicate !== null)
      .map((c) => [c.subject, c.predicate, c.statement, c.owner.state]);
  assert.deepEqual(slots("Ana's phone number is +351 900 000 000"), [
    ['Ana', 'phone number', "Ana's phone number is +351 900 000 000", 'self'],
  ]);
  assert.deepEqual(slots("Tom's birthday is March 4"), [
    ['Tom', 'birthday', "Tom's birthday is March 4", 'other'],
  ]);
  assert.deepEqual(slots("Carla's wife is Sarah"), [['Carla', 'wife', "Carla's wife is Sarah", 'other']]);
  // A number given as news is the person's, as "Marko's new number is …" is.
  for (const text of [
    'Marko has a new number: +385 98 765 4321.',
    'Marko has a new phone number, +385 98 765 4321',
  ])
    assert.deepEqual(
      slots(text).map(([who, predicate, , owner]) => [who, predicate, owner]),
      [['Marko', 'phone number', 'other']],
      text,
    );
  assert.deepEqual(slots('It has a new number: 4'), []);
  // A chat's lead-in is no part of the name ("Actually Tom" is nobody).
  for (const text of [
    "Actually Tom's birthday is March 4, not March 14",
    "Btw Tom's birthday is March 4.",
    "Oh, Tom's birthday is March 4.",
    "So Tom's birthday is March 4",
  ])
    assert.deepEqual(slots(text), [['Tom', 'birthday', "Tom's birthday is March 4", 'other']], text);
  // Named with who they are to her: "My partner Priya's …", "my sister Ada's …".
  assert.deepEqual(slots("My sister Ada's phone number is +351 912 345 678."), [
    ['Ada', 'phone number', "Ada's phone number is +351 912 345 678", 'other'],
  ]);
  // What others say of her is her slot's, in words that say who said it; what names no one, or no
  // attribute, holds none.
  assert.deepEqual(slots("Ana's phone number is +351 900 000 000", 'Tom'), [
    ['Ana', 'phone number', "Tom says Ana's phone number is +351 900 000 000", 'self'],
  ]);
  for (const text of [
    "It's my birthday",
    "Today's special is ramen",
    "Tom's boss is annoying",
    "Tom's car is red",
  ])
    assert.deepEqual(slots(text), [], text);
});

test("an introduction's clauses hold their slots, each quoting its clause", () => {
  assert.deepEqual(
    claimsOf('ok so quick intro: software engineer at globex, live in lisbon', 'Ana').map((c) => [
      c.predicate,
      c.statement,
      c.quote,
    ]),
    [
      ['works at', 'Ana works at Globex', 'software engineer at globex'],
      ['lives in', 'Ana lives in Lisbon', 'live in lisbon'],
    ],
  );
  assert.deepEqual(
    claimsOf('quick intro: engineer at Acme, lives in Rome', 'Ana').map((c) => c.statement),
    ['Ana works at Acme', 'Ana lives in Rome'],
  );
  // Someone else introduced, or someone else's job in the clause: none of the speaker's slots.
  for (const text of [
    'intro: the talk starts at 5',
    'intro: husband is a nurse at Acme',
    'intro: married to a doctor at Acme',
    'intro: daughter of a teacher at Lincoln High',
    'quick intro: my sister, a nurse at st marys',
    'intro: Tom, engineer at Acme, lives in Paris',
    'quick intro: this is my friend Tom, engineer at Acme',
    'intro: former engineer at Acme',
  ])
    assert.deepEqual(
      claimsOf(text, 'Ana').map((c) => c.predicate),
      [null],
      text,
    );
});

test('what only says what the place or the employer just said is like goes with that claim, quoted by it', () => {
  const note = (text: string) =>
    derived({ kind: 'document', text }, 'api', 'Maya Costa').map((c) => [c.statement, c.subject, c.quote]);
  const chat = (text: string) =>
    claimsOf(text, 'Maya Costa', 'Maya Costa').map((c) => [c.statement, c.subject, c.quote]);
  // It was a Memory of its own: the speaker's, Ana's or the note's, about nobody, outliving the home.
  for (const read of [note, chat]) {
    assert.deepEqual(read('Ana lives in Porto. It is beautiful.'), [
      ['Ana lives in Porto', 'Ana', 'Ana lives in Porto. It is beautiful.'],
    ]);
    assert.deepEqual(read('Ana lives in Porto. Rent is high there. It rains a lot.'), [
      ['Ana lives in Porto', 'Ana', 'Ana lives in Porto. Rent is high there. It rains a lot.'],
    ]);
    assert.deepEqual(read('Sam works at Acme. The pay is good there.'), [
      ['Sam works at Acme', 'Sam', 'Sam works at Acme. The pay is good there.'],
    ]);
  }
  assert.deepEqual(chat('I live in Porto. It is beautiful.'), [
    ['Maya Costa lives in Porto', 'Maya Costa', 'I live in Porto. It is beautiful.'],
  ]);
  // Someone's own words, another person, a question, a day gone or no slot before it: as they were.
  assert.deepEqual(chat('Ana lives in Porto. I love it there.'), [
    ['Ana lives in Porto', 'Ana', 'Ana lives in Porto.'],
    ['I love it there.', 'Maya Costa', 'I love it there.'],
  ]);
  assert.deepEqual(note('Sam lives in Leeds. Ana lives there too.'), [
    ['Sam lives in Leeds', 'Sam', 'Sam lives in Leeds.'],
    ['Ana lives there too.', 'Ana', 'Ana lives there too.'],
  ]);
  assert.deepEqual(note('Sam works at Acme. It was a long day.'), [
    ['Sam works at Acme', 'Sam', 'Sam works at Acme.'],
    ['It was a long day.', 'Sam', 'It was a long day.'],
  ]);
  assert.deepEqual(chat('Ana lives in Porto. Is it nice there?'), [
    ['Ana lives in Porto', 'Ana', 'Ana lives in Porto.'],
  ]);
  assert.deepEqual(note('Ana lives in Porto. It is her favourite city.'), [
    ['Ana lives in Porto', 'Ana', 'Ana lives in Porto.'],
    ['It is her favourite city.', 'Ana', 'It is her favourite city.'],
  ]);
  assert.deepEqual(note('It is beautiful.'), [['It is beautiful.', 'api', 'It is beautiful.']]);
});

test('a name that is also a month or a hedge holds the slot only a person has', () => {
  const read = (text: string) =>
    derived({ kind: 'document', text }, 'api', 'Maya Costa').map((c) => [
      c.statement,
      c.subject,
      c.predicate,
    ]);
  // Each was a Memory of no slot, the note's or nobody's.
  assert.deepEqual(read('May is a nurse.'), [["May's occupation is nurse", 'May', 'occupation']]);
  assert.deepEqual(read('Hope lives in Lisbon.'), [['Hope lives in Lisbon', 'Hope', 'lives in']]);
  assert.deepEqual(read('May lives in Porto. She works at Acme.'), [
    ['May lives in Porto', 'May', 'lives in'],
    ['May works at Acme', 'May', 'works at'],
  ]);
  for (const s of ['May is a busy month.', 'Hope you are well.', 'June is hot in Lisbon.'])
    assert.deepEqual(read(s), [[s, 'api', null]], s);
});

test("a move told with its year holds the person's home from that year's first day", () => {
  const text = 'Sam works at Acme. He moved to York in 2023.';
  const note = derived({ kind: 'document', text }, 'api', 'Maya Costa');
  const chat = claimsOf(text, 'Maya Costa', 'Maya Costa');
  for (const claims of [note, chat])
    assert.deepEqual(
      claims.map((c) => [c.statement, c.predicate, c.startsAt]),
      [
        ['Sam works at Acme', 'works at', undefined],
        ['Sam lives in York', 'lives in', '2023-01-01T00:00:00.000Z'],
      ],
    );
  // The Record's own year is as good as no year; one to come, or another move after it, holds none.
  assert.deepEqual(
    claimsOf('I moved to York in 2024.', 'Ana').map((c) => [c.statement, c.predicate, c.startsAt]),
    [['Ana lives in York', 'lives in', undefined]],
  );
  for (const s of ['Sam moved to York in 2030.', 'Sam moved to York in 2023, then back to Leeds.'])
    assert.deepEqual(
      claimsOf(s, 'Ana').map((c) => c.predicate),
      [null],
      s,
    );
});

test('in an agent\'s note that names her, the "she" that stands for her name is hers, not a namesake\'s', () => {
  const read = (text: string) =>
    derived({ kind: 'document', text }, 'mcp', 'Maya Costa').map((c) => [
      c.statement,
      c.subject,
      c.owner.state,
    ]);
  // "She prefers the aisle." was a Memory of another person "Maya", and her job that person's.
  assert.deepEqual(read('Maya lives in Lisbon. She prefers the aisle.'), [
    ['Maya lives in Lisbon.', 'Maya Costa', 'self'],
    ['She prefers the aisle.', 'Maya Costa', 'self'],
  ]);
  assert.deepEqual(read('Maya Costa is a nurse. She works at Santa Maria.'), [
    ['Maya Costa is a nurse.', 'Maya Costa', 'self'],
    ['Maya Costa works at Santa Maria', 'Maya Costa', 'self'],
  ]);
  // Another person's "she" stays theirs.
  assert.deepEqual(read('Maya prefers tea. Ana lives in Porto. She works at Acme.'), [
    ['Maya prefers tea.', 'Maya Costa', 'self'],
    ['Ana lives in Porto', 'Ana', 'other'],
    ['Ana works at Acme', 'Ana', 'other'],
  ]);
});

test("another person by name doing something to what is theirs is about them; the writer's own words stay hers", () => {
  const said = (text: string) =>
    claimsOf(text, 'Maria Silva', 'Maria Silva').map((c) => [c.statement, c.subject, c.owner.state]);
  assert.deepEqual(said('Inês cancelled her trip, she will come in January instead.'), [
    ['Inês cancelled her trip, she will come in January instead.', 'Inês', 'other'],
  ]);
  // The "she" after it is hers too.
  assert.deepEqual(said('Inês cancelled her trip. She will come in January instead.'), [
    ['Inês cancelled her trip.', 'Inês', 'other'],
    ['She will come in January instead.', 'Inês', 'other'],
  ]);
  // What the writer did with her, or told her, is the writer's.
  for (const text of [
    'Inês and I went to Porto.',
    "I told Inês I'd come.",
    "Inês cancelled her trip, so I'll stay home.",
    // Nothing says the name is a person's.
    'Inês cancelled the trip.',
  ])
    assert.deepEqual(said(text), [[text, 'Maria Silva', 'self']], text);
});

test('a "she" sentence that also says the writer, news she was told, is the writer\'s, as by name', () => {
  const said = (text: string) =>
    claimsOf(text, 'Maria Silva', 'Maria Silva').map((c) => [c.statement, c.subject, c.owner.state]);
  assert.deepEqual(said('Priya lives in Braga. She told me the team offsite is in Porto.').at(-1), [
    'She told me the team offsite is in Porto.',
    'Maria Silva',
    'self',
  ]);
  assert.deepEqual(said('Priya lives in Braga. She likes hiking.').at(-1), [
    'She likes hiking.',
    'Priya',
    'other',
  ]);
  // A slot of hers is still hers, with the writer in it.
  assert.deepEqual(
    claimsOf(
      'My sister Inês lives in Madrid. She works at Google with my cousin.',
      'Maria Silva',
      'Maria Silva',
    )
      .filter((c) => c.predicate === 'works at')
      .map((c) => [c.subject, c.owner.state]),
    [['Inês', 'other']],
  );
  // In a note named after her, in the writer's own words: what the writer is to her, and what she
  // told the writer, are the writer's; what she likes is hers.
  assert.deepEqual(
    noteClaims(
      'Priya Nair',
      'My manager at Lumen Labs.\nLikes hiking in Gerês.\nShe told me the team offsite is in Porto.',
      'Maria Silva',
    ).map((c) => [c.statement, c.subject, c.owner.state]),
    [
      ['Priya Nair is my manager at Lumen Labs.', 'Maria Silva', 'self'],
      ['Likes hiking in Gerês.', 'Priya Nair', 'other'],
      ['She told me the team offsite is in Porto.', 'Maria Silva', 'self'],
    ],
  );
});

test("a known speaker's taste said over marks the sentence's claim; an unresolved one's does not", () => {
  const switched = "I've switched to coffee in the mornings, I don't drink tea anymore.";
  assert.deepEqual(
    claimsOf(switched, 'Ana').map((c) => [c.statement, c.predicate, c.endsTaste]),
    [[switched, null, { verb: 'drink', object: 'tea' }]],
  );
  assert.deepEqual(
    claimsOf(switched, undefined).map((c) => c.endsTaste),
    [undefined],
  );
  assert.deepEqual(
    claimsOf('I prefer tea in the morning, green tea mostly.', 'Ana').map((c) => c.endsTaste),
    [undefined],
  );
});

test("a known speaker's taste taken up again marks the sentence's claim; an ending is not one", () => {
  assert.deepEqual(
    claimsOf("I'm back on coffee, one cup a day.", 'Ana').map((c) => [
      c.predicate,
      c.resumesTaste,
      c.endsTaste,
    ]),
    [[null, { verb: '*', object: 'coffee' }, undefined]],
  );
  assert.deepEqual(
    claimsOf("I'm quitting coffee, only green tea from now on.", 'Ana').map((c) => [
      c.resumesTaste,
      c.endsTaste,
    ]),
    [[undefined, { verb: '*', object: 'coffee' }]],
  );
  assert.deepEqual(
    claimsOf("I'm back on coffee.", undefined).map((c) => c.resumesTaste),
    [undefined],
  );
});

test('how something went, said of no one right before news of someone else, is theirs', () => {
  const whose = (text: string) => claimsOf(text, 'Ana').map((c) => [c.statement, c.subject, c.owner.state]);
  assert.deepEqual(whose('Surgery went fine! Mama is in recovery, the doctor says 6 weeks of physio.')[0], [
    'Surgery went fine!',
    'Mama',
    'other',
  ]);
  assert.deepEqual(whose('The surgery was a success. Marko is resting now.')[0], [
    'The surgery was a success.',
    'Marko',
    'other',
  ]);
  // The speaker's own words in it, news of her own after it, or nothing after it: hers.
  for (const text of [
    'My surgery went fine! Mama is happy.',
    "Surgery went fine! I'm in recovery.",
    'Surgery went fine!',
    'Allergic to penicillin.',
    'Surgery went fine! The doctor was great.',
  ])
    assert.deepEqual(whose(text)[0]?.slice(1), ['Ana', 'self'], text);
});

test("a job's last and first day said alone, on the day, end and start it then", () => {
  const jobs = (text: string) =>
    claimsOf(text, 'Ana')
      .filter((c) => c.predicate === 'works at')
      .map((c) => [c.statement, c.endsHeld, c.startsAt]);
  assert.deepEqual(jobs('Last day at Span.'), [['Last day at Span.', { values: ['Span'] }, undefined]]);
  assert.deepEqual(jobs('Last day at Span today :('), [
    ['Last day at Span today :(', { values: ['Span'] }, undefined],
  ]);
  assert.deepEqual(jobs('First day at Infobip!'), [['Ana works at Infobip', undefined, undefined]]);
  assert.deepEqual(jobs('My first day at Infobip 🎉'), [['Ana works at Infobip', undefined, undefined]]);
  // Said done, on its evening (use9 H3).
  assert.deepEqual(jobs('First day at Rimac done!'), [['Ana works at Rimac', undefined, undefined]]);
  assert.deepEqual(jobs('First day at Rimac survived 😅'), [['Ana works at Rimac', undefined, undefined]]);
  for (const text of [
    'Last day at the beach.',
    'Last day at Span is next week.',
    'Last day is November 28.',
    'First day at Harvard!',
    'First day at the gym!',
    'My first day at Span was in 2019.',
    'First day at Infobip was a blur, but the team is great.',
    'First day at Rimac was great.',
  ])
    assert.deepEqual(jobs(text), [], text);
});

test('a first day at an event or a place starts no job; at any other name, the job', () => {
  const jobs = (text: string) =>
    claimsOf(text, 'Ana')
      .filter((c) => c.predicate === 'works at')
      .map((c) => [c.statement, c.restated?.statement]);
  for (const text of [
    'First day at Web Summit!',
    'First day at Disneyland!',
    'First day at Lake Bled 🎉',
    'Today is my first day at Web Summit!',
    'My first day at Sziget Festival!',
    'First day at Coachella!',
    'Today is my first day at Coachella!',
  ])
    assert.deepEqual(jobs(text), [], text);
  // A name of no firm's shape is the job too, whatever was held.
  assert.deepEqual(jobs('First day at Infobip!'), [['Ana works at Infobip', undefined]]);
  assert.deepEqual(jobs('First day at Nordic Labs!'), [['Ana works at Nordic Labs', undefined]]);
  assert.deepEqual(jobs('Starting at Infobip on Monday!'), [['Ana works at Infobip', undefined]]);
});

test("an assistant's sentence of another person's slot is a read-back only after a lead, else it only joins", () => {
  const slots = (text: string) =>
    claimsOf(text, 'assistant')
      .filter((c) => c.predicate !== null)
      .map((c) => [c.statement, c.owner.state, c.joinsOnly ?? false]);
  assert.deepEqual(slots("Noted: Marina's birthday is March 3."), [
    ["Marina's birthday is March 3", 'other', false],
  ]);
  assert.deepEqual(slots('Got it, Marko lives in Split.'), [['Marko lives in Split', 'other', false]]);
  // No lead: only the value already said of Marko is joined (admit-claims.ts `restatesOnly`).
  assert.deepEqual(slots('Marko lives in Split.'), [['Marko lives in Split', 'other', true]]);
  assert.deepEqual(slots('Ella Fitzgerald works at Verve Records.'), [
    ['Ella Fitzgerald works at Verve Records', 'other', true],
  ]);
});

test("an imported note's front matter that files it is no statement; a person's birthday there still is", () => {
  const project = [
    'status: active',
    'type: project',
    'aliases: Relaunch, Site v2',
    'id: 20261001-relaunch',
    'draft: false',
    '',
    '# Website relaunch',
    '',
    'We move the site to Astro before November.',
  ].join('\n');
  for (const source of ['obsidian', 'markdown']) {
    const claims = derived({ kind: 'document', title: 'Website relaunch', text: project }, source);
    assert.deepEqual(
      claims.map((c) => c.statement),
      ['We move the site to Astro before November.'],
      source,
    );
  }
  // A note of filing alone says nothing.
  assert.deepEqual(
    derived({ kind: 'document', title: 'Inbox', text: 'status: inbox\ntype: note' }, 'obsidian'),
    [],
  );
  const person = noteClaims(
    'Priya Shah',
    'birthday: March 12\nemployer: Infobip\ntype: person\naliases: Priya',
    'Ana',
  );
  assert.deepEqual(person.map((c) => c.statement).sort(), [
    'Priya Shah works at Infobip',
    "Priya Shah's birthday is March 12",
  ]);
  // Written by an agent, "Status: …" is its words, not an importer's property.
  const agent = derived(
    { kind: 'document', title: 'Relaunch', text: 'Status: blocked on the DNS move.' },
    'mcp',
  );
  assert.equal(agent.length, 1);
});

test('a home given by its street address holds the home slot, in words that say "lives at"', () => {
  const lea = (text: string, speaker = 'Lea Horvat') =>
    createRuleDeriver()
      .derive(
        {
          id: 'rec_1',
          content: { kind: 'message', text, speaker },
          text,
          sourceName: null,
          occurredAt: '2026-11-25T18:10:00Z',
        },
        { self: { type: 'person', name: 'Lea Horvat' }, selfFirstName: 'self' },
      )
      .map((c) => [c.statement, c.predicate, c.owner.state, c.startsAt ?? null]);
  assert.deepEqual(lea('I now live at Vlaška 17. The move is done, all boxes unpacked.'), [
    ['Lea Horvat lives at Vlaška 17', 'lives in', 'self', null],
    ['The move is done, all boxes unpacked.', null, 'self', null],
  ]);
  // The home left holds until the new flat does, from the day of the move (Saturday 28 November).
  const moving = "I'm moving out of my flat on Ilica 42 next Saturday.";
  const flat = 'The new flat is at Vlaška 17 in Zagreb, third floor.';
  assert.deepEqual(lea(`${moving} ${flat}`), [
    [moving, 'lives in', 'self', null],
    [flat, 'lives in', 'self', '2026-11-28T00:00:00.000Z'],
  ]);
  // Without the move beside it, "the new flat" may be anyone's.
  assert.deepEqual(lea(flat), [[flat, null, 'self', null]]);
  // Her own word by her name, as an agent writes it for her ("user"), and another's, which contests it.
  const fix = "Lea's new address is Vlaška 71, not 17 — the landlord's letter had a typo.";
  assert.deepEqual(lea(fix, 'user'), [['Lea Horvat lives at Vlaška 71', 'lives in', 'self', null]]);
  assert.deepEqual(lea("Lea's new address is Vlaška 71.", 'Marko'), [
    ['Marko says Lea Horvat lives at Vlaška 71', 'lives in', 'self', null],
  ]);
  assert.deepEqual(lea('I live at the gym these days.'), [
    ['I live at the gym these days.', null, 'self', null],
  ]);
});

test("a city and a street address one Record gives of one person's home are one home, cited by each", () => {
  const homes = (claims: ReturnType<typeof claimsOf>) =>
    claims.filter((c) => c.predicate === 'lives in').map((c) => [c.statement, c.quote]);
  const cases: ReadonlyArray<[string, ReturnType<typeof claimsOf>, string[][]]> = [
    [
      'two sentences of a message',
      claimsOf('I live in Zagreb. My address is Vlaška 17.', 'Ana'),
      [
        ['Ana lives at Vlaška 17, Zagreb', 'I live in Zagreb.'],
        ['Ana lives at Vlaška 17, Zagreb', 'My address is Vlaška 17.'],
      ],
    ],
    [
      "a people note's City and Address lines",
      noteClaims('Marko Babić', 'City: Zagreb\nAddress: Vlaška 17\nPhone: +385 91 123 4567', 'Ana Sousa'),
      [
        ['Marko Babić lives at Vlaška 17, Zagreb', 'City: Zagreb'],
        ['Marko Babić lives at Vlaška 17, Zagreb', 'Address: Vlaška 17'],
      ],
    ],
    [
      "a people note's Address line alone, in its city",
      noteClaims('Marko Babić', 'Address: Vlaška 17, 10000 Zagreb', 'Ana Sousa'),
      [['Marko Babić lives at Vlaška 17, Zagreb', 'Address: Vlaška 17, 10000 Zagreb']],
    ],
    // Two homes stay two: two cities, or an address in another city than the one said.
    [
      'two cities',
      claimsOf('I lived in Split. I live in Zagreb.', 'Ana'),
      [['Ana lives in Zagreb', 'I live in Zagreb.']],
    ],
    [
      'an address in another city',
      claimsOf('I live in Zagreb. My address is Marmontova 3, Split.', 'Ana'),
      [
        ['Ana lives in Zagreb', 'I live in Zagreb.'],
        ['Ana lives at Marmontova 3, Split', 'My address is Marmontova 3, Split.'],
      ],
    ],
  ];
  for (const [name, claims, expected] of cases) assert.deepEqual(homes(claims), expected, name);
});

test('whom one goes to after a switch said in the sentence before holds the slot switched', () => {
  const slots = (text: string) => claimsOf(text, 'Ana').map((c) => [c.predicate, c.statement, c.quote]);
  assert.deepEqual(slots("I've decided to switch dentists. From now on I go to Dr. Kristina Babić."), [
    [null, "I've decided to switch dentists.", "I've decided to switch dentists."],
    ['dentist', "Ana's dentist is Dr. Kristina Babić", 'From now on I go to Dr. Kristina Babić.'],
  ]);
  // Without the switch before it, where one goes is no one's slot.
  assert.deepEqual(slots('I love my dentist. From now on I go to Dr. Kristina Babić.'), [
    [null, 'I love my dentist.', 'I love my dentist.'],
    [null, 'From now on I go to Dr. Kristina Babić.', 'From now on I go to Dr. Kristina Babić.'],
  ]);
  // An agent's words hold nothing of the kind, though they are the very words that move hers.
  assert.deepEqual(
    claimsOf("I've decided to switch dentists. From now on I go to Dr. Babić.", 'assistant').filter(
      (c) => c.predicate === 'dentist',
    ),
    [],
  );
  // Only wished or planned, nothing moved.
  for (const intent of [
    'I want to switch dentists: I will be seeing Dr. Kristina Babić.',
    "I want to switch dentists. I'll be seeing Dr. Kristina Babić.",
    "I'm going to switch dentists. From now on I go to Dr. Babić.",
  ])
    assert.deepEqual(
      claimsOf(intent, 'Ana').filter((c) => c.predicate === 'dentist'),
      [],
      intent,
    );
});

test('a sentence that says a nickname holds every other slot it says beside it', () => {
  const slots = (text: string) =>
    claimsOf(text, 'user', 'Tomislav Kovačević')
      .filter((c) => c.predicate !== null)
      .map((c) => [c.predicate, c.statement]);
  assert.deepEqual(slots('My friends call me Tom and I just moved to Split.'), [
    ['lives in', 'My friends call me Tom and I just moved to Split.'],
    ['nickname', "Tomislav Kovačević's nickname is Tom"],
  ]);
  assert.deepEqual(slots('Everyone calls me Tom, I work at Infobip now.'), [
    ['works at', 'Everyone calls me Tom, I work at Infobip now.'],
    ['nickname', "Tomislav Kovačević's nickname is Tom"],
  ]);
  // Saying nothing more, the nickname alone.
  assert.deepEqual(
    claimsOf("Hi, I'm Tomislav, most people call me Tom.", 'user', 'Tomislav Kovačević').map((c) => [
      c.predicate,
      c.statement,
    ]),
    [['nickname', "Tomislav Kovačević's nickname is Tom"]],
  );
});

test("a note's or a mail's hard-wrapped paragraph gives whole sentences, quoted with their line breaks", () => {
  const maya = { self: { type: 'person' as const, name: 'Maya Lindqvist' } };
  const derive = (content: TypedContent, sourceName: string) => {
    const text = recordText(content);
    const claims = createRuleDeriver().derive(
      { id: 'rec_1', content, text, sourceName, occurredAt: '2026-07-21T00:00:00Z' },
      maya,
    );
    for (const c of claims) assert.ok(text.includes(c.quote), c.quote);
    return claims;
  };
  const note = [
    '# Piranesi',
    '',
    "Finished on the train back from Graz. Honestly one of the best books I've read in years: the House with",
    'its endless halls and tides felt like a place I had been. I loved how slowly the truth comes through the',
    'journal entries. The Other is chilling.',
  ].join('\n');
  assert.deepEqual(
    derive({ kind: 'document', title: 'Book notes - Piranesi', text: note }, 'obsidian').map((c) => [
      c.statement,
      c.quote,
    ]),
    [
      ['Finished on the train back from Graz.', 'Finished on the train back from Graz.'],
      [
        "Honestly one of the best books I've read in years: the House with its endless halls and tides felt like a place I had been.",
        "Honestly one of the best books I've read in years: the House with\nits endless halls and tides felt like a place I had been.",
      ],
      [
        'I loved how slowly the truth comes through the journal entries.',
        'I loved how slowly the truth comes through the\njournal entries.',
      ],
      ['The Other is chilling.', 'The Other is chilling.'],
    ],
  );
  const mail = [
    'Subject: Flight moved!',
    'From: Maya Lindqvist <maya@example.at>',
    '',
    'Ines, Austrian moved my Lisbon flight to Saturday the 19th, so I land at',
    '16:05 instead of the morning. I moved to Kaiserstrasse 42 in Vienna last',
    'spring, so send the parcel there.',
    '',
    'Maya',
  ].join('\n');
  const claims = derive({ kind: 'message', text: mail, speaker: 'self', thread: 'Flight moved!' }, 'mbox');
  // The home in a wrapped sentence holds the slot; "spring, so send the parcel there." was a Memory.
  assert.deepEqual(
    claims.map((c) => [c.statement, c.quote, c.predicate]),
    [
      [
        'Ines, Austrian moved my Lisbon flight to Saturday the 19th, so I land at 16:05 instead of the morning.',
        'Ines, Austrian moved my Lisbon flight to Saturday the 19th, so I land at\n16:05 instead of the morning.',
        null,
      ],
      [
        'I moved to Kaiserstrasse 42 in Vienna last spring, so send the parcel there.',
        'I moved to Kaiserstrasse 42 in Vienna last\nspring, so send the parcel there.',
        'lives in',
      ],
    ],
  );
  // A chat's message keeps its lines: a line break there is one its speaker typed.
  const chat =
    'I moved to Kaiserstrasse 42 in Vienna and the old address no longer works\nlast spring was hectic';
  assert.deepEqual(
    claimsOf(chat, 'Ana').map((c) => c.quote),
    ['I moved to Kaiserstrasse 42 in Vienna and the old address no longer works', 'last spring was hectic'],
  );
});
