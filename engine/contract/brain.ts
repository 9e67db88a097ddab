import * as z from 'zod';
import { DateTime, SelfEntity, Slug } from './common.ts';

export const BrainCreate = z
  .strictObject({
    id: Slug,
    name: z.string().min(1).max(200).optional(),
    self: SelfEntity.optional(),
  })
  .meta({ id: 'BrainCreate' });
export type BrainCreate = z.infer<typeof BrainCreate>;

/**
 * A Brain's name and self set afterwards (additive: POST /brains/{brain_id}): a hub's Brain made by a
 * device's first sync before sync carried the self, or a Brain created without one. What is left out
 * stays as it is; a self is set or changed, never removed (the Memories derived as its would belong
 * to nobody known).
 */
export const BrainUpdate = z
  .strictObject({
    name: z.string().min(1).max(200).optional().describe("The Brain's display name."),
    self: SelfEntity.optional().describe(
      'Whom every "I" of the Brain\'s Records is. Setting or changing it derives the Brain\'s Records again ' +
        'in the background, so that what the self said is owned by the self (docs/sync.md, "The self").',
    ),
  })
  .refine((b) => b.name !== undefined || b.self !== undefined, {
    message: 'must hold name or self (or both)',
  })
  .meta({ id: 'BrainUpdate' });
export type BrainUpdate = z.infer<typeof BrainUpdate>;

export const Brain = z
  .object({
    id: Slug,
    object: z.literal('brain'),
    name: z.string().nullable().describe('null when created without a name.'),
    self: SelfEntity.nullable().describe(
      'null when created without self: possessive questions then abstain.',
    ),
    created_at: DateTime,
  })
  .meta({ id: 'Brain' });
export type Brain = z.infer<typeof Brain>;

export const BrainList = z
  .object({ data: z.array(Brain), has_more: z.boolean(), next_cursor: z.string().nullable() })
  .meta({ id: 'BrainList' });
export type BrainList = z.infer<typeof BrainList>;

export const DeletionReceipt = z
  .object({
    object: z.literal('deletion_receipt'),
    target: z.object({
      type: z
        .enum(['brain', 'record', 'source'])
        .describe('source (additive): every Record of one source.name.'),
      id: z.string(),
    }),
    deleted: z.object({
      records: z.int().min(0),
      memories: z.int().min(0),
      objects: z.int().min(0),
    }),
    rederiving: z.object({
      memories: z.int().min(0).describe('Memories put into pending re-derivation by this deletion.'),
    }),
    watermark: z
      .string()
      .nullable()
      .describe('Boundary after the deletion; null when the Brain itself was deleted.'),
    deleted_at: DateTime,
  })
  .meta({ id: 'DeletionReceipt' });
export type DeletionReceipt = z.infer<typeof DeletionReceipt>;
