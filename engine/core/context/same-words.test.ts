import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keptOf, sameWordsKey, type Repeat } from './same-words.ts';

const at = (day: number, lanes: string[] = ['lexical'], o: Partial<Repeat> = {}): Repeat => ({
  recordId: `rec_${day}`,
  lanes,
  occurredAt: new Date(Date.UTC(2026, 0, day)).toISOString(),
  superseded: false,
  lead: false,
  ...o,
});

test('same words: a mail is its body, whatever its subject says; its speaker and kind count', () => {
  const mail = (subject: string) =>
    `Subject: ${subject}\nFrom: SmileCare <news@smilecare.example>\nPrecedence: bulk\n\nBook your dentist today!`;
  const key = (text: string, speaker: string | null = 'SmileCare', kind = 'message') =>
    sameWordsKey(kind, speaker, text, ['dentist', 'porto', 'thanks', 'lisbon']);
  assert.equal(key(mail('Issue 1')), key(mail('Issue 2')));
  assert.notEqual(key(mail('Issue 1')), key(mail('Issue 1'), 'Other'));
  assert.notEqual(key('Thanks!', 'Ana'), key('Thanks!', 'Marko'));
  assert.notEqual(key('I live in Porto.', null, 'fact'), key('I live in Porto.', null, 'document'));
  // A chat message that only begins like a header block keeps its words.
  assert.notEqual(key('From: Lisbon, finally home\n\nHi'), key('From: Porto, finally home\n\nHi'));
  // A reply of none of the question's words is found through what it answers: no repeat of another.
  assert.equal(key('Yes.', 'Ana'), null);
  assert.notEqual(key('Yes, Lisbon.', 'Ana'), null);
});

test("same words: what names them counts, a mail's subject or a note's title; not a newsletter's subject", () => {
  const terms = ['review', 'plan'];
  const mail = (subject: string) =>
    `Subject: ${subject}\nFrom: Petra Novak <petra@x.example>\n\nConfirmed: Thursday, 10:00, room 4.`;
  const key = (text: string, title: string | null = null, kind = 'message') =>
    sameWordsKey(kind, 'Petra Novak', text, terms, title);
  assert.notEqual(key(mail('Atlas design review')), key(mail('Borealis design review')));
  assert.equal(key(mail('Atlas design review')), key(mail('Re: Atlas design review')));
  assert.equal(key(mail('Atlas design review')), key(mail('AW: Fwd: Atlas design review')));
  const note = 'Owner: Marko. Deadline: 3 March.';
  assert.notEqual(key(note, 'Atlas plan', 'document'), key(note, 'Borealis plan', 'document'));
  assert.equal(key(note, 'Atlas plan', 'document'), key(note, 'Atlas plan', 'document'));
});

test('same words: the newest is kept, unless an older one a slot, a supersession or a change asked about put forward', () => {
  assert.deepEqual(keptOf(at(1), at(5)), { next: true, for: 'newest' });
  assert.deepEqual(keptOf(at(5), at(1)), { next: false, for: 'newest' });
  assert.deepEqual(keptOf(at(1, ['slot']), at(5)), { next: false, for: 'made current' });
  assert.deepEqual(keptOf(at(1), at(0, ['lexical', 'successor'])), { next: true, for: 'made current' });
  assert.deepEqual(keptOf(at(5, ['lexical'], { superseded: true }), at(1)), {
    next: true,
    for: 'made current',
  });
  assert.deepEqual(keptOf(at(5, ['slot']), at(1, ['changes'], { lead: true })), {
    next: true,
    for: 'a change',
  });
});
