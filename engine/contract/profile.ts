import * as z from 'zod';
import { Citation, DateTime, SelfEntity, pageLimit } from './common.ts';
import { profileGroups } from './profile-group.ts';

export * from './profile-group.ts';

export const ProfileLine = z.object({
  memory_id: z.string(),
  statement: z.string(),
  subject: z.string(),
  valid_from: DateTime,
  citations: z.array(Citation).min(1),
  group: z
    .enum(profileGroups)
    .describe(
      "Additive: the line's group, in the Profile's order: `health` (an allergy, an intolerance, a " +
        'medical condition, medication, a disability: what an agent must know before it acts), `slot` (it ' +
        'holds a slot: home, job, partner, diet, birthday, favourites, ...), `other` (everything else).',
    ),
});

export const Profile = z
  .object({
    object: z.literal('profile'),
    brain_id: z.string(),
    self: SelfEntity.nullable(),
    watermark: z.string(),
    lines: z
      .array(ProfileLine)
      .describe(
        'Current Memories owned by self, in three groups (each line says its `group`): health first (allergies, ' +
          'intolerances, medical conditions, medication, disabilities, as their words say), then those that hold a ' +
          'slot (home, job, partner, diet, ...), then the rest; each group newest first (latest valid_from, then ' +
          'last written); every line cited. Additive: a sentence is one line, on one page: a statement said ' +
          'by a line before it in its group from a Record both cite (a sentence that closed several plans ' +
          'is a Memory of each), or that a health or slot line quotes from the same Record, is not a ' +
          'line again. Additive: a line of the rest that says nothing of the person (an acknowledgement or ' +
          'a thanks with names the Brain knows around it, "See you tomorrow.", her own name alone) is not a ' +
          'line; it stays a Memory.',
      ),
    has_more: z.boolean(),
    next_cursor: z
      .string()
      .nullable()
      .describe(
        'Additive: set when has_more is; pass it as `cursor` for the lines after the last one served (the ' +
          'rest of its group, older, then the groups after it).',
      ),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof Profile>;
export const ProfileQuery = z.strictObject({
  limit: pageLimit(50, 200),
  cursor: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Additive: a page's next_cursor, for the lines after it (by group: health, slot, other; then " +
        "valid_from, then write order). A cursor not issued for this Brain's profile, or issued before " +
        'the health group came first, is `invalid_request_body`.',
    ),
});

export const NoiseItem = z.object({
  kind: z.enum([
    'duplicates',
    'conflicts',
    'unresolved_owner',
    'pending_rederivation',
    'low_trust_source',
    'retracted',
    'derivation_failed',
  ]),
  count: z.int().min(0),
  description: z.string(),
  examples: z.array(z.string()).describe('Up to five ids (Memory or Record) that show the problem.'),
});

export const Census = z
  .object({
    object: z.literal('census'),
    brain_id: z.string(),
    watermark: z.string(),
    generated_at: DateTime,
    counts: z.object({
      records: z.int().min(0),
      records_processing: z.int().min(0),
      memories_active: z.int().min(0),
      memories_scheduled: z
        .int()
        .min(0)
        .describe('Slot values dated to start later: active from then on (status scheduled until then).'),
      memories_superseded: z.int().min(0),
      memories_pending_rederivation: z.int().min(0),
      objects: z.int().min(0),
    }),
    noise: z.array(NoiseItem).describe("What is noisy in this Brain's own data, noisiest first."),
  })
  .meta({ id: 'Census' });
export type Census = z.infer<typeof Census>;
