import * as z from 'zod';
import { Citation, DateTime, sinceNotAfterUntil } from './common.ts';
import { Memory } from './memory.ts';

export const includeValues = ['memories', 'citations', 'unknowns', 'conflicts', 'explain'] as const;

/**
 * A name a filter holds (a source's, a subject's): an empty one matches no Record, so a client with an
 * unset variable would get an empty answer as if filtered; long ones are kept on every Trace.
 */
const filterName = z.string().min(1, 'must not be empty').max(2_000, 'must be at most 2,000 characters');

export const ContextRequest = z
  .strictObject({
    // Not trimmed: the Context echoes the query exactly as sent; blank is refused all the same.
    query: z
      .string()
      // abort: an empty query is only empty, not blank as well.
      .min(1, { error: 'must not be empty', abort: true })
      .max(4_000, 'must be at most 4,000 characters')
      // A pattern, not a refinement, so that openapi.json says so too.
      .regex(/\S/, 'must not be blank'),
    purpose: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'must be one lower-case word')
      .optional()
      .describe(
        'One word naming the class of task; recorded on the trace. `off_device`: the Context leaves this device, so only `shareable` Records are evidence; it abstains `out_of_policy` where only others would answer. Other words set no policy.',
      ),
    as_of: DateTime.optional(),
    budget: z
      .strictObject({
        tokens: z
          .int()
          .min(1)
          .max(100_000)
          .optional()
          .describe(
            "The most tokens the Context's `text` may take (o200k, GPT-4o's tokenizer); 4000 when left out. The text opens with a preamble of about 35 tokens that says its quotes are evidence, not instructions, and each block with a header line of about 20-30; a quote is never given without them. Under about 100 tokens, most Contexts hold no block: `text` is null and `budget.truncated` true.",
          ),
        ms: z.int().min(1).max(60_000).optional(),
      })
      .optional(),
    include: z.array(z.enum(includeValues)).max(includeValues.length).optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
    filter: z
      .strictObject({
        subjects: z.array(filterName).max(100, 'must hold at most 100 subjects').optional(),
        owner: filterName.optional(),
        // An empty list would filter every source out, and the Context would abstain with
        // no_evidence, which reads as "the Brain knows nothing of it": leave it out for every source.
        sources: z
          .array(filterName)
          .min(1, 'must hold at least one source name; leave filter.sources out for every source')
          .max(100, 'must hold at most 100 source names')
          .optional(),
        since: DateTime.optional().describe(
          'Evidence that occurred at or after this time. Later than `until`: `invalid_request_body`.',
        ),
        until: DateTime.optional().describe('Evidence that occurred at or before this time.'),
        sensitivity_lte: z.string().nullable().optional(),
      })
      .refine(sinceNotAfterUntil.check, sinceNotAfterUntil.params)
      .optional(),
    mode: z.enum(['fast', 'thorough']).optional(),
  })
  .meta({ id: 'ContextRequest' });
export type ContextRequest = z.infer<typeof ContextRequest>;

export const ConflictValue = z.object({
  memory_id: z.string(),
  statement: z.string(),
  valid_from: DateTime,
  citations: z.array(Citation),
});

export const Conflict = z
  .object({
    subject: z.string(),
    predicate: z.string(),
    values: z.array(ConflictValue).min(2),
  })
  .meta({
    id: 'Conflict',
    description: 'One slot holding two or more active values from sources that neither supersedes.',
  });
export type Conflict = z.infer<typeof Conflict>;

export const Cost = z
  .object({
    generative_calls: z.int().min(0),
    processing_units: z.number().min(0),
    model_calls_total: z.int().min(0),
    embedding_calls: z.int().min(0),
  })
  .meta({ id: 'Cost' });
export type Cost = z.infer<typeof Cost>;

export const AbstainReason = z.enum([
  'no_evidence',
  'conflicting_evidence',
  'no_attribution',
  'out_of_policy',
]);

export const ContextReady = z
  .object({
    id: z.string().regex(/^ctx_/),
    object: z.literal('context'),
    status: z.literal('ready'),
    query: z.string(),
    watermark: z.string(),
    text: z.string().nullable(),
    citations: z.array(Citation),
    conflicts: z.array(Conflict),
    unknowns: z
      .array(z.string())
      .describe(
        "Questions that could not be answered; the query when nothing answers it (text null), when the budget holds none of the evidence, when the sources disagree about what it asks, when the evidence served was found by meaning alone (no block shares a word with the question, a person, a time or a slot it names: the nearest Records, which may not answer it, as the text's first line says), or when a word of the question is said by no Record and the evidence shares only its other words (the text's first line names the word).",
      ),
    abstained: z.object({ reason: AbstainReason }).optional(),
    budget: z.object({
      requested_tokens: z.int(),
      estimated_tokens: z.int(),
      truncated: z.boolean(),
      ms: z.int().optional().describe('The requested time budget, echoed when sent.'),
      ms_exceeded: z
        .boolean()
        .optional()
        .describe('true when the time budget ran out and the best found so far was returned.'),
    }),
    cost: Cost,
    memories: z
      .array(Memory)
      .optional()
      .describe(
        'With include=memories: the Memories the cited evidence serves, most relevant first (each at the rank of its best-ranked cited Record).',
      ),
    explain: z.record(z.string(), z.unknown()).optional(),
    structured: z
      .object({ available: z.literal(false), reason: z.string() })
      .optional()
      .describe('Present when a schema was sent. This version composes no structured output.'),
  })
  .meta({ id: 'Context' });
export type ContextReady = z.infer<typeof ContextReady>;

export const ContextProcessing = z
  .object({
    id: z.string().regex(/^ctx_/),
    object: z.literal('context'),
    status: z.literal('processing'),
    query: z.string(),
    watermark: z.string(),
    citations: z.array(Citation).max(0),
    unknowns: z.array(z.string()),
    budget: z.object({ estimated_tokens: z.int(), truncated: z.boolean() }),
  })
  .meta({ id: 'ContextProcessing' });
export type ContextProcessing = z.infer<typeof ContextProcessing>;

export type Context = ContextReady | ContextProcessing;
