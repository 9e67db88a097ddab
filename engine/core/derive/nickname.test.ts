import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nicknameSaid } from './nickname.ts';

const self = 'Tomislav Kovačević';
/** The nickname said, and whether the sentence says more. */
const read = (s: string) => {
  const n = nicknameSaid(s, self);
  return n === null ? null : { value: n.value, quote: s.slice(...n.clause), more: n.more };
};

describe('nicknameSaid (the name a speaker says people call them by)', () => {
  it('reads the everyday ways of saying it, quoting the words that say it', () => {
    assert.deepEqual(read("Hi, I'm Tomislav, most people call me Tom."), {
      value: 'Tom',
      quote: 'most people call me Tom',
      more: false,
    });
    assert.deepEqual(read('Call me Tom.'), { value: 'Tom', quote: 'Call me Tom', more: false });
    assert.deepEqual(read("I'm Tomislav, but you can call me Tom!"), {
      value: 'Tom',
      quote: 'you can call me Tom',
      more: false,
    });
    assert.deepEqual(read('I go by Tom.'), { value: 'Tom', quote: 'I go by Tom', more: false });
    assert.deepEqual(read('Everyone calls me Tom.'), {
      value: 'Tom',
      quote: 'Everyone calls me Tom',
      more: false,
    });
    assert.deepEqual(read("I'm known as Tomo at work."), {
      value: 'Tomo',
      quote: "I'm known as Tomo",
      more: true,
    });
    assert.deepEqual(read('My nickname is Tom.'), { value: 'Tom', quote: 'My nickname is Tom', more: false });
    assert.deepEqual(read('My name is Tomislav (Tom).'), {
      value: 'Tom',
      quote: 'My name is Tomislav (Tom)',
      more: false,
    });
    assert.deepEqual(read("I'm Tomislav, Tom for short."), {
      value: 'Tom',
      quote: "I'm Tomislav, Tom for short",
      more: false,
    });
    assert.deepEqual(read('Tomislav, or Tom for short.'), {
      value: 'Tom',
      quote: 'Tomislav, or Tom for short',
      more: false,
    });
    // An everyday word is a name after a greeting.
    assert.deepEqual(read('Hi, Will here.'), { value: 'Will', quote: 'Will', more: false });
    // Her own words she reports are hers.
    assert.deepEqual(read('I said: call me Tom.'), { value: 'Tom', quote: 'call me Tom', more: true });
    assert.deepEqual(read('Tom here.'), { value: 'Tom', quote: 'Tom', more: false });
    assert.deepEqual(read('Hi, Tom here!'), { value: 'Tom', quote: 'Tom', more: false });
    assert.deepEqual(read('My friends call me Tom and I work at Span.'), {
      value: 'Tom',
      quote: 'My friends call me Tom',
      more: true,
    });
  });

  it('reads a name after the words that a role or a place also follows', () => {
    assert.equal(read('Everyone calls me Maja.')?.value, 'Maja');
    assert.equal(read('I go by Tomo.')?.value, 'Tomo');
    assert.equal(read('Everyone calls me Tom Park.')?.value, 'Tom Park');
    assert.equal(read('I go by Tomo at work.')?.value, 'Tomo');
  });

  it('reads a name said with how often one is called so, or a title one is called by', () => {
    for (const [s, name] of [
      ['I go by Tom a lot these days.', 'Tom'],
      ['I go by Tom almost everywhere.', 'Tom'],
      ['I go by Ellie often.', 'Ellie'],
      ['Most people call me Skipper.', 'Skipper'],
      ['Everyone calls me Doc.', 'Doc'],
      ['My friends call me Chef.', 'Chef'],
      ['Everyone calls me Coach K.', 'Coach K'],
      ['Everyone calls me Mama Bear.', 'Mama Bear'],
      ['Everyone calls me Tom I think.', 'Tom'],
    ] as const)
      assert.equal(read(s)?.value, name, s);
  });

  it('holds none where no name is said, or it is denied, past, asked or her own', () => {
    for (const s of [
      'Call me tomorrow.',
      'Call me Monday about the flat.',
      'Call me ASAP.',
      'Nobody calls me Tom.',
      "Please don't call me Tom.",
      'People used to call me Tommy.',
      'Why do people call me Tom?',
      'Can you call me Tom?',
      'Call me Tomislav.',
      'Ana will call me Tom.',
      "I go by Tom's place every day.",
      'Petra will call me later.',
      'Tom lives in Zagreb.',
    ])
      assert.equal(read(s), null, s);
  });

  it('reads a full name she goes by as hers where it shares her own name, a place word in it or not', () => {
    const as = (s: string, who: string) => nicknameSaid(s, who)?.value ?? null;
    assert.equal(as('I go by Jo Park.', 'Joanna Park'), 'Jo Park');
    assert.equal(as('I go by Jo Park.', 'Jo-Yeon Park'), 'Jo Park');
    // A place's name shares none of hers, said alone or with how often.
    for (const who of ['Joanna Park', 'Nina Babić', 'Maksimiljan Horvat'])
      for (const s of ['I go by Maksimir Park.', 'I go by Central Park twice a week.'])
        assert.equal(as(s, who), null, `${who}: ${s}`);
    // A place whose name shares hers, but not its kind: the place, passed.
    for (const [s, who] of [
      ['I go by Victoria Station.', 'Victoria Hughes'],
      ['I go by Christ Church.', 'Christina Lee'],
      ['I go by Hyde Park.', 'Hyde Miller'],
      ['I go by Nina Park these days.', 'Nina Babić'],
      ['I go by Tom Hill.', 'Tomislav Kovačević'],
    ] as const)
      assert.equal(as(s, who), null, `${who}: ${s}`);
    assert.equal(as('I go by Park Street on my way to work.', 'Joanna Park'), null);
  });

  it('holds none where the words say something else: a reply, a ride, a place, another, a title', () => {
    for (const s of [
      // A reply, and words that say "here" with no name.
      'Same here.',
      'Right here!',
      'Will here.',
      // Where one goes by a ride.
      'I go by Uber to work most days.',
      'I go by Bolt every morning.',
      'I go by bike.',
      'I go by Bike.',
      // A place one passes, by its kind or by how many times.
      'I go by Maksimir Park twice a week.',
      'I go by Maksimir Park.',
      'I go by Jelačić Square a lot.',
      'I go by Zagreb on my way to Split.',
      'I go by Zagreb twice a week.',
      // A relation's word alone, which a question says of someone else ("my boss").
      'Everyone calls me Boss.',
      'Everyone calls me Coach.',
      'My friends call me Mama.',
      // A place in brackets: `iu` let \p{Lu} take "in" for a name.
      'I am in Zagreb (Croatia) this week.',
      "It's Zagreb (Croatia) again.",
      // Another person's nickname, with no introduction of hers.
      'My sister Kristina, Kiki for short, is visiting.',
      // Another's words she reports, or quotes.
      'Mia said: call me Tom.',
      'My boss always says call me Tom.',
      'The note read "call me Tom" and nothing else.',
      // A title.
      'Call me Ishmael is the best opening line ever.',
      'Call Me By Your Name is a great film.',
    ])
      assert.equal(read(s), null, s);
  });
});
