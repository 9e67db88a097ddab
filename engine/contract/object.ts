import * as z from 'zod';
import { DateTime, JsonValue, pageLimit, Slug } from './common.ts';

export const ObjectAccept = z
  .strictObject({
    type: Slug,
    key: Slug,
    value: JsonValue,
    if_version: z
      .int()
      .min(0)
      .nullable()
      .optional()
      .describe('Optimistic concurrency: 0 means "must not exist yet".'),
  })
  .meta({ id: 'ObjectAccept' });
export type ObjectAccept = z.infer<typeof ObjectAccept>;

export const AcceptedObject = z
  .object({
    object: z.literal('object'),
    brain_id: Slug,
    type: Slug,
    key: Slug,
    version: z.int().min(1),
    value: JsonValue,
    accepted_at: DateTime,
  })
  .meta({ id: 'Object' });
export type AcceptedObject = z.infer<typeof AcceptedObject>;

/** listObjects (additive): the current version of every Object, by type then key. */
export const ObjectListQuery = z.strictObject({
  type: Slug.optional(),
  cursor: z.string().optional(),
  limit: pageLimit(100, 500),
});
export type ObjectListQuery = z.infer<typeof ObjectListQuery>;

export const ObjectPage = z
  .object({
    data: z.array(AcceptedObject).describe('The current version of each Object, by type, then key.'),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'ObjectPage' });
export type ObjectPage = z.infer<typeof ObjectPage>;
