import { isQuestion } from './unmarked-question.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/**
 * A plan the speaker says is off: the slot it was to hold, and the value named, if one is ("the porto
 * move is off": Porto; "the offer fell through": whichever job was to come).
 */
export interface CalledOff {
  predicate: 'works at' | 'lives in';
  values?: string[];
  /**
   * The value said to hold on ("we're staying in lisbon after all"): plans are withdrawn only where it
   * is the value in force then, so "staying in tonight after all" withdraws nothing.
   */
  keeps?: string;
}

/**
 * Words before a piece of news that say nothing of it: "ugh, ", "update: ", "bad news, ", "so yeah ".
 * "so yeah" is read as "so" then "yeah" only: two readings of a repeated lead-in backtrack exponentially.
 */
export const newsLeadIns = String.raw`(?:(?:ugh|honestly|update|news|bad\s+news|sad\s+news|so|well|welp|yeah|sadly|unfortunately|anyway|anyways|fyi|btw|also|and|ok|okay|guess\s+what|turns\s+out|lol|damn|wow|fml)[\s,:!.—–-]+)*`;
/** A name of up to three words, none of them someone's ("carla's"): lazy, so the words after it stay. */
const name = (n: number, own = false) =>
  String.raw`(?<v${n}>${own ? '' : String.raw`(?![\p{L}\p{M}]+['’]s\s)`}(?!(?:the|my|our|their|new|this|that|a|an|job|offer|move|whole)(?![\p{L}\p{N}]))[\p{L}\p{N}][\p{L}\p{M}\p{N}&.-]*(?:\s+[\p{L}\p{N}][\p{L}\p{M}\p{N}&.-]*){0,2}?)`;
/** How a plan is said to be off: "is off", "fell through", "got cancelled", "isn't happening". */
const isOff = String.raw`(?:is|['’]s)\s+(?:off(?:\s+the\s+table)?|cancell?ed|not\s+happening)|got\s+cancell?ed|(?:was\s+)?cancell?ed|fell\s+through|has\s+fallen\s+through|isn['’]?t\s+happening|is\s+dead|didn['’]?t\s+work\s+out|won['’]?t\s+happen`;
/** "after all", "anymore": what makes "not moving" a plan dropped rather than one never made. */
const afterAll = String.raw`(?:after\s+all|any\s?more|any\s+longer)`;
/** A sentence that ends with the plan: its closing marks, a sad face, a "lol". */
const endsThere = /^(?:[\s.!…]|:\(|:'\(|😭|😢|😞|lol|ugh|sadly)*$/iu;
/** How it went after a comma, a dash or "so" ("…, so i'm staying at feedzai"). */
const goesOn = /^(?:\s*[,;—–-]|\s+(?:so|and|because|cause)(?![\p{L}\p{N}]))/iu;
/** Words after it that take it back or doubt it: "…, jk", "…, i think", "…, maybe". */
const takenBack =
  /(?<![\p{L}\p{N}])(?:jk|just\s+kidding|kidding|not\s+really|back\s+on|i\s+think|i\s+guess|maybe|probably|not\s+sure|idk)(?![\p{L}\p{N}])/iu;
/** A stay that is a trip's: "we decided to stay in lisbon after all, the hotel in porto was full". */
const aTrip =
  /(?<![\p{L}\p{N}])(?:hotel|hostel|airbnb|trip|flight|weekend|holiday|holidays|vacation|christmas|new\s+years?|easter|visit|tonight|the\s+night)(?![\p{L}\p{N}])/iu;
/** What follows the plan called off leaves it so: nothing more, or how it went, unless that takes it back. */
const leavesItOff = (rest: string): boolean =>
  endsThere.test(rest) || (goesOn.test(rest) && !takenBack.test(rest));

const job = String.raw`(?:job|offer|position|role)`;
/** A job plan named without its employer: a bare "offer" may be a flat's ("the offer fell through"). */
const jobPlan = String.raw`(?:(?:new\s+)?(?:job|position|role)(?:\s+offer)?|new\s+offer)`;
const move = String.raw`(?:move|moving\s+plans?|relocation)`;
const we = String.raw`(?:i|we)(?:['’]m|['’]re|\s+am|\s+are)`;

const patterns: ReadonlyArray<{ predicate: CalledOff['predicate']; re: RegExp }> = [
  // "the new job fell through", "the offer is off", "my job offer fell through"
  {
    predicate: 'works at',
    re: new RegExp(String.raw`^${newsLeadIns}(?:the|my)\s+${jobPlan}\s+(?:${isOff})(?![\p{L}\p{N}])`, 'iu'),
  },
  // "the revolut job fell through", "revolut offer is off", "the job at revolut fell through"
  {
    predicate: 'works at',
    re: new RegExp(
      String.raw`^${newsLeadIns}(?:the\s+)?(?:${name(1)}\s+${job}|${job}\s+(?:at|with|from)\s+${name(2)})\s+(?:${isOff})(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
  // "revolut pulled the offer", "they withdrew my offer", "Revolut rescinded their offer"
  {
    predicate: 'works at',
    re: new RegExp(
      String.raw`^${newsLeadIns}(?:they|${name(1)})\s+(?:pulled|withdrew|rescinded|retracted|revoked|cancell?ed|took\s+back)\s+(?:the|their|my|its|his|her)\s+(?:job\s+)?offer(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
  // "i'm not starting at revolut after all", "not joining revolut anymore"
  {
    predicate: 'works at',
    re: new RegExp(
      String.raw`^${newsLeadIns}(?:${we}\s+)?not\s+(?:starting\s+(?:at|with)|joining|going\s+to)\s+${name(1)}\s+${afterAll}(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
  // "i won't be starting at revolut after all"
  {
    predicate: 'works at',
    re: new RegExp(
      String.raw`^${newsLeadIns}(?:i|we)\s+won['’]?t\s+be\s+(?:starting\s+(?:at|with)|joining)\s+${name(1)}(?:\s+${afterAll})?(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
  // "i turned down the revolut offer", "declined revolut's offer", "turned down the offer from revolut"
  {
    predicate: 'works at',
    re: new RegExp(
      String.raw`^${newsLeadIns}(?:i\s+)?(?:ended\s+up\s+)?(?:turned\s+down|declined|rejected)\s+(?:the\s+)?(?:${name(1, true)}(?:['’]s)?\s+offer|offer\s+(?:from|at)\s+${name(2)})(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
  // "i'm staying at feedzai after all": the job of now holds on.
  {
    predicate: 'works at',
    re: new RegExp(
      String.raw`^${newsLeadIns}(?:${we}\s+|(?:i|we)\s+decided\s+to\s+)?stay(?:ing)?\s+(?:at|with)\s+(?<keep1>\S+(?:\s+\S+)?)\s+${afterAll}(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
  // "the move is off", "our moving plans fell through"
  {
    predicate: 'lives in',
    re: new RegExp(
      String.raw`^${newsLeadIns}(?:the|our|my)\s+(?:big\s+)?${move}\s+(?:${isOff})(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
  // "the porto move is off", "the move to porto fell through", "our move to porto is cancelled"
  {
    predicate: 'lives in',
    re: new RegExp(
      String.raw`^${newsLeadIns}(?:the|our|my)\s+(?:${name(1)}\s+${move}|${move}\s+to\s+${name(2)})\s+(?:${isOff})(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
  // "we're not moving to porto after all", "not moving anymore"
  {
    predicate: 'lives in',
    re: new RegExp(
      String.raw`^${newsLeadIns}(?:${we}\s+)?not\s+moving(?:\s+to\s+${name(1)})?\s+${afterAll}(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
  // "we decided not to move to porto", "we decided against moving to porto"
  {
    predicate: 'lives in',
    re: new RegExp(
      String.raw`^${newsLeadIns}(?:i|we)\s+decided\s+(?:not\s+to\s+move|against\s+moving)(?:\s+to\s+${name(1)})?(?:\s+${afterAll})?(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
  // "we're staying in lisbon after all", "staying put after all": the home of now holds on.
  {
    predicate: 'lives in',
    re: new RegExp(
      String.raw`^${newsLeadIns}(?:${we}\s+|(?:i|we)\s+decided\s+to\s+)?stay(?:ing)?\s+(?:put|(?:in|here\s+in)\s+(?<keep2>\S+(?:\s+\S+)?))\s+${afterAll}(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
];

/**
 * The plan a sentence of the speaker's own says is off, or null: "the porto move is off", "revolut
 * pulled the offer :(", "i'm not starting at revolut after all". Not a question, a doubt ("i think the
 * move might be off") or one taken back in the same sentence ("…, jk").
 */
export function planCalledOff(s: string): CalledOff | null {
  if (!offHint.test(s) || isQuestion(s)) return null;
  // "Ok, decided: the porto move is off.": the news may open a later clause.
  return readFromAClause(s, calledOffAt, doubtedBefore);
}

/**
 * What READ makes of S, or of the first later clause of it that READ makes something of (after a colon,
 * a semicolon, a dash or a comma), as long as the words before that clause are the speaker's own and
 * neither doubt it (DOUBTED) nor pass on another's (passedOn); null otherwise.
 */
export function readFromAClause<T>(s: string, read: (clause: string) => T | null, doubted: RegExp): T | null {
  const whole = read(s);
  if (whole !== null) return whole;
  for (const m of matchesOf(/(?:[:;]|\s[—–-]|,)\s+(?=\S)/gu, s)) {
    const at = m.index + m[0].length;
    if (doubted.test(s.slice(0, at)) || passedOn.test(s.slice(0, at))) return null;
    const later = read(s.slice(at));
    if (later !== null) return later;
  }
  return null;
}
/** Words before a clause that make what follows another's: "Marko said, the trip is off". */
const passedOn =
  /(?<![\p{L}\p{N}])(?:said|says|say|told|tells|thinks?|thought|heard|rumou?r|apparently|asked|wrote|writes|texted)(?![\p{L}\p{N}])/iu;
/** Words before a clause that make it a condition or a doubt: "If it rains, the move is off". */
const doubtedBefore =
  /(?<![\p{L}\p{N}])(?:if|unless|when|whether|maybe|might|may|could|would|should|not|n['’]t|hope|hoping|afraid|worried)(?![\p{L}\p{N}])/iu;

/** The plan called off by a sentence (or a later clause of it, planCalledOff) that opens with the news. */
function calledOffAt(s: string): CalledOff | null {
  for (const { predicate, re } of patterns) {
    const m = re.exec(s);
    if (!m) continue;
    if (!leavesItOff(s.slice(m[0].length))) return null;
    const named = Object.entries(m.groups ?? {}).find(([k, v]) => /^v\d$/u.test(k) && v !== undefined);
    let v = named?.[1];
    while (v !== undefined && /[.!,;:]$/u.test(v)) v = v.slice(0, -1);
    const keeps = m.groups?.['keep1'] ?? m.groups?.['keep2'];
    if (keeps !== undefined) return aTrip.test(s) ? null : { predicate, keeps };
    return v ? { predicate, values: [v] } : { predicate };
  }
  return null;
}

/** A cheap test of whether any pattern could match: most sentences say none of these words. */
const offHint =
  /(?<![\p{L}\p{N}])(?:off|cancell?ed|happening|through|dead|work\s+out|happen|offer|after\s+all|any\s?more|any\s+longer|decided|won['’]?t)(?![\p{L}\p{N}])/iu;

/** "Change of plans", "plans changed", "new plan": the plan said before is not the one that holds. */
const changeOfPlans = String.raw`(?:(?:a\s+)?change\s+of\s+plans?|(?:the\s+|our\s+|my\s+)?plans?\s+(?:have\s+|has\s+)?changed|new\s+plan)`;
const opensChanged = new RegExp(String.raw`^\s*${newsLeadIns}${changeOfPlans}(?![\p{L}\p{N}])`, 'iu');
const changedAlone = new RegExp(String.raw`^\s*${newsLeadIns}${changeOfPlans}$`, 'iu');
const endsInstead = /(?<![\p{L}\p{N}])instead[\s.!…]*$/iu;
// "Instead" takes the place of a plan only beside a choice or a move ("I moved to Porto instead", "took
// the job at Spotify instead"): after a state it is as often a contrast ("Most of my friends live in
// Lisbon. I live in Porto instead.").
const choseInstead =
  /(?<![\p{L}\p{N}])(?:moved|moving|move|relocated|relocating|went|going|took|taking|accepted|chose|chosen|decided|ended\s+up|signed|joined|picked|settled)(?![\p{L}\p{N}])/iu;

/**
 * Whether the sentence `quote` of `text` is given as what holds in place of a plan: it opens with a
 * change of plans ("Change of plans, I live in Porto now"), the sentence just before it is one
 * ("Change of plans! I live in Porto now."), or it ends with "instead" after a choice or a move ("I
 * moved to Porto instead").
 * A value said without it may be the one held until the plan's day ("I live in Porto" a week before
 * moving to Lisbon); said so, it is the plan's end too.
 */
export function saysPlansChanged(text: string, quote: string): boolean {
  if (opensChanged.test(quote) || (endsInstead.test(quote) && choseInstead.test(quote))) return true;
  // The sentence before, found by hand: a pattern tried at each sentence end of a long text backtracks.
  let end = text.indexOf(quote);
  while (end > 0 && /[\s.!…:;,—–-]/u.test(text[end - 1]!)) end--;
  let start = end;
  while (start > 0 && !/[.!?…\n]/u.test(text[start - 1]!)) start--;
  return end > 0 && changedAlone.test(text.slice(start, end));
}
