import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordReplica } from '../../contract/index.ts';
import { createRedactor } from './redact.ts';
import { redactedCopyId } from './replica-id.ts';

const secret = Buffer.alloc(32, 7);
const people = { self: 'Ana Lima', others: ['Bob Stone', 'Carla Silva', 'Rui Silva'] };
const message = (text: string, speaker?: string): RecordReplica => ({
  id: 'rec_01M8GA4DNAKFBAD9VVVCSJ3164',
  content: { kind: 'message', text, ...(speaker ? { speaker } : {}) },
  visibility: 'redacted_summary',
  occurred_at: '2024-05-01T12:00:00.000Z',
});

function textOf(text: string, speaker?: string): string {
  const out = createRedactor(people, secret).redact(message(text, speaker));
  assert.ok(out.ok, `held back: ${out.ok ? '' : out.reason}`);
  return (out.replica.content as { text: string }).text;
}

describe('the redactor of redacted_summary copies', () => {
  it('replaces addresses and numbers with role words', () => {
    assert.equal(
      textOf('Write to bob.stone+x@mail.example.org, see https://example.com/a?b=1. or www.x.pt!'),
      'Write to [email], see [url]. or [url]!',
    );
    assert.equal(textOf('Call +351 912 345 678 or (555) 123-4567.'), 'Call [phone] or [phone].');
    assert.equal(textOf('Card 4111 1111 1111 1111 expires.'), 'Card [card] expires.');
    assert.equal(textOf('IBAN PT50 0002 0123 1234 5678 9015 4 please'), 'IBAN [iban] please');
    assert.equal(textOf('Server 192.168.1.20 and fe80:0:0:0:1:2:3:4 down'), 'Server [ip] and [ip] down');
  });

  it('leaves dates, times, years and short numbers as they are', () => {
    const kept = 'On 2024-05-01 12:30 (and 01/05/2024) I paid 120 euros for 3 nights, 2019-2021.';
    assert.equal(textOf(kept), kept);
  });

  it('gives the self a role word and each known person a stable pseudonym, also for parts of a name', () => {
    const a = textOf("Ana met Bob Stone; Bob's sister is Carla Silva.", 'Ana Lima');
    assert.match(a, /^\[self\] met (\[person-[0-9A-Z]{4}\]); \1's sister is \[person-[0-9A-Z]{4}\]\.$/);
    assert.equal(textOf('Bob Stone'), textOf('Stone'));
    const other = createRedactor(people, Buffer.alloc(32, 8)).redact(message('Bob Stone'));
    assert.ok(other.ok);
    assert.notEqual(
      (other.replica.content as { text: string }).text,
      textOf('Bob Stone'),
      'per-Brain pseudonyms',
    );
    const withSpeaker = createRedactor(people, secret).redact(message('hi', 'Bob Stone'));
    assert.ok(withSpeaker.ok);
    assert.match((withSpeaker.replica.content as { speaker: string }).speaker, /^\[person-/);
  });

  it('holds a Record back when it is unsure', () => {
    for (const unsure of [
      'ping @bobby tomorrow',
      'write to ana at example dot com',
      'pay into PT50 0002 0123 1234 5678 9015 9',
      'Silva called',
    ]) {
      const out = createRedactor(people, secret).redact(message(unsure));
      assert.equal(out.ok, false, unsure);
    }
  });

  it('redacts every field of typed content and drops the external id', () => {
    const out = createRedactor(people, secret).redact({
      id: 'rec_01M8GA4DNAKFBAD9VVVCSJ3164',
      content: {
        kind: 'event',
        title: 'Lunch with Carla Silva',
        participants: ['Ana Lima', 'carla@x.pt'],
        place: 'Porto',
      },
      source: { name: 'ics', external_id: 'uid-carla@x.pt', trust: 'high' },
      visibility: 'redacted_summary',
      occurred_at: '2024-05-01T12:00:00.000Z',
    });
    assert.ok(out.ok);
    assert.doesNotMatch(JSON.stringify(out.replica), /Carla|Ana|carla@/);
    assert.deepEqual(out.replica.source, { name: 'ics', trust: 'high' });
  });

  it('names the copy after its original, the same on every device', () => {
    const original = 'rec_01M8GA4DNAKFBAD9VVVCSJ3164';
    assert.equal(redactedCopyId(original), redactedCopyId(original));
    assert.notEqual(redactedCopyId(original), original);
    assert.match(redactedCopyId(original), /^rec_01M8GA4DNA[0-9A-Z]{16}$/);
  });
});
