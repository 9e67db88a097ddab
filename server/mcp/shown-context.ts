import type { Citation, Context } from '../../engine/contract/index.ts';
import { listedMemory, type ListedMemory } from './listed-memory.ts';
import { matchesOf } from '../../engine/contract/matches-of.ts';

/**
 * The quote of each numbered block of a Context's text, by its number. The text opens with a preamble
 * naming the Context's boundary (`"#mnemo-…"`, drawn so that no Record holds it); each block is a
 * header line `#<boundary> [n] …` (what a caller set in it is JSON-quoted, so one line) and its quote,
 * blocks apart by a blank line. A text of another form gives no blocks.
 */
export function quotedBlocks(text: string): Map<number, string> {
  const blocks = new Map<number, string>();
  const boundary = /^Quoted evidence[^\n]*?"#(mnemo-\d+)"/u.exec(text)?.[1];
  if (boundary === undefined) return blocks;
  const headers = [...matchesOf(new RegExp(`(?:^|\\n\\n)#${boundary} \\[(\\d+)\\][^\\n]*\\n`, 'gu'), text)];
  for (const [i, h] of headers.entries()) {
    const end = headers[i + 1]?.index ?? text.length;
    blocks.set(Number(h[1]), text.slice(h.index + h[0].length, end));
  }
  return blocks;
}

/** A citation as get_context shows it: the block of the text that quotes it, or its own quote. */
export type ShownCitation = Citation | { record_id: string; block: number };

export type ShownContext =
  | Context
  | (Omit<Extract<Context, { status: 'ready' }>, 'cost' | 'citations' | 'memories'> & {
      citations: ShownCitation[];
      memories?: ListedMemory[];
    });

/**
 * A ready Context as get_context gives it to a model. Its text quotes every cited passage in a
 * numbered block, and /v1's citations quote each one again: a model paid for every quote twice (the
 * evidence of a 4,000-token budget was ~8,000 tokens of answer). A citation whose quote is block n of
 * the text, word for word, is `{record_id, block: n}`; one that is not (a store that frames its text
 * otherwise) keeps its quote. `cost` (the ledger's units, which no model acts on) is get_trace's; the
 * Memories of include: ["memories"] come in list_memories' short form, not each citation whole again.
 */
export function shownContext(ctx: Context): ShownContext {
  if (ctx.status !== 'ready') return ctx;
  const blocks = ctx.text === null ? new Map<number, string>() : quotedBlocks(ctx.text);
  const shown = (k: string, v: unknown): unknown => {
    if (k === 'citations')
      return ctx.citations.map((c, i): ShownCitation =>
        blocks.get(i + 1) === c.quote ? { record_id: c.record_id, block: i + 1 } : c,
      );
    return k === 'memories' ? ctx.memories?.map(listedMemory) : v;
  };
  // Field by field, in /v1's order.
  return Object.fromEntries(
    Object.entries(ctx)
      .filter(([k]) => k !== 'cost')
      .map(([k, v]) => [k, shown(k, v)]),
  ) as ShownContext;
}
