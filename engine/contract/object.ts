import * as z from 'zod';
import { DateTime, JsonValue, Slug } from './common.ts';

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
