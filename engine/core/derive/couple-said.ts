import { escapeRegExp } from '../shared/escape-reg-exp.ts';

/*
 * What a sentence beside a partner's name says of the couple, as a lasting state: "We've been together
 * three years.", "Petra and I have been dating since 2023", "Our anniversary is in May", "I'm in love
 * with her". A break-up ends these with the partner (engine/derive/tied-statements.ts). Only the couple
 * (the speaker with "we", the partner by name or "she"/"her"), and only a state: "My parents have been
 * together 40 years.", "Our band has been together since 2015.", "Luka and I go out together every
 * Friday." are of others, "Yesterday we went hiking together" or "We bought a flat together" are
 * events, true after the break-up as before, and "We are a couple of weeks behind.", "I am with Petra at
 * the cafe." or "We have been together at Span for five years." are no state of the couple at all.
 */

/** Words that may stand between the couple and the state: "we've now been together", "still". */
const adverbs = String.raw`(?:(?:now|still|already|officially|finally|happily|just|also|actually|so|madly|deeply|really)\s+)*`;
/**
 * What after "together at", "with" or "in" still says the couple: "at least three years", "at last",
 * "at the moment", "with each other", "in a relationship", "in our little flat". Any other place, group
 * or people ("together at Span", "in the band", "with our kids") is one shared with others.
 */
const togetherStill = String.raw`(?:at\s+(?:least|last|long\s+last|the\s+moment|present|this\s+point|the\s+same\s+time)|with\s+each\s+other|in\s+(?:a\s+|our\s+)?(?:\p{L}+\s+)?(?:relationship|love|flat|home|house|apartment|place))(?![\p{L}\p{N}])`;
/**
 * The states that end with the partner: together, dating, a couple, in love, married, engaged. Not "a
 * couple of weeks behind" (a few), "together at Span" or "in the band" (of a place or a group one
 * shares with others, togetherStill aside), nor "in love with Vienna" (with something else).
 */
const states = String.raw`(?:together(?!\s+(?!${togetherStill})(?:at|with|in\s+(?:the|a|an|our|my|this|that|his|her|their))(?![\p{L}\p{N}]))|dating|seeing\s+each\s+other|a\s+couple(?!\s+(?:of|more|days|weeks|months|years|times|hours|minutes|bucks)(?![\p{L}\p{N}]))|in\s+(?:a\s+)?(?:love(?!\s+with\s+(?!each\s+other|one\s+another))|relationship)|married|engaged|been\s+going\s+out)`;
/**
 * What may follow "I'm with <her>" for it to say the couple: the clause's end, "now", "again",
 * "since …", "for good" or "for years", or a joined clause ("I'm with Petra now", "I'm with her,
 * finally"). Anything else says where one is, for how long today, or with whom one does something ("I
 * am with Petra at the cafe", "I'm with Petra, at the cafe", "I'm with Petra for the weekend", "I'm
 * with Petra and Luka").
 */
const withAfter = String.raw`(?=\s*(?:$|[.!?;)—–:]|\s-\s|,(?!\s*(?:at|in|on|for|with|near|by|from|until|till|today|tonight|this|all|over|here|there)(?![\p{L}\p{N}])))|\s+(?:now|again|still|officially|already|finally|since|too|for(?=\s+(?:good|real|life|keeps|years|months|ages|\d+\s+(?:years?|months?)))|and\s+(?:I|we|she|he|it|that|I['’]m|we['’]re|it['’]s)|but|so)(?![\p{L}\p{N}]))`;

/**
 * Whether a statement says the speaker and the partner (`partner`: the value the break-up ends, "Petra
 * Novak"; none for a relationship status, when only "we", "she" and "he" say her) are, or have been, a
 * couple: "we" or "<first name>/she and I" as one with a state, "our
 * relationship" or "our anniversary", or "I" with the partner ("I've been with her for years", "I'm
 * dating Petra").
 */
export function saysOfCouple(statement: string, partner?: string): boolean {
  const whole = partner?.trim() ?? '';
  const first = whole.split(/\s+/u)[0] ?? '';
  const names = [...new Set([whole, first].filter((n) => n !== ''))]
    .map((n) => escapeRegExp(n).replace(/\s+/gu, '\\s+'))
    .join('|');
  const named = names === '' ? '' : `|${names}`;
  const them = `(?:she|he${named})`;
  const themAfter = `(?:her|him${named})`;
  const couple = String.raw`(?:we|${them}\s+and\s+I|I\s+and\s+${them}|me\s+and\s+${themAfter}|${themAfter}\s+and\s+me)`;
  const tests = [
    // "We've been together three years.", "Petra and I are dating", "we're in love".
    String.raw`${couple}(?:['’]ve|['’]re|\s+have|\s+are)?\s+${adverbs}(?:been\s+)?${adverbs}${states}`,
    // "Our relationship is …", "our anniversary is in May", "my relationship with Petra"; not a
    // company's ("Our anniversary party for the company is Friday").
    String.raw`our\s+(?:relationship|anniversary(?![^.!?;]*\s(?:for|of)\s+(?:the|our)\s+(?:company|firm|team|club|band|school|office|shop|store|restaurant|business)))|(?:my|the)\s+relationship\s+with\s+${themAfter}`,
    // "I've been with her for three years", "I'm dating Petra", "I'm in love with him".
    String.raw`I(?:['’]ve|\s+have)\s+${adverbs}been\s+(?:with|dating|seeing)\s+${themAfter}`,
    String.raw`I(?:['’]m|\s+am)\s+${adverbs}(?:(?:so|madly)\s+)?(?:in\s+love\s+with|dating|seeing|engaged\s+to|married\s+to)\s+${themAfter}`,
    // "I'm with Petra now": only where nothing after it says where or with whom else (withAfter).
    String.raw`I(?:['’]m|\s+am)\s+${adverbs}with\s+${themAfter}${withAfter}`,
  ];
  return tests.some((t) =>
    new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${t})(?![\p{L}\p{N}])`, 'iu').test(statement),
  );
}
