import * as z from 'zod';
import { Citation, DateTime, pageLimit, searchText } from './common.ts';

export const MemoryStatus = z.enum(['active', 'scheduled', 'superseded', 'retracted']).meta({
  id: 'MemoryStatus',
  description:
    'active: in force now (one value per slot); scheduled: a slot value dated to start later, which becomes active then without being written again (the active value until then carries valid_to = its start); superseded: a newer version holds the slot, or a plan of no slot was said moved to another time or called off (the change is its next version); retracted: closed by a correction with no successor, a scheduled value withdrawn (a plan the person said is off, or gave another day), or a value said by mistake and mended in the next message ("my birthday is march 4", then "wait no, march 14").',
});
export type MemoryStatus = z.infer<typeof MemoryStatus>;

export const OwnerState = z.enum(['self', 'other', 'unresolved']);

export const Owner = z
  .object({
    state: OwnerState,
    entity: z.string().optional().describe('Name of the owner; present when resolved.'),
  })
  .meta({ id: 'Owner' });
export type Owner = z.infer<typeof Owner>;

export const Memory = z
  .object({
    id: z.string().regex(/^mem_/),
    object: z.literal('memory'),
    statement: z.string(),
    subject: z.string(),
    predicate: z
      .string()
      .nullable()
      .describe('The slot within the subject, when the Memory holds one (facts); null otherwise.'),
    slot: z
      .string()
      .nullable()
      .describe(
        'Opaque key of the slot the Memory holds (who, resolved to the owner, and what), the same for every value and version of that slot however its subject and predicate are spelled: two current Memories with one slot disagree. null when the Memory holds no slot.',
      ),
    owner: Owner,
    valid_from: DateTime,
    valid_to: DateTime.nullable().describe('null means current.'),
    version: z.int().min(1),
    status: MemoryStatus,
    citations: z.array(Citation).min(1),
  })
  .meta({ id: 'Memory' });
export type Memory = z.infer<typeof Memory>;

export const MemoryRevision = z
  .object({
    id: z.string(),
    version: z.int().min(1),
    statement: z.string(),
    status: MemoryStatus,
    valid_from: DateTime,
    valid_to: DateTime.nullable(),
    learned_at: DateTime.describe('Transaction time: when the Brain learned this version.'),
    cause: z.enum(['derived', 'superseded_by_record', 'correction', 'rederived']),
  })
  .meta({ id: 'MemoryRevision' });
export type MemoryRevision = z.infer<typeof MemoryRevision>;

export const Evidence = z
  .object({
    record_id: z.string(),
    quote: z.string(),
    text: z
      .string()
      .nullable()
      .describe(
        'The full text of the cited Record, so the quote can be shown in place; null for a key without records:read, which reads Memories and their quotes, not whole Records.',
      ),
    kind: z.string(),
    speaker: z.string().nullable(),
    source_name: z.string().nullable(),
    occurred_at: DateTime,
  })
  .meta({ id: 'Evidence' });
export type Evidence = z.infer<typeof Evidence>;

export const MemoryDetail = Memory.extend({
  revisions: z.array(MemoryRevision).describe("Every version of this Memory's slot, oldest first."),
  evidence: z.array(Evidence),
  value: z
    .string()
    .nullable()
    .describe(
      'Additive: the value this version gives its slot, as it was said: "Lisbon" for "I live in Lisbon ' +
        'with my partner Tom." or "Ana home city: Lisbon". null when the Memory holds no slot, ends one ' +
        '("Ana no longer lives in Porto"), or its words give no one value (a correction worded freely).',
    ),
  withdrawn_by: z
    .object({
      record_id: z.string(),
      kind: z.string(),
      text: z.string().describe("The Record's text, cut at 500 characters."),
      speaker: z.string().nullable(),
      occurred_at: DateTime,
    })
    .nullable()
    .describe(
      'Additive: for a retracted Memory, the Record that withdrew it (a correction, a plan said to be off, ' +
        'a value mended in the next message: "wait no, it\'s march 14"). null otherwise, or where this ' +
        'deployment does not serve that Record.',
    ),
}).meta({ id: 'MemoryDetail' });
export type MemoryDetail = z.infer<typeof MemoryDetail>;

export const MemoryRemoval = z
  .object({
    id: z.string().regex(/^mem_/),
    reason: z
      .enum(['deleted', 'pending_rederivation'])
      .describe(
        'deleted: its supporting Records were forgotten, or re-derivation found none left, or it became ' +
          'one with another Memory (the id never comes back). pending_rederivation: some supporting ' +
          'Records were forgotten; the Memory is excluded from every read until it is derived again, when ' +
          'it returns in `data` of a later delta read under the same id (or is reported again as deleted). ' +
          'A Memory derived again whose Records still say the same of it keeps its id and is not removed, ' +
          'also when only its owner changed (the Brain given its self): it is in `data` with its new owner.',
      ),
  })
  .meta({
    id: 'MemoryRemoval',
    description:
      'A Memory that left the served set after the delta boundary: drop it. Ids only, never content.',
  });
export type MemoryRemoval = z.infer<typeof MemoryRemoval>;

export const MemoryPage = z
  .object({
    data: z.array(Memory),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
    watermark: z.string().optional().describe('Present on delta reads: send it back as since_watermark.'),
    removed: z
      .array(MemoryRemoval)
      .optional()
      .describe(
        'Present on delta reads (additive): Memories that left the served set after the boundary, in the ' +
          'same transaction-time order as `data` and paged with it (at a step, the Memories removed there ' +
          'come before those changed there; `limit` counts both, and the watermark covers both). An id is in at most one of `data` and `removed` of a page: the ' +
          'later of its changes. Not narrowed by subject, owner, q, status, as_of, contested or slot (a removal carries ' +
          'no content to match): ignore ids you do not hold.',
      ),
  })
  .meta({ id: 'MemoryPage' });
export type MemoryPage = z.infer<typeof MemoryPage>;

export const MemoryListQuery = z.strictObject({
  subject: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Whom or what the Memories are about: a name, or one or more whole words of one, in any order, case ' +
        'and accents ignored (`babic`, `Marko Babic` and `marko` find Marko Babić; `marko` finds every ' +
        "other Marko too; `bab` finds none). A slot value is found by its slot's subject, so the " +
        'Brain\'s own person\'s name finds the facts written about "me".',
    ),
  owner: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Whose Memories: `self`, `other` or `unresolved` (the owner's state), or a person's name as " +
        '`owner.entity` gives it, or one or more whole words of it, compared as searches compare text: in ' +
        'any case, its accents optional (`jose` finds `José`, `ines` Inês Duarte, `marko` every Marko).',
    ),
  as_of: DateTime.optional(),
  // Not min(1): an empty one is a watermark the engine cannot read, `invalid_watermark` as any other.
  since_watermark: z
    .string()
    .optional()
    .describe(
      'Delta read: the Memories changed after this boundary, by transaction time, oldest first, with ' +
        '`watermark` and `removed`. A page holds at most `limit` entries of `data` and `removed` together: ' +
        'a step with more (forgetting a source removes all its Memories at one step) goes on in the next ' +
        'page, from a watermark inside it. Not combined with `cursor` or `order` (`conflicting_parameters`). Loop: ' +
        'read a page, apply it, send its `watermark` back, repeat while `has_more`. `start` is the ' +
        "Brain's beginning: a first delta read from it lists every Memory the Brain has.",
    ),
  cursor: z
    .string()
    .min(1)
    .optional()
    .describe(
      "A page's `next_cursor`, for the page after it. It carries the filters and `order` of the read " +
        'that issued it, so sent alone it goes on with that list; a filter or `order` sent with it is read ' +
        'as sent (a cursor is a place: the other order goes back from it). `limit` may change.',
    ),
  order: z
    .enum(['asc', 'desc'])
    .optional()
    .describe(
      "A full read's order by id (ids follow the order Memories were written): `asc` (default) oldest " +
        "first, `desc` newest first. A `cursor` sent without `order` goes on in its read's order. Not combined with " +
        '`since_watermark`, which reads by transaction time, oldest first (`conflicting_parameters`).',
    ),
  limit: pageLimit(50, 200),
  q: searchText
    .optional()
    .describe(
      "Words that must all occur, in any order and within words too, in the statement, its subject or its owner's name (`babic` finds what Marko Babić said); case and accents are ignored. White space or combining accents alone are refused (invalid_request_body).",
    ),
  status: z.enum(['active', 'scheduled', 'superseded', 'retracted', 'all']).optional(),
  contested: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      'true: only current Memories that share their slot with another current value (the conflicts a person or an agent should settle); false or absent: no such filter. Group them by `slot`.',
    ),
  slot: z
    .string()
    .min(1)
    .max(200)
    // A slot's words ("phone number") found nothing and said nothing: they are q's or subject's.
    .regex(
      /^lin_[0-9A-Za-z]+$/,
      "must be a Memory's `slot` as it gives it (lin_…); to find Memories by their words, use q or subject",
    )
    .optional()
    .describe(
      "Only the Memories of this slot (a Memory's `slot`, `lin_…`): its current values, or with `status=all` every version it has held.",
    ),
});
export type MemoryListQuery = z.infer<typeof MemoryListQuery>;
export const memoryListParams = Object.keys(MemoryListQuery.shape);
