import * as z from 'zod';
import { Citation, DateTime, pageLimit } from './common.ts';
import { Cost } from './context.ts';

export const TraceCandidate = z.object({
  record_id: z.string(),
  memory_id: z.string().nullable(),
  rank: z.int().min(1),
  score: z.number(),
  reason: z.string().describe('Why this lane matched, e.g. the shared words.'),
});

export const TraceLane = z.object({
  name: z
    .string()
    .describe(
      'The lane: lexical, entity, time, recency, when, slot, topic, semantic, then in thorough mode rewrite (the generative query rewrite) and feedback, and last prompt (the local and PostgreSQL engines, in that order); substring (the reference engine). A question asking what changed ("What changed this week?") lists changes first: the Records that changed a Memory in the time it names, in the order they lead the Context, each with the version it made. A lane that could not run is listed once as "<lane> (not run: <reason>)", with no candidates: "semantic (not run: the embedder is still loading)", or the reason a database cannot run it.',
    ),
  candidates: z.array(TraceCandidate),
  ms: z.number(),
});

export const Trace = z
  .object({
    id: z.string().describe('The Context id (ctx_...) or, for a failed request, trc_...'),
    object: z.literal('trace'),
    brain_id: z.string(),
    request_id: z.string(),
    created_at: DateTime,
    query: z.string(),
    mode: z.enum(['fast', 'thorough']),
    purpose: z.string().nullable(),
    status: z.enum(['ready', 'processing', 'failed']),
    watermark: z.string().nullable(),
    request: z
      .record(z.string(), z.unknown())
      .describe('The request body as received, with filters the engine records but does not enforce.'),
    lanes: z.array(TraceLane),
    fusion: z.object({
      method: z
        .string()
        .describe('How the lanes were combined, and the reranker that ordered the result if one did.'),
      results: z
        .array(
          z.object({
            record_id: z.string(),
            score: z.number(),
            rerank_score: z
              .number()
              .nullable()
              .describe(
                "The reranker's score when it ordered this Record (a log-odds margin: higher is more " +
                  'likely evidence); null when no reranker ran or the Record was beyond its depth. A ' +
                  'two-stage reranker gives the Records its second stage rescored their second-stage ' +
                  'score and places them first; the others keep their first-stage score and follow ' +
                  '(fusion.method says how many were rescored).',
              ),
            lanes: z.array(z.string()),
          }),
        )
        .describe(
          'In the final order; score is the fused (RRF) score, which a reranker may overrule ' +
            '(rerank_score then gives the order within each of its stages), lanes the lanes that found it.',
        ),
    }),
    budget: z.object({
      requested_tokens: z.int(),
      estimated_tokens: z.int(),
      truncated: z.boolean(),
      cut: z
        .array(z.object({ record_id: z.string(), tokens: z.int() }))
        .describe('Passages left out to fit the budget.'),
    }),
    dropped: z
      .array(z.object({ record_id: z.string(), reason: z.string() }))
      .optional()
      .describe(
        'Additive: candidates read as evidence and left out of the Context, each with why (as the ' +
          "Context's explain.dropped lists them): superseded, a newer revision, beside the answer, a " +
          'repeat of the same words as another Record (which one is quoted instead), bulk mail past its ' +
          'share, a private Record the question does not name. Absent on a Trace of no evidence read.',
      ),
    citations: z.array(Citation),
    abstained: z.string().nullable(),
    timings_ms: z.record(z.string(), z.number()),
    cost: Cost,
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'Trace' });
export type Trace = z.infer<typeof Trace>;

export const TraceSummary = z
  .object({
    id: z.string(),
    object: z.literal('trace'),
    created_at: DateTime,
    query: z.string(),
    mode: z.enum(['fast', 'thorough']),
    status: z.enum(['ready', 'processing', 'failed']),
    abstained: z.string().nullable(),
    citations: z.int().min(0),
    total_ms: z.number(),
    error_code: z.string().nullable(),
  })
  .meta({ id: 'TraceSummary' });
export type TraceSummary = z.infer<typeof TraceSummary>;

export const TracePage = z
  .object({ data: z.array(TraceSummary), has_more: z.boolean(), next_cursor: z.string().nullable() })
  .meta({
    id: 'TracePage',
    description:
      'Newest first. Traces live in a bounded recent-only buffer. next_cursor (additive) is set when has_more ' +
      'is: pass it as `cursor` for the next older page; traces evicted meanwhile are simply not on it.',
  });
export type TracePage = z.infer<typeof TracePage>;

export const TraceListQuery = z.strictObject({
  limit: pageLimit(20, 100),
  cursor: z.string().min(1).optional().describe("Additive: a page's next_cursor, for the next older page."),
});
