import * as z from 'zod';

/**
 * Caller-chosen identifiers (Brain ids, Object type and key): 1-128 characters, letters, digits, `.`,
 * `_` and `-`, starting with a letter or digit. Case-sensitive. Safe in a URL path segment as is.
 */
export const Slug = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
    'must be 1-128 characters of letters, digits, ".", "_" or "-", starting with a letter or digit',
  )
  .meta({ id: 'Slug' });

/** RFC 3339 date-time with a `Z` or numeric offset; local times without an offset are rejected. */
export const DateTime = z.iso.datetime({
  offset: true,
  message: 'must be an RFC 3339 date-time with an offset, e.g. 2024-05-01T09:30:00Z',
});

export const Visibility = z.enum(['local_only', 'redacted_summary', 'shareable']).meta({ id: 'Visibility' });
export type Visibility = z.infer<typeof Visibility>;

export const SelfEntity = z
  .strictObject({
    type: z.enum(['person', 'org']),
    name: z.string().min(1).max(200),
  })
  .meta({ id: 'SelfEntity', description: 'The principal a Brain is a memory of.' });
export type SelfEntity = z.infer<typeof SelfEntity>;

export const Citation = z
  .object({
    record_id: z.string(),
    quote: z.string().describe("An exact substring of the cited Record's text."),
  })
  .meta({ id: 'Citation' });
export type Citation = z.infer<typeof Citation>;

export const Scope = z
  .enum(['records:write', 'records:read', 'memories:read', 'objects:write', 'objects:read', 'context:read'])
  .meta({ id: 'Scope' });
export type Scope = z.infer<typeof Scope>;
export const allScopes = Scope.options;

/** Positive page sizes with a per-operation default and maximum. */
export function pageLimit(defaultValue: number, max: number) {
  return z.coerce
    .number({ message: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .default(defaultValue);
}

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Any JSON value. */
export const JsonValue: z.ZodType<Json> = z
  .lazy(() =>
    z.union([
      z.string(),
      z.number(),
      z.boolean(),
      z.null(),
      z.array(JsonValue),
      z.record(z.string(), JsonValue),
    ]),
  )
  .meta({ id: 'JsonValue' });
