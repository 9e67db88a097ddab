import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inEnglishTime } from './foreign-time.ts';
import { asksWhen, statesTime, timeIntent, type TimeIntent } from './time-expressions.ts';

const ref = Date.UTC(2026, 11, 4, 12); // Friday 4 December 2026, noon
const window = (i: TimeIntent | null) => i && { from: i.fromMs, to: i.toMs, order: i.order };

/** Each phrase says what the English beside it says: the same window from the same instant. */
const sameAs: Record<string, [said: string, english: string][]> = {
  pt: [
    ['O que fiz ontem?', 'yesterday'],
    ['O que fiz ontem à noite?', 'last night'],
    ['Onde estive na semana passada?', 'last week'],
    ['o que fiz ha duas semanas', '2 weeks ago'],
    ['Fui lá há 3 dias', '3 days ago'],
    ['uns dias atrás', 'a few days ago'],
    ['O que comi em março?', 'in March'],
    ['O que aconteceu em março de 2025?', 'March 2025'],
    ['Jantar no dia 3 de maio', 'on 3 May'],
    ['3 de maio de 2024', '3 May 2024'],
    ['Em 2023 mudei de casa', 'in 2023'],
    ['Alguma novidade desde segunda?', 'since Monday'],
    ['Qual é o plano para a próxima terça?', 'next Tuesday'],
    ['na sexta-feira passada', 'last Friday'],
    ['no mês passado', 'last month'],
    ['no próximo fim de semana', 'next weekend'],
    ['Vou a Lisboa daqui a duas semanas', 'two weeks from now'],
    ['O que vou fazer amanhã?', 'tomorrow'],
    ['Qual foi o filme mais recente?', 'the latest'],
    ['Onde nos conhecemos pela primeira vez?', 'the first time'],
  ],
  es: [
    ['¿Qué hice ayer?', 'yesterday'],
    ['¿Dónde estuve la semana pasada?', 'last week'],
    ['¿Qué hice hace dos semanas?', '2 weeks ago'],
    ['Cena el 3 de mayo', 'on 3 May'],
    ['el martes pasado fui al cine', 'last Tuesday'],
    ['¿Qué hago mañana?', 'tomorrow'],
    ['¿Qué hice anoche?', 'last night'],
    ['Viajo dentro de tres días', '3 days from now'],
  ],
  fr: [
    ["Qu'ai-je fait hier ?", 'yesterday'],
    ['Où étais-je la semaine dernière ?', 'last week'],
    ['il y a deux semaines', '2 weeks ago'],
    ['Dîner le 3 mai', 'on 3 May'],
    ['mardi dernier', 'last Tuesday'],
    ['Je vais à Paris dans deux semaines', 'two weeks from now'],
    ["le plus récent qu'il a lu", 'the latest'],
  ],
  de: [
    ['Was habe ich gestern gemacht?', 'yesterday'],
    ['Was mache ich morgen?', 'tomorrow'],
    ['vor zwei Wochen war ich in Berlin', '2 weeks ago'],
    ['Was habe ich letzte Woche gemacht?', 'last week'],
    ['am 3. Mai', 'on 3 May'],
    ['im März', 'in March'],
    ['nächsten Dienstag', 'next Tuesday'],
    ['Gibt es Neuigkeiten seit Montag?', 'since Monday'],
  ],
  it: [
    ['Cosa ho fatto ieri?', 'yesterday'],
    ['la settimana scorsa', 'last week'],
    ['due settimane fa', '2 weeks ago'],
    ['il 3 maggio', 'on 3 May'],
    ['martedì scorso', 'last Tuesday'],
    ['fra due giorni', '2 days from now'],
  ],
  hr: [
    ['Što sam radila jučer?', 'yesterday'],
    ['Što radim sutra?', 'tomorrow'],
    ['Gdje sam bila prošlog tjedna?', 'last week'],
    ['Što se promijenilo ovaj tjedan?', 'this week'],
    ['Gdje sam bila prije tri dana?', '3 days ago'],
    ['Što smo radili u svibnju?', 'in May'],
    ['Večera 3. svibnja', 'on 3 May'],
    ['Što je bilo prošle srijede?', 'last Wednesday'],
    ['Ima li što novo od ponedjeljka?', 'since Monday'],
    ['Idemo u Rim za dva tjedna', '2 weeks from now'],
  ],
};

describe('time said in Portuguese, Spanish, French, German, Italian and Croatian', () => {
  for (const [language, pairs] of Object.entries(sameAs))
    it(`reads ${language} times as the same windows as their English`, () => {
      for (const [said, english] of pairs) {
        const expected = window(timeIntent(english, ref));
        assert.ok(expected, `the English "${english}" says a time`);
        assert.deepEqual(window(timeIntent(said, ref)), expected, said);
      }
    });

  it("labels the window and lists its time words in the text's own words", () => {
    const i = timeIntent('O que fiz na semana passada?', ref)!;
    assert.equal(i.label, 'na semana passada');
    for (const w of ['na', 'semana', 'passada']) assert.ok(i.timeWords.includes(w), w);
    // Folded as the query's terms are: "mês" is looked up as "mes".
    const m = timeIntent('O que comprei no mês passado?', ref)!;
    assert.ok(m.timeWords.includes('mes') && !m.timeWords.includes('comprei'));
    assert.equal(timeIntent('Cena el 3 de mayo', ref)!.label, 'el 3 de mayo');
  });

  it('reads May named in any of them as the month, which English "in may" is not always', () => {
    for (const q of [
      'O que fizemos em maio?',
      '¿Qué hicimos en mayo?',
      "Qu'avons-nous fait en mai ?",
      'Was haben wir im Mai gemacht?',
      'Cosa abbiamo fatto a maggio?',
    ])
      assert.deepEqual(
        window(timeIntent(q, ref)),
        { from: Date.UTC(2026, 4, 1), to: Date.UTC(2026, 5, 1), order: undefined },
        q,
      );
    assert.equal(timeIntent('in may be late', ref), null);
  });

  it('a day named without its year is the next one in a sentence of what is to come, as in English', () => {
    const january = Date.UTC(2026, 0, 15, 12);
    const on = (q: string) => timeIntent(q, january)?.fromMs;
    const next = on('What will I do on 3 May?');
    const last = on('What did I do on 3 May?');
    assert.equal(next, Date.UTC(2026, 4, 3));
    for (const q of [
      'O que vou fazer a 3 de maio?',
      'Vamos a Lisboa no dia 3 de maio',
      '¿Qué voy a hacer el 3 de mayo?',
      'Que ferai-je le 3 mai ?',
      'Was werde ich am 3. Mai machen?',
      'Cosa farò il 3 maggio?',
    ])
      assert.equal(on(q), next, q);
    for (const q of ['O que fiz a 3 de maio?', '¿Qué hice el 3 de mayo?', 'Però il 3 maggio era bello'])
      assert.equal(on(q), last, q);
    assert.equal(on('o que farei a 29 de fevereiro'), Date.UTC(2028, 1, 29));
  });

  it('reads a time word capitalized in a text of its language, a name only where the text is not', () => {
    assert.deepEqual(
      window(timeIntent('Fui a Lisboa em Maio de 2020', ref)),
      window(timeIntent('May 2020', ref)),
    );
    assert.deepEqual(window(timeIntent('Ayer vi a Chris Hoy', ref)), window(timeIntent('yesterday', ref)));
    assert.deepEqual(window(timeIntent('Fui ao Porto Ontem', ref)), window(timeIntent('yesterday', ref)));
    // Two of its words, capitalized as a sentence opens: its own, though no other word is.
    assert.deepEqual(window(timeIntent('Mardi dernier', ref)), window(timeIntent('last Tuesday', ref)));
    // One of its words alone, capitalized as a phone types a query's first letter: its own.
    for (const [q, en] of [
      ['Ontem?', 'yesterday'],
      ['Ayer?', 'yesterday'],
      ['Ieri?', 'yesterday'],
      ['Hoje?', 'today'],
      ['Mañana', 'tomorrow'],
      ['Demain ?', 'tomorrow'],
      ['Ayer 8pm', 'yesterday'],
    ] as const)
      assert.deepEqual(window(timeIntent(q, ref)), window(timeIntent(en, ref)), q);
    assert.equal(timeIntent('Sir Chris Hoy', ref), null);
  });

  it('reads words typed without their accents', () => {
    assert.deepEqual(window(timeIntent('o que faço amanha', ref)), window(timeIntent('tomorrow', ref)));
    assert.deepEqual(window(timeIntent('proxima semana', ref)), window(timeIntent('next week', ref)));
    assert.deepEqual(window(timeIntent('im Marz', ref)), window(timeIntent('in March', ref)));
  });

  it("reads a long text's language and phrases in its first 20,000 characters", () => {
    const day = 'Fui ao mercado com a Rita e comprámos fruta para a semana. ';
    const long = `${day.repeat(Math.ceil(20_000 / day.length))}Ontem fui ao Porto.`;
    assert.deepEqual(inEnglishTime(long).phrases, []);
    const read = inEnglishTime(`Ontem fui ao Porto. ${long}`);
    assert.deepEqual(read.phrases, [{ said: 'ontem', en: 'yesterday' }]);
    assert.ok(read.text.startsWith('yesterday fui ao porto.') && read.text.endsWith('ontem fui ao porto.'));
  });

  it('asks when in a sentence that opens with spaces', () => {
    // Looked back over any run of spaces, 20,000 of them cost ~0.5 s a reading (the time lane reads up
    // to 400 Records a query): the look back is bounded.
    assert.ok(asksWhen('  Quando fui ao Porto?'));
  });

  it('a morning is not tomorrow', () => {
    assert.equal(timeIntent('Guten Morgen, wie geht es dir?', ref), null);
    assert.equal(timeIntent('Desayuno por la mañana con Ana', ref), null);
    assert.deepEqual(
      window(timeIntent('Was hast du heute Morgen gegessen?', ref)),
      window(timeIntent('this morning', ref)),
    );
  });

  it('leaves English text as it was, however foreign some of its words look', () => {
    for (const text of [
      'I met Domingo on the beach',
      'Hier is a Dutch word for here',
      'The Mars rover landed in August',
      'Ana said hi to Marco and Mario',
      'We ate at Oggi, the Italian place',
      'Ich war hier',
      // A name that is another language's time word, in a text with none of that language's words.
      'Chris Hoy won gold',
      'Bruno Mars 2016 tour',
      'Dinner with Sofia Ieri and Marco',
      // One opening a sentence, where nothing else is of its language.
      'Mars 2020 landed!',
      'Domani, 8pm at the bar',
      'Great launch. Mars 2020 is next',
    ])
      assert.deepEqual(inEnglishTime(text), { text, phrases: [], ahead: false }, text);
    assert.equal(timeIntent('What did I do on Sunday with Domingo?', ref), null);
    assert.equal(timeIntent('Lisboa é linda', ref), null);
  });

  it('asks when in any of them, and finds where a text says when, in its words', () => {
    for (const q of [
      'Quando fui ao Porto?',
      '¿Cuándo fui a Madrid?',
      'Quand suis-je allé à Lyon ?',
      'Wann war ich in Berlin?',
      'Quando sono andato a Roma?',
      'Há quanto tempo moro aqui?',
    ])
      assert.ok(asksWhen(q), q);
    assert.ok(!asksWhen('O que faço quando estou cansada?'));
    assert.equal(statesTime('Fui ao Porto ontem com a Ana'), 'ontem');
    assert.equal(statesTime('Estive lá na semana passada'), 'na semana passada');
    assert.equal(statesTime('Lisboa é linda'), null);
  });
});
