/**
 * A chat's introduction of oneself, as one tells an assistant at the start ("ok so quick intro: software
 * engineer at globex, live in lisbon", "About me: 31, PM at Acme, vegetarian"): each clause after the
 * colon says something of the speaker with its "I" left out. The clauses, each with where it is in the
 * sentence, and each as "I …" would say it in full, the ways the slot readers take: "I'm a software
 * engineer at globex", "I live in lisbon", "I'm 31". Null for any other sentence.
 */
export interface IntroClause {
  /** [start, end) of the clause in the sentence: the Memory's quote. */
  at: [number, number];
  /** The clause said in full, in the forms tried in turn. */
  readings: string[];
}

const introLead =
  /^(?:(?:ok|okay|so|well|hi|hey|hello)[,!]?\s+)*(?:(?:so|a)\s+)?(?:(?:quick|short|brief|little)\s+)?(?:intro|introduction|about\s+me|a\s+bit\s+about\s+me|some\s+context(?:\s+about\s+me)?|context\s+about\s+me)\s*:\s*/iu;

/** A clause's first word that already says who: "i live…", "my job…" read as said, not after "I". */
const hasSubject = /^(?:i|i'm|im|i’m|my|me|we|our)(?![\p{L}\p{N}])/iu;
/**
 * Words that make a clause about someone else, or about what one was ("husband is a nurse at Acme",
 * "married to a doctor at Acme", "daughter of a teacher", "former engineer at Acme"): read after "I",
 * its job would be the speaker's.
 */
const notOwnClause =
  /(?<![\p{L}\p{N}])(?:is|are|was|were|of|to|husband|wife|partner|boyfriend|girlfriend|bf|gf|sister|brother|mom|mum|mother|dad|father|son|daughter|friend|boss|colleague|former|ex|retired|used)(?![\p{L}\p{N}])/iu;
/** A clause that is a name alone ("Tom", "Sara Lopes"): the introduction is of that person. */
const nameAlone = /^\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)?$/u;
/** "lives in Rome", "works at Acme": the verb as said after "I". */
const thirdPerson = /^(lives|works|studies|teaches)(?![\p{L}\p{N}])/iu;

export function introClauses(sentence: string): IntroClause[] | null {
  const lead = introLead.exec(sentence);
  if (!lead) return null;
  const out: IntroClause[] = [];
  // Sticky, tried only where a clause may end: a run of spaces costs one pass, not one each.
  const separator = /(?:[,;]|\s(?:and|&)(?=\s))/gu;
  let from = lead[0].length;
  let end = sentence.length;
  while (end > 0 && /[\s.!]/u.test(sentence[end - 1]!)) end -= 1;
  for (;;) {
    separator.lastIndex = from;
    const next = separator.exec(sentence);
    const to = next && next.index < end ? next.index : end;
    const clause = sentence.slice(from, to).trim();
    if (clause !== '') {
      // An introduction of someone else ("intro: Tom, engineer at Acme", "this is my friend Tom"): none.
      // So is one of "my sister, a nurse at …": a person of one's own named alone.
      if (
        (nameAlone.test(clause) && !/^I$/u.test(clause)) ||
        /(?<![\p{L}])this\s+is(?![\p{L}])/iu.test(clause) ||
        /^(?:my|our)\s+[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]*)?$/iu.test(clause)
      )
        return null;
      const start = sentence.indexOf(clause, from);
      const said = clause.replace(
        thirdPerson,
        (verb) =>
          verb.slice(0, verb.toLowerCase() === 'studies' ? -3 : -1) +
          (verb.toLowerCase() === 'studies' ? 'y' : ''),
      );
      out.push({
        at: [start, start + clause.length],
        readings: hasSubject.test(clause)
          ? [clause]
          : notOwnClause.test(clause)
            ? []
            : [`I ${said}`, `I'm ${clause}`, `I'm a ${clause}`],
      });
    }
    if (!next || next.index >= end) break;
    from = next.index + next[0].length;
  }
  return out.length > 0 ? out : null;
}
