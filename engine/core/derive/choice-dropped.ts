import { lead, opens, sameThing, thingWords } from './taste-ended.ts';
import { isQuestion } from './unmarked-question.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/*
 * A choice the speaker (alone or with others: "we") says is off, in so many words: "We are not doing
 * SQLite after all", "We decided against Hetzner", "We switched from SQLite to PostgreSQL", "We'll go
 * with Postgres instead of SQLite". Read against the same speaker's earlier statements of no slot
 * (engine/derive/ended-tastes.ts, which reads tastes and choices alike): the latest one that says the
 * choice was made ("We decided to use SQLite for the desktop store.") is superseded by the sentence, its
 * next version. Narrow on purpose, since a superseded line leaves Context: the earlier sentence must say
 * a choice by a verb of choosing, of a thing whose words hold every word the dropping names ("the
 * Hetzner box" is not dropped by "not doing the AWS box after all").
 */

/** What a sentence says is off: the words of the thing, lower case ("sqlite", "hetzner box"). */
export interface ChoiceDropped {
  words: string[];
  /**
   * How the earlier statement is found by them, where not as the thing chosen (saysChoice):
   * - `decision`: a decision the words name ("We reversed the kickoff decision": "kickoff"), a
   *   statement saying it decided, whose words hold each of them;
   * - `chosen`: what another value is said in place of ("…, not React Native"), a choice whose words
   *   after its verb hold each of them ("we decided to build the onboarding flow in React Native").
   */
  by?: 'decision' | 'chosen';
}

const who = String.raw`(?:we|I)`;
const thing = String.raw`(?<what>[^\s,.;!?][^,.;!?]*)`;
/** Verbs a choice is carried out by, in the "-ing" form: "not doing SQLite", "no longer using it". */
const doing = String.raw`(?:doing|using|going\s+(?:with|for)|picking|choosing|building\s+on|running)`;
/** What says the choice was made and is now off, after the thing: "… after all", "… anymore". */
const offMarker = /(?<![\p{L}])(?:after\s+all|any\s?more|any\s+longer)(?![\p{L}])/iu;

/** "We are not doing SQLite after all", "I'm not using Notion anymore". */
const notAfterAll = new RegExp(
  String.raw`${opens}${lead}${who}\s*(?:are|['’]re|am|['’]m)\s+not\s+${doing}\s+${thing}`,
  'giu',
);
/** "We won't use SQLite after all", "We don't use Jira anymore". */
const wontAfterAll = new RegExp(
  String.raw`${opens}${lead}${who}\s+(?:won['’]?t|will\s+not|don['’]?t|do\s+not)\s+(?:use|do|go\s+with|pick|choose|run)\s+${thing}`,
  'giu',
);
/** "We're no longer using Jira", "We no longer use Jira". */
const noLonger = new RegExp(
  String.raw`${opens}${lead}${who}\s*(?:(?:are|['’]re|am|['’]m)\s+)?no\s+longer\s+(?:${doing}|use|run)\s+${thing}`,
  'giu',
);
/** "We decided against Hetzner", "We've agreed against using SQLite", "We dropped Jira". */
const against = new RegExp(
  String.raw`${opens}${lead}${who}(?:['’]ve|\s+have)?\s+(?:(?:finally|just|already)\s+)*(?:(?:decided|agreed|voted|chose)\s+against(?:\s+(?:using|doing|going\s+with|picking))?|dropped|scrapped|ditched|abandoned)\s+${thing}`,
  'giu',
);
/** "We switched from SQLite to PostgreSQL", "We're moving away from Jira to Linear". */
const switchedFrom = new RegExp(
  String.raw`${opens}${lead}${who}(?:['’]ve|\s+have|\s+are|['’]re|\s+am|['’]m)?\s+(?:(?:finally|just|already)\s+)*(?:switched|switching|moved|moving|migrated|migrating)\s+(?:(?:over|away)\s+)?from\s+${thing}`,
  'giu',
);
/** "We'll go with Postgres instead of SQLite", "We picked Linear rather than Jira". */
const insteadOf = new RegExp(
  String.raw`${opens}${lead}${who}(?:['’]ll|\s+will|['’]re|\s+are|['’]ve|\s+have)?\s+(?:(?:finally|just|now)\s+)*(?:go(?:ing)?\s+with|went\s+with|us(?:e|ing)|picked|chose|choosing|decided\s+on|settled\s+on)\s+[^,.;!?]+?\s+(?:instead\s+of|rather\s+than)\s+${thing}`,
  'giu',
);

/** What undoes a decision: "reversed", "overturned", "scrapped", "walked back". */
const undone = String.raw`(?:reversed|overturned|overruled|scrapped|undid|undone|rescinded|revoked|reverted|walked\s+back|rolled\s+back|went\s+back\s+on|threw\s+out|thrown\s+out)`;
/** Which decision: the words before "decision" and after it ("the kickoff decision", "… to use SQLite"). */
const whichDecision = String.raw`(?:the|our|my|that|this)\s+(?<named>(?:[\p{L}\p{N}'’-]+\s+){0,3}?)decision(?<about>\s+(?:to|on|about|of|for|over)\s+[^,.;!?]+)?`;
/** "We reversed the kickoff decision", "I've overturned our decision to use SQLite". */
const reversed = new RegExp(
  String.raw`${opens}${lead}${who}(?:['’]ve|\s+have)?\s+(?:(?:finally|just|already|officially|now)\s+)*${undone}\s+${whichDecision}`,
  'giu',
);
/** "The kickoff decision was reversed", "Our decision to use SQLite has been overturned". */
const reversedPassive = new RegExp(
  String.raw`${opens}${lead}${whichDecision}\s+(?:was|has\s+been|got|is|had\s+been)\s+(?:(?:finally|just|now|officially)\s+)*${undone}`,
  'giu',
);
/**
 * "The onboarding flow will be native Swift and Kotlin, not React Native.": another value said in
 * place of a thing, which an earlier choice of the speaker's made (saysChoice `chosen`). Only at the
 * sentence's end, a thing of up to four words.
 */
const notInstead =
  /,\s+not\s+(?<what>(?:the\s+)?\p{L}[\p{L}\p{N}'’+#-]*(?:\s+[\p{L}\p{N}'’+#-]+){0,3})[.!]*$/u;

/**
 * What says, before ", not X", what is to be done or used: "will be", "we'll use", "is now", "we went
 * with". "The problem is Jira, not Slack." says nothing chosen.
 */
const saysWhatWillBe =
  /(?<![\p{L}])(?:will|['’]ll|going\s+to|gonna|now|instead|use|using|uses|go(?:ing)?\s+with|went\s+with|chose|picked|decided|switch(?:ed|ing)?\s+to|build|built|building)(?![\p{L}])/iu;

/** The words a decision is named by ("kickoff", "use sqlite"), lower case; none for "the decision". */
function decisionWords(m: RegExpMatchArray): string[] {
  const named = (m.groups!['named'] ?? '').toLowerCase().match(/\p{L}[\p{L}\p{N}'’-]*/gu) ?? [];
  // "… decision to use SQLite": the thing, after its verb; "… decision on the database": after "on".
  const about = thingWords((m.groups!['about'] ?? '').replace(/^\s+(?:to\s+\p{L}+|\S+)\s+/u, ''));
  return [...named.filter((w) => !namesNoDecision.has(w)), ...about];
}
/** Words before "decision" that name none: "the final decision", "our big decision". */
const namesNoDecision = new Set(
  'final big whole original earlier previous last first same other old new team group joint'.split(' '),
);

/** The choice a sentence of the speaker's says is off, or null. */
export function choiceDropped(sentence: string): ChoiceDropped | null {
  const s = sentence.trim();
  if (s.length > 300 || isQuestion(s)) return null;
  for (const re of [reversed, reversedPassive])
    for (const m of matchesOf(re, s)) {
      const words = decisionWords(m);
      if (words.length > 0) return { words, by: 'decision' };
    }
  const instead = notInstead.exec(s);
  if (instead !== null && instead.index > 0 && saysWhatWillBe.test(s.slice(0, instead.index))) {
    const words = thingWords(instead.groups!['what']!);
    if (words.length > 0) return { words, by: 'chosen' };
  }
  for (const re of [notAfterAll, wontAfterAll, noLonger, against, switchedFrom, insteadOf])
    for (const m of matchesOf(re, s)) {
      let what = m.groups!['what']!;
      if (re === notAfterAll || re === wontAfterAll) {
        // "not doing SQLite after all": the thing is before the marker, which must be said.
        const end = offMarker.exec(what);
        if (end === null) continue;
        what = what.slice(0, end.index);
      } else if (re === switchedFrom) {
        what = what.split(/\sto\s/iu)[0]!;
      }
      const words = thingWords(what);
      if (words.length > 0) return { words };
    }
  return null;
}

/** A clause that says a choice made: "We decided to use SQLite", "We're going with Hetzner", "Let's use Jira". */
const saysChoiceClause = new RegExp(
  String.raw`${opens}${lead}(?:${who}(?:['’]ve|\s+have|['’]ll|\s+will|['’]re|\s+are|['’]m|\s+am)?\s+(?:(?:finally|just|already|now|definitely)\s+)*(?:(?:decided|agreed)\s+(?:to\s+(?:use|go\s+with|build\s+on|pick|do|run)|on)|chose|picked|settled\s+on|went\s+with|go(?:ing)?\s+with|going\s+to\s+use|us(?:e|ing))|let['’]?s\s+(?:use|go\s+with|pick))\s+${thing}`,
  'giu',
);
/**
 * A clause deciding what to do, whatever the deed: "we decided to build the onboarding flow in React
 * Native", "we agreed to write it in Rust". What it decides on is every word after its verb.
 */
const decidedClause = new RegExp(
  String.raw`${opens}${lead}${who}(?:['’]ve|\s+have)?\s+(?:(?:finally|just|already|now)\s+)*(?:decided|agreed)\s+(?:to\s+\p{L}+|on)\s+${thing}`,
  'giu',
);
/** A statement that says a decision was made: "Atlas kickoff: we decided to …", "The decision: …". */
const saysDecided =
  /(?<![\p{L}])(?:decided|decision|agreed\s+(?:to|on)|chose|settled\s+on|went\s+with|going\s+with)(?![\p{L}])/iu;

/** Every word of a text, lower case. */
const allWords = (text: string) => text.toLowerCase().match(/\p{L}[\p{L}\p{N}'’-]*/gu) ?? [];
const holdsEvery = (said: readonly string[], words: readonly string[]) =>
  words.every((w) => said.some((x) => sameThing(x, w)));

/**
 * Whether a statement of the speaker's says the choice the dropping is of ("We decided to use SQLite for
 * the desktop store." for "We are not doing SQLite after all"): a clause choosing a thing whose words hold
 * each of the dropped thing's words. A decision named by its words ("the kickoff decision") is a
 * statement saying it decided that holds each of them; a thing said to be replaced ("…, not React
 * Native"), a clause choosing or deciding whose words after its verb hold each. Not a dropping itself,
 * nor a question.
 */
export function saysChoice(statement: string, dropped: ChoiceDropped): boolean {
  // "We'll use Postgres, not SQLite" still chooses Postgres; any other dropping chooses nothing.
  const dropping = choiceDropped(statement);
  if (isQuestion(statement.trim()) || (dropping !== null && dropping.by !== 'chosen')) return false;
  if (dropped.by === 'decision')
    return saysDecided.test(statement) && holdsEvery(allWords(statement), dropped.words);
  if (dropped.by === 'chosen')
    for (const re of [saysChoiceClause, decidedClause])
      for (const m of matchesOf(re, statement))
        if (holdsEvery(allWords(m.groups!['what']!), dropped.words)) return true;
  for (const m of matchesOf(saysChoiceClause, statement)) {
    const said = thingWords(m.groups!['what']!);
    if (holdsEvery(said, dropped.words)) return true;
  }
  return false;
}

/** The word a statement of the choice must hold, for the store's search: the longest of the thing's. */
export function choiceWords(dropped: ChoiceDropped): string[] {
  const longest = dropped.words.reduce((a, b) => (b.length > a.length ? b : a));
  // A plural's stem is in the singular and the plural: "box" of "boxes", "note" of "notes".
  const stem = longest.replace(/(?<=(?:[sxzo]|ch|sh))es$|(?<!s)s$/u, '');
  return [stem.length > 2 ? stem : longest];
}
