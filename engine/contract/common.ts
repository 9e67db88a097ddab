import * as z from 'zod';
import { slugPattern } from './slug-pattern.ts';

/**
 * Caller-chosen identifiers (Brain ids, Object type and key): 1-128 characters, ASCII letters, digits,
 * `.`, `_` and `-`, starting with a letter or digit. Case-sensitive. Safe in a URL path segment as is.
 */
export const Slug = z
  .string()
  .regex(
    new RegExp(`^${slugPattern}$`),
    // "ASCII" said: "são-paulo" or "東京" are letters to whoever sent them, and were refused as if not.
    'must be 1-128 characters of ASCII letters (A-Z, a-z), digits (0-9), ".", "_" or "-", starting with a letter or digit',
  )
  .meta({ id: 'Slug' });

/**
 * RFC 3339 date-time with a `Z` or numeric offset; local times without an offset are rejected. A
 * lower-case `t` or `z` is accepted (RFC 3339 5.6, NOTE) and read as upper case, so what is stored and
 * echoed is the canonical form. The space separator stays refused (RFC 3339 leaves it to applications).
 */
const rfc3339 = z.iso.datetime({
  offset: true,
  // RFC 3339 allows a leap second (23:59:60); a JavaScript Date, and so every time this engine
  // compares, cannot hold one, so it is refused by name rather than called "not RFC 3339".
  error: (issue) =>
    typeof issue.input === 'string' && /T\d\d:\d\d:60/i.test(issue.input)
      ? 'is a leap second (:60), which is not accepted: send :59 or the next minute'
      : 'must be an RFC 3339 date-time with an offset, e.g. 2024-05-01T09:30:00Z',
});
/** The instants RFC 3339 can write in UTC: "0000-01-01T00:00:00+01:00" is one of year -1. */
const firstInstant = Date.parse('0000-01-01T00:00:00Z');
const lastInstant = Date.parse('9999-12-31T23:59:59.999Z');
const writableInUtc = rfc3339.refine(
  (v) => {
    const t = Date.parse(v);
    return Number.isNaN(t) || (t >= firstInstant && t <= lastInstant);
  },
  {
    message:
      'is an instant outside the years 0000-9999 in UTC, which RFC 3339 cannot write: send a time within them',
  },
);
// Typed as taking a string (what a caller sends), though any value reaches it and only a string changes.
export const DateTime = z.preprocess<unknown, typeof writableInUtc, string>(
  (v: unknown) => (typeof v === 'string' ? v.replace(/[tz]/g, (c) => c.toUpperCase()) : v),
  writableInUtc,
);

/**
 * A window whose start is later than its end holds nothing by construction: a client that swapped the
 * two, or computed one wrong, is told so instead of getting an empty answer that reads as "no evidence".
 */
export const sinceNotAfterUntil = {
  check: (w: { since?: string | undefined; until?: string | undefined }) =>
    w.since === undefined || w.until === undefined || Date.parse(w.since) <= Date.parse(w.until),
  params: { message: 'must not be later than until', path: ['since'] },
};

export const Visibility = z
  .enum(['local_only', 'redacted_summary', 'shareable'])
  .describe(
    '`local_only`: kept and served on this device only; a hosted deployment refuses it (`local_only_record`) and serves nothing of it. `redacted_summary`: stored and reported as written, and served as `shareable` is: Mnemo has no summariser to make a redaction, so the label is kept for the client that reads it. `shareable`: the default.',
  )
  .meta({ id: 'Visibility' });
export type Visibility = z.infer<typeof Visibility>;

export const SelfEntity = z
  .strictObject({
    type: z.enum(['person', 'org']),
    // Whom every "I" of the Brain's Records is: a blank name would attribute them to no one.
    name: z
      .string()
      .min(1, { error: 'must not be empty', abort: true })
      .regex(/\S/, 'must not be blank')
      .max(200),
  })
  .meta({ id: 'SelfEntity', description: 'The principal a Brain is a memory of.' });
export type SelfEntity = z.infer<typeof SelfEntity>;

export const Citation = z
  .object({
    record_id: z.string(),
    quote: z
      .string()
      .describe(
        "An exact substring of the cited Record's citable text: a message's or document's text as sent; for a " +
          "fact, one line '<subject> <predicate with spaces>: <value>'; for an event, '<title>; when: <starts_at>[ to " +
          "<ends_at>]; where: <place>; who: <participants, comma-separated>' (parts present only when set; an " +
          "all-day event's times, UTC midnights a whole number of days apart, as its dates with the last day " +
          "inclusive: 'when: 2026-12-23 to 2026-12-26', one day 'when: 2026-12-23'); for a " +
          "correction, its statement, or 'retracted <memory id>[: <reason>]'.",
      ),
  })
  .meta({ id: 'Citation' });
export type Citation = z.infer<typeof Citation>;

export const Scope = z
  .enum(['records:write', 'records:read', 'memories:read', 'objects:write', 'objects:read', 'context:read'])
  .meta({ id: 'Scope' });
export type Scope = z.infer<typeof Scope>;
export const allScopes = Scope.options;

/** A page size as a JSON number (an MCP tool argument): an integer from 1 to max, one message for all. */
export function pageSize(max: number) {
  const message = `must be an integer between 1 and ${max}`;
  return z.int({ error: message }).min(1, message).max(max, message);
}

/**
 * Positive page sizes with a per-operation default and maximum, read from a URL query: only a plain
 * decimal integer string (`limit=10`). `1e1`, `0x10`, ` 1`, `1.0`, `+1` and an empty `limit=` are
 * refused with the same message as an out-of-range number (z.coerce took the first four as numbers).
 * A number is taken as it is, for callers that pass the parsed query on.
 */
export function pageLimit(defaultValue: number, max: number) {
  return z
    .preprocess((v) => (typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : v), pageSize(max))
    .prefault(defaultValue); // prefault, not default: openapi.json then still shows the default
}

/**
 * A search's words (`q` of listMemories and listRecords), found as core/shared/fold-text.ts
 * `searchWords` folds them. White space or accents alone (a no-break space, U+0301) name no word once
 * folded, and would match everything: refused.
 */
export const searchText = z
  .string()
  .min(1)
  .max(500)
  .refine((q) => /\S/u.test(q.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')), 'must hold a word');

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Whether `v` is JSON: what JSON.parse gives, numbers finite. */
function isJson(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJson);
  if (typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return false;
  return Object.values(v).every(isJson);
}

/**
 * Any JSON value, kept as it was sent. A union with z.record() would copy objects key by key, and a
 * key `__proto__` (an own field of a parsed body) would then set the copy's prototype and be lost.
 */
/** The largest double either way, as the error messages name it (Number.MAX_VALUE, written plainly). */
export const largestDouble = '±1.7976931348623157e308';

export const JsonValue = z
  .unknown()
  // Only a number can fail it in a parsed body: JSON.parse reads one beyond a double's range as Infinity.
  .refine(isJson, `must be a JSON value, its numbers within the largest double (${largestDouble})`)
  .meta({
    id: 'JsonValue',
    description:
      'Any JSON value. A number in it must be one a double keeps: one that would come back as another ' +
      'decimal (12345678901234567890 as 12345678901234567000) is refused; send it as a string.',
  }) as unknown as z.ZodType<Json>;
