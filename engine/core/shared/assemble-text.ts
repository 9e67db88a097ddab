import { countTokens } from './count-tokens.ts';
import type { Citation } from '../../contract/index.ts';

export interface Passage {
  record_id: string;
  /** Exact substring of the Record's text. */
  quote: string;
  occurred_at: string;
  speaker: string | null;
  source_name: string | null;
  kind: string;
}

export interface Assembled {
  text: string | null;
  citations: Citation[];
  estimated_tokens: number;
  truncated: boolean;
  cut: { record_id: string; tokens: number }[];
}

export const defaultBudgetTokens = 4000;

/** One passage as a prompt line: where it came from, who said it, when. */
export function passageLine(p: Passage, n: number): string {
  const date = p.occurred_at.slice(0, 10);
  const who = p.speaker ? `${p.speaker}` : p.kind;
  const from = p.source_name ? ` via ${p.source_name}` : '';
  return `[${n}] ${date} ${who}${from} (${p.record_id}): ${p.quote}`;
}

const header = 'Evidence from memory (cited; newest facts may supersede older ones):';

/**
 * Packs ranked passages into a prompt block within the token budget (counted with a real BPE tokenizer).
 * A passage that does not fit is left out whole and reported in `cut`; `truncated` is then true.
 */
export function assembleText(ranked: Passage[], budgetTokens: number): Assembled {
  const lines: string[] = [];
  const citations: Citation[] = [];
  const cut: Assembled['cut'] = [];
  let used = countTokens(header) + 1;
  for (const p of ranked) {
    const line = passageLine(p, citations.length + 1);
    const cost = countTokens(line) + 1;
    if (used + cost > budgetTokens) {
      cut.push({ record_id: p.record_id, tokens: cost });
      continue;
    }
    used += cost;
    lines.push(line);
    citations.push({ record_id: p.record_id, quote: p.quote });
  }
  if (citations.length === 0) {
    return { text: null, citations, estimated_tokens: 0, truncated: cut.length > 0, cut };
  }
  return {
    text: `${header}\n${lines.join('\n')}`,
    citations,
    estimated_tokens: used,
    truncated: cut.length > 0,
    cut,
  };
}
