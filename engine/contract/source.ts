import * as z from 'zod';
import { DateTime, Visibility } from './common.ts';

/** One source of a Brain's Records (additive): what `source.name` they share, how many, and when. */
export const SourceSummary = z
  .object({
    object: z.literal('source'),
    name: z.string(),
    records: z.int().min(0),
    reconciled_records: z
      .int()
      .min(0)
      .describe('Records carrying a source.external_id (imported, not erasable one by one).'),
    items: z
      .int()
      .min(0)
      .describe(
        "What the source holds now: each imported item once however many versions of it were written (an edited note's earlier version stays in the history: `records - items` are such versions), and each Record without a source.external_id.",
      ),
    first_occurred_at: DateTime,
    last_occurred_at: DateTime,
  })
  .meta({ id: 'Source' });
export type SourceSummary = z.infer<typeof SourceSummary>;

export const SourceList = z
  .object({
    data: z.array(SourceSummary).describe('By name; Records without a source.name are not listed here.'),
    without_source: z
      .object({ records: z.int().min(1), first_occurred_at: DateTime, last_occurred_at: DateTime })
      .nullable()
      .optional()
      .describe(
        'Additive: the Records written with no source.name (over /v1, not by an import or the app), which forgetSource cannot name; null when there are none.',
      ),
  })
  .meta({ id: 'SourceList' });
export type SourceList = z.infer<typeof SourceList>;

/** The sources whose chats listSourceChats tells apart (from their items' external ids). */
export const chatSources: readonly string[] = ['whatsapp'];

/** One chat of a chat import (additive): WhatsApp's chats, each told apart by its messages' ids. */
export const SourceChat = z
  .object({
    object: z.literal('source_chat'),
    source: z.string().describe('The source.name its messages carry (whatsapp).'),
    name: z.string().describe('The chat, as the importer named it from its export ("Porto trip").'),
    messages: z.int().min(0).describe('Messages of the chat the Brain holds, each once however revised.'),
  })
  .meta({ id: 'SourceChat' });
export type SourceChat = z.infer<typeof SourceChat>;

export const SourceChatList = z
  .object({
    data: z
      .array(SourceChat)
      .describe('By name; empty for a source whose items are not chats told apart (only whatsapp is).'),
  })
  .meta({ id: 'SourceChatList' });
export type SourceChatList = z.infer<typeof SourceChatList>;

/**
 * forgetSourceItems (additive): the items of one import, by external id, whose every Record goes (each
 * revision of an item carries its id): what an import with forget_missing finds gone from the files.
 */
export const SourceItemsForget = z
  .strictObject({
    external_ids: z
      .array(z.string().min(1, 'must not be empty').max(2000, 'must be at most 2,000 characters'))
      .min(1, 'must hold at least one external id')
      .max(1000, 'must hold at most 1,000 external ids')
      .describe(
        'External ids of Records of this source.name. Every Record carrying one goes, each revision of the item; an id no Record carries is passed over.',
      ),
  })
  .meta({ id: 'SourceItemsForget' });
export type SourceItemsForget = z.infer<typeof SourceItemsForget>;

/** The formats an import reads (the same as `mnemo import --format`). */
export const ImportFormat = z
  .enum(['markdown', 'obsidian', 'chatgpt', 'claude', 'mbox', 'whatsapp', 'slack', 'ics', 'vcf'])
  .meta({ id: 'ImportFormat' });
export type ImportFormat = z.infer<typeof ImportFormat>;

export const ImportFile = z
  .strictObject({
    name: z
      .string()
      .min(1, 'must not be empty')
      .max(1000, 'must be at most 1,000 characters')
      .describe(
        'Path relative to what was chosen, "/"-separated (a folder arrives as many files: "Vault/notes/a.md").',
      ),
    content_base64: z
      .string()
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be standard base64')
      .describe('The file bytes, base64.'),
    last_modified: DateTime.optional().describe(
      "The file's modification time: a note without a date in its front matter occurred then. " +
        'Without it such a note occurred when first imported, and sending the file again writes nothing.',
    ),
  })
  .meta({ id: 'ImportFile' });
export type ImportFile = z.infer<typeof ImportFile>;

export const ImportRequest = z
  .strictObject({
    format: z
      .union([z.literal('auto'), ImportFormat])
      .optional()
      .describe('auto (default) tells each chosen file or folder by its name and first bytes.'),
    files: z
      .array(ImportFile)
      .min(1, 'must hold at least one file')
      .max(10_000, 'must be at most 10,000 files'),
    time_zone: z
      .string()
      .max(100)
      .optional()
      .describe(
        "IANA zone of times written without an offset (WhatsApp, floating calendar times). Absent: the server machine's zone, except that a WhatsApp chat imported before is read in the zone its earlier import used (its messages' identities include their instants).",
      ),
    self_name: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        'The sender name that is the Brain\'s own person (WhatsApp, Slack, mail): speaker "self". Absent: the name of the Brain\'s own person, as `mnemo import` has it.',
      ),
    visibility: Visibility.optional().describe(
      'Visibility of the Records written (absent: shareable). A Record already imported keeps its own; one sent again with another visibility is written as a new revision of it.',
    ),
    date_order: z
      .enum(['dmy', 'mdy'])
      .optional()
      .describe(
        "Day and month order of WhatsApp dates, and of numeric dates in notes' front matter (05/01/2024), when they cannot tell. Notes default to mdy; dots (05.01.2024) are always day first.",
      ),
    recurrence_since: DateTime.optional().describe(
      'Recurring calendar events are expanded from this instant. Absent: two years before the import. A series with no occurrence in the window is skipped with a reason naming its dates. A window that holds no instant, also with one end by default (since later than a year from now), is refused with invalid_request_body.',
    ),
    recurrence_until: DateTime.optional().describe(
      'Recurring calendar events are expanded up to this instant. Absent: one year after the import.',
    ),
    forget_missing: z
      .boolean()
      .optional()
      .describe(
        "Also forget what the files no longer hold, once every item was read and written (as `mnemo import --forget-missing`): the Brain's notes under each chosen file or folder (a vault inside one whole) that no note there is named as now, and the calendar events and contact cards that a calendar (.ics) or contacts (.vcf) file under it held at an earlier import and that no file of this one holds now (deleted or cancelled, or gone with their file; an event another file holds is kept), each with every revision and what rested only on it (permanent). Chats and mail are not forgotten; events and cards imported before files' contents were recorded are counted in `forget_notes`. Nothing is forgotten when anything could not be read or written, when nothing could be imported, or, for a folder, when none of the notes the Brain holds under it is there now. Absent: false.",
      ),
  })
  .refine(
    (b) =>
      b.recurrence_since === undefined ||
      b.recurrence_until === undefined ||
      Date.parse(b.recurrence_since) < Date.parse(b.recurrence_until),
    { message: 'must be earlier than recurrence_until', path: ['recurrence_since'] },
  )
  .meta({ id: 'ImportRequest' });
export type ImportRequest = z.infer<typeof ImportRequest>;

const ImportPart = z.object({
  name: z.string().describe('The chosen file or folder (or "(all files)" when they were read together).'),
  format: ImportFormat.nullable().describe('null when the format could not be told.'),
  imported: z.int().min(0),
  replaced: z.int().min(0),
  unchanged: z.int().min(0),
  skipped: z.int().min(0),
  failed: z.int().min(0),
  note: z
    .string()
    .optional()
    .describe(
      'How it was read, when that needs saying: e.g. a WhatsApp chat imported before is read in the time zone that import used.',
    ),
});

export const ImportResult = z
  .object({
    object: z.literal('import'),
    brain_id: z.string(),
    imported: z.int().min(0).describe('New items: a Record written for each item the Brain did not hold.'),
    replaced: z
      .int()
      .min(0)
      .describe(
        "Items the Brain held in another version (the same source and external id: an edited note, a changed contact or event, another visibility): a Record written for each, which takes the earlier version's place (that one stays in the history). Counted as imported when the caller may not read Records.",
      ),
    unchanged: z.int().min(0).describe('Items already stored by an earlier import (nothing written).'),
    skipped: z
      .array(z.object({ item: z.string(), reason: z.string() }))
      .describe('Items not written and why (at most 500 listed; skipped_count has them all).'),
    skipped_count: z.int().min(0),
    failed: z.int().min(0).describe('Items the engine failed to store.'),
    failures: z.array(z.object({ item: z.string(), code: z.string(), message: z.string() })),
    parts: z.array(ImportPart).describe('How each chosen file or folder was read.'),
    matched_notes: z
      .object({
        count: z.int().min(1),
        examples: z
          .array(
            z.object({
              item: z
                .string()
                .describe("The note's own name: its path as chosen (from disk, its absolute path)."),
              external_id: z.string().describe('The name the Brain already had for it.'),
            }),
          )
          .describe('The first few (at most 5).'),
      })
      .optional()
      .describe(
        'Plain notes written under the name the Brain already had for them, chosen another way (a folder above, `mnemo import`): each replaced, or repeated, the note stored under that name. Absent when there were none.',
      ),
    forgotten: z
      .int()
      .min(0)
      .optional()
      .describe(
        'With forget_missing: items the Brain held that the files no longer hold, forgotten with every revision and what rested only on them. Absent without forget_missing.',
      ),
    forgotten_items: z
      .array(z.object({ source: z.string(), external_id: z.string() }))
      .optional()
      .describe(
        'With forget_missing: the items forgotten, by source.name and external id (at most 500 listed).',
      ),
    forget_notes: z
      .array(z.string())
      .optional()
      .describe(
        'With forget_missing: why items missing from the files were kept, when some were (something could not be read or written, a folder or calendar none of whose stored items is there now, events and cards no file was recorded as holding, a key without records:read). Also without it, when what a calendar or contacts file holds could not be recorded (a key without objects:read or objects:write): an event or card of that file is then kept, not forgotten, by a later forget_missing import once gone from it.',
      ),
    watermark: z
      .string()
      .nullable()
      .describe(
        'Boundary after the last write (also the Brain-Watermark header); null when nothing was sent.',
      ),
  })
  .meta({ id: 'ImportResult' });
export type ImportResult = z.infer<typeof ImportResult>;

/**
 * One `event: progress` frame of an import answered as an event stream (Accept: text/event-stream):
 * what is known so far. Sent once when planning ends, then at most every 250 ms while items are read
 * and written; the stream ends with one `event: result` frame carrying the ImportResult.
 */
export const ImportProgress = z
  .object({
    object: z.literal('import_progress'),
    files: z.int().min(0).describe('Files sent in the request.'),
    parts_planned: z
      .int()
      .min(0)
      .describe('Chosen files, folders or exports to read (the parts of the ImportResult).'),
    parts_done: z.int().min(0).describe('Parts read and written completely.'),
    current: z
      .string()
      .nullable()
      .describe('The part being read or written, named as the ImportResult names it; null before the first.'),
    current_item: z
      .string()
      .nullable()
      .describe(
        "The item being written (a note's path, a message), named as skipped items are; null between parts.",
      ),
    items_read: z.int().min(0).describe('Items read from the files so far (to write or skipped).'),
    imported: z.int().min(0).describe('New items written so far.'),
    replaced: z.int().min(0).describe('Items written so far in place of a version the Brain held.'),
    unchanged: z.int().min(0).describe('Items found already stored so far (nothing written).'),
    skipped: z.int().min(0),
    failed: z.int().min(0),
    forgotten: z
      .int()
      .min(0)
      .optional()
      .describe('With forget_missing: items forgotten so far, once every part was read and written.'),
  })
  .meta({ id: 'ImportProgress' });
export type ImportProgress = z.infer<typeof ImportProgress>;
