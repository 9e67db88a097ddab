import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  listItems as itemsOf,
  numberedLines,
  passages,
  sentences,
  taskItems,
  todoEntry,
  type Span,
  unwrapped,
} from './split-text.ts';

const listItems = (text: string, p: Span) => itemsOf(text, p, numberedLines(text));

const words = fc.constantFrom(
  'Ana',
  'sailed',
  'to',
  'Porto.',
  'Did',
  'she?',
  'Yes!',
  '\n',
  '\n\n',
  'Dr.',
  'Costa',
  'x'.repeat(120),
);
const texts = fc.array(words, { maxLength: 80 }).map((ws) => ws.join(' '));

describe('split-text', () => {
  it('sentences and passages are exact, trimmed substrings; passages respect the size limit', () => {
    fc.assert(
      fc.property(texts, fc.integer({ min: 40, max: 400 }), (text, max) => {
        for (const s of [...sentences(text), ...passages(text, max)]) {
          assert.equal(text.slice(s.start, s.end), s.value);
          assert.equal(s.value, s.value.trim());
          assert.ok(s.value.length > 0);
        }
        for (const p of passages(text, max)) assert.ok(p.value.length <= max, `${p.value.length} > ${max}`);
      }),
    );
  });

  it('splits on sentence ends and lines, and never joins across a blank line', () => {
    assert.deepEqual(
      sentences('I live in Porto. Do you?\nok then').map((s) => s.value),
      ['I live in Porto.', 'Do you?', 'ok then'],
    );
    assert.deepEqual(
      passages('One. Two.\n\nThree.').map((p) => p.value),
      ['One. Two.', 'Three.'],
    );
  });

  it("a list item's marker and a task's box are not its sentence's", () => {
    assert.deepEqual(
      sentences('- Hotel: Casa das Flores\n* [x] Book the train\n• Budget\n-5 degrees\n- ').map(
        (s) => s.value,
      ),
      ['Hotel: Casa das Flores', 'Book the train', 'Budget', '-5 degrees', '-'],
    );
  });

  it("a checklist's tasks are its boxed lines' first sentences, ticked or not", () => {
    const text =
      'Errands\n- [x] Sign the lease. Keys Friday.\n  * [ ] Register with a GP\n2) [X] Call mum\n- plain\n[ ] no bullet';
    const tasks = taskItems(text);
    assert.deepEqual(
      tasks.map((t) => [text.slice(t.start, t.end), t.done]),
      [
        ['Sign the lease.', true],
        ['Register with a GP', false],
        ['Call mum', true],
      ],
    );
    assert.deepEqual(taskItems('- [] empty box\n- [y] not a box\n- [ ]'), []);
  });

  it('a text that opens with a to-do is that task, its due and done lines under it part of it', () => {
    const read = (text: string) => {
      const t = todoEntry(text);
      return t === null ? null : [text.slice(t.start, t.end), t.done, text.slice(0, t.through)];
    };
    // As a calendar's to-dos are imported: open, with a due line and a description after it.
    assert.deepEqual(read('To-do: Renew passport\nDue: 2026-02-01T00:00:00.000Z\nBring the old one.'), [
      'Renew passport',
      false,
      'To-do: Renew passport\nDue: 2026-02-01T00:00:00.000Z',
    ]);
    // Done with when, done without it, done after its due line.
    assert.deepEqual(read('To-do: Book flights\nDone: 2026-01-15T12:00:00.000Z'), [
      'Book flights',
      true,
      'To-do: Book flights\nDone: 2026-01-15T12:00:00.000Z',
    ]);
    assert.deepEqual(read('To-do: Book flights\nDone'), ['Book flights', true, 'To-do: Book flights\nDone']);
    assert.deepEqual(read('To-do: Pay rent\nDue: 2026-03-01\nDone\nPaid early.'), [
      'Pay rent',
      true,
      'To-do: Pay rent\nDue: 2026-03-01\nDone',
    ]);
    // As a person writes one.
    assert.deepEqual(read('TODO: call the bank  \n'), ['call the bank', false, 'TODO: call the bank  ']);
    assert.deepEqual(read('To do: call the bank'), ['call the bank', false, 'To do: call the bank']);
    // "Done" below a description is what it says, not whether the to-do is done.
    assert.deepEqual(read('To-do: Pay rent\nAsk Sam.\nDone'), ['Pay rent', false, 'To-do: Pay rent']);
    // A list named over its items, a to-do further down, one without a title, a word that only
    // begins so: no to-do.
    for (const text of [
      'To-do:\n- [ ] call the bank',
      'Errands\nTo-do: call the bank',
      'To-do: (no title)\nBring the forms.',
      'Todos: call the bank',
      'To-doing: nothing',
    ])
      assert.equal(read(text), null, text);
  });

  it("a passage's list items are each its own, without their markers; a line without one goes on", () => {
    const text = '- [x] Sign the lease\n- [ ] Register with a GP\n- Update the bank\n  and the council';
    const items = passages(text).flatMap((p) => listItems(text, p));
    assert.deepEqual(
      items.map((i) => i.value),
      ['Sign the lease', 'Register with a GP', 'Update the bank\n  and the council'],
    );
    for (const i of items) assert.equal(text.slice(i.start, i.end), i.value);
    // An indented item stays with the one it is under.
    const nested = '- ship v2 on Friday\n  - only if QA signs off\n- tell Rui';
    assert.deepEqual(
      passages(nested)
        .flatMap((p) => listItems(nested, p))
        .map((i) => i.value),
      ['ship v2 on Friday\n  - only if QA signs off', 'tell Rui'],
    );
    // No list: the passage as it is; "-5 degrees" is no item.
    const prose = 'It was cold.\n-5 degrees at night.';
    assert.deepEqual(
      passages(prose)
        .flatMap((p) => listItems(prose, p))
        .map((i) => i.value),
      ['It was cold.\n-5 degrees at night.'],
    );
    // A numbered list's items, numbered "1." or "3)", are each their own; a year opening a line is none.
    const numbered = 'Moving checklist:\n1. Book the van\n2. Register with a GP\n3) Cancel the gym';
    assert.deepEqual(
      passages(numbered)
        .flatMap((p) => listItems(numbered, p))
        .map((i) => i.value),
      ['Moving checklist:', 'Book the van', 'Register with a GP', 'Cancel the gym'],
    );
    // From the text's first line, or indented under a heading: each its own, its number alone no sentence.
    for (const [list, items] of [
      ['1. Book the van.\n2. Register with a GP.', ['Book the van.', 'Register with a GP.']],
      ['Plan:\n  1. Book the van.\n  2. Call mum.', ['Plan:', 'Book the van.', 'Call mum.']],
    ] as const) {
      assert.deepEqual(
        sentences(list).map((i) => i.value),
        items,
      );
    }
    // A line that opens with a number is an item only where the lines are numbered in order: not a
    // day ("24. Dezember"), nor a number a hard-wrapped line carried over.
    for (const kept of [
      'Geburtstage:\n24. Dezember – Oma\n3. März – Papa',
      'Landlord on March\n3. Bring the lease',
    ])
      assert.deepEqual(
        passages(kept)
          .flatMap((p) => listItems(kept, p))
          .map((i) => i.value),
        [kept],
      );
    assert.deepEqual(
      sentences('My score: 98.     Great.').map((i) => i.value),
      ['My score: 98.', 'Great.'],
    );
    const year = 'We met in Porto.\n2019. That was a good year.';
    assert.deepEqual(
      sentences(year).map((i) => i.value),
      ['We met in Porto.', '2019.', 'That was a good year.'],
    );
  });

  it('a title or abbreviation before a capital does not end the sentence; a real end still does', () => {
    const split = (t: string) => sentences(t).map((s) => s.value);
    assert.deepEqual(split('My dentist is Dr. Silva in Braga. She is kind.'), [
      'My dentist is Dr. Silva in Braga.',
      'She is kind.',
    ]);
    assert.deepEqual(split('I met Mr. and Mrs. Smith at St. John church.'), [
      'I met Mr. and Mrs. Smith at St. John church.',
    ]);
    assert.deepEqual(split('Prof. Lima vs. Capt. Reis'), ['Prof. Lima vs. Capt. Reis']);
    assert.deepEqual(split('My dentist is Dr. "Silva" in Braga. Ask Mr. (Bo) Reis.'), [
      'My dentist is Dr. "Silva" in Braga.',
      'Ask Mr. (Bo) Reis.',
    ]);
    // Not a title: a word that merely ends in one ("Odr."), or a line break after it.
    assert.deepEqual(split('He said no. Then he left.'), ['He said no.', 'Then he left.']);
    assert.deepEqual(split('It went to Odr. Silva took it.'), ['It went to Odr.', 'Silva took it.']);
    assert.deepEqual(split('Call Dr.\nSilva later'), ['Call Dr.', 'Silva later']);
  });

  it("other languages' titles, a name's suffix and 'e.g.' or 'i.e.' before a capital end no sentence", () => {
    const split = (t: string) => sentences(t).map((s) => s.value);
    for (const one of [
      'Notes from the call with the landlord, Sr. Álvaro Magalhães: the boiler needs a new valve.',
      'I met Sra. Costa and Dra. Lima at the clinic.',
      'Ask Srta. Reis about it.',
      'Ask Hr. Müller and Fr. Schmidt about the lease.',
      'Martin Luther King Jr. Day is a holiday.',
      'Bring something small, e.g. Apples or pears.',
      'Take the other road, i.e. The one by the river.',
    ])
      assert.deepEqual(split(one), [one], one);
    // A real end after one of them still ends the sentence where a line break follows.
    assert.deepEqual(split('Ask Sr.\nCosta later'), ['Ask Sr.', 'Costa later']);
  });

  it('"No." and "p." before a number, and a month before a day, end no sentence', () => {
    const split = (t: string) => sentences(t).map((s) => s.value);
    for (const one of [
      'I live at No. 5 Rua Augusta.',
      'The flat is no. 12 on the third floor.',
      'It is on p. 12 of the contract.',
      'The rent is due on Jan. 8 every year.',
    ])
      assert.deepEqual(split(one), [one], one);
    // "No." before a word is an answer.
    assert.deepEqual(split('He said No. Then he left.'), ['He said No.', 'Then he left.']);
  });

  it('a day written with its full stop before a month\'s name ("12. lipnja", "24. Dezember") ends no sentence', () => {
    const split = (t: string) => sentences(t).map((s) => s.value);
    for (const one of [
      // A chat with Croatian's "i" ("and") is read as lower case, and was cut at "12." too.
      'Iva i ja smo odlučili: vjenčanje je 12. lipnja u Samoboru',
      'Vjenčanje je 12. lipnja u Samoboru.',
      'Rođendan mi je 3. svibnja 2027.',
      'Am 24. Dezember fahren wir nach Wien.',
      'am 1. märz ziehen wir um',
      'Le 3. mai nous partons.',
    ])
      assert.deepEqual(split(one), [one], one);
    // Its sentence still ends after the month, and a number before any other word ends one as before.
    assert.deepEqual(split('Am 24. Dezember fahren wir nach Wien. Das wird schön.'), [
      'Am 24. Dezember fahren wir nach Wien.',
      'Das wird schön.',
    ]);
    assert.deepEqual(split('We were 12. May I come?'), ['We were 12.', 'May I come?']);
    // A month another language spells as English does, or "Mars", opens an English sentence.
    assert.deepEqual(split('My kids are 7 and 12. April is their favourite month.'), [
      'My kids are 7 and 12.',
      'April is their favourite month.',
    ]);
    assert.deepEqual(split('Final score was 21. November starts tomorrow.'), [
      'Final score was 21.',
      'November starts tomorrow.',
    ]);
    assert.deepEqual(split('Top 10. Mars is the best planet.'), ['Top 10.', 'Mars is the best planet.']);
  });

  it("a single capital's initial before a name ends no sentence; one before a sentence's first word does", () => {
    const split = (t: string) => sentences(t).map((s) => s.value);
    assert.deepEqual(split('I read J. R. R. Tolkien. He is great.'), [
      'I read J. R. R. Tolkien.',
      'He is great.',
    ]);
    assert.deepEqual(split('My neighbour is Anna K. Smith from the fourth floor.'), [
      'My neighbour is Anna K. Smith from the fourth floor.',
    ]);
    assert.deepEqual(split('I got an email from M. Costa yesterday.'), [
      'I got an email from M. Costa yesterday.',
    ]);
    // A letter that ends a sentence: a grade, a vitamin, a plan, "I".
    assert.deepEqual(split('I need more vitamin D. The doctor said so.'), [
      'I need more vitamin D.',
      'The doctor said so.',
    ]);
    assert.deepEqual(split('We went with plan B. It worked.'), ['We went with plan B.', 'It worked.']);
    assert.deepEqual(split('So do I. Mark does too.'), ['So do I.', 'Mark does too.']);
  });

  it('a title in capitals is a title too; another mix of cases is not', () => {
    const split = (t: string) => sentences(t).map((s) => s.value);
    assert.deepEqual(split('MY DENTIST IS DR. SILVA IN BRAGA. SHE IS KIND.'), [
      'MY DENTIST IS DR. SILVA IN BRAGA.',
      'SHE IS KIND.',
    ]);
    assert.deepEqual(split('Ask MRS. Reis. Then go.'), ['Ask MRS. Reis.', 'Then go.']);
    assert.deepEqual(split('It was dR. Silva took it.'), ['It was dR.', 'Silva took it.']);
  });

  it('a mark with no space after it, as in a link, ends no sentence; one before a space does', () => {
    const split = (t: string) => sentences(t).map((s) => s.value);
    assert.deepEqual(split('My list is at https://docs.example.com/d/1/edit?usp=sharing&ts=65f0'), [
      'My list is at https://docs.example.com/d/1/edit?usp=sharing&ts=65f0',
    ]);
    assert.deepEqual(split('See example.com/search?q=cats for cats. Is it good?'), [
      'See example.com/search?q=cats for cats.',
      'Is it good?',
    ]);
    assert.deepEqual(split('Wow!Great. Done'), ['Wow!Great.', 'Done']);
  });

  it('a chat all in lower case is cut at its full stops, but not after an abbreviation', () => {
    const split = (t: string) => sentences(t).map((s) => s.value);
    assert.deepEqual(split('i live in porto. its nice here. i work at globex'), [
      'i live in porto.',
      'its nice here.',
      'i work at globex',
    ]);
    // An ellipsis trails on into what it means; an abbreviation a chat writes is no sentence's end.
    assert.deepEqual(split("i'm married... to my job lol"), ["i'm married... to my job lol"]);
    assert.deepEqual(split("i'm prob. moving to denver next month. excited"), [
      "i'm prob. moving to denver next month.",
      'excited',
    ]);
    assert.deepEqual(split('we met on jan. fifth'), ['we met on jan. fifth']);
    // Short words that end a sentence as often are no abbreviations here.
    assert.deepEqual(split('i said no. we broke up'), ['i said no.', 'we broke up']);
    assert.deepEqual(split('i live in st. louis. its ok'), ['i live in st. louis.', 'its ok']);
    assert.deepEqual(split('i met mr. smith today. he is nice'), ['i met mr. smith today.', 'he is nice']);
    assert.deepEqual(split('e.g. this one. ok'), ['e.g. this one.', 'ok']);
    assert.deepEqual(split('see you at 5 p.m. tomorrow'), ['see you at 5 p.m. tomorrow']);
    // A cased text leaves a full stop before a lower-case word to the segmenter, as an abbreviation's.
    assert.deepEqual(split('It costs approx. three euros. Fine'), ['It costs approx. three euros.', 'Fine']);
    assert.deepEqual(split('I live in Lisbon. it is nice'), ['I live in Lisbon. it is nice']);
    // A line that opens in lower case, or says "i", is a chat's whatever names it capitalises.
    assert.deepEqual(split("my sister Maya lives in Madrid. she's a nurse"), [
      'my sister Maya lives in Madrid.',
      "she's a nurse",
    ]);
    assert.deepEqual(split('Went to Porto with Tom. i loved it. approx. two days'), [
      'Went to Porto with Tom.',
      'i loved it.',
      'approx. two days',
    ]);
  });

  describe('unwrapped: a paragraph hard-wrapped in a note or a mail is prose, not a line a sentence', () => {
    /** The sentences of text read as prose, each as written (its line breaks kept). */
    const prose = (text: string) => {
      const flat = unwrapped(text);
      assert.equal(flat.length, text.length);
      return sentences(flat).map((s) => text.slice(s.start, s.end));
    };
    const lines = (...xs: string[]) => xs.join('\n');

    it("a note's paragraph wrapped at 100 characters gives whole sentences, quoted with their line breaks", () => {
      const note = lines(
        '# Piranesi',
        '',
        "Finished on the train back from Graz. Honestly one of the best books I've read in years: the House with",
        'its endless halls and tides felt like a place I had been. I loved how slowly the truth comes through the',
        'journal entries. The Other is chilling. A bit slow in the first 60 pages but worth it.',
        "Would recommend to [[Ana Petrović]] — she'll like the statues.",
      );
      assert.deepEqual(prose(note), [
        '# Piranesi',
        'Finished on the train back from Graz.',
        "Honestly one of the best books I've read in years: the House with\nits endless halls and tides felt like a place I had been.",
        'I loved how slowly the truth comes through the\njournal entries.',
        'The Other is chilling.',
        'A bit slow in the first 60 pages but worth it.',
        "Would recommend to [[Ana Petrović]] — she'll like the statues.",
      ]);
      // A capital that goes on after a word no sentence ends with: a title's, a name's.
      assert.deepEqual(
        prose(
          lines(
            "Beautifully written but I found it cold and too predictable; Klara's devotion to the Sun moved me less than",
            'Never Let Me Go did. Book club was split.',
          ),
        ),
        [
          "Beautifully written but I found it cold and too predictable; Klara's devotion to the Sun moved me less than\nNever Let Me Go did.",
          'Book club was split.',
        ],
      );
      // A place's name after a preposition, in English or in the language the mail is written in.
      assert.deepEqual(
        prose(
          lines(
            'We booked a table for Friday at the little Italian restaurant near',
            'Praça da Liberdade, so please be there by eight.',
            'Jantamos na sexta-feira às 20h no restaurante que fica perto da',
            'Sé de Braga, mesmo ao lado da pastelaria.',
          ),
        ),
        [
          'We booked a table for Friday at the little Italian restaurant near\nPraça da Liberdade, so please be there by eight.',
          'Jantamos na sexta-feira às 20h no restaurante que fica perto da\nSé de Braga, mesmo ao lado da pastelaria.',
        ],
      );
    });

    it("a mail's body wrapped at 72 is prose; its headers, greeting, quotation and signature stay lines", () => {
      const mail = lines(
        'Subject: Heating maintenance on 3 December for the whole building',
        'From: Thomas Gruber <office@gruber-immobilien.at>',
        '',
        'Dear Ms Lindqvist,',
        '',
        'the technician will come on 3 December between 8:00 and 12:00 to service',
        'the boiler in your flat; please make sure someone is at home to let him',
        'in. The rent indexation for 2027 follows in a separate letter.',
        '',
        'On Tue, 3 Nov 2026 at 15:00, Maya Lindqvist <maya@example.at> wrote:',
        '> Could the technician come in the afternoon instead of the morning, as',
        '> I am at the office until noon on most days that week?',
        '',
        'Best regards and thank you for your patience with the old boiler',
        'Thomas Gruber',
        'Gruber Immobilien',
      );
      assert.deepEqual(prose(mail), [
        'Subject: Heating maintenance on 3 December for the whole building',
        'From: Thomas Gruber <office@gruber-immobilien.at>',
        'Dear Ms Lindqvist,',
        'the technician will come on 3 December between 8:00 and 12:00 to service\nthe boiler in your flat; please make sure someone is at home to let him\nin.',
        'The rent indexation for 2027 follows in a separate letter.',
        'On Tue, 3 Nov 2026 at 15:00, Maya Lindqvist <maya@example.at> wrote:',
        '> Could the technician come in the afternoon instead of the morning, as',
        '> I am at the office until noon on most days that week?',
        'Best regards and thank you for your patience with the old boiler',
        'Thomas Gruber',
        'Gruber Immobilien',
      ]);
      // CRLF line ends wrap as LF ones do.
      const crlf =
        'We will send the signed lease back to you by post on Monday morning, together\r\nwith the deposit.';
      assert.deepEqual(prose(crlf), [crlf]);
    });

    it('lists, checklists, headings, tables, properties, chats, code and short lines stay one a line', () => {
      const kept = [
        // A list of lines without stops, long or short.
        lines(
          '- Book the flights to Lisbon before the prices go up again in the autumn',
          '- Ask Inês whether her parents still want the Manner wafers from Vienna',
          '1. Call the bank about the mortgage and the new standing order for rent',
          '2. Cancel the FitInn membership before the next yearly fee is charged',
        ),
        lines(
          '- [ ] Migration dry run #2 with Priya, the week of 7 December, overnight',
          '- [x] Schema freeze for the invoice tables, signed off by Jonas and Priya',
        ),
        lines(
          '## Milestones for the Atlas launch at Fernwerk and the data migration',
          'Schema freeze first.',
        ),
        lines('| Race | Time | Place | Notes about the weather and the wind that day |', '| Laser | 10:00 |'),
        lines(
          'author: Susanna Clarke, rating five of five, finished on the train home',
          'finished: 2026-07-21',
          'Deadline: 15 January 2027 (moved again after the security review and',
          'the two blockers it found)',
        ),
        lines(
          '[21/11/2026, 09:10] Inês Carvalho: I will pick you up at the airport then, on',
          '[21/11/2026, 09:11] Inês Carvalho: the Saturday, no problem at all',
        ),
        lines(
          '```',
          'const greeting = "hello there, this is a long line of code without a stop"',
          'print(greeting)',
          '```',
        ),
        // A thought a line, as a daily note keeps them: short of any wrap.
        lines(
          'Went climbing with Ana in the morning',
          'lunch at Figlmüller with Lena and Jonas',
          'Started reading Piranesi',
        ),
        // A line that ends a sentence, or a Markdown hard break.
        lines(
          'We booked the Hotel Motto for the long weekend in Vienna in December.',
          'then we cancelled it',
        ),
        lines(
          'We booked the Hotel Motto for the long weekend in Vienna in December  ',
          'then we cancelled it',
        ),
        // A capital after a word a sentence may end with opens a line of its own.
        lines('Thanks for the update on the project timeline and the revised budget', 'Ana'),
        // A line the next word would have fitted on was broken where it was meant to be.
        lines(
          'Things I want to do when we visit Lisbon at Christmas this year',
          'eat pastéis de nata at Belém, walk up to the castle, and take the tram to the sea at Cascais',
        ),
      ];
      for (const text of kept) assert.equal(unwrapped(text), text, text);
    });

    it("a list item's own words wrapped onto an indented line are the item's", () => {
      assert.deepEqual(
        prose(
          lines(
            '- Book the flights to Lisbon before the prices go up again, Inês says the',
            '  week before Christmas fills fast',
            '- Manner wafers',
          ),
        ),
        [
          'Book the flights to Lisbon before the prices go up again, Inês says the\n  week before Christmas fills fast',
          'Manner wafers',
        ],
      );
    });

    it('only line breaks become spaces, and only where the lines go on', () => {
      fc.assert(
        fc.property(texts, (text) => {
          const flat = unwrapped(text);
          assert.equal(flat.length, text.length);
          for (let i = 0; i < text.length; i++)
            if (flat[i] !== text[i]) assert.ok(/[\r\n]/u.test(text[i]!) && flat[i] === ' ');
        }),
      );
    });
  });

  // The bound tells a hang from a pass (joining by string concatenation took 100 s here).
  it('a chain of titles as long as a Record may be is joined in linear time', { timeout: 10_000 }, () => {
    assert.equal(sentences('Dr. '.repeat(100_000)).length, 1);
  });
});
