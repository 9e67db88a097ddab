import type { ContextReady, ContextRequest, Memory, Trace } from '../contract/index.ts';
import { newId } from '../ids.ts';
import { assembleText, defaultBudgetTokens, type Passage } from '../core/shared/assemble-text.ts';
import { foldText } from '../core/shared/fold-text.ts';
import type { ContextOptions, Deployment } from '../types.ts';
import { hiddenHere, inSpan } from './eligible.ts';
import type { BrainState, StoredRecord } from './state.ts';

const stopwords = new Set(
  'a an and are as at be but by do does did for from had has have how i in is it its of on or so that the their them they this to was were what when where which who whom why will with you your'.split(
    ' ',
  ),
);

/**
 * Folded words (as every engine's search compares them: "strasse" finds "Straße") of two or more letters
 * or digits, minus the commonest function words.
 */
export function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [])
    if (w.length > 1 && !stopwords.has(w)) out.add(w);
  return out;
}

const possessive = /\b(my|mine|myself|our|ours|ourselves)\b/i;
const zeroCost = { generative_calls: 0, processing_units: 0, model_calls_total: 0, embedding_calls: 0 };

/** The reference engine's Context: a substring scan that needs a shared word, ranked by shared words. */
export async function referenceContext(
  s: BrainState,
  body: ContextRequest,
  opts: ContextOptions,
  env: { deployment: Deployment; now: () => string; watermark: string },
): Promise<ContextReady> {
  const started = performance.now();
  const mode = body.mode ?? 'fast';
  const requested = body.budget?.tokens ?? defaultBudgetTokens;
  const id = newId('ctx');
  const include = new Set(body.include ?? []);
  opts.onEvent?.({ event: 'stage', data: { stage: 'retrieve', lane: 'substring' } });

  const base = {
    id,
    object: 'context' as const,
    status: 'ready' as const,
    query: body.query,
    watermark: env.watermark,
    conflicts: [],
    cost: zeroCost,
    ...(body.schema
      ? {
          structured: {
            available: false as const,
            reason: 'The reference engine composes no structured output.',
          },
        }
      : {}),
  };

  const trace = (
    ctx: ContextReady,
    lane: Trace['lanes'][number],
    cut: Trace['budget']['cut'],
  ): Promise<void> =>
    s.traces.add({
      id,
      object: 'trace',
      brain_id: s.brain.id,
      request_id: opts.requestId,
      created_at: env.now(),
      query: body.query,
      mode,
      purpose: body.purpose ?? null,
      status: 'ready',
      watermark: env.watermark,
      request: body as Record<string, unknown>,
      lanes: [lane],
      fusion: {
        method: 'single-lane',
        results: lane.candidates.map((c) => ({
          record_id: c.record_id,
          score: c.score,
          rerank_score: null,
          lanes: ['substring'],
        })),
      },
      budget: {
        requested_tokens: requested,
        estimated_tokens: ctx.budget.estimated_tokens,
        truncated: ctx.budget.truncated,
        cut,
      },
      citations: ctx.citations,
      abstained: ctx.abstained?.reason ?? null,
      timings_ms: { total: performance.now() - started },
      cost: zeroCost,
      error: null,
    });

  if (possessive.test(body.query) && !s.brain.self) {
    const ctx: ContextReady = {
      ...base,
      text: null,
      citations: [],
      unknowns: [`ownership of: ${body.query}`],
      abstained: { reason: 'no_attribution' },
      budget: { requested_tokens: requested, estimated_tokens: 0, truncated: false },
      memories: [],
    };
    await trace(ctx, { name: 'substring', candidates: [], ms: 0 }, []);
    return ctx;
  }

  const queryWords = words(body.query);
  const eligible = (r: StoredRecord) => {
    if (hiddenHere(env.deployment, r.record.visibility)) return false;
    if (!inSpan(r.record.occurred_at, body.filter?.since, body.filter?.until)) return false;
    if (body.filter?.sources && !body.filter.sources.includes(r.record.source.name ?? '')) return false;
    return true;
  };
  const scored: { r: StoredRecord; shared: string[] }[] = [];
  for (const r of s.records.values()) {
    if (!eligible(r)) continue;
    const haystack = foldText(r.text);
    const shared = [...queryWords].filter((w) => haystack.includes(w));
    if (shared.length > 0) scored.push({ r, shared });
  }
  scored.sort(
    (a, b) =>
      b.shared.length - a.shared.length ||
      // By instant, not by text: an imported event's time carries its own offset ("…T14:30:00+01:00").
      (Date.parse(a.r.record.occurred_at) < Date.parse(b.r.record.occurred_at) ? 1 : -1),
  );
  const lane: Trace['lanes'][number] = {
    name: 'substring',
    ms: performance.now() - started,
    candidates: scored.map((c, i) => ({
      record_id: c.r.record.id,
      memory_id: c.r.record.memory_ids[0] ?? null,
      rank: i + 1,
      score: c.shared.length,
      reason: `shares ${c.shared.join(', ')}`,
    })),
  };
  const passages: Passage[] = scored.map(({ r }) => ({
    record_id: r.record.id,
    quote: r.text,
    occurred_at: r.record.occurred_at,
    speaker: r.content.kind === 'message' ? (r.content.speaker ?? null) : null,
    source_name: r.record.source.name,
    kind: r.record.kind,
  }));
  const assembled = assembleText(passages, requested);
  const selected = new Map(assembled.citations.map((c, i) => [c.record_id, i]));
  // Most relevant first: a Memory at the rank of its best-ranked cited Record.
  const rankOf = (m: Memory) => Math.min(...m.citations.map((c) => selected.get(c.record_id)!));
  const memories: Memory[] = [...s.memories.values()]
    .map((m) => m.memory)
    .filter((m) => m.citations.every((c) => selected.has(c.record_id)))
    .filter((m) => !body.as_of || Date.parse(m.valid_from) <= Date.parse(body.as_of))
    .sort((a, b) => rankOf(a) - rankOf(b));
  const miss = assembled.text === null;
  const ctx: ContextReady = {
    ...base,
    text: assembled.text,
    citations: assembled.citations,
    unknowns: miss ? [body.query] : [],
    // Evidence that the budget cut whole is no miss of the Brain's: truncated says so, with no abstention.
    ...(miss && !assembled.truncated ? { abstained: { reason: 'no_evidence' as const } } : {}),
    budget: {
      requested_tokens: requested,
      estimated_tokens: assembled.estimated_tokens,
      truncated: assembled.truncated,
      ...(body.budget?.ms !== undefined ? { ms: body.budget.ms, ms_exceeded: false } : {}),
    },
    ...(include.has('memories') || miss ? { memories: miss ? [] : memories } : {}),
    ...(include.has('explain')
      ? { explain: { engine: 'reference', lanes: ['substring'], trace_id: id, query_words: [...queryWords] } }
      : {}),
  };
  opts.onEvent?.({ event: 'stage', data: { stage: 'assembled', citations: ctx.citations.length } });
  await trace(ctx, lane, assembled.cut);
  return ctx;
}
