import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TypedContent } from '../../contract/index.ts';
import { deriveContent } from './derive-in-thread.testing.ts';
import { settlement } from './settle-lineage.ts';
import { saidBy } from './slot-statement.ts';
import { endedValue, sameSlotValue, slotValue } from './slot-value.ts';

/** Each slot claim of a Record in a Brain whose person is `self`, as [statement, subject, owner, slot, quote]. */
const slotsOf = (content: TypedContent, self = 'Ana') =>
  deriveContent(content, self)
    .filter((c) => c.predicate !== null)
    .map((c) => [c.statement, c.subject, c.owner.state, c.predicate, c.quote]);
const said = (speaker: string, text: string, self?: string) =>
  slotsOf({ kind: 'message', text, speaker }, self);

test("what another speaker says of the Brain's person by name holds her slot, saying who said it", () => {
  assert.deepEqual(said('Rui', "Ana's birthday is May 3rd."), [
    ["Rui says Ana's birthday is May 3rd", 'Ana', 'self', 'birthday', "Ana's birthday is May 3rd."],
  ]);
  assert.deepEqual(said('Rui', 'Ana lives in Porto.'), [
    ['Rui says Ana lives in Porto', 'Ana', 'self', 'lives in', 'Ana lives in Porto.'],
  ]);
  // A move is the home it brings, in the engine's words, so it meets hers by its value.
  assert.deepEqual(said('Rui', 'Ana moved to Porto.'), [
    ['Rui says Ana lives in Porto', 'Ana', 'self', 'lives in', 'Ana moved to Porto.'],
  ]);
  assert.deepEqual(said('Rui', 'Ana works at Google.'), [
    ['Rui says Ana works at Google', 'Ana', 'self', 'works at', 'Ana works at Google.'],
  ]);
  assert.deepEqual(said('Rui', 'Ana is a nurse.'), [
    ["Rui says Ana's occupation is nurse", 'Ana', 'self', 'occupation', 'Ana is a nurse.'],
  ]);
  // Her whole name, where that is how the Brain knows her.
  assert.deepEqual(said('Rui', 'Ana Costa lives in Porto.', 'Ana Costa'), [
    ['Rui says Ana Costa lives in Porto', 'Ana Costa', 'self', 'lives in', 'Ana Costa lives in Porto.'],
  ]);
});

test('a "she" just after her name in another speaker\'s words is her, as he says it', () => {
  assert.deepEqual(said('Rui', 'Ana got a new job. She works at Google now.').at(-1), [
    'Rui says Ana works at Google',
    'Ana',
    'self',
    'works at',
    'She works at Google now.',
  ]);
  assert.deepEqual(said('Rui', 'Ana is great. She is a nurse.').at(-1), [
    "Rui says Ana's occupation is nurse",
    'Ana',
    'self',
    'occupation',
    'She is a nurse.',
  ]);
  // A "she" that changes what he just said of her, or that may be another named beside her, holds
  // no slot of hers: his words, as before.
  for (const text of [
    'Ana lives in Porto. She moved to Lisbon.',
    'Ana met Marta. She works at Google now.',
    'Ana got a new job. She is so happy.',
  ])
    assert.deepEqual(
      deriveContent({ kind: 'message', text, speaker: 'Rui' })
        .map((c) => [c.owner.state, c.predicate])
        .at(-1),
      ['other', null],
      text,
    );
  // In her own words it is as it was.
  assert.deepEqual(said('Ana', 'Ana got a new job. She works at Google now.'), []);
  // "Ana" alone is not "Ana Costa" unless the Brain says so: no slot of hers.
  assert.deepEqual(
    said('Rui', 'Ana got a new job. She works at Google now.', 'Ana Costa').map((c) => c[2]),
    ['other'],
  );
});

test('an end of her job or home said by someone else is hers as he says it, ending what it names', () => {
  const ending = (text: string) =>
    deriveContent({ kind: 'message', text, speaker: 'Rui' }).map((c) => [
      c.statement,
      c.owner.state,
      c.predicate,
      c.ends,
    ]);
  for (const text of [
    "Ana doesn't work at Acme anymore.",
    'Ana no longer works at Acme!',
    "Ana isn't working at Acme any more.",
  ])
    assert.deepEqual(
      ending(text),
      [['Rui says Ana no longer works at Acme', 'self', 'works at', 'Acme']],
      text,
    );
  assert.deepEqual(ending('Ana does not live in Porto anymore.'), [
    ['Rui says Ana no longer lives in Porto', 'self', 'lives in', 'Porto'],
  ]);
  // What he goes on to say stays his words.
  assert.deepEqual(ending("Ana doesn't live in Porto anymore, she moved to Lisbon.").at(-1), [
    "Ana doesn't live in Porto anymore, she moved to Lisbon.",
    'other',
    null,
    undefined,
  ]);
  // Not without "anymore", not another person's, and not her own words of herself.
  for (const [speaker, text] of [
    ['Rui', "Ana doesn't work at Acme."],
    ['Rui', "Tom doesn't work at Acme anymore."],
    ['Ana', "Ana doesn't work at Acme anymore."],
  ] as const)
    assert.deepEqual(
      deriveContent({ kind: 'message', text, speaker }).map((c) => c.predicate),
      [null],
      text,
    );
  // Read back, it is an ending of her slot, not a value of it.
  const his = { statement: 'Rui says Ana no longer works at Acme', subject: 'Ana', predicate: 'works at' };
  assert.equal(endedValue(his), 'acme');
  assert.equal(slotValue(his), null);
});

test('her own words, another person, a namesake and a question are read as before', () => {
  // Her own word of herself is hers as ever, with nobody named as having said it.
  assert.deepEqual(said('Ana', 'My birthday is April 12th 1988.'), [
    ["Ana's birthday is April 12th 1988", 'Ana', 'self', 'birthday', 'My birthday is April 12th 1988.'],
  ]);
  // Someone else's slot is theirs.
  assert.deepEqual(said('Rui', 'Tom lives in Porto.'), [
    ['Tom lives in Porto', 'Tom', 'other', 'lives in', 'Tom lives in Porto.'],
  ]);
  // "Ana" alone is not "Ana Costa" unless the Brain says so: another Ana's home.
  assert.deepEqual(said('Rui', 'Ana lives in Porto.', 'Ana Costa'), [
    ['Ana lives in Porto', 'Ana', 'other', 'lives in', 'Ana lives in Porto.'],
  ]);
  for (const text of ['Does Ana live in Porto?', "Is Ana's birthday May 3rd?"])
    assert.deepEqual(said('Rui', text), [], text);
  // A note nobody is known to have written names no one who said it.
  assert.deepEqual(slotsOf({ kind: 'document', text: "Ana's birthday is May 3rd." }), []);
});

test('who said it is read back from the statement, and the value is hers to compare', () => {
  const his = { statement: 'Rui says Ana lives in Porto', subject: 'Ana', predicate: 'lives in' };
  assert.deepEqual(saidBy(his), { by: 'Rui', statement: 'Ana lives in Porto' });
  assert.equal(slotValue(his), 'porto');
  assert.ok(sameSlotValue(his, { statement: 'Ana lives in Porto', subject: 'Ana', predicate: 'lives in' }));
  assert.ok(!sameSlotValue(his, { statement: 'Ana lives in Lisbon', subject: 'Ana', predicate: 'lives in' }));
  // Only where what follows "says" is about the subject.
  assert.equal(saidBy({ statement: 'Ana lives in Lisbon', subject: 'Ana' }), null);
  assert.equal(saidBy({ statement: 'Rui says hi', subject: 'Ana' }), null);
});

/** A version of Ana's home slot, written n-th, from `day` (January 2024). */
const version = (n: number, statement: string, day: number) => {
  const at = `2024-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;
  return {
    n,
    id: `mem_${n}`,
    version: n,
    valid_from: at,
    valid_from_ms: Date.parse(at),
    valid_to: null,
    status: 'active' as const,
    corrects: null,
    cause: 'derived' as const,
    retracted_by: null,
    source_key: 'chat',
    revised_at: null,
    revised_ms: null,
    statement,
    subject: 'Ana',
    predicate: 'lives in',
  };
};
/** Each version's status after settling, [id, status, valid_to day or null]. */
const settled = (rows: ReturnType<typeof version>[]) => {
  const changed = new Map(settlement(rows).map((c) => [c.id, c.lifecycle]));
  return rows.map((r) => {
    const l = changed.get(r.id) ?? { status: r.status, valid_to: r.valid_to };
    return [r.id, l.status, l.valid_to?.slice(8, 10) ?? null];
  });
};

test("another's word of her contests her value and closes none of hers; her own word after it closes it", () => {
  const hers = version(1, 'Ana lives in Lisbon', 1);
  const his = version(2, 'Rui says Ana lives in Porto', 2);
  // Both current: a conflict, not a move.
  assert.deepEqual(settled([hers, his]), [
    ['mem_1', 'active', null],
    ['mem_2', 'active', null],
  ]);
  // Her word after his closes it, whatever its value.
  assert.deepEqual(settled([hers, his, version(3, 'Ana lives in Braga', 3)]), [
    ['mem_1', 'superseded', '03'],
    ['mem_2', 'superseded', '03'],
    ['mem_3', 'active', null],
  ]);
  // Said before anything of hers, it holds the slot until she says otherwise.
  assert.deepEqual(
    settled([version(1, 'Rui says Ana lives in Porto', 1), version(2, 'Ana lives in Lisbon', 2)]),
    [
      ['mem_1', 'superseded', '02'],
      ['mem_2', 'active', null],
    ],
  );
  // Her own value of the same words, imported after his, leaves no conflict of one value with itself.
  assert.deepEqual(
    settled([version(1, 'Rui says Ana lives in Porto', 2), version(2, 'Ana lives in Porto', 1)]),
    [
      ['mem_1', 'superseded', '02'],
      ['mem_2', 'active', null],
    ],
  );
});
