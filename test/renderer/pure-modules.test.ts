// The renderer's pure logic, tested under Node: addresses, quote highlighting, conflict grouping.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSearch, writeSearch } from '../../renderer/address-search.ts';
import { findConflicts, valuesAwaitingOthers } from '../../renderer/api/conflicts.ts';
import { tokenFromLocation } from '../../renderer/api/token.ts';
import { headingOf, truthPhrase, validitySpan } from '../../renderer/format.ts';
import { barLayout, stackBelowPx } from '../../renderer/bar-layout.ts';
import { highlightQuotes } from '../../renderer/highlight.ts';
import { withFieldLabels } from '../../renderer/field-labels.ts';
import { brainForgotten, recordForgotten } from '../../renderer/forgotten.ts';
import {
  aboutLabel,
  endsValue,
  inOwnWords,
  sameWordsLabel,
  quoteAddsWords,
  quoteLabel,
  correctionSummary,
  correctionUndone,
  recordSummary,
  mailSubject,
  statementLabel,
  versionLabel,
  factLineLabel,
  factToCorrect,
  subjectLabel,
} from '../../renderer/record-text.ts';
import { recordText } from '../../engine/core/derive/record-text.ts';
import { parseRoute, paths } from '../../renderer/routes.ts';
import { conflictCount } from '../../renderer/nav.ts';
import { slug } from '../../renderer/slug.ts';
import { brainIdFromName, brainIdLike, brainIdPattern, brainIdProblem } from '../../renderer/brain-id.ts';
import { Slug } from '../../engine/contract/common.ts';
import { safeReturnPath } from '../../renderer/return-path.ts';
import {
  correctionDraft,
  draftWords,
  formFromDraft,
  holdsFromInstant,
  parseCorrectionDraft,
} from '../../renderer/correction-draft.ts';
import { truthCell } from '../../renderer/replaced-at-start.ts';
import { currentAfterWithdrawal, currentInstead, replacedBy } from '../../renderer/withdrawal.ts';
import type { DeletionReceipt, MemoryRevision } from '../../engine/contract/index.ts';
import { mem } from './memory-fixture.ts';

test('routes parse and build round-trip, /brains is the Brains list, unknown paths are not-found', () => {
  assert.deepEqual(parseRoute('/'), { name: 'brains' });
  assert.deepEqual(parseRoute('/keys'), { name: 'keys' });
  assert.deepEqual(parseRoute('/brains'), { name: 'brains' });
  assert.deepEqual(parseRoute('/brains/'), { name: 'brains' });
  assert.deepEqual(parseRoute('/brains/b.1'), { name: 'brain', brainId: 'b.1', tab: 'memories' });
  for (const tab of ['records', 'memories', 'conflicts', 'ask', 'traces', 'profile'] as const) {
    assert.deepEqual(parseRoute(paths.brain('b1', tab)), { name: 'brain', brainId: 'b1', tab });
  }
  assert.deepEqual(parseRoute(paths.memory('b1', 'mem_01')), {
    name: 'memory',
    brainId: 'b1',
    memoryId: 'mem_01',
  });
  assert.deepEqual(parseRoute(paths.record('b1', 'rec_01')), {
    name: 'record',
    brainId: 'b1',
    recordId: 'rec_01',
  });
  assert.deepEqual(parseRoute(paths.trace('b1', 'ctx_9')), {
    name: 'trace',
    brainId: 'b1',
    traceId: 'ctx_9',
  });
  assert.equal(parseRoute('/brains/b1/nope').name, 'not-found');
  assert.equal(parseRoute('/brains/b1/memories/m/extra').name, 'not-found');
  assert.equal(parseRoute('/brains/%E0%A4%A').name, 'not-found');
  assert.equal(parseRoute('/v1/brains').name, 'not-found');
});

test('the Conflicts tab counts the open conflicts, says "at least" while the list is partial, and none at 0', () => {
  assert.equal(conflictCount(0, false), null);
  assert.equal(conflictCount(0, true), null);
  assert.deepEqual(conflictCount(2, false), { shown: '2', said: '2 open' });
  assert.deepEqual(conflictCount(1234, true), { shown: '1,234+', said: 'at least 1,234 open' });
});

test('quotes are marked in place, overlapping ones merged, near-misses found', () => {
  const text = 'Ana moved to Lisbon in May. Ana likes Lisbon.';
  assert.deepEqual(highlightQuotes(text, ['moved to Lisbon']), [
    { text: 'Ana ', mark: false },
    { text: 'moved to Lisbon', mark: true },
    { text: ' in May. Ana likes Lisbon.', mark: false },
  ]);
  const marked = (segs: ReturnType<typeof highlightQuotes>) => segs.filter((s) => s.mark).map((s) => s.text);
  assert.deepEqual(marked(highlightQuotes(text, ['Lisbon'])), ['Lisbon', 'Lisbon']);
  assert.deepEqual(marked(highlightQuotes(text, ['moved to', 'to Lisbon'])), ['moved to Lisbon']);
  assert.deepEqual(marked(highlightQuotes('Ana  moved\nto Lisbon', ['moved to lisbon'])), [
    'moved\nto Lisbon',
  ]);
  assert.deepEqual(marked(highlightQuotes(text, ['Porto (north)'])), []);
  assert.equal(
    highlightQuotes(text, ['Lisbon'])
      .map((s) => s.text)
      .join(''),
    text,
  );
});

test('conflicts are active slots with more than one distinct value', () => {
  const found = findConflicts([
    mem('mem_1', 'ana', 'city', 'Ana lives in Lisbon'),
    mem('mem_2', 'ana', 'city', 'Ana lives in Porto'),
    mem('mem_3', 'ana', 'city', 'Ana lived in Faro', 'superseded'),
    mem('mem_4', 'ana', 'job', 'Ana is a nurse'),
    mem('mem_5', 'bo', 'job', 'Bo cooks'),
    mem('mem_6', 'bo', 'job', 'Bo cooks'),
    mem('mem_7', 'note', null, 'x'),
    mem('mem_8', 'note', null, 'y'),
  ]);
  assert.equal(found.length, 1);
  assert.equal(found[0]?.predicate, 'city');
  assert.deepEqual(
    found[0]?.values.map((v) => v.id),
    ['mem_1', 'mem_2'],
  );
});

test('a slot is what the engine keys it by, not how its subject and predicate are spelled', () => {
  const found = findConflicts([
    mem('mem_1', 'user', 'home_city', 'user home city: Porto', 'active', 'lin_A'),
    mem('mem_2', 'User', 'Home City', 'User Home City: Lisbon', 'active', 'lin_A'),
    mem('mem_3', 'Ana', 'home city', 'Ana home city: Faro', 'active', 'lin_A'),
    // Spelled alike, but two slots (two people called Bo): no conflict.
    mem('mem_4', 'Bo', 'job', 'Bo cooks', 'active', 'lin_B1'),
    mem('mem_5', 'Bo', 'job', 'Bo sails', 'active', 'lin_B2'),
  ]);
  assert.deepEqual(
    found.map((s) => s.values.map((v) => v.id)),
    [['mem_1', 'mem_2', 'mem_3']],
  );
  // Read in steps, the values whose other side is not read yet wait for it.
  assert.equal(valuesAwaitingOthers([found[0]!.values[0]!, mem('mem_4', 'Bo', 'job', 'Bo cooks')]), 2);
  assert.equal(valuesAwaitingOthers(found[0]!.values), 0);
});

test('the one-time token is read from the fragment or the query', () => {
  assert.equal(tokenFromLocation({ hash: '#ui_token=abc', search: '' }), 'abc');
  assert.equal(tokenFromLocation({ hash: '#token=abd', search: '' }), 'abd');
  assert.equal(tokenFromLocation({ hash: '', search: '?token=xyz' }), 'xyz');
  assert.equal(tokenFromLocation({ hash: '', search: '' }), null);
});

test('validity reads as a person would say it: since, a span, one day, or never', () => {
  const from = '2023-01-10T09:00:00Z';
  assert.match(validitySpan(from, null), /^since /);
  assert.equal(validitySpan(from, from), 'never', 'closed where it began: a correction says never');
  assert.equal(truthPhrase(from, '2023-01-09T09:00:00Z'), 'never true');
  assert.match(validitySpan(from, '2023-01-10T10:00:00Z'), /^on /, 'within one day, one date');
  assert.match(validitySpan(from, '2024-03-02T00:00:00Z'), / – /);
  assert.match(truthPhrase(from, null), /^true since /);
  // A value starting later (a scheduled Memory) is not true "since" a day yet to come.
  const later = new Date(Date.now() + 90 * 86_400_000).toISOString();
  assert.match(validitySpan(later, null), /^from /);
  assert.match(truthPhrase(later, null), /^true from /);
  assert.match(validitySpan(later, null, false, 'scheduled'), /^from /);
  // One the engine calls current though dated later holds no slot (a calendar event): current now,
  // about a day to come, not "from" it beside "Current".
  const year = new Date().getUTCFullYear() + 2;
  const day = `${year}-03-14T00:00:00.000Z`;
  assert.equal(validitySpan(day, null, true, 'active'), `now (about Mar 14, ${year}, still to come)`);
  assert.equal(truthPhrase(day, null, true, 'active'), `true now (about Mar 14, ${year}, still to come)`);
  assert.equal(
    validitySpan(day, `${year}-03-16T00:00:00.000Z`, true, 'active'),
    `now (about Mar 14, ${year} – Mar 16, ${year}, still to come)`,
  );
  assert.match(
    validitySpan(later, null, false, 'active'),
    /^now \(about [A-Z][a-z]{2} \d{1,2}, \d{4}, still to come\)$/,
  );
  assert.match(validitySpan(from, null, false, 'active'), /^since /, 'begun: since, as before');
});

test('a correction Record is named with the Memory it changed, and forgetting it says that Memory comes back', () => {
  const withdrawal = { kind: 'correction' as const, corrects: 'mem_1' };
  const correction = { kind: 'correction' as const, corrects: 'mem_1', statement: 'Ana lives in Braga' };
  assert.equal(correctionSummary(withdrawal, 'Stay dry!'), 'Withdrawal of “Stay dry!”');
  assert.equal(
    correctionSummary(correction, 'Ana lives in Porto'),
    'Correction of “Ana lives in Porto”: Ana lives in Braga',
  );
  // The Memory unread: as the Record says itself.
  assert.equal(correctionSummary(withdrawal, null), 'Withdrawal of a Memory');
  assert.equal(
    correctionUndone(withdrawal, 'Stay dry!'),
    'This Record withdrew the Memory “Stay dry!”: forgetting it brings that Memory back as current.',
  );
  assert.equal(
    correctionUndone(correction, null),
    'This Record corrected the Memory it names: forgetting it brings that Memory back as it was before.',
  );
  assert.equal(correctionUndone({ kind: 'message', text: 'hi' }, null), null);
});

test('names an imported mail by its subject and body, not by the header lines its text opens with', () => {
  const mail = (head: string, body: string) => ({
    kind: 'message' as const,
    speaker: 'Ana Horvat',
    text: `${head}\n\n${body}`,
  });
  const lunch = mail(
    'Subject: Lunch on Friday\nFrom: Ana Horvat <ana@example.com>\nTo: You <me@example.com>',
    'Are we still on?',
  );
  assert.equal(recordSummary(lunch), 'Ana Horvat: Lunch on Friday — Are we still on?');
  assert.equal(mailSubject(lunch), 'Lunch on Friday');
  const news = mail(
    'Subject: Deals\nFrom: SkyScout <news@skyscout.example>\nPrecedence: bulk',
    '-20% this week',
  );
  assert.equal(recordSummary(news), 'Ana Horvat: Deals — -20% this week');
  // No subject: the body; no body: the subject.
  assert.equal(recordSummary(mail('From: Ana <a@x>\nTo: You <me@x>', 'Hi')), 'Ana Horvat: Hi');
  assert.equal(recordSummary({ kind: 'message', text: 'Subject: Keys\nFrom: Ana <a@x>' }), 'Keys');
  assert.equal(
    recordSummary({ kind: 'message', text: 'From: Ana <a@x>\nTo: You <me@x>' }),
    'From: Ana <a@x>\nTo: You <me@x>',
  );
  // One such line is a chat message's own words.
  const chat = { kind: 'message' as const, speaker: 'Ana', text: 'From: Lisbon, finally home\n\nSo tired.' };
  assert.equal(recordSummary(chat), 'Ana: From: Lisbon, finally home\n\nSo tired.');
  assert.equal(mailSubject(chat), null);
  assert.equal(
    mailSubject({ kind: 'document', title: 'Subject: x', text: 'Subject: a\nFrom: b <b@x>' }),
    null,
  );
});

test("shows the Brain's own person as You where a message names them by the engine's word for them", () => {
  assert.equal(recordSummary({ kind: 'message', text: 'Of course.', speaker: 'self' }), 'You: Of course.');
  assert.equal(recordSummary({ kind: 'message', text: 'Hi', speaker: ' User ' }), 'You: Hi');
  assert.equal(recordSummary({ kind: 'message', text: 'Hi', speaker: 'Marta' }), 'Marta: Hi');
  // A note's heading that repeats its title is said once.
  assert.equal(
    recordSummary({ kind: 'document', title: 'Reading list', text: '# Reading list\n\n- Dune\n' }),
    'Reading list — - Dune\n',
  );
  assert.equal(
    recordSummary({ kind: 'document', title: 'Reading list', text: '# Books\n- Dune' }),
    'Reading list — # Books\n- Dune',
  );
});

test("a fact about the Brain's own person reads as theirs: Your favourite colour, You live in", () => {
  const fact = (subject: string, predicate: string, value: string | boolean) => ({
    statement: recordText({ kind: 'fact', subject, predicate, value }),
    subject,
    predicate,
  });
  assert.equal(statementLabel(fact('self', 'favourite_colour', 'green')), 'Your favourite colour is green');
  assert.equal(statementLabel(fact(' User ', 'home_city', 'Porto')), 'Your home city is Porto');
  assert.equal(statementLabel(fact('user', 'lives_in', 'Porto')), 'You live in Porto');
  assert.equal(statementLabel(fact('me', 'is_vegetarian', true)), 'You are vegetarian');
  assert.equal(statementLabel(fact('self', 'smokes', 'no')), 'You do not smoke');
  assert.equal(statementLabel(fact('self', 'studies', 'law')), 'You study law');
  // With the owner's name known, in the voice of the engine's own statements ("Ana works at Acme").
  const ana = { state: 'self', entity: 'Ana' };
  assert.equal(
    statementLabel({ ...fact('self', 'phone_number', '+351 912'), owner: ana }),
    "Ana's phone number is +351 912",
  );
  assert.equal(statementLabel({ ...fact('user', 'lives_in', 'Porto'), owner: ana }), 'Ana lives in Porto');
  assert.equal(
    statementLabel({ ...fact('me', 'is_vegetarian', false), owner: ana }),
    'Ana is not vegetarian',
  );
  // An owner not resolved to the Brain's person names no one: "Your" stays.
  assert.equal(
    statementLabel({ ...fact('self', 'pet', 'a cat'), owner: { state: 'unresolved' } }),
    'Your pet is a cat',
  );
  // A Profile line carries no predicate: its line's first ": " ends it.
  const { predicate: _, ...line } = fact('self', 'favourite_colour', 'green: the dark one');
  assert.equal(statementLabel(line), 'Your favourite colour is green: the dark one');
  // Someone else's fact reads in the same voice, by their name; a Memory that holds no slot and a
  // correction's own words stay as they are.
  assert.equal(statementLabel(fact('Ada', 'employer', 'Siemens')), "Ada's employer is Siemens");
  assert.equal(statementLabel(fact('Ada', 'lives_in', 'Munich')), 'Ada lives in Munich');
  // A fact's line read by its own words (a Trace's quote; a version a fact gave another wording).
  assert.equal(factLineLabel('self employer: Zentrix', 'Maya'), "Maya's employer is Zentrix");
  assert.equal(factLineLabel('self home city: Porto'), 'Your home city is Porto');
  for (const said of ['I moved to Porto: finally', 'user story: as a buyer'])
    assert.equal(factLineLabel(said), said);
  assert.equal(
    versionLabel({ subject: 'Maya', predicate: 'lives in', owner: { state: 'self', entity: 'Maya' } })({
      statement: 'self home city: Porto',
    }),
    "Maya's home city is Porto",
  );
  assert.equal(
    statementLabel({ statement: 'self likes tea', subject: 'self', predicate: null }),
    'self likes tea',
  );
  assert.equal(
    statementLabel({ statement: 'Blue, since May', subject: 'self', predicate: 'favourite_colour' }),
    'Blue, since May',
  );
  // A fact's quote is its line, the statement: it reads as the statement does. Words said stay as said.
  assert.equal(quoteLabel('self pet: a cat', fact('self', 'pet', 'a cat')), 'Your pet is a cat');
  assert.equal(quoteLabel('self pet', fact('self', 'pet', 'a cat')), 'self pet');
  // A line in its source's words, word for word, is a quotation; an engine's statement or a line the
  // page words for the person is not.
  const cite = (quote: string) => [{ quote }];
  const own = 'I live in Lisbon with my partner Tom.';
  assert.equal(inOwnWords({ statement: own, subject: 'Ana', citations: cite(own) }), true);
  assert.equal(
    inOwnWords({ statement: 'Ana works at Acme', subject: 'Ana', citations: cite('I work at Acme.') }),
    false,
  );
  const phone = { ...fact('self', 'phone_number', '+351'), owner: ana };
  assert.equal(inOwnWords({ ...phone, citations: cite(phone.statement) }), false);
  // An event's line is the engine's, worded from its fields: nobody said it, nor is it a fact.
  const dinner = recordText({
    kind: 'event',
    title: 'Dinner with Tomás',
    starts_at: '2026-12-05T19:00:00Z',
    participants: ['Tomás'],
  });
  const event = { statement: dinner, subject: 'Ana', predicate: null };
  assert.equal(inOwnWords({ ...event, citations: cite(dinner) }), false);
  assert.equal(sameWordsLabel(event), 'from an event');
  assert.equal(sameWordsLabel(phone), 'from a fact');
  assert.equal(sameWordsLabel({ statement: own, subject: 'Ana' }), 'said in these words');
  // Where the Record's kind is known it names the source: a correction keeps the wording of the fact
  // it corrects, and is no fact. A line shown as its Record words it is as said, whatever the kind.
  assert.equal(sameWordsLabel(phone, 'correction'), 'from a correction');
  assert.equal(sameWordsLabel(phone, 'fact'), 'from a fact');
  assert.equal(sameWordsLabel(event, 'event'), 'from an event');
  assert.equal(sameWordsLabel({ statement: own, subject: 'Ana' }, 'correction'), 'said in these words');
  assert.equal(
    sameWordsLabel({ statement: 'Ana lives in Braga', subject: 'Ana' }, 'fact'),
    'said in these words',
  );
  assert.equal(sameWordsLabel({ statement: 'Ana lives in: Braga', subject: 'Ana' }, 'fact'), 'from a fact');
  assert.equal(subjectLabel('self'), 'You');
  assert.equal(subjectLabel('Ana'), 'Ana');
  // What a Memory is about reads as words too, not as the engine's key.
  assert.equal(aboutLabel({ subject: 'self', predicate: 'phone_number' }), 'You · phone number');
  assert.equal(aboutLabel({ subject: 'Ana', predicate: 'lives in' }), 'Ana · lives in');
  assert.equal(aboutLabel({ subject: 'Ana', predicate: null }), 'Ana');
  assert.equal(
    recordSummary({ kind: 'fact', subject: 'self', predicate: 'favourite_colour', value: 'green' }),
    'Your favourite colour is green',
  );
  assert.equal(
    recordSummary({ kind: 'fact', subject: 'self', predicate: 'favourite_colour', value: 'green' }, 'Ana'),
    "Ana's favourite colour is green",
  );
  // Anyone else's fact reads as the sentence its Memory's statement is shown as, not as its citable line.
  const anas = { kind: 'fact', subject: 'Ana', predicate: 'favourite_colour', value: 'green' } as const;
  assert.equal(recordSummary(anas), "Ana's favourite colour is green");
  assert.equal(recordSummary(anas), statementLabel({ ...anas, statement: recordText(anas) }));
  assert.equal(
    recordSummary({ kind: 'fact', subject: 'Lea', predicate: 'date_of_birth', value: '1990-05-04' }),
    "Lea's date of birth is May 4, 1990",
  );
});

test('a fact shown as a sentence is corrected from its value as kept, and sent in its stored line', () => {
  const dob = { statement: 'Lea date of birth: 1990-05-04', subject: 'Lea', predicate: 'date_of_birth' };
  assert.equal(statementLabel(dob), "Lea's date of birth is May 4, 1990");
  // The form starts from the sentence with the value as kept: saved unchanged, it is the same date.
  assert.deepEqual(factToCorrect(dob), {
    shown: "Lea's date of birth is 1990-05-04",
    shownHead: "Lea's date of birth is ",
    storedHead: 'Lea date of birth: ',
    value: '1990-05-04',
  });
  const mine = {
    statement: 'self lives in: Porto',
    subject: 'self',
    predicate: 'lives in',
    owner: { state: 'self', entity: 'Ana' },
  };
  assert.equal(factToCorrect(mine)?.shown, 'Ana lives in Porto');
  assert.equal(factToCorrect(mine)?.storedHead, 'self lives in: ');
  // A yes or no is corrected where it is stored: after what it says holds, not in "does not".
  const smokes = { statement: 'Lea smokes: false', subject: 'Lea', predicate: 'smokes' };
  assert.equal(statementLabel(smokes), 'Lea does not smoke');
  assert.deepEqual(factToCorrect(smokes), {
    shown: 'Lea smokes: false',
    shownHead: 'Lea smokes: ',
    storedHead: 'Lea smokes: ',
    value: 'false',
  });
  // A sentence of the person's own is no fact's line: corrected as said.
  assert.equal(
    factToCorrect({ statement: 'I live in Porto.', subject: 'self', predicate: 'lives in' }),
    null,
  );
});

test("a fact Record's line cited by a Memory in other words reads as a fact's line does", () => {
  const lucia = { state: 'self', entity: 'Lucía' };
  const lives = { statement: 'Lucía lives in Tokyo', subject: 'Lucía', predicate: 'lives in', owner: lucia };
  assert.equal(quoteLabel('self home city: Tokyo', lives, 'fact'), "Lucía's home city is Tokyo");
  const tom = { statement: "Tom's birthday is March 14", subject: 'Tom', predicate: 'birthday' };
  assert.equal(quoteLabel('Tom birthday: March 14', tom, 'fact'), "Tom's birthday is March 14");
  // Worded so, it is the heading's own words: not shown again under it.
  assert.equal(quoteAddsWords('Tom birthday: March 14', tom, 'fact'), false);
  // Said apart from the heading, it adds words to it.
  assert.equal(quoteAddsWords('self home city: Tokyo', lives, 'fact'), true);
  // A message's words stay as said, and so does a line whose Record's kind is not known.
  assert.equal(quoteLabel('self care: went for a run', lives, 'message'), 'self care: went for a run');
  assert.equal(quoteLabel('self home city: Tokyo', lives), 'self home city: Tokyo');
});

test('forgetting says what was forgotten, with the Memories the receipt counts', () => {
  const receipt = (records: number, memories: number, rederiving: number, objects = 0): DeletionReceipt => ({
    object: 'deletion_receipt',
    target: { type: 'record', id: 'rec_1' },
    deleted: { records, memories, objects },
    rederiving: { memories: rederiving },
    watermark: null,
    deleted_at: '2024-01-01T00:00:00Z',
  });
  assert.equal(
    recordForgotten('You: I live in Porto.', receipt(1, 2, 0)),
    'Forgot the Record “You: I live in Porto.”, and 2 Memories that rested only on it.',
  );
  assert.equal(
    recordForgotten('Lunch', receipt(1, 0, 1)),
    'Forgot the Record “Lunch”; 1 Memory that other Records also support is being worked out again.',
  );
  assert.equal(recordForgotten('Lunch', receipt(1, 0, 0)), 'Forgot the Record “Lunch”.');
  const long = recordForgotten(`A long note ${'word '.repeat(40)}`, receipt(1, 1, 2));
  assert.match(
    long,
    /^Forgot the Record “A long note word( word)*…”, and 1 Memory that rested only on it; 2 Memories that other Records also support are being worked out again\.$/,
  );
  assert.ok(long.indexOf('”') - long.indexOf('“') <= 82, 'a long Record is cut to 80 characters');
  assert.equal(
    brainForgotten('Ana', receipt(12, 30, 0, 1), 0),
    'Forgot the Brain “Ana” and everything in it: 12 Records, 30 Memories and 1 accepted Object.',
  );
  // The importer's own Objects (one per calendar or contacts file) are not the person's accepted ones.
  assert.equal(
    brainForgotten('Ana', receipt(3, 2, 0, 2), 2),
    'Forgot the Brain “Ana” and everything in it: 3 Records, 2 Memories, 0 accepted Objects and 2 Objects Mnemo kept for its imports.',
  );
  assert.equal(
    brainForgotten('Ana', receipt(3, 2, 0, 3), 1),
    'Forgot the Brain “Ana” and everything in it: 3 Records, 2 Memories, 2 accepted Objects and 1 Object Mnemo kept for its imports.',
  );
  // Not known which: none is called accepted.
  assert.equal(
    brainForgotten('Ana', receipt(3, 2, 0, 2), null),
    'Forgot the Brain “Ana” and everything in it: 3 Records, 2 Memories and 2 Objects.',
  );
});

test('a correction Record reads as words, with its reason', () => {
  assert.equal(
    recordSummary({ kind: 'correction', corrects: 'mem_1', statement: 'I live in Porto.', reason: 'Moved' }),
    'Correction: I live in Porto. (why: Moved)',
  );
  assert.equal(recordSummary({ kind: 'correction', corrects: 'mem_1' }), 'Withdrawal of a Memory');
});

test('filters read from and written to the address round-trip; defaults and empty values stay out', () => {
  const names = ['q', 'status', 'since'] as const;
  const written = writeSearch({ q: 'sailing club', status: 'active', since: '' }, names, {
    status: 'active',
  });
  assert.equal(written, '?q=sailing+club');
  assert.deepEqual(readSearch(written.slice(1), names), { q: 'sailing club' });
  assert.equal(writeSearch({}, names), '');
  assert.deepEqual(readSearch('q=%20+&status=all&other=x', names), { status: 'all' });
});

const rev = (
  version: number,
  status: MemoryRevision['status'],
  from: string,
  to: string | null,
): MemoryRevision => ({
  id: `mem_${version}`,
  version,
  statement: `v${version}`,
  status,
  valid_from: from,
  valid_to: to,
  learned_at: from,
  cause: version === 1 ? 'derived' : 'superseded_by_record',
});

test('withdrawing a value brings back the latest earlier one still standing, or says nothing does', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  const v1 = rev(1, 'superseded', '2024-01-01T00:00:00Z', '2024-03-01T00:00:00Z');
  const v2 = rev(2, 'superseded', '2024-03-01T00:00:00Z', '2024-06-01T00:00:00Z');
  const v3 = rev(3, 'active', '2024-06-01T00:00:00Z', null);
  assert.equal(currentAfterWithdrawal([v1, v2, v3], 'mem_3', now)?.id, 'mem_2');
  // v2 withdrawn already, or corrected where it began (never true): v1 comes back.
  assert.equal(currentAfterWithdrawal([v1, { ...v2, status: 'retracted' }, v3], 'mem_3', now)?.id, 'mem_1');
  assert.equal(
    currentAfterWithdrawal([v1, { ...v2, valid_to: v2.valid_from }, v3], 'mem_3', now)?.id,
    'mem_1',
  );
  assert.equal(currentAfterWithdrawal([v3], 'mem_3', now), undefined, 'the only value: nothing');
  // A value starting later: what is current now stays; a replaced one is not current to withdraw.
  const later = rev(4, 'scheduled', '2099-01-01T00:00:00Z', null);
  assert.equal(currentAfterWithdrawal([v1, v2, v3, later], 'mem_4', now)?.id, 'mem_3');
  assert.equal(currentAfterWithdrawal([v1, v2, v3], 'mem_2', now), undefined);
  // Once withdrawn, the page points to what is current instead.
  assert.deepEqual(
    currentInstead(
      [v1, { ...v2, status: 'active', valid_to: null }, { ...v3, status: 'retracted' }],
      'mem_3',
    ).map((r) => r.id),
    ['mem_2'],
  );
  assert.deepEqual(currentInstead([{ ...v3, status: 'retracted' }], 'mem_3'), []);
});

test("a list's True cell says what made a version hold for no time, not a bare never", () => {
  const at = '2024-02-01T09:00:00Z';
  const m = { ...mem('mem_1', 'self', 'home_city', 'I live in Porto.'), valid_from: at };
  assert.equal(truthCell({ ...m, valid_to: at, status: 'superseded' }, false), 'replaced from its start');
  assert.equal(truthCell({ ...m, valid_to: at, status: 'retracted' }, false), 'withdrawn from its start');
  assert.equal(truthCell(m, false), validitySpan(at, null));
});

test('a replaced version names the one that began where it ended, not only what holds now', () => {
  const v1 = rev(1, 'superseded', '2024-01-01T00:00:00Z', '2024-03-01T00:00:00Z');
  const v2 = rev(2, 'superseded', '2024-03-01T00:00:00Z', '2024-06-01T00:00:00Z');
  const v3 = rev(3, 'active', '2024-06-01T00:00:00Z', null);
  assert.equal(replacedBy([v1, v2, v3], 'mem_1')?.id, 'mem_2');
  assert.equal(replacedBy([v1, v2, v3], 'mem_2')?.id, 'mem_3');
  // A version corrected where it began (never true) or withdrawn did not take its place.
  assert.equal(replacedBy([v1, { ...v2, valid_to: v2.valid_from }, v3], 'mem_1'), undefined);
  assert.equal(replacedBy([v1, { ...v2, status: 'retracted' }, v3], 'mem_1'), undefined);
  assert.equal(replacedBy([v1, v2, v3], 'mem_3'), undefined, 'a current version was replaced by nothing');
});

test('an ending of a slot is told from its values by the words the engine writes for it', () => {
  const ends = endsValue({ subject: 'Ana', predicate: 'lives in' });
  assert.equal(ends({ statement: 'Ana no longer lives in Berlin' }), true);
  for (const statement of [
    'Ana lives in Berlin',
    'I live in Lisbon with my partner Tom.',
    // Another slot's ending, or a Memory of no slot, is not this slot's.
    'Ana no longer works at Acme',
  ])
    assert.equal(ends({ statement }), false, statement);
  assert.equal(endsValue({ subject: 'Ana', predicate: null })({ statement: 'Ana no longer x' }), false);
  // An attribute's ending is worded as one: "Ana's diet is no longer vegan", not its value "no longer vegan".
  const diet = endsValue({ subject: 'Ana', predicate: 'diet' });
  assert.equal(diet({ statement: "Ana's diet is no longer vegan" }), true);
  assert.equal(diet({ statement: "Ana's diet is vegan" }), false);
  const school = endsValue({ subject: 'Ana', predicate: 'studies at' });
  assert.equal(school({ statement: 'Ana no longer studies at MIT' }), true);
});

test("the server's field names in a message are said as the screen labels them", () => {
  const labels = { q: 'Search', since: 'From', until: 'Until', 'self.name': 'Their name' };
  assert.equal(
    withFieldLabels('q: must be at most 500 characters', labels),
    'Search: must be at most 500 characters',
  );
  assert.equal(
    withFieldLabels('since: must not be later than until', labels),
    'From: must not be later than “Until”',
  );
  assert.equal(
    withFieldLabels('self.name: must not be empty; limit: too big', labels),
    'Their name: must not be empty; limit: too big',
    'a field the screen does not label keeps its name',
  );
  assert.equal(withFieldLabels('No Brain here', labels), 'No Brain here');
  assert.equal(withFieldLabels('constructor: x', labels), 'constructor: x', 'only the labels given');
});

test("a menu's values in a message are said as its choices read", () => {
  const labels = {
    q: 'Search',
    status: { label: 'Show', choices: { active: 'Current only', all: 'All versions' } },
  };
  assert.equal(
    withFieldLabels('status: must be one of "active", "all", "later"', labels),
    'Show: must be one of “Current only”, “All versions”, "later"',
    'a value the menu does not offer keeps its quotes',
  );
  assert.equal(
    withFieldLabels('q: must not say "active"; status: must be one of "all"', labels),
    'Search: must not say "active"; Show: must be one of “All versions”',
    "only the menu's own clause",
  );
  assert.equal(
    withFieldLabels('since: must not be later than status', labels),
    'since: must not be later than “Show”',
  );
});

test("an Object's type made from a name keeps its letters without their accents", () => {
  assert.equal(slug('Lucía Fernández'), 'lucia-fernandez');
  assert.equal(slug('phone_number'), 'phone_number');
  assert.equal(slug('東京'), 'item');
});

test("a Brain's short id: the API's rule, and what is wrong with one it refuses, in the form's words", () => {
  for (const ok of ['work_notes', 'Work-Notes', 'a.b', 'x', '9lives', 'a'.repeat(128)]) {
    assert.equal(brainIdProblem(ok), null, ok);
    assert.ok(Slug.safeParse(ok).success, `${ok}: the API takes it too`);
  }
  assert.equal(brainIdProblem(''), null, 'empty is the field’s required, said by the browser');
  for (const bad of ['Work Notes', '_notes', '-a', 'a'.repeat(129), 'café', 'a/b']) {
    assert.ok(brainIdProblem(bad), bad);
    assert.ok(!Slug.safeParse(bad).success, `${bad}: the API refuses it too`);
    assert.ok(
      !new RegExp(`^${brainIdPattern}$`, 'v').test(bad),
      `${bad}: the pattern (v flag, as HTML) refuses it`,
    );
  }
  assert.equal(
    brainIdProblem('Work Notes'),
    '“Work Notes” cannot be a short id: it may hold only letters a–z without accents, digits, dots (.), dashes (-) and underscores (_), with no spaces or other signs, since it is part of the Brain’s addresses. For example “Work-Notes”.',
  );
  assert.match(
    brainIdProblem('_notes')!,
    /^A short id starts with a letter or a digit, not “_”\. For example “notes”\.$/,
  );
  assert.match(brainIdProblem('a'.repeat(129))!, /^A short id is at most 128 characters; this one has 129\./);
  assert.equal(brainIdLike('Café Notes'), 'Cafe-Notes');
});

test('a Brain’s name suggests a short id the API takes: lower case, no accents, no apostrophes', () => {
  for (const [name, id] of [
    ['Zoë’s memory', 'zoes-memory'],
    ["  Ana's Work Notes ", 'anas-work-notes'],
    ['Família Kovač 2026', 'familia-kovac-2026'],
    ['— notes —', 'notes'],
  ] as const) {
    assert.equal(brainIdFromName(name), id);
    assert.equal(brainIdProblem(id), null, `${id} is taken`);
  }
  // Nothing of it can be written so: no suggestion, the field is left for the person.
  assert.equal(brainIdFromName('日記'), '');
});

test('signing in again goes back only to a page of this app on this origin', () => {
  const origin = 'http://127.0.0.1:8787';
  assert.equal(safeReturnPath('/brains/ana/memories/mem_1', origin), '/brains/ana/memories/mem_1');
  assert.equal(safeReturnPath('/brains/ana/records?kind=note', origin), '/brains/ana/records?kind=note');
  for (const bad of [
    null,
    '',
    '/',
    'https://evil.example/brains/a',
    '//evil.example/brains/a',
    '/\\evil.example/brains/a',
    '/\t/evil.example/brains/a',
    'javascript:alert(1)',
    '/no/such/page',
    'brains/a',
  ])
    assert.equal(safeReturnPath(bad, origin), null, String(bad));
});

test('a correction draft keeps only what differs from the Memory, and reads back only its own fields', () => {
  const original = ['self city: Lisbon', "Ana's city: Lisbon"];
  const form = { statement: "Ana's city: Lisbon", reason: '', withdraw: false, holdsFrom: '' };
  assert.equal(correctionDraft(form, original), null, 'as it was: nothing to keep');
  assert.equal(correctionDraft({ ...form, statement: '  ' }, original), null, 'emptied: nothing to keep');
  assert.deepEqual(correctionDraft({ ...form, statement: "Ana's city: Porto" }, original), {
    statement: "Ana's city: Porto",
  });
  assert.deepEqual(correctionDraft({ ...form, reason: 'moved' }, original), { reason: 'moved' });
  assert.deepEqual(correctionDraft({ ...form, withdraw: true }, original), { withdraw: true });
  // A day alone is a correction: the same words, true from another day.
  assert.deepEqual(correctionDraft({ ...form, holdsFrom: '2027-01-11' }, original), {
    holdsFrom: '2027-01-11',
  });
  assert.deepEqual(formFromDraft({ holdsFrom: '2027-01-11' }, "Ana's city: Lisbon"), {
    ...form,
    holdsFrom: '2027-01-11',
  });
  assert.equal(draftWords({ statement: 'Porto', holdsFrom: '2027-01-11' }), 'Porto\nFrom: 2027-01-11');
  assert.deepEqual(formFromDraft({ reason: 'moved' }, "Ana's city: Lisbon"), { ...form, reason: 'moved' });
  assert.deepEqual(formFromDraft(null, "Ana's city: Lisbon"), form);
  assert.equal(draftWords({ statement: ' Porto ', reason: 'moved' }), 'Porto\nWhy: moved');
  assert.equal(draftWords({ withdraw: true }), null);
  assert.deepEqual(parseCorrectionDraft('{"statement":"Porto","reason":3,"withdraw":"yes","x":1}'), {
    statement: 'Porto',
  });
  assert.deepEqual(parseCorrectionDraft('{"statement":"Porto","holdsFrom":"soon"}'), { statement: 'Porto' });
  assert.deepEqual(parseCorrectionDraft('{"holdsFrom":"2027-01-11"}'), { holdsFrom: '2027-01-11' });
  for (const raw of [null, '', 'not json', 'null', '[]', '{}', '"text"'])
    assert.equal(parseCorrectionDraft(raw), null, String(raw));
});

test("the day under Holds from is sent as that day's start in the person's zone, with its offset", () => {
  const instant = holdsFromInstant('2027-01-11');
  assert.ok(instant, 'a day');
  assert.match(instant, /^2027-01-11T00:00:00[+-]\d\d:\d\d$/);
  assert.equal(new Date(Date.parse(instant)).getDate(), 11, 'the start of that day where the person is');
  assert.equal(new Date(Date.parse(instant)).getHours(), 0);
  for (const bad of ['', '2027-02-30', '11/01/2027', '2027-1-11'])
    assert.equal(holdsFromInstant(bad), undefined, bad);
});

test('a chart is laid out for its width: labels beside their bars when wide, above them when narrow', () => {
  const wide = barLayout(832);
  assert.deepEqual([wide.stacked, wide.labelW, wide.barW, wide.width], [false, 320, 240, 832]);
  const narrow = barLayout(360);
  assert.equal(narrow.stacked, true);
  assert.equal(narrow.width, 360, 'drawn at its own width, so its 12 px text is not scaled down');
  assert.equal(narrow.labelW, 360, 'a label has the whole line');
  assert.ok(narrow.labelY < narrow.barY && narrow.barY + narrow.barH <= narrow.rowH);
  assert.equal(barLayout(stackBelowPx).stacked, false);
});

test("a long statement's heading is its start, and the whole is kept to offer beside it", () => {
  assert.deepEqual(headingOf('Ana lives in Porto'), {
    shown: 'Ana lives in Porto',
    whole: 'Ana lives in Porto',
    cut: false,
  });
  const long = 'word '.repeat(120).trim();
  const h = headingOf(long);
  assert.equal(h.cut, true);
  assert.equal(h.whole, long);
  assert.ok(h.shown.length <= 141 && h.shown.endsWith('…'), h.shown);
});
