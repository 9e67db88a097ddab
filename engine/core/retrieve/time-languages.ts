import { foldText } from '../shared/fold-text.ts';
import { months, weekdays } from './calendar-words.ts';
import type { LanguageCode } from './languages.ts';

/**
 * How Portuguese, Spanish, French, German, Italian and Croatian say the times time-expressions.ts reads in
 * English: the words that show a text of the language may say a time at all, and rewrites of its time
 * phrases into the English the reader takes (which language a text is in: languages.ts).
 * Patterns are written lower case with their accents; an accented letter also matches its bare one
 * ("amanha", "proxima", "marz"), as people type on a phone (foreign-time.ts).
 */

export interface TimeLanguage {
  code: LanguageCode;
  /** Words without which none of `rewrites` can match; one of them must be in the text. */
  cues: readonly string[];
  /** In order: a longer phrase before the words it holds ("semana passada" before "passada"). */
  rewrites: readonly Rewrite[];
  /**
   * A future tense or "going to": the text speaks of what is to come, so a day named without its year
   * ("3 de maio") is the next such day, as English's "will" makes it (time-expressions.ts). Read as
   * written, accents and all: bare, "-erá" would be "primavera"'s "-era".
   */
  future: string;
}

/**
 * A phrase and what it says in English. `en` is a string with `$n` for groups, or a function of the
 * groups; an empty string keeps the phrase as it is (a form that only looks like a time: "guten
 * Morgen").
 */
export interface Rewrite {
  re: string;
  en: string | ((g: readonly string[]) => string);
}

/** Months as the rewrites write them, capitalized: the reader takes "May" for the month, "may" for the verb. */
const englishMonths = months.map((m) => m[0]!.toUpperCase() + m.slice(1));

/** Month names, January first; weekday names, Sunday first; each entry may list spellings with '|'. */
interface Names {
  months: readonly string[];
  weekdays: readonly string[];
  /** Number words, one to six, each entry may list spellings with '|'. */
  counts: readonly string[];
  units: { day: string; week: string; month: string; year: string };
}

// A question word opens a sentence: at the text's start or after its end mark, a few spaces on. Bounded:
// an unbounded "\s*" looked back over every space before each place, slow past a few thousand of them.
const sentenceStart = '(?<=^\\s{0,8}|[.!?¿¡]\\s{0,8})';

const alt = (xs: readonly string[]) => xs.join('|');
/** What `word` (as matched: with its accents or without) is in `to`, by its place in `entries`. */
const lookup = (entries: readonly string[], to: readonly string[]) => {
  const at = new Map(entries.flatMap((e, i) => e.split('|').map((w) => [foldText(w), to[i]!] as const)));
  return (word: string) => at.get(foldText(word)) ?? word;
};

/** Every spelling of a month in the languages below, folded (foldText), filled as each is defined. */
const monthSpellings = new Set<string>();

/**
 * Words a language below spells as English does ("April", "August", "September", "November"), or that
 * open an English sentence as another word ("Mars is the best planet"): after "My kids are 7 and 12."
 * they start a sentence of their own, as often as German writes "am 12. April".
 */
const englishToo = new Set([...months, 'mars']);

/**
 * Whether a word is a month's name in a language below, in any spelling a phrase of its asks
 * ("lipnja", "Dezember", "marz"): "12. lipnja" is a day, not the end of a sentence (split-text.ts).
 * Not English's, which writes no full stop after a day and whose "May" and "March" open a sentence as
 * verbs ("We were 12. May I come?"), nor another's spelled as an English word (englishToo).
 */
export function isForeignMonthName(word: string): boolean {
  const w = foldText(word);
  return monthSpellings.has(w) && !englishToo.has(w);
}

/** The patterns' shared pieces for one language, with readers of what they matched. */
function vocabulary(n: Names) {
  for (const e of n.months) for (const w of e.split('|')) monthSpellings.add(foldText(w));
  const month = `(${alt(n.months)})`;
  const weekday = `(${alt(n.weekdays)})`;
  const count = `(\\d{1,3}|${alt(n.counts)})`;
  const unit = `(${alt(Object.values(n.units))})`;
  const monthEn = lookup(n.months, englishMonths);
  const weekdayEn = lookup(n.weekdays, weekdays);
  const countEn = lookup(n.counts, ['1', '2', '3', '4', '5', '6']);
  const unitEn = lookup(Object.values(n.units), Object.keys(n.units));
  return { month, weekday, count, unit, monthEn, weekdayEn, countEn, unitEn };
}

const pt = (() => {
  const v = vocabulary({
    months: [
      'janeiro',
      'fevereiro',
      'março',
      'abril',
      'maio',
      'junho',
      'julho',
      'agosto',
      'setembro',
      'outubro',
      'novembro',
      'dezembro',
    ],
    weekdays: [
      'domingo',
      'segunda-feira|segunda',
      'terça-feira|terça',
      'quarta-feira|quarta',
      'quinta-feira|quinta',
      'sexta-feira|sexta',
      'sábado',
    ],
    counts: ['um|uma', 'dois|duas', 'três', 'quatro', 'cinco', 'seis'],
    units: { day: 'dias|dia', week: 'semanas|semana', month: 'meses|mês', year: 'anos|ano' },
  });
  return {
    code: 'pt',
    cues: `em tempo ontem hoje amanhã anteontem dia dias semana semanas mês meses ano anos passado passada passados passadas próximo
      próxima há atrás daqui desde noite quando recente recentemente ultimamente atualmente última último
      primeira vez fim janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro
      dezembro domingo segunda terça quarta quinta sexta sábado`.split(/\s+/u),
    rewrites: [
      { re: `${v.count} de ${v.month} de (\\d{4})`, en: (g) => `${g[1]} ${v.monthEn(g[2]!)} ${g[3]}` },
      { re: `${v.month} de (\\d{4})`, en: (g) => `${v.monthEn(g[1]!)} of ${g[2]}` },
      { re: `(?:dia )?(\\d{1,2}) de ${v.month}`, en: (g) => `${g[1]} ${v.monthEn(g[2]!)}` },
      { re: `(?:em|no mês de|durante) ${v.month}`, en: (g) => `in ${v.monthEn(g[1]!)}` },
      { re: `(?:em|no ano de|durante) (\\d{4})`, en: 'in $1' },
      { re: 'ontem à noite|ontem a noite', en: 'last night' },
      { re: 'anteontem|antes de ontem', en: '2 days ago' },
      { re: 'depois de amanhã', en: 'the day after tomorrow' },
      { re: 'ontem', en: 'yesterday' },
      { re: 'hoje em dia', en: 'nowadays' },
      { re: 'hoje', en: 'today' },
      { re: 'amanhã', en: 'tomorrow' },
      { re: '(?:n?o )?fim de semana passado', en: 'last weekend' },
      { re: '(?:n?o )?próximo fim de semana|(?:n?o )?fim de semana que vem', en: 'next weekend' },
      { re: `(?:n[ao] |[ao] )?${v.weekday} passad[ao]`, en: (g) => `last ${v.weekdayEn(g[1]!)}` },
      {
        re: `(?:n[ao] )?próxim[ao] ${v.weekday}|${v.weekday} que vem`,
        en: (g) => `next ${v.weekdayEn((g[1] ?? g[2])!)}`,
      },
      { re: `desde (?:[ao] )?${v.weekday}`, en: (g) => `since ${v.weekdayEn(g[1]!)}` },
      { re: '(?:n?a )?semana passada', en: 'last week' },
      { re: '(?:n?o )?mês passado', en: 'last month' },
      { re: '(?:n?o )?ano passado', en: 'last year' },
      { re: '(?:n?a )?próxima semana|(?:n?a )?semana que vem', en: 'next week' },
      { re: '(?:n?o )?próximo mês|(?:n?o )?mês que vem', en: 'next month' },
      { re: '(?:n?o )?próximo ano|(?:n?o )?ano que vem', en: 'next year' },
      { re: 'esta semana|nesta semana', en: 'this week' },
      { re: 'este mês|neste mês', en: 'this month' },
      { re: 'este ano|neste ano', en: 'this year' },
      { re: 'há (?:uns|alguns|poucos) dias|(?:uns|alguns|poucos) dias atrás', en: 'a few days ago' },
      { re: `há ${v.count} ${v.unit}`, en: (g) => `${v.countEn(g[1]!)} ${v.unitEn(g[2]!)}s ago` },
      { re: `${v.count} ${v.unit} atrás`, en: (g) => `${v.countEn(g[1]!)} ${v.unitEn(g[2]!)}s ago` },
      {
        re: `daqui a ${v.count} ${v.unit}|dentro de ${v.count} ${v.unit}`,
        en: (g) => `${v.countEn((g[1] ?? g[3])!)} ${v.unitEn((g[2] ?? g[4])!)}s from now`,
      },
      { re: 'mais recentes?|última vez|recentemente|ultimamente|atualmente', en: 'latest' },
      { re: 'primeira vez|mais antig[ao]s?', en: 'first time' },
      { re: 'há quanto tempo|desde quando|quanto tempo', en: 'how long' },
      { re: 'em que (?:dia|data)', en: 'what date' },
      { re: `${sentenceStart}quando`, en: 'when' },
    ],
    future:
      'vou|vais|vai|vamos|vão|irei|iremos|farei|faremos|pretendo|pretendemos|planeio|planejo|planeamos|planejamos|\\p{L}{2,}(?:rei|rá|remos|rão)',
  } satisfies TimeLanguage;
})();

const es = (() => {
  const v = vocabulary({
    months: [
      'enero',
      'febrero',
      'marzo',
      'abril',
      'mayo',
      'junio',
      'julio',
      'agosto',
      'septiembre|setiembre',
      'octubre',
      'noviembre',
      'diciembre',
    ],
    weekdays: ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'],
    counts: ['un|una|uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis'],
    units: { day: 'días|día', week: 'semanas|semana', month: 'meses|mes', year: 'años|año' },
  });
  return {
    code: 'es',
    cues: `en ayer hoy mañana anteayer antier anoche día días semana semanas mes meses año años pasado pasada próximo próxima hace dentro
      viene cuándo cuando reciente recientemente últimamente actualmente última último primera vez fin
      enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre
      domingo lunes martes miércoles jueves viernes sábado`.split(/\s+/u),
    rewrites: [
      {
        re: `${v.count} de ${v.month} (?:de|del) (\\d{4})`,
        en: (g) => `${g[1]} ${v.monthEn(g[2]!)} ${g[3]}`,
      },
      { re: `${v.month} (?:de|del) (\\d{4})`, en: (g) => `${v.monthEn(g[1]!)} of ${g[2]}` },
      { re: `(?:el )?(\\d{1,2}) de ${v.month}`, en: (g) => `${g[1]} ${v.monthEn(g[2]!)}` },
      { re: `(?:en|durante) ${v.month}`, en: (g) => `in ${v.monthEn(g[1]!)}` },
      { re: `(?:en|durante) (?:el año )?(\\d{4})`, en: 'in $1' },
      { re: 'anoche|ayer por la noche', en: 'last night' },
      { re: 'anteayer|antier|antes de ayer', en: '2 days ago' },
      { re: 'pasado mañana', en: 'the day after tomorrow' },
      { re: 'ayer', en: 'yesterday' },
      { re: 'hoy en día', en: 'nowadays' },
      { re: 'esta mañana', en: 'this morning' },
      { re: 'hoy', en: 'today' },
      // "por la mañana", "de la mañana": in the morning, no day.
      { re: '(?:por|de|en) la mañana|la mañana', en: '' },
      { re: 'mañana', en: 'tomorrow' },
      { re: '(?:el )?fin de semana pasado', en: 'last weekend' },
      { re: '(?:el )?próximo fin de semana|(?:el )?fin de semana que viene', en: 'next weekend' },
      {
        re: `(?:el )?${v.weekday} pasado|(?:el )?pasado ${v.weekday}`,
        en: (g) => `last ${v.weekdayEn((g[1] ?? g[2])!)}`,
      },
      {
        re: `(?:el )?próximo ${v.weekday}|(?:el )?${v.weekday} que viene`,
        en: (g) => `next ${v.weekdayEn((g[1] ?? g[2])!)}`,
      },
      { re: '(?:la )?semana pasada', en: 'last week' },
      { re: '(?:el )?mes pasado', en: 'last month' },
      { re: '(?:el )?año pasado', en: 'last year' },
      { re: '(?:la )?próxima semana|(?:la )?semana que viene', en: 'next week' },
      { re: '(?:el )?próximo mes|(?:el )?mes que viene', en: 'next month' },
      { re: '(?:el )?próximo año|(?:el )?año que viene', en: 'next year' },
      { re: 'esta semana', en: 'this week' },
      { re: 'este mes', en: 'this month' },
      { re: 'este año', en: 'this year' },
      { re: 'hace (?:unos|algunos|pocos) días', en: 'a few days ago' },
      { re: `hace ${v.count} ${v.unit}`, en: (g) => `${v.countEn(g[1]!)} ${v.unitEn(g[2]!)}s ago` },
      {
        re: `dentro de ${v.count} ${v.unit}`,
        en: (g) => `${v.countEn(g[1]!)} ${v.unitEn(g[2]!)}s from now`,
      },
      { re: 'más recientes?|última vez|recientemente|últimamente|actualmente', en: 'latest' },
      { re: 'primera vez|más antigu[oa]s?', en: 'first time' },
      { re: 'cuánto tiempo|desde cuándo', en: 'how long' },
      { re: 'qué (?:día|fecha)', en: 'what date' },
      { re: `${sentenceStart}cuándo`, en: 'when' },
    ],
    future: 'voy a|vas a|va a|vamos a|van a|pienso|planeo|planeamos|\\p{L}{2,}(?:ré|rá|remos|rán)',
  } satisfies TimeLanguage;
})();

const fr = (() => {
  const v = vocabulary({
    months: [
      'janvier',
      'février',
      'mars',
      'avril',
      'mai',
      'juin',
      'juillet',
      'août',
      'septembre',
      'octobre',
      'novembre',
      'décembre',
    ],
    weekdays: ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'],
    counts: ['un|une', 'deux', 'trois', 'quatre', 'cinq', 'six'],
    units: { day: 'jours|jour', week: 'semaines|semaine', month: 'mois', year: 'ans|an|années|année' },
  });
  return {
    code: 'fr',
    cues: `en hier aujourd demain avant après semaine semaines mois année années ans jour jours dernier
      dernière passé passée prochain prochaine soir quand récent récemment dernièrement actuellement fois week-end
      janvier février mars avril mai juin juillet août septembre octobre novembre décembre dimanche
      lundi mardi mercredi jeudi vendredi samedi`.split(/\s+/u),
    rewrites: [
      {
        re: `(?:le )?${v.count}(?:er)? ${v.month} (\\d{4})`,
        en: (g) => `${g[1]} ${v.monthEn(g[2]!)} ${g[3]}`,
      },
      { re: `${v.month} (\\d{4})`, en: (g) => `${v.monthEn(g[1]!)} of ${g[2]}` },
      { re: `(?:le )?(\\d{1,2})(?:er)? ${v.month}`, en: (g) => `${g[1]} ${v.monthEn(g[2]!)}` },
      { re: `(?:en|au mois d'|au mois de |pendant) ?${v.month}`, en: (g) => `in ${v.monthEn(g[1]!)}` },
      { re: `(?:en|pendant l'année) (\\d{4})`, en: 'in $1' },
      { re: 'hier soir', en: 'last night' },
      { re: 'avant-hier|avant hier', en: '2 days ago' },
      { re: 'après-demain|après demain', en: 'the day after tomorrow' },
      { re: 'hier', en: 'yesterday' },
      { re: "aujourd'hui|aujourd’hui|aujourdhui", en: 'today' },
      { re: 'demain', en: 'tomorrow' },
      { re: '(?:le )?week-end dernier|(?:le )?week-end passé', en: 'last weekend' },
      { re: '(?:le )?week-end prochain', en: 'next weekend' },
      { re: `(?:le )?${v.weekday} (?:dernier|passé)`, en: (g) => `last ${v.weekdayEn(g[1]!)}` },
      { re: `(?:le )?${v.weekday} prochain`, en: (g) => `next ${v.weekdayEn(g[1]!)}` },
      { re: '(?:la )?semaine (?:dernière|passée)', en: 'last week' },
      { re: '(?:le )?mois (?:dernier|passé)', en: 'last month' },
      { re: "(?:l')?(?:année|an) (?:dernière|dernier|passée|passé)", en: 'last year' },
      { re: '(?:la )?semaine prochaine', en: 'next week' },
      { re: '(?:le )?mois prochain', en: 'next month' },
      { re: "(?:l')?(?:année|an) (?:prochaine|prochain)", en: 'next year' },
      { re: 'cette semaine', en: 'this week' },
      { re: 'ce mois-ci|ce mois', en: 'this month' },
      { re: 'cette année', en: 'this year' },
      { re: 'il y a (?:quelques|plusieurs) jours', en: 'a few days ago' },
      { re: `il y a ${v.count} ${v.unit}`, en: (g) => `${v.countEn(g[1]!)} ${v.unitEn(g[2]!)}s ago` },
      { re: `dans ${v.count} ${v.unit}`, en: (g) => `${v.countEn(g[1]!)} ${v.unitEn(g[2]!)}s from now` },
      { re: 'plus récents?|dernière fois|récemment|dernièrement|actuellement', en: 'latest' },
      { re: 'première fois|plus ancien(?:ne)?s?', en: 'first time' },
      { re: 'combien de temps|depuis quand', en: 'how long' },
      { re: 'quel jour|quelle date', en: 'what date' },
      { re: `${sentenceStart}quand`, en: 'when' },
    ],
    future: 'vais|allons|allez|vont|va \\p{L}+(?:er|ir|re)|irai|ira|irons|\\p{L}{2,}(?:rai|rons|rez|ront)',
  } satisfies TimeLanguage;
})();

const de = (() => {
  const v = vocabulary({
    months: [
      'januar|jänner',
      'februar',
      'märz',
      'april',
      'mai',
      'juni',
      'juli',
      'august',
      'september',
      'oktober',
      'november',
      'dezember',
    ],
    weekdays: ['sonntag', 'montag', 'dienstag', 'mittwoch', 'donnerstag', 'freitag', 'samstag|sonnabend'],
    counts: ['einem|einer|ein|eine', 'zwei', 'drei', 'vier', 'fünf', 'sechs'],
    units: {
      day: 'tagen|tag|tage',
      week: 'wochen|woche',
      month: 'monaten|monat|monate',
      year: 'jahren|jahr|jahre',
    },
  });
  const last = '(?:am )?(?:letzten|vergangenen|letzte|vergangene|letztes|vergangenes|letzter)';
  const next = '(?:am )?(?:nächsten|kommenden|nächste|kommende|nächstes|kommendes|nächster)';
  return {
    code: 'de',
    cues: `gestern heute morgen vorgestern übermorgen tag tage tagen woche wochen monat monate monaten
      jahr jahre jahren letzten letzte letztes vergangenen vergangene vergangenes nächsten nächste
      nächstes kommenden seit wann abend neulich kürzlich zuletzt neueste älteste aktuell derzeit wochenende januar jänner februar märz april mai juni juli august
      september oktober november dezember sonntag montag dienstag mittwoch donnerstag freitag samstag
      sonnabend`.split(/\s+/u),
    rewrites: [
      { re: `(\\d{1,2})\\. ${v.month} (\\d{4})`, en: (g) => `${g[1]} ${v.monthEn(g[2]!)} ${g[3]}` },
      { re: `${v.month} (\\d{4})`, en: (g) => `${v.monthEn(g[1]!)} of ${g[2]}` },
      { re: `(?:am )?(\\d{1,2})\\. ${v.month}`, en: (g) => `${g[1]} ${v.monthEn(g[2]!)}` },
      { re: `im ${v.month}`, en: (g) => `in ${v.monthEn(g[1]!)}` },
      { re: `im jahr(?:e)? (\\d{4})`, en: 'in $1' },
      { re: 'gestern abend|gestern nacht', en: 'last night' },
      { re: 'vorgestern', en: '2 days ago' },
      { re: 'übermorgen', en: 'the day after tomorrow' },
      { re: 'gestern', en: 'yesterday' },
      { re: 'heute morgen|heute früh', en: 'this morning' },
      { re: 'heute', en: 'today' },
      // The morning, not tomorrow: "guten Morgen", "am Morgen", "jeden Morgen".
      { re: '(?:guten|am|jeden|den|der|dem|diesen|eines|morgen) morgen', en: '' },
      { re: 'morgen', en: 'tomorrow' },
      { re: `${last} wochenende`, en: 'last weekend' },
      { re: `${next} wochenende`, en: 'next weekend' },
      { re: `${last} ${v.weekday}`, en: (g) => `last ${v.weekdayEn(g[1]!)}` },
      { re: `${next} ${v.weekday}`, en: (g) => `next ${v.weekdayEn(g[1]!)}` },
      { re: `seit ${v.weekday}`, en: (g) => `since ${v.weekdayEn(g[1]!)}` },
      { re: `${last} woche`, en: 'last week' },
      { re: `${last} monat`, en: 'last month' },
      { re: `${last} jahr`, en: 'last year' },
      { re: `${next} woche`, en: 'next week' },
      { re: `${next} monat`, en: 'next month' },
      { re: `${next} jahr`, en: 'next year' },
      { re: 'diese woche', en: 'this week' },
      { re: 'diesen monat', en: 'this month' },
      { re: 'dieses jahr', en: 'this year' },
      { re: 'vor (?:ein paar|einigen|wenigen) tagen', en: 'a few days ago' },
      { re: `vor ${v.count} ${v.unit}`, en: (g) => `${v.countEn(g[1]!)} ${v.unitEn(g[2]!)}s ago` },
      { re: `in ${v.count} ${v.unit}`, en: (g) => `${v.countEn(g[1]!)} ${v.unitEn(g[2]!)}s from now` },
      {
        re: 'neueste[nrs]?|letztes mal|zuletzt|kürzlich|neulich|in letzter zeit|derzeit|aktuell',
        en: 'latest',
      },
      { re: 'erstes mal|zum ersten mal|älteste[nrs]?', en: 'first time' },
      { re: 'wie lange|seit wann', en: 'how long' },
      { re: 'an welchem tag|welches datum', en: 'what date' },
      { re: `${sentenceStart}wann`, en: 'when' },
    ],
    future: 'werde|wirst|wird|werden|werdet|vorhaben|habe vor|haben vor|plane|planen',
  } satisfies TimeLanguage;
})();

const it = (() => {
  const v = vocabulary({
    months: [
      'gennaio',
      'febbraio',
      'marzo',
      'aprile',
      'maggio',
      'giugno',
      'luglio',
      'agosto',
      'settembre',
      'ottobre',
      'novembre',
      'dicembre',
    ],
    weekdays: ['domenica', 'lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato'],
    counts: ['un|una|uno', 'due', 'tre', 'quattro', 'cinque', 'sei'],
    units: { day: 'giorni|giorno', week: 'settimane|settimana', month: 'mesi|mese', year: 'anni|anno' },
  });
  return {
    code: 'it',
    cues: `nel tempo ieri oggi domani altroieri dopodomani giorno giorni settimana settimane mese mesi anno anni
      scorso scorsa scorsi passato passata prossimo prossima sera quando recente recentemente ultimamente attualmente ultima volta
      fine weekend gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre
      dicembre domenica lunedì martedì mercoledì giovedì venerdì sabato`.split(/\s+/u),
    rewrites: [
      { re: `(?:il )?${v.count} ${v.month} (\\d{4})`, en: (g) => `${g[1]} ${v.monthEn(g[2]!)} ${g[3]}` },
      { re: `${v.month} (?:del )?(\\d{4})`, en: (g) => `${v.monthEn(g[1]!)} of ${g[2]}` },
      { re: `(?:il )?(\\d{1,2}) ${v.month}`, en: (g) => `${g[1]} ${v.monthEn(g[2]!)}` },
      { re: `(?:a|in|durante) ${v.month}`, en: (g) => `in ${v.monthEn(g[1]!)}` },
      { re: `(?:nel|durante il) (\\d{4})`, en: 'in $1' },
      { re: 'ieri sera', en: 'last night' },
      { re: "l'altro ieri|l’altro ieri|altroieri", en: '2 days ago' },
      { re: 'dopodomani', en: 'the day after tomorrow' },
      { re: 'ieri', en: 'yesterday' },
      { re: 'oggi', en: 'today' },
      { re: 'domani', en: 'tomorrow' },
      {
        re: '(?:lo )?scorso (?:fine settimana|weekend)|(?:il )?(?:fine settimana|weekend) scorso',
        en: 'last weekend',
      },
      { re: '(?:il )?prossimo (?:fine settimana|weekend)', en: 'next weekend' },
      {
        re: `(?:il |la )?${v.weekday} (?:scors[oa]|passat[oa])|(?:lo |la )?scors[oa] ${v.weekday}`,
        en: (g) => `last ${v.weekdayEn((g[1] ?? g[2])!)}`,
      },
      {
        re: `(?:il |la )?${v.weekday} prossim[oa]|(?:il |la )?prossim[oa] ${v.weekday}`,
        en: (g) => `next ${v.weekdayEn((g[1] ?? g[2])!)}`,
      },
      { re: '(?:la )?settimana (?:scorsa|passata)|(?:la )?scorsa settimana', en: 'last week' },
      { re: '(?:il )?mese (?:scorso|passato)|(?:lo )?scorso mese', en: 'last month' },
      { re: "(?:l')?anno (?:scorso|passato)|(?:lo )?scorso anno", en: 'last year' },
      { re: '(?:la )?(?:settimana prossima|prossima settimana)', en: 'next week' },
      { re: '(?:il )?(?:mese prossimo|prossimo mese)', en: 'next month' },
      { re: "(?:l')?anno prossimo|(?:il )?prossimo anno", en: 'next year' },
      { re: 'questa settimana', en: 'this week' },
      { re: 'questo mese', en: 'this month' },
      { re: "quest'anno|quest’anno|questo anno", en: 'this year' },
      { re: '(?:qualche|alcuni|pochi) giorni fa', en: 'a few days ago' },
      { re: `${v.count} ${v.unit} fa`, en: (g) => `${v.countEn(g[1]!)} ${v.unitEn(g[2]!)}s ago` },
      {
        re: `(?:tra|fra) ${v.count} ${v.unit}`,
        en: (g) => `${v.countEn(g[1]!)} ${v.unitEn(g[2]!)}s from now`,
      },
      { re: 'più recenti?|ultima volta|recentemente|ultimamente|attualmente', en: 'latest' },
      { re: 'prima volta|più vecchi[oa]?', en: 'first time' },
      { re: 'da quanto tempo|per quanto tempo|quanto tempo', en: 'how long' },
      { re: 'che giorno|quale data|che data', en: 'what date' },
      { re: `${sentenceStart}quando`, en: 'when' },
    ],
    future: 'ho in programma|abbiamo in programma|(?!però(?![\\p{L}]))\\p{L}{2,}(?:rò|rà|remo|ranno)',
  } satisfies TimeLanguage;
})();

const hr = (() => {
  // Names stand in the case a phrase puts them: "u svibnju" (in May), "3. svibnja" (3 May), "od
  // ponedjeljka" (since Monday), "prošle srijede" (last Wednesday); each entry lists those a phrase asks.
  const v = vocabulary({
    months: [
      'siječanj|siječnja|siječnju',
      'veljača|veljače|veljači',
      'ožujak|ožujka|ožujku',
      'travanj|travnja|travnju',
      'svibanj|svibnja|svibnju',
      'lipanj|lipnja|lipnju',
      'srpanj|srpnja|srpnju',
      'kolovoz|kolovoza|kolovozu',
      'rujan|rujna|rujnu',
      'listopad|listopada|listopadu',
      'studeni|studenoga|studenog|studenome|studenom',
      'prosinac|prosinca|prosincu',
    ],
    weekdays: [
      'nedjelja|nedjelje|nedjelju|nedjelji',
      'ponedjeljak|ponedjeljka|ponedjeljku',
      'utorak|utorka|utorku',
      'srijeda|srijede|srijedu|srijedi',
      'četvrtak|četvrtka|četvrtku',
      'petak|petka|petku',
      'subota|subote|subotu|suboti',
    ],
    counts: ['jedan|jedna|jedno|jednog|jedne', 'dva|dvije', 'tri', 'četiri', 'pet', 'šest'],
    units: {
      day: 'dana',
      week: 'tjedana|tjedna|tjedan',
      month: 'mjeseci|mjeseca|mjesec',
      year: 'godina|godine|godinu',
    },
  });
  const last = 'prošl(?:i|a|e|u|o|og|oga|om|ome|oj)';
  const next = '(?:sljedeć|iduć)(?:i|a|e|u|eg|ega|em|emu|oj)';
  const week = 'tjed(?:an|na|nu)';
  const month = 'mjesec(?:a|u)?';
  const year = 'godin(?:a|e|u|i)';
  const names = (entries: readonly string[]) => entries.flatMap((e) => e.split('|'));
  return {
    code: 'hr',
    cues: [
      ...`jučer danas sutra prekjučer preksutra sinoć jutros dana tjedan tjedna tjedana tjednu mjesec
      mjeseca mjeseci mjesecu godina godine godinu godini lani dogodine prošli prošla prošle prošlu
      prošlo prošlog prošloga prošlom prošlome prošloj sljedeći sljedeća sljedeće sljedeću sljedećeg
      sljedećem sljedećoj idući iduća iduće iduću idućeg idućem idućoj ovaj ovog ovoga ovom ove ovu ovoj
      vikend vikenda vikendu prije nedavno zadnje posljednje zadnji posljednji najnoviji najnovija
      najnovije trenutno trenutačno prvi prvog najstariji kada kad otkad koliko`.split(/\s+/u),
      ...names(v.month.slice(1, -1).split('|')),
      ...names(v.weekday.slice(1, -1).split('|')),
    ],
    rewrites: [
      { re: `(\\d{1,2})\\. ${v.month} (\\d{4})\\.?`, en: (g) => `${g[1]} ${v.monthEn(g[2]!)} ${g[3]}` },
      { re: `${v.month} (\\d{4})\\.?`, en: (g) => `${v.monthEn(g[1]!)} of ${g[2]}` },
      { re: `(\\d{1,2})\\. ${v.month}`, en: (g) => `${g[1]} ${v.monthEn(g[2]!)}` },
      { re: `(?:u|tijekom) ${v.month}`, en: (g) => `in ${v.monthEn(g[1]!)}` },
      { re: '(?:u|tijekom) (\\d{4})\\.?(?: godini)?', en: 'in $1' },
      { re: 'sinoć|jučer navečer', en: 'last night' },
      { re: 'prekjučer', en: '2 days ago' },
      { re: 'preksutra', en: 'the day after tomorrow' },
      { re: 'jučer', en: 'yesterday' },
      { re: 'jutros', en: 'this morning' },
      { re: 'danas', en: 'today' },
      { re: 'sutra', en: 'tomorrow' },
      { re: `(?:od|počevši od) ${v.weekday}`, en: (g) => `since ${v.weekdayEn(g[1]!)}` },
      { re: `(?:u |na )?${last} vikend(?:a|u)?`, en: 'last weekend' },
      { re: `(?:u |na )?${next} vikend(?:a|u)?`, en: 'next weekend' },
      { re: `(?:ovaj vikend|ovog vikenda|ovoga vikenda|ovom vikendu)`, en: 'this weekend' },
      { re: `(?:u |na )?${last} ${v.weekday}`, en: (g) => `last ${v.weekdayEn(g[1]!)}` },
      { re: `(?:u |na )?${next} ${v.weekday}`, en: (g) => `next ${v.weekdayEn(g[1]!)}` },
      { re: `${last} ${week}`, en: 'last week' },
      { re: `${last} ${month}`, en: 'last month' },
      { re: `${last} ${year}|lani`, en: 'last year' },
      { re: `${next} ${week}`, en: 'next week' },
      { re: `${next} ${month}`, en: 'next month' },
      { re: `${next} ${year}|dogodine`, en: 'next year' },
      { re: `ov(?:aj|og|oga|om|ome) ${week}`, en: 'this week' },
      { re: `ov(?:aj|og|oga|om|ome) ${month}`, en: 'this month' },
      { re: `ov(?:a|e|u|oj) ${year}`, en: 'this year' },
      { re: 'prije (?:nekoliko|par) dana', en: 'a few days ago' },
      { re: `prije ${v.count} ${v.unit}`, en: (g) => `${v.countEn(g[1]!)} ${v.unitEn(g[2]!)}s ago` },
      { re: `za ${v.count} ${v.unit}`, en: (g) => `${v.countEn(g[1]!)} ${v.unitEn(g[2]!)}s from now` },
      {
        re: 'najnovij(?:i|a|e|eg|u)|zadnji put|posljednji put|(?:u )?(?:zadnje|posljednje) vrijeme|nedavno|trenutačno|trenutno',
        en: 'latest',
      },
      { re: 'prvi put|prvog puta|najstarij(?:i|a|e|eg|u)', en: 'first time' },
      { re: 'koliko dugo|otkad|od kada|od kad', en: 'how long' },
      { re: 'kojeg dana|kojega dana|kojeg datuma|koji datum', en: 'what date' },
      { re: `${sentenceStart}(?:kada|kad)`, en: 'when' },
    ],
    future: 'ću|ćeš|će|ćemo|ćete|planiram|planiramo|namjeravam|namjeravamo',
  } satisfies TimeLanguage;
})();

export const timeLanguages: readonly TimeLanguage[] = [pt, es, fr, de, it, hr];
