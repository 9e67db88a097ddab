import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordReplica } from '../../contract/index.ts';
import { basesOf } from '../../core/shared/name-forms.ts';
import { createRedactor, type KnownPeople } from './redact.ts';

const secret = Buffer.alloc(32, 7);
const nobody: KnownPeople = { self: null, others: [] };
const message = (text: string): RecordReplica => ({
  id: 'rec_01M8GA4DNAKFBAD9VVVCSJ3164',
  content: { kind: 'message', text },
  visibility: 'redacted_summary',
  occurred_at: '2026-12-01T12:00:00.000Z',
});
const tag = (name: string) => createRedactor(nobody, secret).pseudonym(name);

function textOf(text: string, people: KnownPeople = nobody, places: string[] = []): string {
  const out = createRedactor(people, secret, places).redact(message(text));
  assert.ok(out.ok, `held back: ${out.ok ? '' : out.reason}`);
  return (out.replica.content as { text: string }).text;
}

describe("the Brain's homes and employers in a redacted copy", () => {
  // Lea works at Infobip and lives in Zagreb; a firm of hers is called Julia.
  const places = ['Infobip', 'Zagreb', 'Julia', 'Pod Gričkim Topom'];
  // Each row: a text the Brain's knowledge keeps as it is, and whether a rule for an unknown person's
  // name takes a name of it for one without that knowledge.
  const kept: [string, boolean][] = [
    ['Infobip called about the contract.', true],
    ['Zagreb was cold.', false],
    ['Zagreb said no to the permit.', true],
    ['A call with Julia about the invoice.', false],
    ['I told Infobip I am leaving.', true],
    ['Dinner at Pod Gričkim Topom, then home.', true],
    ['[self] and Infobip agreed.', true],
  ];
  for (const [text, overFound] of kept)
    it(`keeps ${JSON.stringify(text)} as it is`, () => {
      assert.equal(textOf(text, nobody, places), text);
      assert.equal(textOf(text) !== text, overFound, 'what the rules find without the knowledge');
    });

  it('hides a given name that a kin, role or person word names, though the Brain knows it as a place', () => {
    // Charlotte, Jordan and Sofia are cities too; Julia is a firm here.
    const cities = ['Charlotte', 'Jordan', 'Sofia', 'Julia'];
    const rows: [string, string][] = [
      ['My daughter Charlotte called.', `My daughter ${tag('Charlotte')} called.`],
      ['I met Charlotte and told Charlotte.', `I met ${tag('Charlotte')} and told ${tag('Charlotte')}.`],
      ['My brother Jordan texted me.', `My brother ${tag('Jordan')} texted me.`],
      ['Sofia said she would come.', `${tag('Sofia')} said she would come.`],
      ["Jordan's wife is back.", `${tag('Jordan')}'s wife is back.`],
      ['Julia called about the invoice.', `${tag('Julia')} called about the invoice.`],
      ['Dinner with Sofia and her kids.', `Dinner with ${tag('Sofia')} and her kids.`],
    ];
    for (const [text, want] of rows) assert.equal(textOf(text, nobody, cities), want, text);
    // Where nothing but the name or a cue a place follows as often says so, the place stays.
    for (const text of ['Charlotte was rainy.', 'We visited Sofia in May.', 'A call with Julia about rent.'])
      assert.equal(textOf(text, nobody, cities), text);
  });

  it('hides a known person of that name still, and a person whose name holds a known word', () => {
    const julia: KnownPeople = { self: null, others: ['Julia Novak'] };
    assert.equal(textOf('Julia called.', julia, places), `${tag('Julia Novak')} called.`);
    assert.equal(textOf('Goran Infobip called.', nobody, places), `${tag('Goran Infobip')} called.`);
    assert.equal(textOf('Goran is at Infobip.', nobody, places), `${tag('Goran')} is at Infobip.`);
  });

  it('reads a known name whatever its case, accents or spacing', () => {
    assert.equal(textOf('INFOBIP called.', nobody, ['infobip']), 'INFOBIP called.');
    assert.equal(textOf('Pod Grickim Topom said so.', nobody, places), 'Pod Grickim Topom said so.');
  });
});

describe('the cases of one name as one pseudonym', () => {
  it('reads a word back to the names it may be a case of', () => {
    const rows: [string, string[]][] = [
      ['Goranom', ['Goran', 'Gorana', 'Gorano', 'Gorane']],
      ['Željku', ['Željk', 'Željka', 'Željko', 'Željke']],
      ['Matejem', ['Matej']],
      ['Antu', ['Ant', 'Anta', 'Anto', 'Ante']],
      // The vocative and the possessives are no case here.
      ['Gorane', ['Gorana']],
      ['Goranov', []],
      ['Ivanin', []],
      // Which of them are names is the caller's to know.
      ['Ana', ['Ane', 'Ano']],
    ];
    for (const [word, bases] of rows) assert.deepEqual(basesOf(word).sort(), bases.sort(), word);
  });

  // Each row: the text, and [word, the name whose pseudonym it goes as] for each name in it.
  const unknown: [string, [string, string][]][] = [
    [
      'Goran je došao. Goranu sam rekao, s Goranom sam bio, kod Gorana spavam.',
      [
        ['Goran', 'Goran'],
        ['Goranu', 'Goran'],
        ['Goranom', 'Goran'],
        ['Gorana', 'Goran'],
      ],
    ],
    [
      'Željka je tu; Željku sam vidio, sa Željkom sam, kod Željke.',
      [
        ['Željka', 'Željka'],
        ['Željku', 'Željka'],
        ['Željkom', 'Željka'],
        ['Željke', 'Željka'],
      ],
    ],
    // "Marku" may be Mark's too, but Mark is an English word: Marko, also where a sentence opens.
    [
      'Marku sam rekao, s Markom.',
      [
        ['Marku', 'Marko'],
        ['Markom', 'Marko'],
      ],
    ],
    [
      'S Matejem i Mateju.',
      [
        ['Matejem', 'Matej'],
        ['Mateju', 'Matej'],
      ],
    ],
    // Two names, each a name of its own: never one.
    [
      'Ana i Anamarija su došle.',
      [
        ['Ana', 'Ana'],
        ['Anamarija', 'Anamarija'],
      ],
    ],
    [
      'Ivan i Ivana su došli.',
      [
        ['Ivan', 'Ivan'],
        ['Ivana', 'Ivana'],
      ],
    ],
    [
      'Željko i Željka su došli.',
      [
        ['Željko', 'Željko'],
        ['Željka', 'Željka'],
      ],
    ],
    // A name of its own with no preposition before it is that name; a possessive is a word of its own.
    ['Gorana je došla.', [['Gorana', 'Gorana']]],
    ['Goranov auto je nov.', [['Goranov', 'Goranov']]],
    // A case of two names (Goran's dative, Gorana's accusative) is the one the text names.
    [
      'Gorana je došla, a Tomislav je vidio Goranu.',
      [
        ['Gorana', 'Gorana'],
        ['Goranu', 'Gorana'],
      ],
    ],
  ];
  for (const [text, names] of unknown)
    it(`hides each name of ${JSON.stringify(text)} as its name's pseudonym`, () => {
      const out = textOf(text);
      for (const [word, name] of names) {
        assert.ok(!new RegExp(`(?<!\\p{L})${word}(?!\\p{L})`, 'u').test(out), `${word} went up in ${out}`);
        assert.ok(out.includes(tag(name)), `${word} is not ${name}'s pseudonym in ${out}`);
      }
    });

  const lea: KnownPeople = { self: 'Lea Horvat', others: ['Marko', 'Goran Babić', 'Željka Kos'] };
  // Each row: a text naming a known person in a case, and the copy.
  const known: [string, string][] = [
    ['Goranu Babiću sam rekao.', `${tag('Goran Babić')} sam rekao.`],
    ['Bio sam s Goranom.', `Bio sam s ${tag('Goran Babić')}.`],
    ['Marku i Markom.', `${tag('Marko')} i ${tag('Marko')}.`],
    ['Sa Željkom, kod Željke.', `Sa ${tag('Željka Kos')}, kod ${tag('Željka Kos')}.`],
    ['Rekao sam Horvatu i Lei.', 'Rekao sam [self] i [self].'],
    // Not a case: a name of its own; a word in lower case.
    ['Željko je došao.', `${tag('Željko')} je došao.`],
    ['Kupio sam marku.', 'Kupio sam marku.'],
  ];
  for (const [text, copy] of known)
    it(`sends ${JSON.stringify(text)} as the known person's pseudonym`, () => {
      assert.equal(textOf(text, lea), copy);
    });

  it('takes a case of two known names for the one the text names, and holds back a shared one', () => {
    const two: KnownPeople = { self: null, others: ['Ivan Horvat', 'Ivana Kos'] };
    assert.equal(textOf('Ivanu sam dao.', two), `${tag('Ivan Horvat')} sam dao.`);
    assert.equal(
      textOf('Ivana Kos je rekla Ivanu.', two),
      `${tag('Ivana Kos')} je rekla ${tag('Ivana Kos')}.`,
    );
    const shared = createRedactor({ self: null, others: ['Ivan Horvat', 'Ivan Kos'] }, secret).redact(
      message('Ivanu sam dao.'),
    );
    assert.deepEqual(shared, {
      ok: false,
      reason: 'a name two known people share ("Ivan", as "Ivanu")',
    });
  });
});

describe("the people the Brain's slots name in a redacted copy", () => {
  // Lea's wife is Zvjezdana and her dentist Dr. Babić; a value of her friends is a list. Zvjezdana,
  // Ljerka and Svjetlana are missing from the given names. Marko Kos is known as a speaker.
  const lea: KnownPeople = {
    self: 'Lea Horvat',
    others: ['Marko Kos'],
    relations: ['Zvjezdana', 'Dr. Babić', 'Ljerka Perić, Svjetlana'],
  };
  // Each row: a text the rules for an unknown person's name leave as it is, and its copy.
  const rows: [string, string][] = [
    ['Zvjezdana loved the coast.', `${tag('Zvjezdana')} loved the coast.`],
    ['Bought flowers for Zvjezdani.', `Bought flowers for ${tag('Zvjezdana')}.`],
    ['Babić will send the bill on Friday.', `${tag('Babić')} will send the bill on Friday.`],
    [
      'The bill from Babića came, Babiću sam platila.',
      `The bill from ${tag('Babić')} came, ${tag('Babić')} sam platila.`,
    ],
    ['Perić and Svjetlana came over.', `${tag('Ljerka Perić')} and ${tag('Svjetlana')} came over.`],
    ['Perić brought a cake.', `${tag('Ljerka Perić')} brought a cake.`],
  ];
  for (const [text, copy] of rows)
    it(`sends ${JSON.stringify(text)} with the slot's person as a pseudonym`, () => {
      assert.equal(
        textOf(text, { self: 'Lea Horvat', others: ['Marko Kos'] }),
        text,
        'found without the slots',
      );
      assert.equal(textOf(text, lea), copy);
    });

  it("gives a name after its title the pseudonym the title's rule gives it, with the Brain's slots or without", () => {
    assert.equal(textOf('Dr. Babić moved it.'), `${tag('Babić')} moved it.`);
    assert.equal(textOf('Dr. Babić moved it.', lea), `Dr. ${tag('Babić')} moved it.`);
  });

  it('keeps a name it knows as another person that one, and adds the one it does not', () => {
    const people: KnownPeople = {
      self: 'Lea Horvat',
      others: ['Marko Kos'],
      relations: ['Marko', 'Lea Horvat', 'Zvjezdana'],
    };
    assert.equal(
      textOf('Marko called, Lea answered, Zvjezdana too.', people),
      `${tag('Marko Kos')} called, [self] answered, ${tag('Zvjezdana')} too.`,
    );
  });

  it('hides each name of a list written with the word for "and" of a language, a slash or a plus', () => {
    for (const value of [
      'Zvjezdana i Ljerka',
      'Zvjezdana e Ljerka',
      'Zvjezdana und Ljerka',
      'Zvjezdana y Ljerka',
      'Zvjezdana et Ljerka',
      'Zvjezdana / Ljerka',
      'Zvjezdana+Ljerka',
    ]) {
      const people: KnownPeople = { self: 'Lea Horvat', others: [], relations: [value] };
      assert.equal(
        textOf('Zvjezdana and Ljerka came.', people),
        `${tag('Zvjezdana')} and ${tag('Ljerka')} came.`,
        value,
      );
    }
  });

  it('takes a run of titles before a name, in any case, off the name', () => {
    for (const value of [
      'prim. dr. Babić',
      'Dr. med. Babić',
      'Doc. Babić',
      'DR. Babić',
      'doc. dr. sc. Babić',
    ])
      assert.equal(
        textOf('Babić will send the bill.', { self: null, others: [], relations: [value] }),
        `${tag('Babić')} will send the bill.`,
        value,
      );
  });

  it("leaves a part a slot's name shares with a person the Brain met to that person, and hides the name whole", () => {
    // Her dentist is Dr. Marko Babić; Marko Kos speaks in her messages.
    const people: KnownPeople = { self: 'Lea Horvat', others: ['Marko Kos'], relations: ['Dr. Marko Babić'] };
    assert.equal(textOf('Marko called.', people), `${tag('Marko Kos')} called.`);
    assert.equal(textOf('Marku sam rekla.', people), `${tag('Marko Kos')} sam rekla.`);
    assert.equal(
      textOf('Dr. Marko Babić moved it, Babić said.', people),
      `Dr. ${tag('Marko Babić')} moved it, ${tag('Marko Babić')} said.`,
    );
  });

  it("knows a slot's name written in lower case as the whole person, before the self's part of it", () => {
    // `mother: snježana horvat`, typed so; the self is Lea Horvat.
    const people: KnownPeople = { self: 'Lea Horvat', others: [], relations: ['snježana horvat'] };
    const mother = tag('Snježana Horvat');
    assert.equal(textOf('my mom snježana horvat called', people), `my mom ${mother} called`);
    assert.equal(
      textOf('Snježana called; Horvat is her name too.', people),
      `${mother} called; [self] is her name too.`,
    );
    const out = createRedactor(people, secret).redact({
      ...message('x'),
      content: { kind: 'fact', subject: 'snježana horvat', predicate: 'phone', value: 'ask Lea' },
    });
    assert.ok(out.ok);
    assert.deepEqual(out.replica.content, {
      kind: 'fact',
      subject: mother,
      predicate: 'phone',
      value: 'ask [self]',
    });
    // A value in lower case that is no name, or opens with an everyday word that is one, is no one.
    const odd: KnownPeople = { self: null, others: [], relations: ['my mom', 'mark', 'grace kelly'] };
    assert.equal(textOf('my mom said mark my words', odd), 'my mom said mark my words');
  });

  it('takes a value typed in lower case for a person by its given name only, leaving its everyday words', () => {
    const people: KnownPeople = {
      self: null,
      others: [],
      relations: ['ivan work', 'marta sick', 'nina yoga teacher', 'dario boss'],
    };
    for (const text of [
      'long day at work',
      'I feel sick today',
      'yoga at 5 with the teacher',
      'my boss called',
    ])
      assert.equal(textOf(text, people), text, text);
    assert.equal(
      textOf('Ivan called, then marta.', people),
      `${tag('Ivan Work')} called, then ${tag('Marta Sick')}.`,
    );
  });

  it("takes a lower-case value's later word that is no everyday word for the person's surname", () => {
    const marta: KnownPeople = { self: null, others: [], relations: ['marta jurić'] };
    const jurić = tag('Marta Jurić');
    const cases: [string, string][] = [
      ['Jurić is late again', `${jurić} is late again`],
      ['the Jurić family came over', `the ${jurić} family came over`],
      ['I saw jurić today', `I saw ${jurić} today`],
      ['marta jurić called', `${jurić} called`],
    ];
    for (const [text, expected] of cases) assert.equal(textOf(text, marta), expected, text);
    // Another given name before her surname may be one name of someone else: held back.
    const ivan: KnownPeople = { self: null, others: [], relations: ['ivan jurić'] };
    for (const text of ['marta jurić called', 'Mirela Jurić is late']) {
      const out = createRedactor(ivan, secret).redact(message(text));
      assert.ok(!out.ok, text);
    }
  });

  it('takes a value that names a firm or a place for no one, and one that names a person for one', () => {
    // A doctor's value that is a clinic, a partner's that is a firm the Brain knows as an employer, a
    // value of a place, a day, one that is no name at all; and a wife's name.
    const odd: KnownPeople = {
      self: null,
      others: [],
      relations: [
        'Klinika Babić',
        'Infobip',
        'Novi Zagreb',
        'my old friend from school',
        'Monday',
        'Zvjezdana',
      ],
    };
    for (const text of [
      'The bill from Klinika Babić came.',
      'Infobip sent it.',
      'Novi Zagreb was cold.',
      'Monday was cold.',
    ])
      assert.equal(textOf(text, odd, ['Infobip']), text);
    assert.equal(textOf('Zvjezdana sent it.', odd, ['Infobip']), `${tag('Zvjezdana')} sent it.`);
  });
});

describe("the self's own names and a known surname beside another name", () => {
  it('takes either half of a double surname alone for the self (L2)', () => {
    const lea: KnownPeople = { self: 'Lea Horvat-Kovačević', others: [] };
    const cases: [string, string][] = [
      ['Horvat sent it.', '[self] sent it.'],
      ['the Kovačević family', 'the [self] family'],
      ['Lea Horvat-Kovačević called', '[self] called'],
      ['Horvat-Kovačević called', '[self] called'],
    ];
    for (const [text, expected] of cases) assert.equal(textOf(text, lea), expected, text);
  });

  it('holds back a given name in lower case before a known surname, with no slot naming her (M7)', () => {
    const lea: KnownPeople = { self: 'Lea Horvat', others: [] };
    for (const content of [
      { kind: 'fact' as const, subject: 'snježana horvat', predicate: 'birthday', value: '3 May 1960' },
      { kind: 'message' as const, text: 'my mom snježana horvat called' },
    ]) {
      const out = createRedactor(lea, secret).redact({ ...message('x'), content });
      assert.ok(!out.ok, JSON.stringify(out));
      assert.match(out.reason, /shares a part with one the Brain knows \("snježana" beside it\)/);
    }
    // A word of the sentence that is a given name too is no name: "sam" is Croatian "I am".
    assert.equal(textOf('rekao sam Horvatu', lea), 'rekao sam [self]');
  });

  it('holds back a given name before a known surname without accents, in capitals, opening a sentence', () => {
    const lea: KnownPeople = { self: 'Lea Horvat', others: [] };
    for (const [text, word] of [
      ['snjezana horvat called', 'snjezana'],
      ['SNJEŽANA HORVAT called', 'SNJEŽANA'],
      ["Tihana Horvat's wife", 'Tihana'],
    ]) {
      const out = createRedactor(lea, secret).redact(message(text!));
      assert.ok(!out.ok, text);
      assert.ok(out.reason.includes(`("${word}" beside it)`), out.reason);
    }
    // What opens a sentence and is no name stays.
    assert.equal(textOf('Yesterday Horvat called', lea), 'Yesterday [self] called');
    assert.equal(textOf('Dear Ms Horvat,', lea), 'Dear Ms [self],');
  });

  it("holds back a met person's given name beside a slot's surname alone, naming the surname", () => {
    const people: KnownPeople = { self: 'Lea Horvat', others: ['Marko Kos'], relations: ['Dr. Babić'] };
    for (const text of ['Marko Babić called', 'Babić Marko']) {
      const out = createRedactor(people, secret).redact(message(text));
      assert.ok(!out.ok, text);
      assert.match(out.reason, /\("Babić", its surname, right beside another name/u);
    }
    assert.equal(textOf('Babić called', people), `${tag('Babić')} called`);
    assert.equal(textOf('Marko called Babić', people), `${tag('Marko Kos')} called ${tag('Babić')}`);
  });

  it('never lets the surname mark (U+E001) reach a copy, and rewrites one the text holds', () => {
    const people: KnownPeople = {
      self: 'Lea Horvat',
      others: ['Marko Kos'],
      relations: ['Dr. Babić', 'marta jurić'],
    };
    for (const text of [
      'Horvat and Babić came; Jurić too.',
      'the Jurić family met Horvat',
      'a mark \uE001 typed by hand, Horvat\uE001',
    ]) {
      const out = createRedactor(people, secret).redact(message(text));
      assert.ok(out.ok, text);
      const copy = JSON.stringify(out.replica);
      assert.ok(!copy.includes('\uE001'), copy);
    }
    assert.equal(textOf('x\uE001y', people), 'x\uFFFDy');
  });
});
