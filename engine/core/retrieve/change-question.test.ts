import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  asksChanges,
  changeSpan,
  changeTopicTerms,
  changesLookBackMs,
  topicMet,
  type ChangeTopic,
} from './change-question.ts';
import { queryTerms } from './query-terms.ts';
import { timeIntent } from './time-expressions.ts';

const now = Date.UTC(2026, 11, 5, 17); // Saturday 5 December 2026
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('a question asking what changed', () => {
  it('is told from one asking about a new thing, a cause or a life', () => {
    for (const q of [
      'What changed this week?',
      "What's changed since Monday?",
      'What has changed lately?',
      "What's new with Marko?",
      'What is different this week?',
      'Has anything changed in November?',
      'Did anything change?',
      'Anything new?',
      'Any updates this week?',
      'What was updated in November?',
      'What changes were made to the trip?',
      'Changes since Monday?',
      'What did I change last week?',
      'What changed about my dentist?',
    ])
      assert.ok(asksChanges(q), q);
    for (const q of [
      'What new activity has Tim started learning in August 2023?',
      'What are the new shoes that Melanie got used for?',
      'What changed her mind?',
      'What are some changes Caroline has faced during her transition journey?',
      'When did Caroline join a new activist group?',
      'Where do I live?',
      'How was John’s experience in New York City?',
    ])
      assert.ok(!asksChanges(q), q);
  });

  /** Per language: questions asking what changed, then ones that only hold a change word. */
  const said: Record<string, [asks: string[], not: string[]]> = {
    hr: [
      [
        'Što se promijenilo ovaj tjedan?',
        'Sto se ovaj tjedan promijenilo?',
        'Što je novo s Markom?',
        'Ima li što novo od ponedjeljka?',
        'Je li se nešto promijenilo?',
        'Ima li novosti?',
        'Što je promijenjeno u studenom?',
        'Što sam promijenila prošli tjedan?',
      ],
      [
        'Što je promijenilo njezino mišljenje?',
        'Koje je promjene Ana doživjela tijekom tranzicije?',
        'Koji je novi hobi Tim započeo?',
        'Kada se Ana pridružila novoj grupi?',
        'Gdje živim?',
      ],
    ],
    pt: [
      [
        'O que mudou esta semana?',
        'O que há de novo com o Marko?',
        'Alguma novidade desde segunda?',
        'O que foi alterado no mês passado?',
        'Houve alguma mudança?',
        'Mudou alguma coisa desde 3 de dezembro?',
        'O que é que eu mudei ontem?',
      ],
      [
        'O que mudou a opinião dela?',
        'Quais são algumas mudanças que a Caroline enfrentou?',
        'Que nova atividade o Tim começou?',
        'Onde moro?',
      ],
    ],
    de: [
      [
        'Was hat sich diese Woche geändert?',
        'Was gibt es Neues bei Marko?',
        'Gibt es Neuigkeiten seit Montag?',
        'Was wurde im November geändert?',
        'Was ist neu?',
        'Hat sich etwas geändert?',
        'Was habe ich letzte Woche geändert?',
      ],
      [
        'Was hat ihre Meinung geändert?',
        'Welche Veränderungen hat Caroline erlebt?',
        'Welche neue Aktivität hat Tim begonnen?',
        'Was ist das neue Auto von Tim?',
        'Wo wohne ich?',
      ],
    ],
  };
  for (const [language, [asks, not]] of Object.entries(said))
    it(`in ${language}, is told from one that only holds a change word`, () => {
      for (const q of asks) assert.ok(asksChanges(q), q);
      for (const q of not) assert.ok(!asksChanges(q), q);
    });

  it('reads the span the question names, up to the read time', () => {
    const span = (q: string, readMs = now) => {
      const s = changeSpan(q, timeIntent(q, readMs), readMs);
      return s === null ? null : [day(s.fromMs), day(s.toMs - 1), s.label];
    };
    // The calendar week, from its Monday (time-expressions.ts), up to the read time.
    assert.deepEqual(span('What changed this week?'), ['2026-11-30', '2026-12-05', 'this week']);
    assert.deepEqual(span('What has changed since Monday?'), ['2026-11-30', '2026-12-05', 'since monday']);
    assert.deepEqual(span('What was updated in November?'), ['2026-11-01', '2026-11-30', 'in november']);
    // "since" a day: every day after it too.
    assert.deepEqual(span('What changed since 3 December?'), [
      '2026-12-03',
      '2026-12-05',
      'since 3 december',
    ]);
    // No time, or only "lately": the month before.
    const none = changeSpan("What's new?", null, now)!;
    assert.equal(none.toMs - none.fromMs, changesLookBackMs);
    assert.equal(none.toMs, now + 1);
    assert.deepEqual(span('Anything new lately?')?.slice(2), ['in the last 31 days']);
    // Read at as_of: nothing after it.
    const asOf = Date.UTC(2026, 11, 1, 12);
    assert.deepEqual(span('What changed this week?', asOf), ['2026-11-30', '2026-12-01', 'this week']);
    // A time still to come, or no change asked for: none.
    assert.equal(span('What changes next week?'), null);
    assert.equal(span('Where did I live this week?'), null);
    // In the other languages, by their own time words, labelled as said; "since" as they say it.
    assert.deepEqual(span('Što se promijenilo ovaj tjedan?'), ['2026-11-30', '2026-12-05', 'ovaj tjedan']);
    assert.deepEqual(span('Ima li što novo od ponedjeljka?'), ['2026-11-30', '2026-12-05', 'od ponedjeljka']);
    assert.deepEqual(span('Što je promijenjeno u studenom?'), ['2026-11-01', '2026-11-30', 'u studenom']);
    assert.deepEqual(span('O que mudou esta semana?'), ['2026-11-30', '2026-12-05', 'esta semana']);
    assert.deepEqual(span('Alguma novidade desde segunda?'), ['2026-11-30', '2026-12-05', 'desde segunda']);
    assert.deepEqual(span('Mudou alguma coisa desde 3 de dezembro?'), [
      '2026-12-03',
      '2026-12-05',
      'desde 3 de dezembro',
    ]);
    assert.deepEqual(span('Was hat sich diese Woche geändert?'), ['2026-11-30', '2026-12-05', 'diese woche']);
    assert.deepEqual(span('Gibt es Neuigkeiten seit Montag?'), ['2026-11-30', '2026-12-05', 'seit montag']);
    assert.deepEqual(span('O que há de novo com o Marko?')?.slice(2), ['in the last 31 days']);
    // "od" with a name is "from", no since: November stays November.
    assert.deepEqual(span('Što je novo od Marka u studenom?'), ['2026-11-01', '2026-11-30', 'u studenom']);
    assert.equal(span('Što se promijenilo sljedeći tjedan?'), null);
  });

  it('keeps the words naming what it asks about', () => {
    const topic = (q: string, self: string | null = 'Lea Horvat') =>
      changeTopicTerms(queryTerms(q), timeIntent(q, now)?.timeWords ?? [], self);
    assert.deepEqual(topic('What changed this week?'), []);
    assert.deepEqual(topic("What's new lately?"), []);
    assert.deepEqual(topic('What changed for Lea since Monday?'), []);
    assert.deepEqual(topic('What changed about my dentist in December?'), ['dentist']);
    assert.deepEqual(topic("What's new with Marko?"), ['marko']);
    assert.deepEqual(topic('Što se promijenilo ovaj tjedan?'), []);
    assert.deepEqual(topic('Ima li što novo od ponedjeljka?'), []);
    assert.deepEqual(topic('O que mudou esta semana?'), []);
    assert.deepEqual(topic('O que há de novo com o Marko?'), ['marko']);
    assert.deepEqual(topic('Alguma novidade desde segunda?'), []);
    assert.deepEqual(topic('Was hat sich diese Woche geändert?'), []);
    assert.deepEqual(topic('Was gibt es Neues bei Marko?'), ['marko']);
    assert.deepEqual(topic('Was ist neu?'), []);
  });

  it('reads a name a Croatian preposition puts in a case as the names the Records may say', () => {
    const topic = (q: string, self: string | null = 'Lea Horvat') =>
      changeTopicTerms(queryTerms(q), timeIntent(q, now)?.timeWords ?? [], self, q);
    // Each name it may be a case of, and the word as asked: "s Markom" is Mark's, Marko's, Marka's.
    assert.deepEqual(topic('Što se promijenilo s Markom?'), [['mark', 'marka', 'marko', 'marke', 'markom']]);
    assert.deepEqual(topic('Što je novo kod Marka?'), [['mark', 'marko', 'marke', 'marka']]);
    assert.deepEqual(topic('Što se promijenilo sa Željkom ovaj tjedan?'), [
      ['zeljk', 'zeljka', 'zeljko', 'zeljke', 'zeljkom'],
    ]);
    assert.deepEqual(topic('Ima li što novo kod Gorana?'), [['goran', 'gorano', 'gorane', 'gorana']]);
    assert.deepEqual(topic('Što je novo s Babićem?'), [['babic', 'babicem']]);
    assert.deepEqual(topic('Što je novo u Zagrebu?'), [
      ['zagreb', 'zagreba', 'zagrebo', 'zagrebe', 'zagrebu'],
    ]);
    // Her own name in a case is hers: every change.
    assert.deepEqual(topic('Što je novo kod Lee?'), []);
    assert.deepEqual(topic('Što se promijenilo s Ivom?', 'Ivo Horvat'), [['iva', 'ive', 'ivom']]);
    assert.deepEqual(topic('Što je novo s Ivom?', 'Ivo'), [['iva', 'ive', 'ivom']]);
    assert.deepEqual(topic('Što je novo kod Ive?', 'Iva Kos'), []);
    assert.deepEqual(topic('Što je novo s Ivom?', 'Iva'), [['ivo', 'ive', 'ivom']]);
    // Not after a preposition, in lower case, or in no case: as written.
    assert.deepEqual(topic('Što je novo s autom?'), ['autom']);
    assert.deepEqual(topic('Što se promijenilo s Markom i Ivom?'), [
      ['mark', 'marka', 'marko', 'marke', 'markom'],
      'ivom',
    ]);
    assert.deepEqual(topic("What's new with Marko?"), ['marko']);
    assert.deepEqual(topic('O que há de novo com o Marko?'), ['marko']);
  });

  it('meets a name in a case by each name it may be, whole, and not by a longer word it begins', () => {
    const asked = (q: string) => changeTopicTerms(queryTerms(q), [], null, q);
    const [ivo] = asked('Što je novo s Ivom?');
    const [edo] = asked('Što je novo s Edom?');
    const [tom] = asked('Što je novo s Tomom?');
    const [marko] = asked('Što je novo s Markom?');
    // Each row: the topic, a text it is met in, and one it is not.
    const rows: [ChangeTopic | undefined, string[], string[]][] = [
      [
        ivo,
        ['Ivo moved to Split.', 'Iva moved to Split.', 'Rekla sam Ivi.', 'Bila sam s Ivom.', 'Ivin stan.'],
        ['Ivan moved.'],
      ],
      [edo, ['Edo moved to Split.', "Edo's dentist is Dr. Babić."], ['Educated in Zagreb.']],
      [
        tom,
        ['Tom moved to Split.', 'Tomo moved to Split.'],
        ['The dentist is tomorrow.', 'Tomorrow, the dentist.'],
      ],
      [
        marko,
        ['Marko moved to Split.', 'Bila sam kod Marka.', 'Markov auto je nov.'],
        ['Markovac is far.', 'Marketing called.'],
      ],
    ];
    for (const [topic, met, missed] of rows) {
      assert.ok(topic !== undefined);
      for (const text of met) assert.ok(topicMet(text, topic), `${String(topic)} in ${text}`);
      for (const text of missed) assert.ok(!topicMet(text, topic), `${String(topic)} in ${text}`);
    }
    assert.ok(topicMet('My dentist changed.', 'dentist'));
    // A name's form in lower case is another word: "o tome" is no Tom's, "dana" no Dan's.
    const [dan] = asked('Što je novo s Danom?');
    const [markoOf] = asked('Što je novo kod Marka?');
    const lower: [ChangeTopic | undefined, string[], string[]][] = [
      [tom, ['Pričali smo o Tomu.', 'Tome je rekao.'], ['Pričali smo o tome.', 'tomu je teško.']],
      [dan, ['Dan moved.', 'Bila sam s Danom.'], ['Prije tri dana.', 'Sunčan dan.']],
      [markoOf, ['Bila sam kod Marka.'], ['Kupila sam marke.', 'Nova marka auta.']],
    ];
    for (const [topic, met, missed] of lower) {
      assert.ok(topic !== undefined);
      for (const text of met) assert.ok(topicMet(text, topic), `${String(topic)} in ${text}`);
      for (const text of missed) assert.ok(!topicMet(text, topic), `${String(topic)} in ${text}`);
    }
    // The English path is as it was: a term met by the words it begins, in any case.
    const [english] = changeTopicTerms(
      queryTerms('What changed with Marko?'),
      [],
      null,
      'What changed with Marko?',
    );
    assert.equal(english, 'marko');
    assert.ok(topicMet('Marko moved.', 'marko') && topicMet('marko moved.', 'marko'));
  });
});
