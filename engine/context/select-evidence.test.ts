import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Dropped, EvidencePassage } from '../core/context/evidence.ts';
import {
  bestPassage,
  densestHits,
  quoteChars,
  quotedFromWhoSaidIt,
  withoutBystanders,
} from './select-evidence.ts';
import { evidencePassage } from '../core/context/testing/evidence-passage.ts';

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Line ${i} about ${topic} goes on for a while here.`).join(' ');

/** Both forms must be exact substrings, the narrow one inside the wide one. */
function quoteOf(text: string, terms: string[]) {
  const q = bestPassage(text, terms);
  assert.ok(text.includes(q.wide) && q.wide.includes(q.core), JSON.stringify(q));
  return q;
}

describe('bestPassage', () => {
  it('a short note: its best paragraph, and the whole note when there is room', () => {
    const note =
      '# Japan trip\n\nFlights booked with ANA, leaving 14 April.\n\nHotel in Kyoto: Ryokan Yachiyo.\n';
    assert.deepEqual(quoteOf(note, ['hotel']), {
      core: 'Hotel in Kyoto: Ryokan Yachiyo.',
      wide: note.trim(),
    });
    // The heading matches as well as the flights do; alone it would say nothing.
    assert.deepEqual(
      quoteOf(note, ['flight', 'japan']).core,
      '# Japan trip\n\nFlights booked with ANA, leaving 14 April.',
    );
    assert.deepEqual(quoteOf(`  ${note}`, ['nothing']).wide, note.trim());
  });

  it('headings, one or several, give way to what is under them; without the heading when both do not fit', () => {
    const under = 'Flights leave on 14 April.';
    assert.equal(
      quoteOf(`# Japan trip\n## Flights\n\n${under}`, ['japan']).core,
      `# Japan trip\n## Flights\n\n${under}`,
    );
    assert.equal(
      quoteOf(`# Japan trip\n\n## Flights\n\n${under}`, ['japan', 'flight']).core,
      `# Japan trip\n\n## Flights\n\n${under}`,
    );
    const long = `Flights ${filler('flights', 20)}`.slice(0, quoteChars - 5).trimEnd();
    assert.equal(quoteOf(`# Japan trip\n\n${long}\n\n${filler('x', 30)}`, ['japan']).core, long);
  });

  it('an outline (headings longer than a quote): the matching heading, not a later one or far text', () => {
    const chapters = Array.from({ length: 40 }, (_, i) => `## Chapter ${i} of the long outline`);
    const outline = ['# Japan trip', ...chapters].join('\n\n');
    assert.equal(quoteOf(outline, ['japan']).core, '# Japan trip');
    assert.equal(quoteOf(`${outline}\n\nFlights leave on 14 April.`, ['japan']).core, '# Japan trip');
    assert.match(quoteOf(`${filler('x', 150)}\n\n${outline}`, ['japan']).wide, /# Japan trip/);
  });

  it('a long text with nothing where its words would be: its first passage, not the whole text', () => {
    const text = `${' '.repeat(3000)}${filler('opening', 3)}\n\n${filler('rest', 120)}`;
    assert.ok(text.length > 6000);
    assert.deepEqual(quoteOf(text, ['absent']), { core: filler('opening', 3), wide: filler('opening', 3) });
  });

  it('in a long text: the best paragraph, widened by the heading above it, not by the rest', () => {
    const text = [
      '# Garden',
      filler('roses', 8),
      '# Travel',
      'Flights to Lisbon leave on 3 May from gate 12.',
      filler('budgets', 8),
    ].join('\n\n');
    assert.ok(text.length > quoteChars);
    assert.deepEqual(quoteOf(text, ['flights', 'lisbon']), {
      core: 'Flights to Lisbon leave on 3 May from gate 12.',
      wide: '# Travel\n\nFlights to Lisbon leave on 3 May from gate 12.',
    });
  });

  it('widens to a neighbouring paragraph that shares words the best one lacks, within the size', () => {
    const text = [
      filler('roses', 8),
      'The hotel is Ryokan Yachiyo in Kyoto.',
      'Breakfast there is served at seven.',
      filler('budgets', 8),
    ].join('\n\n');
    assert.ok(text.length > quoteChars);
    assert.deepEqual(quoteOf(text, ['hotel', 'kyoto', 'breakfast']), {
      core: 'The hotel is Ryokan Yachiyo in Kyoto.',
      wide: 'The hotel is Ryokan Yachiyo in Kyoto.\n\nBreakfast there is served at seven.',
    });
    // A neighbour that adds no query word stays out.
    assert.equal(quoteOf(text, ['hotel', 'kyoto']).wide, 'The hotel is Ryokan Yachiyo in Kyoto.');
  });

  it('never grows past the quote size', () => {
    const text = ['Kyoto hotel booked.', `Breakfast at seven. ${filler('roses', 20)}`].join('\n\n');
    assert.ok(text.length > quoteChars);
    assert.equal(quoteOf(text, ['kyoto', 'hotel', 'breakfast']).wide, 'Kyoto hotel booked.');
  });

  it('in a very long text, looks where the query words gather, not at their first occurrence', () => {
    const answer =
      '**Database key (desktop).** 32 random bytes, stored in the db-key file, encrypted by safeStorage.';
    const terms = ['database', 'key', 'stored', 'desktop'];
    const text = [
      '# The desktop app and its database',
      filler('windows', 60),
      'The key of the API is shown once.',
      filler('menus', 60),
      answer,
      filler('packaging', 60),
    ].join('\n\n');
    assert.ok(text.length > 8 * quoteChars); // past the 6,000 characters below which texts are segmented whole
    assert.equal(densestHits(text, terms), text.indexOf(answer) + 2);
    assert.equal(quoteOf(text, terms).core, answer);
    assert.equal(densestHits(text, ['nowhere']), 0);
    // "İ" lower-cases to two code units: the offset is still the original text's.
    assert.equal(densestHits(`${'İ'.repeat(7000)} Key`, ['key']), 7001);
    // Only at a word start, as matchedTerms matches: "monkey" is not "key".
    assert.equal(
      densestHits(`a monkey ${filler('x', 3)} key`, ['key']),
      `a monkey ${filler('x', 3)} `.length,
    );
  });

  it('finds the passage by the folded word, and quotes it as written', () => {
    const note = 'Wir treffen uns am Bahnhof.\n\nDie Praxis ist in der Hauptstraße 5, über der Bäckerei.\n';
    assert.equal(
      quoteOf(note, ['hauptstrasse']).core,
      'Die Praxis ist in der Hauptstraße 5, über der Bäckerei.',
    );
    assert.equal(
      quoteOf(note, ['uber', 'backerei']).core,
      'Die Praxis ist in der Hauptstraße 5, über der Bäckerei.',
    );
    // In a long text the offset is the written text's, though "ß" folds to two letters before it.
    const long = `${'Straße und Maß. '.repeat(600)}\n\nDer Schlüssel liegt unter der Matte.`;
    assert.equal(densestHits(long, ['schlussel']), long.indexOf('Schlüssel'));
  });

  it('CRLF line ends: quotes stay exact', () => {
    const note = '# Japan trip\r\n\r\nFlights leave on 14 April.\r\n\r\nHotel in Kyoto.\r\n';
    assert.deepEqual(quoteOf(note, ['hotel']), { core: 'Hotel in Kyoto.', wide: note.trim() });
  });

  it('words no longer so are left out of both quotes, and no quote reaches across them', () => {
    const text = 'I live in Braga with my two cats. My dentist is Carla Silva. Her clinic is by the river.';
    const gone = ['My dentist is Carla Silva.'];
    const said = { gone, held: ['I live in Braga with my two cats.', 'Her clinic is by the river.'] };
    const q = bestPassage(text, ['dentist', 'clinic'], said);
    assert.ok(text.includes(q.wide) && q.wide.includes(q.core), JSON.stringify(q));
    assert.ok(!q.core.includes('Carla') && !q.wide.includes('Carla'), JSON.stringify(q));
    assert.equal(q.core, 'Her clinic is by the river.');
    // Without such words, the whole short note is the wide quote, as before.
    assert.equal(bestPassage(text, ['dentist']).wide, text);
    // Every occurrence is left out.
    const twice = `${gone[0]} I like tea. ${gone[0]}`;
    assert.equal(bestPassage(twice, ['dentist'], { gone, held: ['I like tea.'] }).wide, 'I like tea.');
    // Nothing else near the query's words: the words of a Memory still served, which keep the Record.
    assert.deepEqual(bestPassage(`${gone[0]}\n\nTea.`, ['dentist'], { gone, held: ['Tea.'] }), {
      core: 'Tea.',
      wide: 'Tea.',
    });
  });

  it('words that still hold within words no longer so are quoted without the rest', () => {
    const text = "I'm a nurse at Santa Maria.";
    const said = { gone: [text], held: ["I'm a nurse"] };
    assert.deepEqual(bestPassage(text, ['work'], said), { core: "I'm a nurse", wide: "I'm a nurse" });
    // Words no longer so within words that hold keep them: the holding words are the quote.
    const boss = 'My boss says "I work at Acme."';
    const kept = bestPassage(boss, ['boss'], { gone: ['I work at Acme.'], held: [boss] });
    assert.equal(kept.wide, boss);
  });

  it("someone else's words in a reply are quoted with the line that says whose they are", () => {
    const reply =
      'Sounds good, see you then.\n\nOn Mon, 4 Mar 2024 at 10:02, Carol Diaz <carol@x> wrote:\n\n' +
      "> Hi Ana,\n>\n> I'm allergic to peanuts, so no satay please.";
    assert.equal(quoteOf(reply, ['allergic', 'peanuts']).core, reply.slice(reply.indexOf('On Mon')));
    const outlook =
      'Noted about the dinner.\n\n-----Original Message-----\nFrom: Carol\nSent: Monday\n\n' +
      "I'm allergic to peanuts, so no satay please.";
    assert.equal(quoteOf(outlook, ['allergic']).core, outlook.slice(outlook.indexOf('From: Carol')));
    // As many words in the speaker's own reply: that is the quote.
    assert.equal(quoteOf(outlook, ['dinner', 'satay']).core, 'Noted about the dinner.');
    // Further up than a quote is long, the attribution is left out; the quoted line's "> " opens it.
    const long = `Yes.\n\nOn Mon, Carol <carol@x> wrote:\n${'> Plans go on.\n'.repeat(70)}> I'm allergic to peanuts.`;
    assert.match(quoteOf(long, ['allergic']).core, /^> (?:Plans go on\.\n> )*I'm allergic to peanuts\.$/u);
    const wrapped = `Yes.\n\nOn Mon, Carol <carol@x> wrote:\n> ${'Plans go on. '.repeat(70)}I'm allergic to peanuts.`;
    assert.match(quoteOf(wrapped, ['allergic']).core, /^(?:Plans go on\. )*I'm allergic to peanuts\.$/u);
  });

  it('a quote opened at its attribution line widens only within the quote size', () => {
    const attribution = 'On Mon, 4 Mar 2024 at 10:02, Carol Diaz <carol.diaz@example.org> wrote:';
    const quoted = `${'> Plans for the dinner go on as before.\n'.repeat(17)}> I'm allergic to peanuts.`;
    const reply = `Yes, I will bring the dessert.\n\n${attribution}\n\n${quoted}\n\nAlso the satay sauce is off.`;
    const q = quoteOf(reply, ['allergic', 'peanuts', 'sauce']);
    assert.ok(q.core.startsWith(attribution));
    // Widened by the sauce paragraph it would be over the size: the core is the wide form too.
    assert.ok(q.wide.length <= quoteChars, `${q.wide.length}`);
    assert.equal(q.wide, q.core);
  });

  it('words no longer so that are part of words still held stay in the quote', () => {
    const text = 'I work at Acme. My boss tells everyone "I work at Acme." as a joke about my dentist.';
    const held = 'My boss tells everyone "I work at Acme." as a joke about my dentist.';
    const q = bestPassage(text, ['boss', 'dentist'], { gone: ['I work at Acme.'], held: [held] });
    assert.equal(q.core, held);
    assert.equal(q.wide, held);
  });

  it('a query word in fewer passages weighs more: the line holding the rarer word is the quote', () => {
    const plan = [
      '# Atlas launch plan',
      'Atlas = the new customer portal at Fernwerk. I own the data migration.',
      '**Deadline: 3 February 2027** (moved again).',
      '## Milestones\n- [x] Schema freeze\n- [ ] Load test',
    ].join('\n\n');
    // "atlas" is in the title and the line under it; "deadline" in one line only.
    assert.equal(
      quoteOf(plan, ['current', 'atlas', 'deadline']).core,
      '**Deadline: 3 February 2027** (moved again).',
    );
    // A passage holding every word another holds, and more, still wins.
    const both = `${plan}\n\nAtlas deadline history: 30 October, 20 November, 15 January.`;
    assert.equal(
      quoteOf(both, ['atlas', 'deadline']).core,
      'Atlas deadline history: 30 October, 20 November, 15 January.',
    );
  });

  it('meeting no query word, a checklist with tasks done since is quoted where what still holds is', () => {
    const text =
      'Errands\n- [ ] renew passport\n- [ ] send Priya the doc\n- [ ] call the plumber\n- [x] book flights';
    const said = {
      gone: ['renew passport', 'send Priya the doc'],
      held: ['Errands', 'call the plumber', 'book flights'],
    };
    const q = bestPassage(text, ['still', 'list'], said);
    assert.ok(q.core.includes('call the plumber') && q.core.includes('book flights'), q.core);
    assert.ok(!q.wide.includes('renew passport'), q.wide);
    // A query word met still chooses the passage that meets it.
    assert.ok(bestPassage(text, ['errands'], said).core.startsWith('Errands'));
  });
});

describe('bestPassage of a message', () => {
  const header = 'Subject: Re: Rent from February\nFrom: Ivo Maric <ivo@x>\nTo: Petar Horvat <petar@x>';
  const attribution = 'On Tue, 4 Nov 2026 at 09:12, Petar Horvat <petar@x> wrote:';
  const landlord = 'as announced, we will raise the rent from 650 EUR to 720 EUR per month from February.';
  const own = 'That is more than I can pay. Could we agree on 700 EUR?';
  const reply = `${header}\n\nHi Petar,\n\n${own}\n\n${attribution}\n> Dear Ivo,\n>\n> ${landlord}\n`;

  /** Both forms exact substrings, the narrow one inside the wide one. */
  function mailQuote(text: string, terms: string[], ownOnly = false) {
    const q = bestPassage(text, terms, undefined, ownOnly ? { ownOnly } : {});
    assert.ok(text.includes(q.wide) && q.wide.includes(q.core), JSON.stringify(q));
    return q;
  }

  it('its own words with a tie, widened over its own words only: not the header lines, not the mail it quotes', () => {
    assert.deepEqual(mailQuote(reply, ['pay', 'rent']), {
      core: own,
      wide: `Hi Petar,\n\n${own}`,
      quoted: false,
    });
    // Only the subject holds the words: the speaker's own words, not the header lines nor a greeting.
    assert.deepEqual(mailQuote(reply, ['subject']), {
      core: own,
      wide: `Hi Petar,\n\n${own}`,
      quoted: false,
    });
  });

  it("someone else's words it quotes, when only they hold the query's words: that quote alone, from whose they are", () => {
    const whole = `${attribution}\n> Dear Ivo,\n>\n> ${landlord}`;
    assert.deepEqual(mailQuote(reply, ['rent', 'february']), { core: whole, wide: whole, quoted: true });
    // Its own words only, asked for: they are the quote though they hold none of the query's words.
    assert.deepEqual(mailQuote(reply, ['rent', 'february'], true), {
      core: own,
      wide: `Hi Petar,\n\n${own}`,
      quoted: false,
    });
  });

  it('an attribution line right under the reply, no blank line between, still parts the two', () => {
    const tight = `${header}\n\n${own}\n${attribution}\n> ${landlord}`;
    assert.deepEqual(mailQuote(tight, ['pay']), { core: own, wide: own, quoted: false });
    const theirs = `${attribution}\n> ${landlord}`;
    assert.deepEqual(mailQuote(tight, ['rent']), { core: theirs, wide: theirs, quoted: true });
  });

  it('a message of header lines alone, or of quoted words alone, is quoted by what it has', () => {
    const bare = 'Subject: Rent\nFrom: Ivo Maric <ivo@x>\nTo: Petar Horvat <petar@x>';
    assert.equal(mailQuote(bare, ['rent']).core, bare);
    const forward = `${header}\n\n${attribution}\n> ${landlord}`;
    assert.equal(mailQuote(forward, ['rent'], true).quoted, true);
  });

  it('a greeting or a sign-off is never the quote while another passage holds a query word, and gives way on none', () => {
    const head = 'Subject: Re: Atlas: launch date\nFrom: Jonas Berger <jonas@x>\nTo: Atlas team <atlas@x>';
    const deadline = 'New deadline: 3 February 2027.';
    const greeted = `${head}\n\nDear Atlas team,\n\n${deadline}\n\nJonas`;
    assert.equal(mailQuote(greeted, ['current', 'atlas', 'deadline']).core, deadline);
    // Alone in holding a query word, the greeting is still the quote.
    assert.equal(mailQuote(greeted, ['atlas']).core, 'Dear Atlas team,');
    // No query word anywhere (a German mail for an English question): the first passage that says something.
    const practice = [
      'Subject: Terminverschiebung\nFrom: Zahnarztpraxis Dr. Novak <o@x>\nTo: Maya <m@x>',
      'Sehr geehrte Frau Lindqvist,',
      'leider müssen wir Ihren Termin verschieben. Ihr neuer Termin: Donnerstag, 21. Jänner 2027, 11:00 Uhr.',
      'Mit freundlichen Grüßen\nIhr Praxisteam Dr. Novak',
    ].join('\n\n');
    assert.match(mailQuote(practice, ['next', 'dentist', 'appointment']).core, /^leider müssen wir/u);
    // Its own words only, the query's word only in the mail it quotes: not "Team,".
    const team = `${head}\n\nTeam,\n\nafter today's sync: launch moves to 20 November.\n\nJonas\n\nOn Tue, Jonas Berger <jonas@x> wrote:\n> Atlas goes live on 30 October.`;
    assert.equal(
      mailQuote(team, ['current', 'atlas', 'deadline'], true).core,
      "after today's sync: launch moves to 20 November.",
    );
    // The flight's new time, not the line saying it changed: "flight" is in two passages, "lisbon" in one.
    const change = [
      'Subject: Schedule change\nFrom: Austrian Airlines <info@x>\nTo: Maya <m@x>',
      'Dear Ms Maya Lindqvist,',
      'unfortunately we had to change your flight.',
      'NEW outbound: OS 371, Saturday 19 December 2026, Vienna (VIE) 13:20 – Lisbon (LIS) 15:55',
      'Your return flight OS 372 on 2 January 2027 is unchanged.',
    ].join('\n\n');
    assert.match(mailQuote(change, ['flight', 'lisbon']).core, /^NEW outbound: OS 371/u);
  });

  it('a chat message without quotes is quoted as any text', () => {
    const chat = 'Hi!\n\nThe rent goes up in February.';
    assert.deepEqual(mailQuote(chat, ['rent']), {
      core: 'The rent goes up in February.',
      wide: chat,
      quoted: false,
    });
    // The same words in a note are no quote of anyone's: its blockquote is the note's own.
    assert.deepEqual(bestPassage(`Rent notes\n\n> ${landlord}`, ['rent', 'february']).quoted, undefined);
  });
});

describe('quotedFromWhoSaidIt', () => {
  const landlord =
    'Subject: Rent\nFrom: Petar Horvat <petar@x>\nTo: Ivo Maric <ivo@x>\n\nDear Ivo,\n\nWe will raise the rent ' +
    'for the flat\nfrom 650 EUR to 720 EUR per month from February.\n\nKind regards,\nPetar';
  const outlook =
    'Subject: RE: Rent\nFrom: Ivo Maric <ivo@x>\nTo: Petar Horvat <petar@x>\n\nCould we agree on 700 EUR?\n\n' +
    '-----Original Message-----\nFrom: Petar Horvat\nSent: Tuesday, 4 November 2026 09:12\nSubject: Rent\n\n' +
    'We will raise the rent for the flat from 650 EUR to 720 EUR per month from February.';
  const terms = ['rent', 'february'];

  /** The evidence as selectEvidence builds it, then the quotes after quotedFromWhoSaidIt. */
  function quotesAfter(texts: Record<string, string>) {
    const evidence = Object.entries(texts).map(([id, text]) => {
      const q = bestPassage(text, terms, undefined, {});
      return evidencePassage(id, { passage: q.core, wide: q.wide, ...(q.quoted ? { quoted: true } : {}) });
    });
    quotedFromWhoSaidIt(evidence, new Map(Object.entries(texts)), terms, new Map());
    return Object.fromEntries(
      evidence.map((e) => [e.recordId, { quote: e.passage, quoted: e.quoted ?? false }]),
    );
  }

  it('a reply quoting a mail among the evidence is quoted by its own words, however the lines were wrapped', () => {
    assert.deepEqual(quotesAfter({ reply: outlook, original: landlord }).reply, {
      quote: 'Could we agree on 700 EUR?',
      quoted: false,
    });
  });

  it('quoted words no other Record says as its own stay the quote, marked', () => {
    const alone = quotesAfter({ reply: outlook });
    assert.equal(alone.reply!.quoted, true);
    assert.match(alone.reply!.quote, /^From: Petar Horvat\nSent: /u);
    // Another reply quoting the same words does not say them.
    const quoting = `Subject: Re: Rent\n${'From: Ana <ana@x>\nTo: Ivo <ivo@x>'}\n\nOk.\n\nOn Tue, Petar wrote:\n> We will raise the rent for the flat from 650 EUR to 720 EUR per month from February.`;
    assert.equal(quotesAfter({ reply: outlook, other: quoting }).reply!.quoted, true);
  });
});

describe('withoutBystanders', () => {
  const message = (recordId: string, lanes: string[], speaker = 'user'): EvidencePassage =>
    evidencePassage(recordId, {
      passage: '',
      wide: '',
      speaker,
      thread: 'chat',
      occurredAt: '2024-05-10T08:00:00Z',
      lanes,
    });
  const kept = (
    texts: Record<string, string>,
    lanes: Record<string, string[]>,
    terms: string[],
    speakers: Record<string, string> = {},
    unsettled: string[] = [],
  ) => {
    const dropped: Dropped[] = [];
    const evidence = Object.keys(texts).map((id) => message(id, lanes[id]!, speakers[id]));
    const out = withoutBystanders(
      evidence,
      new Map(Object.entries(texts)),
      terms,
      dropped,
      new Set(unsettled),
    );
    return { kept: out.map((e) => e.recordId), dropped: dropped.map((d) => d.recordId) };
  };

  it('a statement saying every word of the query leaves out what only stood next to it', () => {
    const texts = {
      colour: 'My favourite colour is green.',
      nurse: 'I work as a nurse at the hospital.',
      asked: 'Noted! What do you do for work?',
      cat: 'We had a grey cat called Pepper.',
      paint: 'Which colour should the wall be?',
    };
    const lanes = {
      colour: ['lexical', 'entity', 'semantic'],
      nurse: ['lexical', 'entity'],
      asked: ['lexical', 'prompt'],
      cat: ['semantic', 'prompt'],
      paint: ['lexical'],
    };
    assert.deepEqual(kept(texts, lanes, ['favourite', 'colour']), {
      // What resembles it is found by what it says; a word of the query in a question is its own word.
      kept: ['colour', 'cat', 'paint'],
      dropped: ['nurse', 'asked'],
    });
  });

  it('words said only in a question leave its reply in: the reply is the answer', () => {
    const texts = {
      question: 'Where did you go on holiday last summer?',
      reply: 'Lisbon, with my sister.',
    };
    const lanes = { question: ['lexical'], reply: ['lexical', 'prompt'] };
    const terms = ['go', 'holiday', 'last', 'summer'];
    assert.deepEqual(kept(texts, lanes, terms), { kept: ['question', 'reply'], dropped: [] });
    // Nor does a statement holding only some of the words.
    const partial = { ...texts, question: 'I love a summer holiday.' };
    assert.deepEqual(kept(partial, lanes, terms), { kept: ['question', 'reply'], dropped: [] });
  });

  it('a query naming a speaker keeps every message of theirs: their answers are in their own words', () => {
    const texts = {
      drives: 'Long drives really help me relax.',
      nature: 'Embracing nature has been really calming for me too.',
      vinyl: 'Cool, Calvin! I listen to vinyl to relax.',
    };
    const lanes = { drives: ['lexical', 'entity'], nature: ['lexical', 'entity'], vinyl: ['lexical'] };
    const speakers = { drives: 'Calvin', nature: 'Calvin', vinyl: 'Dave' };
    assert.deepEqual(kept(texts, lanes, ['calvin', 'relax'], speakers), {
      kept: ['drives', 'nature', 'vinyl'],
      dropped: [],
    });
    // The same messages asked about without the name: the statement answers, its neighbour does not.
    assert.deepEqual(kept(texts, lanes, ['relax'], speakers), {
      kept: ['drives', 'vinyl'],
      dropped: ['nature'],
    });
  });

  it('a statement saying something no longer so answers nothing alone: the mend beside it stays', () => {
    const texts = { slip: "My partner Priya's birthday is March 4.", mend: "wait no, it's March 14" };
    const lanes = { slip: ['lexical', 'slot'], mend: ['lexical', 'prompt'] };
    const terms = ['partner', 'birthday'];
    assert.deepEqual(kept(texts, lanes, terms, {}, ['slip']), { kept: ['slip', 'mend'], dropped: [] });
    assert.deepEqual(kept(texts, lanes, terms), { kept: ['slip'], dropped: ['mend'] });
  });
});
