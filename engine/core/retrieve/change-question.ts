import type { TimeIntent } from './time-expressions.ts';
import { foldText } from '../shared/fold-text.ts';
import { afterPreposition, basesOf } from '../shared/name-forms.ts';
import { matchedTerms } from './query-terms.ts';
import { matchesOf } from '../../contract/matches-of.ts';

const DAY = 86_400_000;

/**
 * How long "What changed?" looks back when the question names no time ("lately", "recently", or
 * nothing): a month, as "this month" reads.
 */
export const changesLookBackMs = 31 * DAY;

/**
 * The question asks what changed, what is new, what was updated or what is different: "What changed
 * this week?", "What's new with Marko?", "Has anything changed since Monday?", "Any updates in
 * November?". Not "What new activity did Tim start?" (a new thing, asked by what it is),
 * "What changed her mind?" (a cause), nor "What are some changes Caroline has faced?" (a life's changes,
 * told in its Records, not a Memory revised). English here; Croatian, Portuguese and German below.
 */
const changeQuestion = new RegExp(
  [
    // "what changed", "what's changed", "what has (been) changed", "what got updated", "what was revised"
    String.raw`what(?:['’]s| is| has| have| was| were| got)?(?: been)? (?:changed|updated|revised|corrected)(?! (?:her|his|my|your|their|our|its|the|a|an|me|him|them|us)(?![\p{L}\p{N}]))`,
    // "what's new", "what is different" (not "what new activity")
    String.raw`what(?:['’]s| is) (?:new|different)(?![\p{L}\p{N}])`,
    // "anything new", "has anything changed", "did anything change", "something different"
    String.raw`(?:anything|something) (?:new|changed|change|different|updated)(?![\p{L}\p{N}])`,
    // "any changes", "any updates", "what changes were made", "changes since Monday"
    String.raw`any (?:changes|updates)(?![\p{L}\p{N}])`,
    String.raw`what changes (?:were|have|has|did|are there)(?![\p{L}\p{N}])`,
    String.raw`(?:changes|updates) (?:since|this|last|in|during)(?![\p{L}\p{N}])`,
    // "what did I change"
    String.raw`what did (?:i|we|you|she|he|they) (?:change|update)(?![\p{L}\p{N}])`,
  ]
    .map((p) => `(?<![\\p{L}\\p{N}])${p}`)
    .join('|'),
  'iu',
);

/**
 * The same questions in Croatian, Portuguese and German, as other readers of a question take those
 * languages (time-languages.ts, languages.ts), written bare: they are matched against the folded
 * question, so "Sto se promijenilo" typed without its accents asks too. Not what changed a mind or what
 * changes someone faced: Croatian's "Što je promijenilo njezino mišljenje?" (što as the subject: "-lo",
 * no "se"), Portuguese's "O que mudou a opinião dela?", German's "Was hat ihre Meinung geändert?" (no
 * "sich"), nor "Koje je promjene Ana prošla?", "Quais são as mudanças que …?", "Welche Veränderungen
 * hat … erlebt?".
 */
const foreignChangeQuestion = new RegExp(
  [
    // Croatian: "što se promijenilo", "što se (to) izmijenilo", "što je promijenjeno / ažurirano /
    // ispravljeno", "što sam promijenila" (a person changed it: -o, -la, -li, not what did: -lo).
    String.raw`(?:sto|sta) se(?: [\p{L}\p{N}.]+){0,3} (?:promijenil|promjenil|izmijenil|izmjenil)[oaie]`,
    String.raw`(?:sto|sta) (?:je|su|je bilo|su bile?) (?:promijenjen|promjenjen|izmijenjen|azuriran|ispravljen)[oaie]?`,
    String.raw`(?:sto|sta) (?:sam|smo|si|ste|je|su) (?:promijeni|promjeni|izmijeni|azurira|isprav(?:i|lja))(?:o|la|li|le)`,
    // "što je novo", "što ima novo(ga)", "ima li (što|nešto|išta) novo(ga)", "ima li novosti / promjena",
    // "je li se (nešto) promijenilo", "ikakve promjene", "nešto novo", "što je drukčije"
    String.raw`(?:sto|sta) (?:je|ima) (?:novo|novoga|novog|drukcije|drugacije)`,
    String.raw`ima li (?:(?:sto|sta|nesto|ista|kakvih|ikakvih) )?(?:novo|novoga|novog|novosti|promjena)`,
    String.raw`(?:je li|da li) se (?:(?:sto|sta|nesto|ista) )?(?:promijenil|promjenil|izmijenil)o`,
    String.raw`(?:nesto|ista|ikakve|ikakvih|kakve|neke) (?:novo|novoga|novog|novosti|promjene|promjena)`,
    String.raw`(?:promjene|novosti) (?:od|ovaj|ovog|ovoga|prosl\p{L}*|u|tijekom)`,
    // Portuguese: "o que mudou" (not "o que mudou a / o / sua …": what changed her mind), "o que foi
    // alterado", "o que (é que) eu mudei", "o que há de novo", "alguma novidade", "há novidades",
    // "mudou alguma coisa", "alguma mudança", "o que é diferente" (not "algumas mudanças": some a life had)
    String.raw`(?:o )?que (?:e que )?(?:mudou|mudaram|se alterou|se alteraram)(?! (?:a|o|as|os|sua|seu|suas|seus|minha|meu|minhas|meus|tua|teu|nossa|nosso|lhe|me|te|ele|ela|eles|elas)(?![\p{L}\p{N}]))`,
    String.raw`(?:o )?que (?:e que )?(?:foi|foram) (?:mudad|alterad|atualizad|corrigid|revist)[oa]s?`,
    String.raw`(?:o )?que (?:e que )?(?:eu |nos |voce |ele |ela )?(?:mudei|mudamos|mudaste|alterei|alteramos|atualizei|atualizamos)`,
    String.raw`(?:o )?que (?:e que )?(?:ha|tem|e) de (?:novo|diferente)`,
    String.raw`(?:o )?que (?:e que )?(?:e|esta) (?:novo|diferente)`,
    String.raw`(?:alguma|ha|houve|tem|que|quais as|quais foram as) (?:novidades?|mudancas?|alteracoes|alteracao|atualizacoes|atualizacao)`,
    String.raw`(?:mudou|mudaram|alterou) (?:alguma coisa|algo)|(?:alguma coisa|algo) (?:mudou|de novo|novo|diferente)`,
    String.raw`(?:novidades|mudancas|alteracoes) (?:desde|esta|nesta|este|neste|na|no|em)`,
    // German: "was hat sich (diese Woche) geändert / verändert", "was wurde geändert", "was habe ich
    // geändert", "was ist neu / anders", "was gibt es Neues", "gibt es etwas Neues", "irgendwelche
    // Änderungen / Neuigkeiten", "hat sich etwas geändert", "Neuigkeiten seit …"
    String.raw`was hat sich(?: [\p{L}\p{N}.]+){0,4} (?:geandert|verandert)`,
    String.raw`was (?:wurde|ist)(?: [\p{L}\p{N}.]+){0,4} (?:geandert|aktualisiert|korrigiert|verandert)`,
    String.raw`was (?:habe ich|haben wir|hast du|habt ihr|hat er|hat sie|haben sie)(?: [\p{L}\p{N}.]+){0,4} (?:geandert|aktualisiert|korrigiert)`,
    String.raw`was ist(?: [\p{L}\p{N}.]+){0,3} (?:neu|anders)`,
    String.raw`(?:was )?gibt(?:'s|’s|s| es)(?: (?:was|etwas|irgendwas|denn))? neues`,
    String.raw`(?:etwas|irgendwas|was) (?:neues|anders|geandert|verandert)`,
    String.raw`(?:irgendwelche|welche|gibt es|gibt's|gibts|keine) (?:anderungen|neuigkeiten|updates)`,
    String.raw`hat sich (?:etwas|was|irgendwas|viel|einiges) (?:geandert|verandert)`,
    String.raw`(?:anderungen|neuigkeiten) (?:seit|diese|im|in|letzte\p{L}*|vergangene\p{L}*)`,
  ]
    .map((p) => `(?<![\\p{L}\\p{N}])(?:${p})(?![\\p{L}\\p{N}])`)
    .join('|'),
  'u',
);

export function asksChanges(query: string): boolean {
  return changeQuestion.test(query) || foreignChangeQuestion.test(foldText(query));
}

/** A span of world time a change question asks about, [fromMs, toMs), and how the Trace names it. */
export interface ChangeSpan {
  fromMs: number;
  toMs: number;
  label: string;
}

/**
 * The span whose changes a question asks for, up to the read time (`readMs`: as_of, or now) and no
 * further: what the Brain learned after it is not known then. The time the question names (`intent`,
 * as the time lane reads it: "this week", "in November", "since Monday"), stretched to the read time
 * when it says "since" ("since 3 December" names one day, and asks about every day after it); a month
 * back when it names none ("What's new?", "lately"). Null when the question does not ask for changes,
 * or names a time still to come ("What changes next week?" asks about plans, not what was revised).
 */
export function changeSpan(query: string, intent: TimeIntent | null, readMs: number): ChangeSpan | null {
  if (!asksChanges(query)) return null;
  const end = readMs + 1;
  if (intent?.fromMs === undefined || intent.toMs === undefined)
    return { fromMs: end - changesLookBackMs, toMs: end, label: 'in the last 31 days' };
  if (intent.fromMs >= end) return null;
  // The label is the question's own words ("od ponedjeljka", "desde segunda": time-expressions.ts).
  const saidSince = sinceLabel.test(intent.label);
  const since = saidSince ? null : sinceWord.exec(query)?.[1]?.toLowerCase();
  return {
    fromMs: intent.fromMs,
    toMs: saidSince || since ? end : Math.min(intent.toMs, end),
    label: since ? `${since} ${intent.label}` : intent.label,
  };
}

/**
 * "since" as the languages say it: Portuguese "desde", German "seit"; Croatian's "od" is "from" too
 * ("od Marka"), so only a time phrase read with it says since ("od ponedjeljka": sinceLabel).
 */
const sinceWord = /(?<![\p{L}\p{N}])(since|desde|seit)(?![\p{L}\p{N}])/iu;
const sinceLabel = /^(?:since|desde|seit|od|počevši od) /iu;

/** Words of a change question that ask for changes, not for what changed: "what changed this week?". */
const changeWords = new Set(
  [
    ...`change changed changes changing new newer newest different differ update updated updates revised
   revision corrected correction anything something else lately recently recent since happened`.split(/\s+/),
    // Croatian, Portuguese and German, folded as query terms are.
    ...`promijenilo promijenila promijenili promijenio promjenilo izmijenilo promijenjeno izmijenjeno
   azurirano ispravljeno promjena promjene novo novoga novog novosti drukcije drugacije nesto ista ima
   mudou mudaram mudei mudamos mudanca mudancas alterado alterada alterou alteracao alteracoes
   atualizado atualizada atualizacao atualizacoes corrigido novidade novidades algo alguma coisa
   diferente ha tem houve desde
   geandert verandert aktualisiert korrigiert anderung anderungen neu neues neuigkeiten anders etwas
   irgendwas irgendwelche gibt gibts hat ist wurde seit`.split(/\s+/),
  ].filter(Boolean),
);

/**
 * A word of what a change question asks about: a term, met by the words it begins (matchedTerms), or a
 * name a Croatian preposition put in a case, as the forms it may be (`namesInCases`), met by a word
 * that is one of them (topicMet).
 */
export type ChangeTopic = string | readonly string[];

/**
 * The words of a change question that name what it asks about ("my dentist" of "What changed about my
 * dentist?"): its terms without those asking for changes, those only saying when (`timeWords`), and
 * the Brain's own person's names ("for Lea" asks about everything of hers). A name a Croatian
 * preposition puts in a case (`query`: "Što se promijenilo s Markom?", "Što je novo kod Marka?") is
 * the names it may be a case of, as the Records say them (namesInCases): "Markom" is met by no Record
 * saying "Marko". None: it asks about every change.
 */
export function changeTopicTerms(
  terms: readonly string[],
  timeWords: readonly string[],
  selfName: string | null,
  query = '',
): ChangeTopic[] {
  const self = new Set(foldText(selfName ?? '').match(/[\p{L}\p{N}]+/gu) ?? []);
  const time = new Set(timeWords.map((w) => foldText(w)));
  const cased = namesInCases(query);
  const topic: ChangeTopic[] = [];
  for (const t of new Set(terms)) {
    const forms = cased.get(t);
    if (forms !== undefined) {
      // Her own name in a case ("kod Lee": Lea's only) is hers: every change is of her. A case that may
      // be hers or another's ("s Ivom" of Ivo: Iva's, Ive's too) asks of the others.
      const others = forms.filter((f) => !self.has(f));
      if (!self.has(t) && others.some((f) => f !== t)) topic.push(others);
    } else if (!changeWords.has(t) && !time.has(t) && !self.has(t)) topic.push(t);
  }
  return topic;
}

/**
 * Whether text says a word of the topic: a term at a word's start (matchedTerms), a name in a case as a
 * capitalised word that is one of its forms or is a case of one of them ("Ivo", "Ivi", "Ivom" for "s
 * Ivom"), never a longer word it begins ("Tom" of "s Tomom" is not "tomorrow", "Iva" not "Ivana") nor a
 * common word in lower case ("o tome", "dana", "marke").
 */
export function topicMet(text: string, topic: ChangeTopic): boolean {
  if (typeof topic === 'string') return matchedTerms(text, [topic]).length > 0;
  for (const word of text.match(wordOf) ?? []) {
    // A name is written capitalised, as the question's was (namesInCases): "o tome" is no Tom's.
    if (!/^\p{Lu}/u.test(word)) continue;
    const folded = foldText(word);
    if (topic.includes(folded)) return true;
    if (basesOf(word).some((b) => topic.includes(foldText(b)))) return true;
    // A possessive made of the name ("Markov auto", "Ivin stan", "Tomovoj sestri") is of that one.
    for (const form of topic) {
      const stem = /[aeiou]$/u.test(form) ? form.slice(0, -1) : form;
      if (stem.length >= 2 && folded.startsWith(stem) && possessive.test(folded.slice(stem.length)))
        return true;
    }
  }
  return false;
}

const wordOf = /[\p{L}\p{M}]+/gu;
/** The endings of a Croatian possessive adjective after a name's stem: Markov, Ivina, Tomovom. */
const possessive = /^(?:ov|ev|in)(?:a|o|u|e|i|og|oga|om|ome|oj|ih|im|ima)?$/u;

/** A capitalised word, as a name is written: the only words read back from a case here. */
const capitalised = /(?<![\p{L}\p{M}\p{N}])\p{Lu}[\p{L}\p{M}]+/gu;

/**
 * Each name of the query a Croatian preposition right before it puts in a case ("s Markom", "kod
 * Marka", "sa Željkom", "o Ivani"), folded, with the names it may be a case of (name-forms.ts) and
 * itself, folded: "s Ivom" is Iva's, Ivo's or Ive's, and which of them the Records name, they say. Each
 * is a name whole: the shortest alone, as a term met by the words it begins, missed "Ivo" for "Iva"
 * and met "tomorrow" for "Tom". Only a word written capitalised, as a name is: "s autom" or "o tome"
 * is no name's case.
 */
function namesInCases(query: string): Map<string, readonly string[]> {
  const cased = new Map<string, readonly string[]>();
  for (const m of matchesOf(capitalised, query)) {
    if (!afterPreposition(query, m.index)) continue;
    const bases = basesOf(m[0]);
    if (bases.length > 0) cased.set(foldText(m[0]), [...new Set([...bases, m[0]].map((b) => foldText(b)))]);
  }
  return cased;
}
