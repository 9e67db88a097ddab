import { whenDays, whenPart } from '../../contract/all-day.ts';
import { months, weekdays } from '../retrieve/calendar-words.ts';
import { statesTime } from '../retrieve/time-expressions.ts';
import { newsLeadIns, readFromAClause } from './called-off.ts';
import { saysIdea } from './idea-dropped.ts';
import { isQuestion } from './unmarked-question.ts';
import { kinWords, relationRoles } from './slot-sentences.ts';
import { escapeRegExp } from '../shared/escape-reg-exp.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/*
 * A plan said to be moved to another time or called off: "The dentist moved my appointment to Friday at
 * 10am instead of Thursday.", "my haircut got pushed to next week", "We changed the Kyoto trip: we are
 * going in May instead of March.", "I cancelled my dentist appointment.", "The Kyoto trip is off." A plan
 * of no slot (an appointment, a trip) is a statement of its own, and both the plan and its change stayed
 * current, the old day quoted first. What the change names is read against the speaker's current
 * statements (engine/derive/changed-plans.ts): the plan it changes is superseded by it. A move or a
 * job's plan that holds a slot is called off by called-off.ts, and moved by the slot's own versions.
 * Someone else's plan is called off by them in fewer words: "Inês has to cancel", "Sam can't make it",
 * "Inês just told me she isn't coming after all": their own latest plan, never the speaker's (a guest
 * who cannot come calls off no party).
 */

/** What a sentence says of a plan: moved to another time, or called off. */
export interface PlanChange {
  how: 'moved' | 'cancelled';
  /**
   * The plan's noun ("appointment", "trip"), lower case, as said (singular or plural); "visit" for one
   * said by coming ("isn't coming"); empty where none is said ("Inês has to cancel"): any plan.
   */
  plan: string;
  /** Words that say which one ("dentist", "kyoto"): the plan changed says one of them, where any is given. */
  naming: readonly string[];
  /**
   * The place it names, lower case: where it goes ("lisbon" of "my flight to Lisbon"), or a name written
   * before its noun ("kyoto" of "the Kyoto trip"). Among `naming` too.
   */
  place?: string;
  /** The time it had, where the sentence says it ("instead of Thursday"): the plan moved says it. */
  from?: string;
  /**
   * Who gave the news, where the sentence opens with them ("dentist" of "The dentist called: my
   * appointment moved …"): an appointment is often said by whom it is with ("I booked the dentist for
   * Tuesday"), so a plan saying them is the appointment moved, though no naming word is required.
   */
  caller?: string;
  /** Whose own plan it is, as named ("Inês" of "Inês can't make it"): only their statements hold it. */
  person?: string;
  /**
   * Who changed it, where a name says so ("Sam" of "Sam called off dinner", "Inês" of "Inês cancelled the
   * trip"): their own plans are looked at after the speaker's.
   */
  by?: string;
}

/** Plans of a day and an hour, or of days: what one books, goes on or meets for. */
const planNouns = [
  'appointment',
  'appt',
  'meeting',
  'call',
  'trip',
  'flight',
  'dinner',
  'lunch',
  'brunch',
  'breakfast',
  'party',
  'visit',
  'interview',
  'session',
  'lesson',
  'class',
  'checkup',
  'check-up',
  'haircut',
  'surgery',
  'exam',
  'test',
  'date',
  'wedding',
  'reservation',
  'booking',
  'holiday',
  'vacation',
  'concert',
  'match',
  'game',
  'playdate',
  'sleepover',
  'demo',
  'presentation',
  'review',
  'deadline',
  'launch',
  'drinks',
  'catch-up',
  'shift',
  'treatment',
  'scan',
  'cleaning',
  'consultation',
  'viewing',
  'delivery',
  'standup',
  'stand-up',
  'sync',
  'check-in',
  'rehearsal',
  'recital',
  'practice',
  'training',
  'tournament',
  'ceremony',
  'picnic',
  'barbecue',
  'bbq',
  'workshop',
  'conference',
  'webinar',
  'seminar',
  'massage',
  'inspection',
  'pickup',
  'pick-up',
  'offsite',
  'off-site',
  'retreat',
  'kickoff',
  'kick-off',
  'hackathon',
  'meetup',
  'meet-up',
  'reunion',
  'gathering',
  'get-together',
  'potluck',
  'gig',
  'graduation',
];
const noun = String.raw`(?<plan>${planNouns.join('|')})(?:e?s)?`;
/** A word of time, which no place is ("to Friday", "to May"). */
const timeName = String.raw`(?:${['today', 'tonight', 'tomorrow', 'next', 'this', 'noon', 'midnight', ...weekdays, ...months].join('|')})(?![\p{L}\p{N}])`;
/** Where a plan goes, after its noun: "flight to Lisbon", "trip to New York"; one or two words, not a time. */
const destination = String.raw`\s+to\s+(?:the\s+)?(?<place>(?!${timeName})[\p{L}][\p{L}\p{M}'’-]*(?:\s+(?!${timeName})\p{Lu}[\p{L}\p{M}'’-]*)?)`;
/** Up to two words before the noun that may say which plan ("dentist", "kyoto", "team"), and where it goes. */
const qualified = String.raw`(?<q>(?:[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*\s+){0,2}?)${noun}(?:\s+with\s+(?:my\s+|the\s+|our\s+)?(?<with>[\p{L}][\p{L}\p{M}'’-]*)|${destination})?`;
const owned = String.raw`(?:the|my|our|his|her|their|this|that|(?:${['today', 'tonight', 'tomorrow', ...weekdays].join('|')})['’]s)\s+`;
/** The verbs of a move in time. "changed" only where the sentence goes on to the new time. */
const moveVerb = String.raw`(?<verb>moved(?:\s+up)?|rescheduled|re-scheduled|rebooked|re-booked|postponed|pushed(?:\s+back)?|bumped(?:\s+up)?|shifted|delayed|brought\s+forward|changed|put\s+off)`;
const cancelVerb = String.raw`(?<verb>cancell?ed|called\s+off|scrapped)`;
/** Words after the plan that lead to its new time: "to Friday", "back a week", "till May", ": we are…". */
const toWhen = String.raw`(?:\s+(?:to|till|until|back|forward|by|from|for)(?![\p{L}\p{N}])|\s*[:,—–-])`;
const who = String.raw`(?:(?<who>i|we|they|he|she|(?:(?:the|my|our|his|her)\s+)?[\p{L}][\p{L}\p{M}'’-]*)\s+)?(?:just\s+|finally\s+|had\s+to\s+|have\s+to\s+|got\s+to\s+)?`;
/** A plan named by one word ("the dentist", "my physio"). */
const oneWord = String.raw`[\p{L}][\p{L}\p{M}'’-]*`;
/** A time said at once: "Friday", "next Monday", "the 12th", "3pm", "tomorrow". */
const timeNext = String.raw`\s*(?:(?:next|this|on|at|in|the)\s+)?(?:${['today', 'tonight', 'tomorrow', 'noon', ...weekdays, ...months].join('|')}|\d)`;
/** Someone's word passed on before what they said of their plan: "Inês just told me she …". */
const reported = String.raw`(?<teller>[\p{L}][\p{L}\p{M}'’-]*)\s+(?:just\s+)?(?:told\s+(?:me|us)|said|says|texted(?:\s+(?:me|us))?|messaged(?:\s+(?:me|us))?|wrote|let\s+(?:me|us)\s+know)\s+(?:that\s+)?(?:she|he|they)\s+`;
/** A person who calls off their own plan, by name ("Inês", "my sister Inês") or passed on (reported). */
const person = String.raw`(?:sorry|oh\s+no|argh)?[\s,:!.—–-]*(?:${reported}|(?:(?:my|our)\s+[\p{L}]+\s+)?(?<who>[\p{L}][\p{L}\p{M}'’-]*)\s+)(?:just\s+|also\s+)?`;
/** Where a plan called off by its person ends: the clause, or words of when it was called off. */
const calledOffEnd = String.raw`(?=\s*(?:$|[.!…,;:—–-])|\s+(?:again|after\s+all|last\s+minute|at\s+the\s+last\s+minute|on\s+(?:me|us)))`;
/**
 * Who gave the news before it, and how: "The dentist called: …", "Heads up, the clinic rang —",
 * "Just heard from the airline: …", "Dr. Horvat's office emailed to say that …".
 */
const callerLeadIn = String.raw`(?:(?:(?:the|my|our)\s+)?(?:(?:dr|mr|mrs|ms|prof)\.?\s+)?(?<caller>[\p{L}][\p{L}\p{M}'’-]*)(?:['’]s\s+(?:office|practice|clinic|secretary|assistant|team))?\s+(?:just\s+)?(?:called|rang|phoned|texted|emailed|e-mailed|wrote|messaged|mailed|confirmed)(?:\s+(?:me|us))?(?:\s+to\s+say(?:\s+that)?|\s+(?:and|that)(?:\s+said)?)?|just\s+(?:heard|got\s+word)\s+from\s+(?:the\s+|my\s+)?(?<heard>[\p{L}][\p{L}\p{M}'’-]*))\s*[:,;!—–-]?\s+`;
/** The lead-ins of news, and of who gave it, in either order: "Ok, the dentist called: …". */
const lead = String.raw`(?:heads\s+up\s*[:,!—–-]\s*)?${newsLeadIns}(?:${callerLeadIn}${newsLeadIns})?`;
/** A one-word plan that moves, not a person or a thing said "I", "we", "it". */
const passive = String.raw`(?:['’]s\s+(?:been\s+)?|\s+(?:(?:has|have|had)\s+been\s+|was\s+|were\s+|got\s+|gets\s+|is\s+|are\s+|just\s+got\s+)?)(?:just\s+)?`;

/**
 * Words that say what comes next mends what was said: "Correction:", "Sorry, I got that wrong:", "My
 * bad,", "I misspoke". Not "actually", "oops" or "wait" alone, which as often lead news ("Oops, my
 * flight is at 6am tomorrow and I haven't packed!", "Actually my appointment is on Monday, as planned").
 */
const slip = String.raw`(?:correction|(?:sorry,?\s+)?i\s+(?:got\s+(?:that|it)|was)\s+wrong|(?:sorry,?\s+)?my\s+(?:bad|mistake)|i\s+mis(?:spoke|typed|remembered))`;
/** Words before a plan said again with the time it had and "not" (optional): "Actually, …", "Sorry, …". */
const mending = String.raw`(?:(?:${slip}|actually|sorry|oops|wait)[\s,:!.—–-]+)*`;
const slipped = new RegExp(String.raw`^${slip}$`, 'iu');

const patterns: ReadonlyArray<{ how: PlanChange['how']; re: RegExp; person?: true }> = [
  // "The dentist moved my appointment to Friday", "I rescheduled the team dinner to Saturday",
  // "We changed the Kyoto trip: we are going in May"
  {
    how: 'moved',
    re: new RegExp(String.raw`^${lead}${who}${moveVerb}\s+(?:${owned})?${qualified}${toWhen}`, 'iu'),
  },
  // "My dentist appointment got moved to Friday", "the Kyoto trip is postponed until May"
  {
    how: 'moved',
    re: new RegExp(String.raw`^${lead}(?:${owned})?${qualified}${passive}${moveVerb}${toWhen}`, 'iu'),
  },
  // "I cancelled my dentist appointment", "Sam called off dinner", "we scrapped the Kyoto trip"
  {
    how: 'cancelled',
    re: new RegExp(String.raw`^${lead}${who}${cancelVerb}\s+(?:${owned})?${qualified}(?![\p{L}\p{N}])`, 'iu'),
  },
  // "I moved the dentist to Friday", "rescheduled my physio for next Monday": a plan named by one word,
  // only where its new time follows at once (not "moved my car to the garage on Friday").
  {
    how: 'moved',
    re: new RegExp(
      String.raw`^${lead}${who}${moveVerb}\s+(?:the|my|our)\s+(?<plan>${oneWord})${toWhen}(?=${timeNext})`,
      'iu',
    ),
  },
  // "I cancelled the dentist.", "cancelled my physio, feeling better": one word, then the clause ends
  // (not "I cancelled my Netflix subscription").
  {
    how: 'cancelled',
    re: new RegExp(
      String.raw`^${lead}${who}${cancelVerb}\s+(?:the|my|our)\s+(?<plan>${oneWord})(?=\s*(?:$|[.!…,;:—–-]))`,
      'iu',
    ),
  },
  // "We cancelled Vienna.", "I called off Lisbon": a trip named by its place alone, the clause ending
  // there (not "I cancelled Netflix for a month", nor "cancelled Marko's party").
  {
    how: 'cancelled',
    re: new RegExp(
      String.raw`^${lead}${who}${cancelVerb}\s+(?:the\s+)?(?<to>\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*)?)(?=\s*(?:$|[.!…,;:—–-]))`,
      'iu',
    ),
  },
  // "The dinner with Sam is now on Saturday", "my haircut is tomorrow now instead of Friday": no verb
  // of moving, the new time said with "now".
  {
    how: 'moved',
    re: new RegExp(
      String.raw`^${lead}(?:${owned})?${qualified}(?:['’]s|\s+(?:is|are))\s+(?:(?=${timeNext})[^,.;!?]*?\s)?(?<verb>now)(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
  // "Actually my dentist appointment is on Tuesday, not Monday.", "The standup is at 10 rather than
  // 9:30": a plan's time said again with the one it had, named after "not".
  {
    how: 'moved',
    re: new RegExp(
      String.raw`^${lead}${mending}(?:${owned})?${qualified}(?:['’]s|\s+(?:is|are))\s+(?:actually\s+)?(?=${timeNext})[^,.;!?]*?,?\s+(?<verb>not|rather\s+than)(?=${timeNext})`,
      'iu',
    ),
  },
  // "Actually, my dentist appointment is on Tuesday.", "Sorry, I got that wrong: the standup is on
  // Tuesday.": a plan's time said again after words that own a slip.
  {
    how: 'moved',
    re: new RegExp(
      String.raw`^${lead}(?<verb>${slip})[\s,:!.—–-]+(?:${slip}[\s,:!.—–-]+)*(?:${owned})?${qualified}(?:['’]s|\s+(?:is|are))\s+(?:actually\s+)?(?=${timeNext})`,
      'iu',
    ),
  },
  // "Lisbon is now 10-17 October.": a trip named by its place alone, its new days said with "now" at
  // once (tripTo: a month's or a weekday's name among them, so "Marko is now 30" moves nothing).
  {
    how: 'moved',
    re: new RegExp(
      String.raw`^${lead}(?:the\s+)?(?<to>\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*)?)(?:['’]s|\s+is)\s+(?<verb>now)(?=${timeNext})`,
      'u',
    ),
  },
  // "The Kyoto trip is off.", "Dinner with Sam got cancelled"
  {
    how: 'cancelled',
    re: new RegExp(
      String.raw`^${lead}(?:${owned})?${qualified}(?:\s+(?:is|are|has|have)(?=\s+(?:not|no\s+longer)\s))?${passive}(?<verb>(?:cancell?ed|called\s+off|fell\s+through|(?:not|no\s+longer)\s+happening)(?=$|[\s.!…,;:—–-])|off(?=\s*(?:$|[.!…,;:—–-])))`,
      'iu',
    ),
  },
  // "The dentist moved me to Thursday at 14:30.", "Dentist moved to Thursday.": a plan named by one word
  // that moves (with its person) at once to a time; not "We moved to the 3rd floor" (noName).
  {
    how: 'moved',
    re: new RegExp(
      String.raw`^${lead}(?:(?:the|my|our)\s+)?(?<plan>${oneWord})\s+(?:has\s+|have\s+|just\s+)?(?<verb>moved|rescheduled|re-scheduled|rebooked|pushed(?:\s+back)?|bumped|shifted|postponed)(?:\s+(?:me|us))?${toWhen}(?=${timeNext})`,
      'iu',
    ),
  },
  // "Inês has to cancel", "Sam bailed on us again", "Inês just told me she had to cancel": their plan.
  {
    how: 'cancelled',
    person: true,
    re: new RegExp(
      String.raw`^${newsLeadIns}${person}(?<verb>(?:has|have|had)\s+to\s+cancel|cancell?ed|bailed|pulled\s+out|dropped\s+out)(?:\s+(?:${owned})?${qualified})?${calledOffEnd}`,
      'iu',
    ),
  },
  // "Inês isn't coming after all", "Sam can't make it to dinner", "Inês won't be visiting": their plan,
  // or the one named after it where it is theirs.
  {
    how: 'cancelled',
    person: true,
    re: new RegExp(
      String.raw`^${newsLeadIns}${person}(?<verb>(?:is|are)\s+not|isn['’]?t|aren['’]?t|won['’]?t|will\s+not|can\s*not|can['’]?t|is\s+no\s+longer)\s+(?:be\s+|going\s+to\s+)?(?<come>coming|come|visiting|visit|make\s+it)(?:\s+(?:to|for)\s+(?:${owned})?${qualified})?(?![\p{L}\p{N}])`,
      'iu',
    ),
  },
];

/** Not a change made: wished, asked for or doubted ("I need to move my appointment", "can we push the call?"). */
const notDone =
  /(?<![\p{L}\p{N}])(?:not|n['’]t|never|need\s+to|needs\s+to|want\s+to|wants\s+to|wanna|might|maybe|should|could|would|will|['’]ll|gonna|going\s+to|trying\s+to|try\s+to|if|whether|asked|ask|hoping|hope|can|please)(?![\p{L}\p{N}])/iu;

/** Words before a plan's noun that say nothing of which plan it is. */
const noNaming = new Set([
  'the',
  'my',
  'our',
  'a',
  'an',
  'next',
  'this',
  'that',
  'new',
  'big',
  'little',
  'first',
  'usual',
  'weekly',
  'monthly',
  'annual',
  'whole',
  'own',
]);
/** Who changed it, when that is no one the plan may be named after. */
const noOne = new Set(['i', 'we', 'they', 'he', 'she', 'it', 'someone', 'somebody', 'everyone']);

const insteadOf = /(?<![\p{L}\p{N}])instead\s+of\s+(?<from>[^,.;!?]+)/iu;

/**
 * What a sentence of the speaker's says of a plan, or null. A move must name the new time ("to Friday",
 * "in May instead of March"): "I moved the meeting notes to Drive" moves no plan. "is off" must end the
 * clause: "the meeting is off to a good start" calls nothing off.
 */
export function planChanged(sentence: string): PlanChange | null {
  const s = sentence.trim();
  if (s.length > 300 || !changeHint.test(s) || isQuestion(s)) return null;
  // "Ok let's do it: the Lisbon trip is off, we're going to Porto instead.": the change may open a
  // later clause.
  return readFromAClause(s, changeAt, notDone);
}

/** What a sentence (or a later clause of it, planChanged) opening with the change says of a plan. */
function changeAt(s: string): PlanChange | null {
  for (const { how, re, person } of patterns) {
    const m = re.exec(s);
    if (m === null) continue;
    const verb = m.groups!['verb']!;
    const head = s.slice(0, m.index + m[0].length);
    if (notDone.test(head.slice(0, head.lastIndexOf(verb)))) return null;
    const after = s.slice(m.index + m[0].length);
    if (person) return personsPlanOff(m.groups!, after);
    const to = m.groups!['to'];
    if (to !== undefined) {
      const trip = how === 'moved' ? tripMoved(to, after) : tripTo(to, m.groups!, after);
      if (trip !== null) return trip;
      continue;
    }
    const plan = m.groups!['plan']!.toLowerCase();
    if (noName.has(plan)) return null;
    if (how === 'moved') {
      // "changed the game for me" is no move in time: changed, it is one only to a time or in place of one.
      if (/^changed$/iu.test(verb) && !/\sto$/iu.test(m[0]) && !insteadOf.test(after)) return null;
      // "is on Saturday now", "is on Tuesday, not Monday", "Actually, it is on Tuesday": the new time
      // comes after the plan, before its "now" or "not".
      const restated = /^(?:now|not|rather\s+than)$/iu.test(verb) || slipped.test(verb);
      const when = restated ? m[0].slice(m[0].lastIndexOf(m.groups!['plan']!)) + after : after;
      if (statesTime(when) === null && !clockTime.test(when) && !everyDay.test(when)) return null;
    } else if (takenBack.test(after)) return null;
    const by = m.groups!['who']?.replace(/^(?:the|my|our|his|her)\s+/iu, '').toLowerCase();
    const place = placeNamed(m.groups!, s);
    const naming = namingWords(m.groups!).concat(by !== undefined && !noOne.has(by) ? [by] : []);
    // "moved from Tuesday to Thursday": the time it had, as "instead of Tuesday" says it.
    const fromTo = /\sfrom$/iu.test(m[0]) ? timeBeforeTo(after) : undefined;
    // "… on Tuesday, not Monday": the time it had, after its "not".
    const notThen = /^(?:not|rather\s+than)$/iu.test(verb) ? after.split(/[,.;!?]/u)[0]?.trim() : undefined;
    const from =
      how === 'moved' ? (fromTo ?? notThen ?? insteadOf.exec(after)?.groups!['from']?.trim()) : undefined;
    const caller = (m.groups!['caller'] ?? m.groups!['heard'])?.toLowerCase();
    const name = m.groups!['who'];
    return {
      how,
      plan,
      naming: [...new Set(naming)],
      ...(place !== undefined ? { place } : {}),
      ...(from ? { from } : {}),
      ...(caller !== undefined && !noName.has(caller) ? { caller } : {}),
      ...(name !== undefined && isName(name) ? { by: name } : {}),
    };
  }
  return null;
}

/** A trip called off by its place alone ("We cancelled Vienna."): the trip there, named by it. */
function tripTo(to: string, groups: Record<string, string | undefined>, after: string): PlanChange | null {
  const place = to.toLowerCase();
  // A place is written capitalised: "we cancelled everything", "i cancelled netflix" name none.
  if (!/^\p{Lu}/u.test(to) || noName.has(place.split(/\s+/u)[0]!) || timeWordOf.test(to)) return null;
  if (takenBack.test(after)) return null;
  const name = groups['who'];
  return {
    how: 'cancelled',
    plan: 'trip',
    naming: [place],
    place,
    ...(name !== undefined && isName(name) ? { by: name } : {}),
  };
}

/** A trip moved by its place alone ("Lisbon is now 10-17 October."): the trip there, to days it names. */
function tripMoved(to: string, after: string): PlanChange | null {
  const place = to.toLowerCase();
  if (noName.has(place.split(/\s+/u)[0]!) || timeWordOf.test(to)) return null;
  const clause = after.split(/[,;.!?]/u)[0] ?? '';
  if (!namedDay.test(clause) || statesTime(clause) === null) return null;
  return { how: 'moved', plan: 'trip', naming: [place], place };
}
const namedDay = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${[...weekdays, ...months].join('|')})(?![\p{L}\p{N}])`,
  'iu',
);

/** The time before "to" of "from Tuesday to Thursday" (up to four words of one clause), or undefined. */
function timeBeforeTo(after: string): string | undefined {
  const words = (after.split(/[,.;!?]/u)[0] ?? '').trim().split(/\s+/u);
  const to = words.findIndex((w) => /^(?:to|till|until)$/iu.test(w));
  return to > 0 && to <= 4 ? words.slice(0, to).join(' ') : undefined;
}

/**
 * The words before a plan's noun, after its "with" and where it goes that say which plan it is
 * ("dentist", "sam", "lisbon"; "new york" as one).
 */
const namingWords = (groups: Record<string, string | undefined>): string[] => {
  const words = `${groups['q'] ?? ''} ${groups['with'] ?? ''}`
    .toLowerCase()
    .split(/\s+/u)
    .filter((w) => w !== '' && !noNaming.has(w));
  const to = destinationOf(groups['place']);
  return to === undefined ? words : [...words, to.toLowerCase()];
};

/**
 * Where a plan goes as said ("Lisbon", "New York"): a second word only where it is capitalised, as
 * the pattern cannot tell ("my trip to Porto because of the rain" goes to Porto).
 */
function destinationOf(place: string | undefined): string | undefined {
  if (place === undefined) return undefined;
  const [first, second] = place.split(/\s+/u);
  return second !== undefined && /^\p{Lu}/u.test(second) ? `${first} ${second}` : first;
}

/**
 * The place a change names its plan by, lower case: where it goes ("my flight to Lisbon"), else a
 * capitalised word before its noun that is no time ("my Lisbon flight", "the Kyoto trip"; not the
 * sentence's first word, "Dentist appointment moved …", nor "the May trip").
 */
function placeNamed(groups: Record<string, string | undefined>, sentence: string): string | undefined {
  const to = destinationOf(groups['place']);
  if (to !== undefined) return to.toLowerCase();
  const q = (groups['q'] ?? '').trim();
  if (q === '' || sentence.trimStart().startsWith(q)) return undefined;
  const named = q
    .split(/\s+/u)
    .filter((w) => /^\p{Lu}/u.test(w) && !noNaming.has(w.toLowerCase()) && !timeWordOf.test(w));
  return named.length > 0 ? named.join(' ').toLowerCase() : undefined;
}
const timeWordOf = new RegExp(String.raw`^${timeName}`, 'iu');

/** Words that start a sentence as a name does but name no one. */
const noName = new Set([
  ...noOne,
  'you',
  'nobody',
  'noone',
  'no',
  'the',
  'this',
  'that',
  'there',
  'here',
  'who',
  'which',
  'what',
  'but',
  'and',
  'so',
]);

/** Whether words that open a sentence are a person's name ("Inês", not "She", "The dentist"). */
const isName = (words: string) => /^\p{Lu}[\p{L}\p{M}'’-]*$/u.test(words) && !noName.has(words.toLowerCase());

/** A person's own plan called off ("Inês isn't coming after all"), where a name says whose it is. */
function personsPlanOff(groups: Record<string, string | undefined>, after: string): PlanChange | null {
  const name = groups['teller'] ?? groups['who'];
  if (name === undefined || !isName(name)) return null;
  if (takenBack.test(after)) return null;
  // Not coming to anything else: "can't come to the phone", "isn't coming to work", "can't visit Porto".
  if (groups['come'] !== undefined && !comingEnds(after)) return null;
  const naming = namingWords(groups);
  const plan =
    groups['plan']?.toLowerCase() ??
    (groups['come'] !== undefined && !/^make/iu.test(groups['come']) ? 'visit' : '');
  return { how: 'cancelled', plan, naming: [...new Set(naming)], person: name };
}

/** Words that may follow "isn't coming" in its clause: when, and how final. */
const comingTail = new Set([
  ...weekdays,
  ...months,
  ...['over', 'down', 'by', 'round', 'around', 'home', 'after', 'all', 'anymore', 'any', 'more', 'either'],
  ...['again', 'sadly', 'now', 'on', 'at', 'in', 'the', 'this', 'next', 'today', 'tonight', 'tomorrow'],
  ...['weekend', 'week', 'month', 'year', 'time', 'morning', 'afternoon', 'evening', 'night', 'then'],
]);
/** Whether the clause after "isn't coming" says only when, or how final it is. */
const comingEnds = (after: string) =>
  (after.split(/[.,;:!?…—–]/u)[0] ?? '')
    .toLowerCase()
    .split(/\s+/u)
    .every((w) => w === '' || comingTail.has(w) || /^\d/u.test(w));

/** Words after a plan called off that doubt it or take it back: "…, jk", "…, I think", "… for now?". */
const takenBack =
  /(?<![\p{L}\p{N}])(?:jk|just\s+kidding|kidding|i\s+think|i\s+guess|maybe|probably|not\s+sure|idk|or\s+not|back\s+on)(?![\p{L}\p{N}])/iu;

/** A cheap test of whether any pattern could match: most sentences say none of these words. */
const changeHint = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${moveVerb.replace('?<verb>', '')}|${cancelVerb.replace('?<verb>', '')}|off|now|(?:not|rather\s+than)\s+(?:on\s+|at\s+|the\s+)?(?:${[...weekdays, ...months].join('|')}|\d{1,2}(?:[:.]\d{2})?(?:\s*[ap]\.?m\.?|st|nd|rd|th)?)|${slip}|cancel|happening|fell\s+through|bailed|pulled\s+out|dropped\s+out|coming|come|visiting|visit|make\s+it)(?![\p{L}\p{N}])`,
  'iu',
);
/** A day a plan is on each week: "moved to Tuesdays". */
const everyDay = new RegExp(String.raw`^\s*(?:to\s+|on\s+)?(?:${weekdays.join('|')})s(?![\p{L}\p{N}])`, 'iu');
const clockTime =
  /(?<![\p{L}\p{N}])\d{1,2}(?::\d{2})?\s*(?:am|pm)(?![\p{L}\p{N}])|(?<![\p{L}\p{N}:])\d{1,2}:\d{2}(?![\p{L}\p{N}])/iu;

/**
 * Whether a statement may be the plan a change names: it says the plan's noun and a time (a plan is
 * dated: "for Thursday at 3pm", "next March"), one of its naming words where any is given, and the time
 * the plan had where the move says it.
 */
export function isPlanChanged(statement: string, change: PlanChange): boolean {
  const words = planWords(change);
  // planWords puts the plan's own noun first.
  const noun = words[0] ?? '';
  const saysNoun = noun !== '' && saysIdea(statement, noun);
  const saysPlan =
    change.plan === ''
      ? anyPlan.test(statement)
      : saysNoun ||
        words.slice(1).some((w) => saysIdea(statement, w)) ||
        staysThere(statement, change) ||
        staySaid(statement, change) ||
        movedBefore(statement, change);
  if (!saysPlan) return false;
  // Said only by whom it is with ("the dentist"), it is the appointment where it is no other plan:
  // "Sam called: my appointment moved" moves no "dinner with Sam".
  if (byWhom.has(noun) && !saysNoun && otherPlan(statement, noun)) return false;
  if (statesTime(statement) === null && !clockTime.test(statement)) return false;
  // What was dated in the past is done, not a plan to change ("Inês visited last weekend").
  if (change.person !== undefined && pastTime.test(statement)) return false;
  if (change.naming.length > 0 && !change.naming.some((w) => saysIdea(statement, w))) return false;
  if (change.from === undefined) return true;
  // A calendar's event says its day as a date ("when: 2026-12-08T09:00:00Z"): "from Tuesday" is its day.
  const dated = isoDateWords(statement);
  return fromWords(change.from).every((w) => saysIdea(statement, w) || dated.has(w));
}

/** Plans of days away, which a calendar titles by where and why ("Christmas in Zagreb with Mama"). */
const stays = new Set(['trip', 'holiday', 'vacation', 'visit']);

/**
 * Whether a calendar's event is the stay a change names by its place ("the Christmas trip to Zagreb"):
 * an event of days (eventTimes) that says the place, not only as where it leaves from. Its title need
 * not say "trip": "Christmas in Zagreb with Mama; when: 2026-12-23 to 2026-12-27" is that trip, a
 * dinner in Zagreb one evening is not.
 */
function staysThere(statement: string, change: PlanChange): boolean {
  const place = change.place;
  return (
    place !== undefined &&
    stays.has(change.plan.replace(/e?s$/u, '')) &&
    eventTimes(statement)?.days === true &&
    saysIdea(statement, place) &&
    !leavesFrom(statement, place)
  );
}

/** Words one says a stay away in, besides its noun: "a weekend in Vienna", "we booked …". */
const stayWords =
  /(?<![\p{L}\p{N}])(?:weekend|getaway|break|stay|trip|holiday|vacation|visit|planning|planned|booked|going|heading|flying)(?![\p{L}\p{N}])/iu;

/**
 * Whether a statement says, in words, the stay a change names by its place ("Petra and I are planning
 * a weekend in Vienna, December 12 to 14." of "the Vienna trip is cancelled"): the place as where one
 * is or goes ("in Vienna", "to Vienna") and a word of a stay. isPlanChanged still wants its time.
 */
function staySaid(statement: string, change: PlanChange): boolean {
  const place = change.place;
  if (place === undefined || !stays.has(change.plan.replace(/e?s$/u, ''))) return false;
  // "I booked the flights for Lisbon": a booking says where it is for.
  const to = bookedWords.test(statement) ? '(?:in|to|at|for)' : '(?:in|to|at)';
  const there = new RegExp(
    String.raw`(?<![\p{L}\p{N}])${to}\s+${escapeRegExp(place).replace(/\s+/gu, '\\s+')}(?![\p{L}\p{N}])`,
    'iu',
  );
  // "We had a great weekend in Vienna last year" is no plan.
  return there.test(statement) && stayWords.test(statement) && !pastTime.test(statement);
}

/**
 * Whether a statement is itself the trip a change names moved by its place ("Lisbon is now 10-17
 * October." of "the Lisbon trip is off"): the version a move left is the plan still.
 */
function movedBefore(statement: string, change: PlanChange): boolean {
  if (change.place === undefined || !stays.has(change.plan.replace(/e?s$/u, ''))) return false;
  const moved = planChanged(statement);
  return moved !== null && moved.how === 'moved' && moved.place === change.place;
}

const dayMs = 86_400_000;

/**
 * When a statement written as a calendar's event begins ("Dentist – Dr. Ferreira; when:
 * 2026-12-10T09:30:00+00:00 to …", record-text.ts), in ms, and whether it lasts days (all-day, or a day
 * or more); null for any other statement. An imported event's Memory begins there too, so one still
 * to come when a change is said began after it (derive/changed-plans.ts).
 */
export function eventTimes(statement: string): { startMs: number; days: boolean } | null {
  const m = whenPart.exec(statement);
  if (m === null) return null;
  const allDay = whenDays(m[1], m[2]);
  if (allDay !== null) return { startMs: allDay.first, days: true };
  const startMs = Date.parse(m[1]!);
  if (!Number.isFinite(startMs)) return null;
  const endMs = m[2] === undefined ? Number.NaN : Date.parse(m[2]);
  return { startMs, days: endMs - startMs >= dayMs };
}

/**
 * The words a statement of the plan a change names says one of (statementsSaying's): planWords, and the
 * place of a stay, which a calendar's event of it says instead (staysThere).
 */
export function planSearchWords(change: PlanChange): string[] {
  const words = planWords(change);
  return change.place !== undefined && stays.has(change.plan.replace(/e?s$/u, ''))
    ? [...words, change.place]
    : words;
}

/**
 * Whether a statement names a place only as where its route leaves from ("Lisbon – Zagreb", "from
 * Lisbon"): the flight back is not the one to Lisbon.
 */
function leavesFrom(statement: string, place: string): boolean {
  const at = new RegExp(
    String.raw`(?<![\p{L}\p{N}])${escapeRegExp(place).replace(/\s+/gu, '\\s+')}(?![\p{L}\p{N}])`,
    'giu',
  );
  const found = [...matchesOf(at, statement)];
  return (
    found.length > 0 &&
    found.every(
      (m) =>
        /(?<![\p{L}\p{N}])from\s+$/iu.test(statement.slice(0, m.index)) ||
        /^\s*(?:–|—|-|→|->|>|to(?![\p{L}\p{N}]))\s*\p{L}/u.test(statement.slice(m.index + m[0].length)),
    )
  );
}

/** Words that say a plan was made: what one booked for it ("We booked the Hotel Motto."). */
const bookedWords =
  /(?<![\p{L}\p{N}])(?:booked|reserved|bought\s+(?:the\s+)?tickets?|got\s+(?:the\s+)?tickets?|rented)(?![\p{L}\p{N}])/iu;

/** The plans a stay away is made of, which a booking for it may name: "We booked the flights.". */
const ofAStay = new Set(['trip', 'flight', 'holiday', 'vacation', 'visit', 'reservation', 'booking']);
/** Whom one books an appointment of one's own with: "I booked the dentist", "booked the vet". */
const bookedWith =
  /(?<![\p{L}\p{N}])(?:dentist|doctor|dr|gp|hairdresser|barber|vet|physio|therapist|dermatologist|optician|mechanic|nails|massage)(?![\p{L}\p{N}])/iu;
/** Words that add a booking of its own beside the plan: "I booked another …", "… separately". */
const another = /(?<![\p{L}\p{N}])(?:another|separately)(?![\p{L}\p{N}])/iu;
/**
 * Words that add a booking beside the plan, most often of something else ("I also booked the plumber.",
 * "… my flu shot too"), but as often of a stay's own bed or travel ("We also booked the Hotel Motto."):
 * a booking said so is the plan's only where it is that (stayBooked).
 */
const besides = /(?<![\p{L}\p{N}])(?:also|too|as\s+well)(?![\p{L}\p{N}])/iu;
/** What a stay away is slept in or travelled by: "the Hotel Motto", "a room", "the flights". */
const stayParts =
  /(?<![\p{L}\p{N}])(?:hotels?|hostels?|rooms?|suites?|flights?|trains?|ferry|ferries|apartments?|airbnbs?|b&bs?|guest\s*houses?|accommodations?)(?![\p{L}\p{N}])/iu;
/** A place a booking names as where it is or goes: "in Graz", "to Paris", "at Dubravkin put". */
const bookedPlace = /(?<![\p{L}\p{N}])(?:in|to|at)\s+(?:the\s+)?(\p{Lu}[\p{L}\p{M}'’-]*)/gu;

/**
 * Whether a booking said beside the plan ("also", "too") books a stay's own bed or travel, in no
 * place but the plan's: "We also booked the Hotel Motto." and "… the train to Vienna" go with the
 * Vienna weekend; "Luka also booked his hotel in Graz." and "I also booked the plumber." do not.
 */
function stayBooked(statement: string, change: PlanChange, planSaid: string): boolean {
  if (!stays.has(change.plan.replace(/e?s$/u, '')) || !stayParts.test(statement)) return false;
  return [...matchesOf(bookedPlace, statement)].every((m) => placeOf(m[1]!, change, planSaid));
}

/**
 * A booking's words without the times the plan itself says: "We booked the Hotel Motto for the
 * weekend." beside "… planning a weekend in Vienna, December 12 to 14." books the trip's own time, no
 * time of its own.
 */
function ownTimeOut(statement: string, planSaid: string): string {
  let rest = statement;
  for (let i = 0; i < 4; i++) {
    const said = statesTime(rest);
    if (said === null) break;
    const word = new RegExp(
      String.raw`(?<![\p{L}\p{N}])${said.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}(?![\p{L}\p{N}])`,
      'iu',
    );
    if (!word.test(planSaid)) break;
    rest = rest.replace(word, ' ');
  }
  return rest;
}

/**
 * Whether a booking said in the plan's Record is the plan's (gone with it when it is called off): it
 * books no time of its own ("for Monday", "at 3pm"), no other plan ("a haircut"; a stay's own flight or
 * reservation aside), no appointment of its own ("the dentist"), and is not said as another booking
 * ("I booked another hotel", "I also booked the plumber."; a stay's own bed or travel aside:
 * stayBooked). "We booked the Hotel Motto." and "We also booked the Hotel Motto." beside "Petra and I
 * are planning a weekend in Vienna, December 12 to 14." are; "I also booked the dentist for Monday." is
 * not.
 */
function bookedForPlan(statement: string, change: PlanChange, planSaid: string): boolean {
  if (!bookedWords.test(statement)) return false;
  if (statesTime(ownTimeOut(statement, planSaid)) !== null || clockTime.test(statement)) return false;
  if (another.test(statement) || bookedWith.test(statement)) return false;
  if (besides.test(statement) && !stayBooked(statement, change, planSaid)) return false;
  const noun = change.plan.replace(/e?s$/u, '');
  const theirs = (n: string) => n === noun || (stays.has(noun) && ofAStay.has(n));
  return [...matchesOf(everyPlan, statement)].every((m) => theirs(m[0].toLowerCase().replace(/e?s$/u, '')));
}

/**
 * Whether a statement said in the same Record as a plan is more of that plan, gone with it when it is
 * called off: it names the plan's place or a naming word ("The hotel in Vienna is lovely."), or is a
 * booking made for it (bookedForPlan: "We booked the Hotel Motto." beside "Petra and I are planning a
 * weekend in Vienna, December 12 to 14."; not "I also booked the dentist for Monday."). Only for a plan
 * called off: a plan moved keeps its hotel, maybe.
 */
export function saysMoreOfPlan(statement: string, change: PlanChange, planSaid = ''): boolean {
  if (change.how !== 'cancelled') return false;
  return change.naming.some((w) => saysIdea(statement, w)) || bookedForPlan(statement, change, planSaid);
}

/**
 * How a booking said in a Record of its own, after the plan's, is the stay's, which a call-off closes
 * with it (derive/changed-plans.ts `bookedApartOf`): `named` where it names where the stay is and no
 * other place ("We booked a hotel in Vienna.", "… the Figlmüller table in Vienna"), `near` where it names
 * no place and books a stay's own bed or travel ("We booked the Hotel Motto.", "… the train"): the
 * stay's only where said right after the plan in its thread (`namesOtherPlace` of nothing between).
 * Null for any other, as for one in the plan's Record (bookedForPlan): a time of its own ("… for
 * Monday"), an appointment ("the dentist"), another plan ("a haircut"), another booking ("another
 * hotel"), or "We booked the plumber." with no place (a bed or travel it is not). Only a stay called off.
 */
export function bookedApart(
  statement: string,
  change: PlanChange,
  planSaid: string,
): 'named' | 'near' | null {
  if (change.how !== 'cancelled' || !stays.has(change.plan.replace(/e?s$/u, ''))) return null;
  if (!bookedForPlan(statement, change, planSaid) || bookedByAnother(statement, planSaid)) return null;
  const places = [...matchesOf(bookedPlace, statement)].map((m) => m[1]!);
  if (places.some((p) => !placeOf(p, change, planSaid))) return null;
  if (places.length > 0 || (change.place !== undefined && saysIdea(statement, change.place))) return 'named';
  return stayParts.test(statement) ? 'near' : null;
}

/** A booking's verb after who made it: "booked", "also reserved", "finally got". */
const bookedBy = String.raw`(?:(?:also|just|already|finally)\s+)?(?:booked|reserved|bought|got|rented)(?![\p{L}\p{N}])`;

/** Words a booking opens with that name no one else: the speaker, or what was booked ("Hotel booked!"). */
const notAnother = new Set(
  `i i've i’ve we we've we’ve we're we’re the our my a all everything finally also just so ok okay and
   yay done hotel hotels room rooms flight flights train trains ticket tickets apartment airbnb`.split(
    /\s+/u,
  ),
);

/** "My sister", "our friends", "my wife Ana": one the speaker names by their relation to her. */
const relationOpens = new RegExp(
  String.raw`^\s*(?:my|our)\s+(?<who>${kinWords}|${relationRoles.map((r) => r.replaceAll(' ', String.raw`\s+`)).join('|')})(?:s|es)?(?:\s+(?<name>\p{Lu}[\p{L}\p{M}'’-]*))?,?\s+${bookedBy}`,
  'iu',
);

/** The relations one is a couple with: "my husband", "my girlfriend", "my fiancée". */
const partnerRoles = /^(?:partner|wife|husband|girlfriend|boyfriend|gf|bf|fianc(?:é|e)e?)$/iu;
/** A plan said as the speaker's "we" ("We are planning …", "our trip"), not "Petra and I …". */
const saidWithWe = /(?<![\p{L}\p{N}])(?:we|we['’](?:re|ve|ll|d)|us|our)(?![\p{L}\p{N}'’])/iu;

/**
 * Whether a booking is someone else's: it opens with a name ("Luka booked a table in Vienna.") or a
 * relation of the speaker's ("My sister booked a hotel in Vienna.", "Our friends booked …", "My wife Ana
 * booked …"), which may be of a trip of their own, unless the plan names them too ("Petra and I are
 * planning …" then "Petra booked the Hotel Motto.", "My sister and I are planning …" then "My sister
 * booked …"), or is said with "we" and they are her partner ("We are planning …" then "My husband
 * booked …", a couple's "we"; "My sister booked …" stays hers).
 */
function bookedByAnother(statement: string, planSaid: string): boolean {
  const named = (w: string) => saysWord(planSaid, w, true);
  const relation = relationOpens.exec(statement);
  if (relation !== null) {
    const { who, name } = relation.groups!;
    const role = who!.split(/\s+/u).at(-1)!;
    // "We are planning …" then "My husband booked …": a couple's "we" is the speaker and her partner.
    if (partnerRoles.test(role) && saidWithWe.test(planSaid)) return false;
    return !named(role) && (name === undefined || !named(name));
  }
  const m = new RegExp(String.raw`^\s*(\p{Lu}[\p{L}\p{M}'’-]*)\s+${bookedBy}`, 'u').exec(statement);
  if (m === null || notAnother.has(m[1]!.toLowerCase())) return false;
  return !saysWord(planSaid, m[1]!);
}

/** Whether a capitalised name is the plan's place: the change's, or one the plan's words name. */
function placeOf(name: string, change: PlanChange, planSaid: string): boolean {
  return change.place === name.toLowerCase() || saysWord(planSaid, name);
}

/** Whether TEXT says WORD as a word of its own, as written (or in any case). */
const saysWord = (text: string, word: string, anyCase = false) =>
  new RegExp(String.raw`(?<![\p{L}\p{N}])${escapeRegExp(word)}(?![\p{L}\p{N}])`, anyCase ? 'iu' : 'u').test(
    text,
  );

/**
 * Whether a message said between a plan and a booking names a place (after "in", "to" or "at") that is
 * neither the plan's nor the booking's ("Also booked a table at Dubravkin put.", "Or maybe Graz
 * instead?" does not: no "in"/"to"/"at"): the booking may then be for it, so it is not the plan's.
 */
export function namesOtherPlace(
  text: string,
  change: PlanChange,
  planSaid: string,
  booking: string,
): boolean {
  return [...matchesOf(bookedPlace, text)].some(
    (m) => !placeOf(m[1]!, change, planSaid) && !placeOf(m[1]!, change, booking),
  );
}

/** The months a text names (datesSaid). */
const monthsNamed = (text: string): number[] => datesSaid(text).map((d) => d.month);

/**
 * Whether a message said from a plan to a booking, or the booking's own, names a month the plan does
 * not ("Luka and I are planning a trip to Vienna in March." after "… a weekend in Vienna, December 12
 * to 14."): the booking may then be that trip's, not the plan's. Months only: "December 14" is of a
 * plan of December 12 to 14.
 */
export function namesOtherMonth(text: string, planSaid: string): boolean {
  const ours = monthsNamed(planSaid);
  return monthsNamed(text).some((m) => !ours.includes(m));
}

/** A stay's noun said anywhere: "a trip", "holidays", "the visit". */
const aStay = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${[...stays].join('|')})s?(?![\p{L}\p{N}])`, 'iu');

/**
 * Whether a message of the plan's thread said between it and a booking says only when the plan is
 * ("In December." or "Vienna is beautiful in December!" after "Petra and I are planning a weekend in
 * Vienna."): it names a month, and no plan, booking or place of its own. Its months are the plan's.
 */
export function answersPlan(text: string, change: PlanChange, planSaid: string): boolean {
  return (
    monthsNamed(text).length > 0 &&
    !anyPlan.test(text) &&
    !bookedWords.test(text) &&
    !namesOtherPlace(text, change, planSaid, '')
  );
}

/**
 * Whether a message said between a plan and a booking, naming a month the plan does not, may be of
 * the trip the booking is for: it names the plan's place, a booking or a stay ("Luka and I are
 * planning a trip to Vienna in March."). "My dentist appointment is on March 3." is of no trip.
 */
export function saysTrip(text: string, change: PlanChange, planSaid: string): boolean {
  return (
    bookedWords.test(text) ||
    aStay.test(text) ||
    (change.place !== undefined && saysIdea(text, change.place)) ||
    [...matchesOf(bookedPlace, text)].some((m) => placeOf(m[1]!, change, planSaid))
  );
}

/** Words a booking made for the person says: "Your flight …", "… is confirmed", "Reservation …". */
const bookingWords =
  /(?<![\p{L}\p{N}])(?:your|you['’]re|booked|booking|confirmed|confirmation|reservation|reserved|itinerary|e-?ticket|ticket)(?![\p{L}\p{N}])/iu;

/**
 * Whether a statement of someone else's, sent to the person (an airline's mail: "Your flight TP 1234
 * Zagreb – Lisbon on Thursday 12 March 10:15 is confirmed."), is the booking of the plan her own change
 * names ("My flight to Lisbon moved to Friday."): matched more narrowly than her own plans, as it is
 * not hers. It says the plan's own noun (a flight is no trip), the place the change names, a booking's
 * words, and holds as isPlanChanged reads a plan (a time said, the time it had where the move says it).
 */
export function isBookingChanged(statement: string, change: PlanChange): boolean {
  if (change.place === undefined || change.plan === '' || change.person !== undefined) return false;
  const noun = change.plan.replace(/e?s$/u, '');
  return (
    saysIdea(statement, noun) &&
    saysIdea(statement, change.place) &&
    !leavesFrom(statement, change.place) &&
    bookingWords.test(statement) &&
    isPlanChanged(statement, change)
  );
}

/** The weekday, month and day of each ISO date a statement says ("2026-12-08T09:00" → tuesday, december, 8). */
function isoDateWords(statement: string): Set<string> {
  const words = new Set<string>();
  for (const d of matchesOf(/(?<![\p{L}\p{N}])(\d{4})-(\d{2})-(\d{2})T/gu, statement)) {
    const day = new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3])));
    if (Number.isNaN(day.getTime())) continue;
    words.add(weekdays[day.getUTCDay()]!).add(months[day.getUTCMonth()]!).add(String(day.getUTCDate()));
  }
  return words;
}

/** Words a visit is said in: "Inês is visiting", "Sam is coming over on Friday". */
const visitWords = ['visit', 'visiting', 'coming', 'come', 'staying'];

/**
 * The words of which the plan changed says one (singular: statementsSaying reads them anywhere in a
 * word); none for any plan of its person's.
 */
export function planWords(change: Pick<PlanChange, 'plan'> & Partial<PlanChange>): string[] {
  if (change.plan === '') return [];
  const noun = change.plan.replace(/e?s$/u, '');
  // An appointment is said by whom it is with: "I booked the dentist for Tuesday", "Dentist (Dr. Horvat)".
  if (byWhom.has(noun))
    return [noun, ...(change.naming ?? []), ...(change.caller !== undefined ? [change.caller] : [])];
  // A trip is a visit where one goes to someone: "Inês cancelled her trip" of "Inês is visiting".
  return noun === 'visit' || noun === 'trip' ? ['trip', ...visitWords] : [noun];
}

/** Plans said by whom they are with as often as by their noun ("the dentist" for the appointment). */
const byWhom = new Set([
  'appointment',
  'appt',
  'booking',
  'reservation',
  'checkup',
  'check-up',
  'consultation',
]);

/** Any plan: its noun, or coming ("My sister is visiting next weekend"). */
const anyPlan = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${[...planNouns, ...visitWords].join('|')})(?:e?s)?(?![\p{L}\p{N}])`,
  'iu',
);
/** anyPlan, for every noun a statement says (matchAll copies it, so one is shared). */
const everyPlan = new RegExp(anyPlan.source, 'giu');
/** Whether a statement says a plan's noun other than `noun`'s. */
const otherPlan = (statement: string, noun: string) =>
  [...matchesOf(everyPlan, statement)].some((m) => m[0].toLowerCase().replace(/e?s$/u, '') !== noun);
const pastTime =
  /(?<![\p{L}\p{N}])(?:yesterday|ago|last\s+(?:night|week|weekend|month|year|time|monday|tuesday|wednesday|thursday|friday|saturday|sunday))(?![\p{L}\p{N}])/iu;

/**
 * The words of the time a plan had that it must say: its days, months, numbers and hours ("instead of
 * next Thursday": Thursday), else its words but the small ones.
 */
function fromWords(from: string): string[] {
  const words = from
    .toLowerCase()
    .split(/[\s,]+/u)
    .filter((w) => w !== '');
  const timeWords = words.filter((w) => timeWord.test(w));
  return timeWords.length > 0 ? timeWords : words.filter((w) => !smallWords.has(w));
}

const timeWord = new RegExp(
  String.raw`^(?:${[...weekdays, ...months].join('|')}|\d+(?:st|nd|rd|th|am|pm|:\d{2})?)$`,
  'u',
);
const smallWords = new Set([
  'the',
  'a',
  'an',
  'at',
  'on',
  'in',
  'of',
  'for',
  'to',
  'my',
  'our',
  'next',
  'this',
  'last',
]);

/** A month said by its name ("December 12", "12 December", "in March"; "May" only capitalised or after "in"). */
const monthSaid = new RegExp(
  String.raw`(?:(?<before>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?)?(?<![\p{L}\p{N}])(?<month>${months.join('|')})(?![\p{L}\p{N}])(?:\s+(?<after>\d{1,2})(?:st|nd|rd|th)?(?![\p{L}\p{N}]))?`,
  'giu',
);

/** When a plan is, as its statement says it: its month and day, where it names a month. */
export interface PlanDate {
  /** The month, January 0. */
  month: number;
  day?: number;
}

/**
 * The month and day a plan's statement names ("December 12 to 14", "in March", a calendar's "when:
 * 2026-12-12T09:00"), its first; null where it names none ("next week", "on Friday").
 */
export function planDate(statement: string): PlanDate | null {
  return datesSaid(statement)[0] ?? null;
}

/** Every month (and day) a text names: its calendar event's first, then each said by its month's name. */
function datesSaid(text: string): PlanDate[] {
  const event = eventTimes(text);
  const dates: PlanDate[] = [];
  if (event !== null) {
    const d = new Date(event.startMs);
    dates.push({ month: d.getUTCMonth(), day: d.getUTCDate() });
  }
  for (const m of matchesOf(monthSaid, text)) {
    const name = m.groups!['month']!;
    // "may" is mostly the verb.
    if (name.toLowerCase() === 'may' && !/^M/u.test(name) && m.groups!['after'] === undefined) continue;
    const month = months.indexOf(name.toLowerCase());
    const day = Number(m.groups!['after'] ?? m.groups!['before'] ?? Number.NaN);
    dates.push(Number.isInteger(day) && day >= 1 && day <= 31 ? { month, day } : { month });
  }
  return dates;
}

/**
 * When a plan dated `date` next comes, from `fromMs` on (its day, or its month's first day; this
 * month's without a day is `fromMs` itself), in ms: how near a plan is when a change names no date.
 */
export function nextOf(date: PlanDate, fromMs: number): number {
  const from = new Date(fromMs);
  const year = from.getUTCFullYear();
  for (const y of [year, year + 1]) {
    const ms = Date.UTC(y, date.month, date.day ?? 1);
    if (date.day === undefined && y === year && date.month === from.getUTCMonth()) return fromMs;
    if (ms >= fromMs - dayMs) return ms;
  }
  return Date.UTC(year + 1, date.month, date.day ?? 1);
}

/** Whether two plans' dates may be one plan's: the same month, and the same day where both say one. */
export const sameDate = (a: PlanDate, b: PlanDate): boolean =>
  a.month === b.month && (a.day === undefined || b.day === undefined || a.day === b.day);
