import { countTokens } from 'gpt-tokenizer';
import type { EvidencePassage } from './select-evidence.ts';

export interface Block {
  evidence: EvidencePassage;
  /** The quote actually included (a prefix of the passage when the budget forced a cut). */
  quote: string;
  text: string;
  tokens: number;
}

export interface Fitted {
  blocks: Block[];
  text: string | null;
  estimatedTokens: number;
  truncated: boolean;
  cut: { record_id: string; tokens: number }[];
}

/** One passage as it appears in the prompt block: numbered, with its date, speaker and source. */
export function formatBlock(i: number, e: EvidencePassage, quote: string): string {
  const meta = [
    e.kind,
    `date: ${e.occurredAt}`,
    `speaker: ${e.speaker ?? 'unknown'}`,
    `source: ${e.source ?? 'unknown'}`,
    ...(e.title ? [`title: ${e.title}`] : []),
  ];
  return `[${i}] ${meta.join(' · ')}\n${quote}`;
}

const separator = '\n\n';

/**
 * Fits passages into the token budget (gpt-tokenizer counts), best first, skipping any that do not
 * fit and reporting them as cut. If not even the best passage fits, its longest prefix that does is
 * used (still an exact substring of the Record). truncated says whether anything was left out.
 */
export function fitBudget(evidence: EvidencePassage[], requested: number): Fitted {
  const blocks: Block[] = [];
  const cut: Fitted['cut'] = [];
  // Each block is counted once, with the separator that would follow it: BPE merges a block's last
  // character with the separator (".\n\n" is one token), so counting parts apart over-counts (~1.5%),
  // while block+separator pieces sum exactly to the joined text less the last separator. Fitting on
  // these counts is conservative by at most that one separator; the total is exact.
  let used = 0;
  for (const e of evidence) {
    const text = formatBlock(blocks.length + 1, e, e.passage);
    const tokens = countTokens(text + separator);
    if (used + tokens <= requested) {
      blocks.push({ evidence: e, quote: e.passage, text, tokens });
      used += tokens;
      continue;
    }
    if (blocks.length === 0) {
      const prefix = longestFittingPrefix(e, requested);
      if (prefix) {
        // Counted like every block, with its separator (the total below takes it off again).
        const tokens = countTokens(prefix.text + separator);
        blocks.push({ ...prefix, tokens });
        used += tokens;
      }
    }
    cut.push({ record_id: e.recordId, tokens });
  }
  const text = blocks.length > 0 ? blocks.map((b) => b.text).join(separator) : null;
  const last = blocks[blocks.length - 1];
  return {
    blocks,
    text,
    estimatedTokens: last === undefined ? 0 : used - last.tokens + countTokens(last.text),
    truncated: cut.length > 0,
    cut,
  };
}

/** The longest prefix of the passage that fits with its header, or failing that bare (tiny budgets). */
function longestFittingPrefix(e: EvidencePassage, requested: number): Block | null {
  return prefixBlock(e, requested, (q) => formatBlock(1, e, q)) ?? prefixBlock(e, requested, (q) => q);
}

function prefixBlock(e: EvidencePassage, requested: number, format: (quote: string) => string): Block | null {
  let lo = 0;
  let hi = e.passage.length;
  let best: Block | null = null;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const quote = e.passage.slice(0, mid).trimEnd();
    const text = format(quote);
    const tokens = countTokens(text);
    if (tokens <= requested && quote.length > 0) {
      best = { evidence: e, quote, text, tokens };
      lo = mid;
    } else hi = mid - 1;
  }
  return best;
}
