import { isQuestion } from './unmarked-question.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/*
 * A taste or a habit the speaker says is over, in so many words: "I don't drink tea anymore", "I no
 * longer eat meat", "I stopped playing tennis", "I've given up coffee", "I switched from tea to coffee".
 * Read against the same speaker's earlier statements of no slot (engine/derive/ended-tastes.ts): the
 * latest one that states that taste or habit of the same thing in the first person ("I prefer tea in the
 * morning.") is superseded by the sentence, which is its next version. Deliberately narrow, since a
 * superseded line leaves Context: the object must be the head of what the earlier verb takes ("green
 * tea", not "the tea shop" nor "coffee and tea"), and the verbs must be one verb or both of tasting and
 * taking food and drink ("I love tea" and "I don't drink tea anymore"; not "I play tennis" and "I don't
 * watch tennis anymore"). Knowing that steak is meat is not the rules' (docs/decisions/local-engine.md).
 */

/** What a sentence says the speaker does no more: the verb (base form, or `anyTaste`) and its object. */
export interface TasteEnded {
  /** The verb's base form ("drink"), or `anyTaste` where only the thing is said ("I gave up coffee"). */
  verb: string;
  /** The head word of what the verb took, lower case: "tea" of "green tea". */
  object: string;
}

/** The verb of an ending that names only the thing given up: any verb of tasting or taking food and drink. */
export const anyTaste = '*';

/**
 * Verbs of liking and of taking food and drink: an ending said by one of them ends a statement by any
 * other ("I prefer tea", then "I don't drink tea anymore").
 */
const tastes = ['like', 'love', 'enjoy', 'prefer', 'adore', 'drink', 'eat'];
/** Habits: an ending ends only a statement by the same verb ("I play tennis", "I no longer play tennis"). */
const habits = ['play', 'smoke', 'watch', 'cook', 'bake', 'wear', 'practise', 'practice', 'use'];
const verbs = [...tastes, ...habits];

/** A verb's "-ing" form ("drinking", "smoking", "preferring"). */
function ingOf(verb: string): string {
  if (verb === 'prefer') return 'preferring';
  if (/[^e]e$/u.test(verb)) return `${verb.slice(0, -1)}ing`;
  return `${verb}ing`;
}

const baseForms = verbs.join('|');
const ingForms = verbs.map(ingOf).join('|');
const baseOfIng = new Map(verbs.map((v) => [ingOf(v), v]));

/** Words that end what a verb takes: prepositions, conjunctions, adverbs of time and degree. */
const stops = new Set(
  `in on at for with from to of by and or but nor so than as when while if because since during before
  after until every each most mostly usually always often sometimes never anymore any more longer now
  nowadays these those days lately again too also either instead anyway all much daily really then
  just only over there here though tho lol haha last next yesterday today tonight
  tomorrow ago`.split(/\s+/u),
);
/** Words before the thing, not of it: "the", "my", "a lot of". */
const determiners = /^(?:(?:a\s+lot\s+of|lots\s+of|a|an|the|my|this|that|some|any|much|more)\s+)*/iu;

/**
 * The words of the thing a verb takes, lower case, up to three, from the words after it: "green tea" of
 * "green tea in the morning", "the tea shop" gives "tea shop", "coffee and tea" gives "coffee"; none where
 * no word of a thing follows.
 */
export function thingWords(after: string): string[] {
  const rest = after.replace(determiners, '');
  const words: string[] = [];
  for (const m of matchesOf(/[\p{L}'’-]+|[^\p{L}\s]/gu, rest)) {
    const w = m[0].toLowerCase();
    if (!/^\p{L}/u.test(w) || stops.has(w) || words.length === 3) break;
    words.push(w);
  }
  return words;
}

/** The head word of what a verb takes ("tea" of "green tea in the morning"), or null (thingWords). */
function headOf(after: string): string | null {
  return thingWords(after).at(-1) ?? null;
}

/** Where a clause of the speaker's own may open: the sentence's start, a stop mark or "and", "but", "so". */
export const opens = String.raw`(?:^|[,;:—–]\s*|(?<![\p{L}])(?:and|but|so|now|actually|honestly)\s+)`;
/** What may stand before the speaker's "I" at the sentence's start: "Actually, …", "ok so …". */
export const lead = String.raw`(?:(?:actually|ok(?:ay)?|so|oh|well|yeah|also|and|but|update|honestly|fyi|btw|fun\s+fact)[,:!.—–-]*\s+)*`;
const adverbs = String.raw`(?:(?:really|just|finally|recently|totally|completely|basically|pretty\s+much)\s+)*`;

/** "I don't drink tea anymore", "I don't really like coffee any more", "I do not eat meat any longer". */
const dontAnymore = new RegExp(
  String.raw`${opens}${lead}I\s+(?:do\s+not|don['’]?t)\s+${adverbs}(?<verb>${baseForms})\s+(?<what>[^\s,.;!?][^,.;!?]*)`,
  'giu',
);
/** "I no longer eat meat", "I no longer play tennis". */
const noLonger = new RegExp(
  String.raw`${opens}${lead}I\s+no\s+longer\s+${adverbs}(?<verb>${baseForms})\s+(?<what>[^\s,.;!?][^,.;!?]*)`,
  'giu',
);
/** "I stopped drinking coffee", "I've quit smoking cigars", "I have stopped eating meat". */
const stopped = new RegExp(
  String.raw`${opens}${lead}I(?:['’]ve|\s+have)?\s+${adverbs}(?:stopped|quit)\s+(?<ing>${ingForms})\s+(?<what>[^\s,.;!?][^,.;!?]*)`,
  'giu',
);
/** "I gave up coffee", "I've given up drinking coffee", "I switched from tea to coffee". */
const gaveUp = new RegExp(
  String.raw`${opens}${lead}I(?:['’]ve|\s+have)?\s+${adverbs}(?:(?:gave|given)\s+up|switched\s+(?:over\s+)?from)\s+(?:(?<ing>${ingForms})\s+)?(?<what>[^\s,.;!?][^,.;!?]*)`,
  'giu',
);

/**
 * The everyday forms, with the thing alone: "I'm quitting coffee", "I quit coffee", "I've stopped
 * sugar", "I'm giving up soda", "No more coffee for me". Read only where the thing is a common noun and
 * no "-ing" (thingOnly).
 */
const quitsThing = new RegExp(
  String.raw`${opens}${lead}(?:I(?:['’]m|\s+am)\s+${adverbs}(?:quitting|stopping|giving\s+up)|I(?:['’]ve|\s+have)?\s+${adverbs}(?:quit|stopped))\s+(?<what>[^\s,.;!?][^,.;!?]*)`,
  'giu',
);
const noMore = new RegExp(String.raw`${opens}${lead}no\s+more\s+(?<what>[^\s,.;!?][^,.;!?]*)`, 'giu');
/** What one quits that is no taste nor habit: a job or a school ("I quit my job at Acme"). */
const notATaste = new Set(
  `job jobs work position role career company team band school college university uni course class
  classes program programme than`.split(/\s+/u),
);
/**
 * Whether the thing said with a bare quit or "no more" is one ("coffee", "sugar"): not a name one quits
 * ("I quit Feedzai" is a job), not a verb's "-ing" ("I stopped smoking." says no object, and "I'm
 * quitting smoking" no taste of a thing), not a job nor a school, not "no more than one".
 */
function thingOnly(what: string): boolean {
  const first = /^[\p{L}'’-]+/u.exec(what.replace(determiners, ''))?.[0];
  return (
    first !== undefined &&
    !/^\p{Lu}/u.test(first) &&
    !/ing$/iu.test(first) &&
    !notATaste.has(first.toLowerCase()) &&
    !thingWords(what).some((w) => notATaste.has(w))
  );
}

const monthNames = 'january|february|march|april|may|june|july|august|september|october|november|december';
/**
 * A stop for a while, not for good: "for Lent", "for a week", "for January", "dry January", "until
 * Christmas", "for now". Read right after the thing quit, or as the clause after it ("…, at least for
 * now"): a time word elsewhere ("I don't drink coffee anymore, it kept me up until 3am.") limits
 * nothing.
 */
const forAWhile = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:for\s+(?:lent|now|the\s+time\s+being|a\s+(?:while|bit)|(?:(?:a|an|one|two|three|four|five|six|\d+|a\s+few|a\s+couple(?:\s+of)?|the|this|next)\s+)(?:days?|weeks?|weekends?|months?|summer|holidays)|${monthNames})|dry\s+january|sober\s+october|until|till|['’]?til|temporarily|during\s+lent)(?![\p{L}\p{N}])`,
  'iu',
);
/** A limit opening what follows the thing: its clause's words, or the next clause ("…, at least for now"). */
const limitFirst = new RegExp(
  String.raw`^(?:\s*(?:any\s?more|any\s+longer|completely|entirely|again|at\s+least|just|only|but\s+only|[,;—–-])(?![\p{L}\p{N}]))*\s*(?:${forAWhile.source})`,
  'iu',
);
/**
 * What may follow the thing in the everyday forms (quitsThing, noMore) for the taste to be over:
 * "for me", "for good", "from now on", when it was quit ("last week"). Anything else makes it a part
 * or someone else's ("No more coffee in the office", "after 6pm", "for the kids", "with sugar").
 */
const partOnly = new RegExp(
  String.raw`^(?:in(?!\s+(?:${monthNames}|\d{4})(?![\p{L}\p{N}]))|at|on|during|while|before|after|with|without|except|outside|around|for(?!\s+(?:me|myself|good|real|life|ever|my\s+health)(?![\p{L}\p{N}])))(?![\p{L}\p{N}])`,
  'iu',
);
/**
 * For whose sake one quits: "I quit coffee for my wife", "… for the kids", "… for her". Said of the
 * speaker's quitting (quitsThing) it is still hers; "No more chocolate for the kids" is theirs.
 */
const forSomeone =
  /^for\s+(?:(?:my|our)\s+(?:[\p{L}-]+\s+)?(?:wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|kids?|children|son|daughter|family|baby|babies|mom|mum|mother|dad|father|parents|doctor|health|sake)|the\s+(?:kids|children|baby|family)|(?:her|him|them|you|us)(?:\s+sake)?)(?![\p{L}\p{N}])/iu;
/**
 * Or by their name ("I quit coffee for Petra", "… for Petra's sake"): a person's only where it says
 * whose sake, or the Brain knows a person by it (tasteEnded's `isPerson`). A capitalised word is as
 * often a day, a feast or a challenge ("for Sunday", "for Dry January", "for Veganuary"): a stop for
 * a while, as "for Lent" is, which ends nothing. Not a feast's either way ("for Christmas").
 */
const forName = /^for\s+(\p{Lu}\p{Ll}+)(?![\p{L}\p{N}])(['’]s\s+sake(?![\p{L}\p{N}]))?/u;
const feasts = /^for\s+(?:christmas|easter|ramadan|advent|lent|passover|diwali|new\s+year)/iu;
/** "No more meetings today": no more of it for the day, not for good. */
const forTheDay =
  /(?<![\p{L}\p{N}])(?:today|tonight|this\s+(?:morning|afternoon|evening|week|weekend|month))(?![\p{L}\p{N}])/iu;
/**
 * Whose words a clause is, where the sentence reports another's: "Marko said: I quit coffee.", "my
 * sister told me I don't drink tea anymore" (the speaker's own taste is not what ends).
 */
const reportedLead =
  /(?<![\p{L}\p{N}])(?:said|says|say|told\s+(?:me|us|him|her|them)|tells\s+(?:me|us|him|her|them)|asked|asks|wrote|writes|texted|claimed|claims|replied|announced|thinks|thought|goes|went\s+like)(?:\s+(?:to\s+)?(?:me|us|him|her|them))?(?:\s+that)?[\s:,—–"“‘'-]*$/iu;
/** Whether a clause matched at `at` of `s` is someone else's, reported or quoted. */
function reportedAt(s: string, at: number): boolean {
  const before = s.slice(0, at);
  return (reportedLead.test(before) && !agreeing.test(before)) || /["“]/u.test(before);
}
/** "Like Marko says, I quit coffee": the speaker's own words, said as another says too. */
const agreeing = /^\s*(?:just\s+)?(?:like|as)\s[^,:;]*(?<!\p{L})(?:says|said|say),?\s*$/iu;

/** The words of a clause's thing after it: " for a week" of "coffee for a week" (thingWords). */
function afterThing(what: string): string {
  const rest = what.replace(determiners, '');
  let at = 0;
  for (const w of thingWords(rest)) at = rest.toLowerCase().indexOf(w, at) + w.length;
  return rest.slice(at);
}

/**
 * Whether what follows the thing in an everyday ending (quitsThing, noMore) leaves it a stop of a
 * part, a day's or another's: the words of `what` after the thing's own (thingWords).
 */
function onlyAPart(what: string, re: RegExp, isPerson: (name: string) => boolean): boolean {
  const tail = afterThing(what).trim();
  const named = forName.exec(tail);
  const forTheirSake =
    re === quitsThing &&
    (forSomeone.test(tail) ||
      (named !== null && !feasts.test(tail) && (named[2] !== undefined || isPerson(named[1]!))));
  return (!forTheirSake && partOnly.test(tail)) || (re === noMore && forTheDay.test(tail));
}

/**
 * The taste or habit a sentence of the speaker's says is over, or null. `isPerson`: whether the Brain
 * knows a person by a name said alone ("I quit coffee for Petra."); none known where not given.
 */
export function tasteEnded(
  sentence: string,
  isPerson: (name: string) => boolean = () => false,
): TasteEnded | null {
  const s = sentence.trim();
  if (s.length > 300 || isQuestion(s)) return null;
  for (const re of [dontAnymore, noLonger, stopped, gaveUp, quitsThing, noMore])
    for (const m of matchesOf(re, s)) {
      if (reportedAt(s, m.index)) continue;
      // "I quit coffee for a week", "No more chocolate until Christmas!": a stop for a while.
      if (limitFirst.test(afterThing(m.groups!['what']!) + s.slice(m.index + m[0].length))) continue;
      const everyday = re === quitsThing || re === noMore;
      if (everyday && (!thingOnly(m.groups!['what']!) || onlyAPart(m.groups!['what']!, re, isPerson)))
        continue;
      const g = m.groups!;
      const verb =
        g['verb'] !== undefined
          ? g['verb'].toLowerCase()
          : g['ing'] !== undefined
            ? baseOfIng.get(g['ing'].toLowerCase())!
            : anyTaste;
      let what = g['what']!;
      if (re === dontAnymore) {
        // "I don't drink tea anymore these days": the thing is before the "anymore", which must be said.
        const end = /(?<![\p{L}])(?:any\s?more|any\s+longer)(?![\p{L}])/iu.exec(what);
        if (end === null) continue;
        what = what.slice(0, end.index);
      }
      // "switched from tea to coffee": what was left is before the "to".
      what = what.split(/\sto\s/iu)[0]!;
      const object = headOf(what);
      if (object !== null) return { verb, object };
    }
  return null;
}

/** One word of a thing, in the singular or the plural ("cigar", "cigars"; "tomato", "tomatoes"). */
export const sameThing = (a: string, b: string) =>
  a === b || a === `${b}s` || b === `${a}s` || a === `${b}es` || b === `${a}es`;

/**
 * Coffee by the drink's name: "I love a strong espresso" is a taste of coffee, which "I'm quitting
 * coffee" ends. The one kind the rules know, since it is how coffee is most often said;
 * the reverse does not hold ("I gave up espresso" leaves "I love coffee"). Knowing that steak is meat
 * stays out (docs/decisions/local-engine.md).
 */
const coffees = [
  'espresso',
  'cappuccino',
  'latte',
  'americano',
  'macchiato',
  'cortado',
  'lungo',
  'ristretto',
];

/** Whether the thing said is the thing ended, or a kind of it ("espresso" of "coffee"). */
function isThing(said: string, ended: string): boolean {
  return sameThing(said, ended) || (sameThing(ended, 'coffee') && coffees.some((c) => sameThing(said, c)));
}

/** Whether one verb's statement is ended by an ending said with another ("prefer" by "drink"). */
function verbEnded(said: string, ended: string): boolean {
  if (said === ended) return true;
  const tasteOf = (v: string) => v === anyTaste || tastes.includes(v);
  return tastes.includes(said) && tasteOf(ended);
}

/** A clause that says a taste or habit: "I prefer tea", "I usually drink green tea", "I love drinking tea". */
const saysTasteClause = new RegExp(
  String.raw`${opens}${lead}I\s+(?:(?:usually|always|mostly|mainly|really|still|also|just|totally|absolutely|definitely|normally|generally|only|often|do)\s+)*(?<verb>${baseForms})\s+(?:(?:to\s+(?<to>${baseForms})|(?<ing>${ingForms}))\s+)?(?<what>[^\s,.;!?][^,.;!?]*)`,
  'giu',
);

/**
 * Whether a statement of the speaker's states the taste or habit the ending ends ("I prefer tea in the
 * morning, green tea mostly." for "I don't drink tea anymore"): a clause of theirs, not negated, whose
 * verb the ending reaches and whose object's head is the thing, in the first person: a message's
 * statement is its sentence as said. Whose it is, admission checks.
 */
export function saysTaste(statement: string, ended: TasteEnded): boolean {
  if (tasteEnded(statement) !== null) return false;
  for (const m of matchesOf(saysTasteClause, statement)) {
    const g = m.groups!;
    const said = g['verb']!.toLowerCase();
    // "I like drinking tea", "I love to eat sushi": the verb of the thing is the second.
    const inner = g['to'] ?? (g['ing'] !== undefined ? baseOfIng.get(g['ing'].toLowerCase()) : undefined);
    const verbsSaid = inner === undefined ? [said] : [said, inner.toLowerCase()];
    if (!verbsSaid.some((v) => verbEnded(v, ended.verb))) continue;
    const head = headOf(g['what']!);
    if (head !== null && isThing(head, ended.object)) return true;
  }
  // "I'm back on coffee": the taste again, which a later "I quit coffee" ends in turn.
  const back = tasteResumed(statement);
  return back !== null && verbEnded(back.verb, ended.verb) && isThing(back.object, ended.object);
}

/**
 * The words a statement of the taste must hold, for the store's search (anywhere in the statement): the
 * thing, and its singular where it ends as a plural may ("cigars" is found by "cigar" too).
 */
export function tasteWords(ended: TasteEnded): string[] {
  // The stem holds both: "cigar" is in "cigars", "tomato" in "tomatoes".
  const stem = ended.object.replace(/e?s$/u, '');
  return [stem.length > 2 ? stem : ended.object, ...(sameThing(ended.object, 'coffee') ? coffees : [])];
}

/**
 * "I'm back on coffee", "back to drinking coffee", "I've started drinking coffee again", "I started
 * sugar again": a taste or habit taken up again after the speaker said it was over. Read against her
 * latest current ending of the same thing (engine/derive/ended-tastes.ts), which it supersedes as its
 * next version: the quitting held until then. "I like tea again in the evenings" is not one: liking is
 * no taking up, and a part of the day leaves the rest ended.
 */
const backOn = new RegExp(
  String.raw`${opens}${lead}(?:I(?:['’]m|\s+am)\s+)?${adverbs}back\s+(?:on|to)\s+(?:(?<ing>${ingForms})\s+)?(?<what>[^\s,.;!?][^,.;!?]*)`,
  'giu',
);
const startedAgain = new RegExp(
  String.raw`${opens}${lead}I(?:['’]ve|\s+have)?\s+${adverbs}(?:started|began|begun|restarted)\s+(?:(?<ing>${ingForms})\s+)?(?<what>[^\s,.;!?][^,.;!?]*)`,
  'giu',
);

/** The taste or habit a sentence of the speaker's says is taken up again, or null (backOn, startedAgain). */
export function tasteResumed(sentence: string): TasteEnded | null {
  const s = sentence.trim();
  if (s.length > 300 || isQuestion(s)) return null;
  for (const re of [backOn, startedAgain])
    for (const m of matchesOf(re, s)) {
      if (reportedAt(s, m.index)) continue;
      const g = m.groups!;
      let what = g['what']!;
      if (re === startedAgain) {
        // "I started drinking coffee again": the thing is before the "again", which must be said.
        const again = /(?<![\p{L}])again(?![\p{L}])/iu.exec(what);
        if (again === null) continue;
        what = what.slice(0, again.index);
      }
      const ing = g['ing'];
      if (ing === undefined && !thingOnly(what)) continue;
      const object = headOf(what);
      if (object !== null)
        return { verb: ing === undefined ? anyTaste : baseOfIng.get(ing.toLowerCase())!, object };
    }
  return null;
}

/**
 * Whether a statement of the speaker's says the taste or habit taken up again was over ("I'm quitting
 * coffee, only green tea from now on." for "I'm back on coffee"): an ending of the same thing, or of
 * the kind said ("I gave up coffee" for "back on espresso"), by a verb that reaches it.
 */
export function saysEnded(statement: string, resumed: TasteEnded): boolean {
  const ended = tasteEnded(statement);
  return (
    ended !== null &&
    (verbEnded(ended.verb, resumed.verb) || verbEnded(resumed.verb, ended.verb)) &&
    (isThing(ended.object, resumed.object) || isThing(resumed.object, ended.object))
  );
}

/** The words a statement ending the taste must hold: the thing, and coffee for a kind of it. */
export function endedWords(resumed: TasteEnded): string[] {
  const [stem] = tasteWords(resumed);
  return [stem!, ...(coffees.some((c) => sameThing(resumed.object, c)) ? ['coffee'] : [])];
}
