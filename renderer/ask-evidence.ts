import type { Citation, ContextReady, Memory } from '../engine/contract/index.ts';

/** Sources drawn under each Memory of an answer; the rest are counted and left to the Memory's page. */
export const sourcesShown = 3;

/** One Memory of an answer with the Records it comes from, those this answer quotes first. */
export interface EvidenceItem {
  memory: Memory;
  sources: Citation[];
  /** Further Records the Memory cites, not drawn here. */
  more: number;
}

/** What Ask shows a person of a Context, read from its structured fields (never from `text`). */
export interface AnswerEvidence {
  /** The Memories the answer gives, most relevant first, as the Context lists them. */
  items: EvidenceItem[];
  /** Quotes of Records no listed Memory cites (a question asked in a chat, a note with no Memory). */
  alsoQuoted: Citation[];
  /**
   * The evidence was found by meaning alone: no block shares a word, a person, a time or a slot with
   * the question, which the engine says by listing the question among the unknowns of an answer it
   * gives anyway (engine/contract context.ts, `unknowns`).
   */
  byMeaningAlone: boolean;
  /** Unknowns that nothing else on the screen already says in words. */
  otherUnknowns: string[];
}

export function answerEvidence(c: ContextReady): AnswerEvidence {
  const quoted = new Set(c.citations.map((x) => x.record_id));
  const byMemory = new Set<string>();
  const items = (c.memories ?? []).map((memory) => {
    // A Memory the answer gives may rest on Records the budget left out: those it quotes come first.
    const inAnswer = memory.citations.filter((x) => quoted.has(x.record_id));
    const rest = memory.citations.filter((x) => !quoted.has(x.record_id));
    const all = [...inAnswer, ...rest];
    for (const x of memory.citations) byMemory.add(x.record_id);
    return {
      memory,
      sources: all.slice(0, sourcesShown),
      more: Math.max(0, all.length - sourcesShown),
    };
  });
  const seen = new Set<string>();
  const alsoQuoted = c.citations.filter((x) => {
    if (byMemory.has(x.record_id) || seen.has(x.record_id)) return false;
    seen.add(x.record_id);
    return true;
  });
  // The question as its own unknown: with no text, the abstention or the cut says why; with text and an
  // abstention (sources that disagree), the abstention; with text alone, the evidence is only near it.
  const asked = c.unknowns.includes(c.query);
  const byMeaningAlone = asked && c.text !== null && c.abstained === undefined;
  const otherUnknowns = c.unknowns.filter(
    (u) => u !== c.query && !(c.abstained?.reason === 'no_attribution' && u.startsWith('ownership of: ')),
  );
  return { items, alsoQuoted, byMeaningAlone, otherUnknowns };
}
