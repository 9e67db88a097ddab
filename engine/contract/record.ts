import * as z from 'zod';
import { DateTime, Visibility, pageLimit, searchText, sinceNotAfterUntil } from './common.ts';

const shortText = z.string().min(1, 'must not be empty').max(2_000, 'must be at most 2,000 characters');

/**
 * What a Memory's statement is made of must hold something besides whitespace: "   " or a fact of " "s
 * made a blank Memory (`pattern: \S` in openapi.json). An empty string still reads "must not be empty".
 * Optional labels (speaker, title, place, ...) are left as they were: a blank one says nothing, but it
 * should not cost an imported message its place.
 */
const blankRefused = (max: number, maxText: string) =>
  z
    .string()
    .min(1, { error: 'must not be empty', abort: true })
    .regex(/\S/, 'must not be blank')
    .max(max, `must be at most ${maxText} characters`);
const text = blankRefused(1_000_000, '1,000,000');
const statementShortText = blankRefused(2_000, '2,000');

/**
 * Speaker names (compared trimmed and case-insensitively) that mean the Brain's own person: an import
 * writes the user's own messages as "self", agents' transcripts name the user "user" (LangChain's
 * "human"), and a redacted copy synced to a hub names the device's person "[self]"
 * (engine/local/sync/redact.ts).
 */
export const selfSpeakerNames: ReadonlySet<string> = new Set([
  'self',
  'me',
  'i',
  'user',
  'human',
  'myself',
  '[self]',
]);

export const MessageContent = z
  .strictObject({
    kind: z.literal('message'),
    text,
    speaker: shortText
      .optional()
      .describe(
        "Who said it: `user`, `human`, `me`, `self` or the self's name is the Brain's person; `assistant`, " +
          '`ai`, `bot` or `agent` an agent; another name, that person.',
      ),
    thread: shortText.optional().describe('A thread is what a session is; it is never created separately.'),
  })
  .meta({ id: 'MessageContent' });

export const DocumentContent = z
  .strictObject({ kind: z.literal('document'), text, title: shortText.optional() })
  .meta({ id: 'DocumentContent' });

export const EventContent = z
  .strictObject({
    kind: z.literal('event'),
    title: statementShortText,
    starts_at: DateTime.optional(),
    ends_at: DateTime.optional().describe(
      'Not earlier than starts_at (compared as instants; equal is an instant event): rememberRecord ' +
        'refuses one earlier with `invalid_request_body`.',
    ),
    participants: z.array(shortText).max(500).optional(),
    place: shortText.optional(),
  })
  .meta({ id: 'EventContent' });

export const FactValue = z
  .union([blankRefused(10_000, '10,000'), z.number(), z.boolean()])
  .describe(
    'A number must be one a double keeps: one that would come back as another decimal ' +
      '(12345678901234567890 as 12345678901234567000) is refused; send it as a string.',
  );

export const FactContent = z
  .strictObject({
    kind: z.literal('fact'),
    subject: statementShortText,
    predicate: statementShortText,
    value: FactValue,
  })
  .meta({ id: 'FactContent' });

export const CorrectionContent = z
  .strictObject({
    kind: z.literal('correction'),
    corrects: z.string().regex(/^mem_[A-Za-z0-9]+$/, 'must be a Memory id (mem_...)'),
    statement: text
      .optional()
      .describe(
        'The corrected statement. Without it the corrected Memory is retracted: closed, with no successor.',
      ),
    reason: shortText.optional(),
    valid_from: DateTime.optional().describe(
      'Additive: from when the statement holds (RFC 3339 with an offset; a day is its start where the ' +
        'person is), `scheduled` until then if later; the corrected Memory held for no time. Needs ' +
        '`statement`.',
    ),
  })
  .meta({ id: 'CorrectionContent' });

export const TypedContent = z
  .discriminatedUnion('kind', [MessageContent, DocumentContent, EventContent, FactContent, CorrectionContent])
  .meta({ id: 'TypedContent' });
export type TypedContent = z.infer<typeof TypedContent>;
export type Kind = TypedContent['kind'];
export const allKinds = [
  'message',
  'document',
  'event',
  'fact',
  'correction',
] as const satisfies readonly Kind[];

export const SourceTrust = z.enum(['high', 'medium', 'low']).meta({ id: 'SourceTrust' });

export const RecordSource = z
  .strictObject({
    name: shortText.optional(),
    external_id: shortText
      .optional()
      .describe(
        'Identity of the item in the external system `name` names. A Record carrying both is reconciled from that source and is not erasable by itself (forgetSource removes the import); one with an external_id and no name is erasable as any other.',
      ),
    trust: SourceTrust.optional().describe('How far this source is trusted; default medium.'),
  })
  .meta({ id: 'RecordSource' });
export type RecordSource = z.infer<typeof RecordSource>;

/**
 * Source names a URL path cannot hold: forgetSource names the source in its path, where "." and ".."
 * name another resource (`…/sources/..` is the Brain itself), so such a Record could not be erased.
 */
const pathlessNames = new Set(['.', '..']);

/**
 * An event that ends before it starts took place at no time: a client that swapped the two, or wrote
 * an end in another zone without its offset's sign, is told so rather than storing an event that every
 * time-window question then misplaces. Compared as instants, as since/until are. Checked on a write
 * only (rememberRecord, an import, a tool): a Record is immutable, so one already held (written before
 * this rule) is served and replicated as it is, and a hub takes it from a device (ReplicableContent).
 */
const eventEndsNotBeforeItStarts = {
  check: (c: string | TypedContent) =>
    typeof c === 'string' ||
    c.kind !== 'event' ||
    c.starts_at === undefined ||
    c.ends_at === undefined ||
    Date.parse(c.starts_at) <= Date.parse(c.ends_at),
  params: { message: 'must not be earlier than starts_at', path: ['ends_at'] },
};

/**
 * A withdrawal (a correction without a statement) says the Memory was never right: it has no time from
 * which it would hold, so a valid_from beside it is refused rather than dropped or read as "ended then"
 * (which is a new value, or an ending, written as a Record of that date). Checked on a write only, as
 * the event rule is: a correction that came from another side is taken as it is, its date unread.
 */
const dateOnlyWithStatement = {
  check: (c: string | TypedContent) =>
    typeof c === 'string' ||
    c.kind !== 'correction' ||
    c.valid_from === undefined ||
    c.statement !== undefined,
  params: {
    message:
      'needs a statement: a withdrawal (no statement) says the Memory never held, which has no date. To say ' +
      'a value stopped holding on a day, send the statement that holds from then, or remember a Record of that day',
    path: ['valid_from'],
  },
};

export const RecordCreate = z
  .strictObject({
    content: z
      .union([text, TypedContent])
      .refine(eventEndsNotBeforeItStarts.check, eventEndsNotBeforeItStarts.params)
      .refine(dateOnlyWithStatement.check, dateOnlyWithStatement.params)
      .describe('A plain string is stored as a document and loses structure.'),
    source: RecordSource.refine((s) => s.name === undefined || !pathlessNames.has(s.name), {
      path: ['name'],
      message:
        'must not be "." or "..": forgetSource names a source in its URL path, where these name another resource',
    }).optional(),
    visibility: Visibility.optional(),
    occurred_at: DateTime.optional(),
  })
  .meta({ id: 'RecordCreate' });
export type RecordCreate = z.infer<typeof RecordCreate>;

export const RecordStatus = z.enum(['processing', 'ready']);

/**
 * What a correction that came from another side (sync) did in this Brain: each side derives Memories of
 * its own, in its own words, and the correction names the one it corrected by its Records and
 * statement (docs/sync.md, "Corrections"). Additive.
 */
export const CorrectionOutcome = z
  .object({
    state: z
      .enum(['applied', 'applied_by_fallback', 'not_applied'])
      .describe(
        '`applied`: a Memory of its Records here says what it corrected, and was corrected. ' +
          '`applied_by_fallback`: none says it in those words; the Memory of its Records here that holds the ' +
          'same slot, or says it in the closest words, was corrected, or its statement stands as a Memory of ' +
          'its own. `not_applied`: nothing here was changed (`reason` says why).',
      ),
    matched_by: z
      .enum(['statement', 'slot', 'closest_statement', 'stated'])
      .nullable()
      .describe('How the Memory it changed here was found; null when not applied.'),
    memory_id: z
      .string()
      .nullable()
      .describe(
        'The Memory here it made (a new version, or its statement as a Memory) or withdrew; null when not applied.',
      ),
    reason: z.string().describe('Why, in a sentence: what matched, or what did not.'),
  })
  .meta({ id: 'CorrectionOutcome' });
export type CorrectionOutcome = z.infer<typeof CorrectionOutcome>;

export const MnemoRecord = z
  .object({
    id: z.string().regex(/^rec_/),
    object: z.literal('record'),
    status: RecordStatus,
    kind: z.enum(allKinds),
    content: TypedContent.describe('The content as stored; a plain string appears as a document.'),
    source: z
      .object({ name: z.string().nullable(), external_id: z.string().nullable(), trust: SourceTrust })
      .describe('Where it came from; trust defaults to medium.'),
    visibility: Visibility,
    erasable: z
      .boolean()
      .describe(
        'false for Records reconciled from an external source (forgetRecord answers record_not_erasable).',
      ),
    occurred_at: DateTime,
    memory_ids: z.array(z.string()).describe('Memories derived from it; empty while processing.'),
    created_at: DateTime,
    correction_outcome: CorrectionOutcome.optional().describe(
      'Additive: on a correction that came from another side (sync), once it was derived here, what it did ' +
        "here. Its `content.corrects` names the Memory where it was written, not this side's.",
    ),
  })
  .meta({ id: 'Record' });
export type MnemoRecord = z.infer<typeof MnemoRecord>;

export const RecordRemoval = z
  .object({ id: z.string(), forgotten_at: DateTime })
  .meta({ id: 'RecordRemoval' });
export type RecordRemoval = z.infer<typeof RecordRemoval>;

export const RecordPage = z
  .object({
    data: z.array(MnemoRecord),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
    watermark: z
      .string()
      .optional()
      .describe('Present on a change-feed read (`since_watermark`): send it back as since_watermark.'),
    removed: z
      .array(RecordRemoval)
      .optional()
      .describe(
        'Present on a change-feed read (additive): Records forgotten after the boundary, paged with `data` ' +
          'in the same order (at a step, the Records written there come before the ids forgotten there). ' +
          'A forgotten id never comes back. A `local_only` Record is never named here, as it is never in `data`.',
      ),
  })
  .meta({ id: 'RecordPage' });
export type RecordPage = z.infer<typeof RecordPage>;

/** The most Record ids listRecords' `ids` names at once: its page's largest `limit`. */
export const maxListedIds = 200;
const recordIdList = new RegExp(`^rec_[A-Za-z0-9]+(?:,rec_[A-Za-z0-9]+){0,${maxListedIds - 1}}$`);

/** listRecords (additive to the spec): newest first, filtered. */
export const RecordListQuery = z
  .strictObject({
    kind: z.enum(allKinds).optional(),
    // An empty name would otherwise read as "no filter" and hand a client with an unset variable the
    // whole Brain; the other filters refuse empty values the same way.
    source: z.string().min(1, 'must not be empty').optional(),
    has_source: z
      .enum(['true', 'false'])
      .optional()
      .describe(
        'false: only Records written with no `source.name` (as a client of this API writes them when it ' +
          'names none); true: only those with one; absent: no such filter. `false` with `source`: ' +
          '`conflicting_parameters`.',
      ),
    visibility: Visibility.optional(),
    status: RecordStatus.optional(),
    since: DateTime.optional().describe(
      'Records that occurred at or after this time. Later than `until`: `invalid_request_body`.',
    ),
    until: DateTime.optional().describe('Records that occurred at or before this time.'),
    q: searchText
      .optional()
      .describe(
        "Words that must all occur, in any order and within words too, in the Record's text, a message's " +
          "speaker or a document's title; case and accents are ignored, as listMemories' `q` compares. " +
          'White space or combining accents alone are refused (invalid_request_body).',
      ),
    ids: z
      .string()
      .regex(recordIdList, `must be 1 to ${maxListedIds} Record ids (rec_...), comma-separated`)
      .optional()
      .describe(
        `Additive: only the Records with these ids (1 to ${maxListedIds}, comma-separated), so a client ` +
          'holding ids (a trace, citations) reads them in one request rather than a getRecord each. An id ' +
          'the Brain does not hold, or this deployment does not serve, is left out: compare the page with ' +
          'the ids asked for. Newest first and paged by `limit` as any list (send `limit` as high as the ' +
          'ids are many); with the other filters, all apply. Not with since_watermark ' +
          '(`conflicting_parameters`).',
      ),
    cursor: z
      .string()
      .min(1, 'must not be empty')
      .optional()
      .describe(
        "A page's `next_cursor`, for the older page after it. It carries the filters of the read that " +
          'issued it, so sent alone it goes on with that list; a filter sent with it is read as sent. ' +
          '`limit` may change from page to page.',
      ),
    // Not min(1): an empty one is a watermark the engine cannot read, `invalid_watermark` as any other.
    since_watermark: z
      .string()
      .optional()
      .describe(
        'Change feed (additive; for sync): the Records written and forgotten after this boundary, in the ' +
          "Brain's sequence, oldest first, with `watermark` and `removed`; `start` reads from the beginning. " +
          'A page holds at most `limit` entries of `data` and `removed` together: a step with more (a ' +
          'forgotten import is one step) goes on in the next page, from a watermark inside it. ' +
          'Not combined with `cursor` or any filter (`conflicting_parameters`). Loop: read a page, apply it, ' +
          'send its `watermark` back, repeat while `has_more`.',
      ),
    limit: pageLimit(50, 200),
  })
  .refine(sinceNotAfterUntil.check, sinceNotAfterUntil.params);
export type RecordListQuery = z.infer<typeof RecordListQuery>;
