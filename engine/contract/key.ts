import * as z from 'zod';
import { DateTime, Scope, Slug } from './common.ts';

/** Key management (additive to the spec; used by the desktop UI, needs an admin key). */
export const KeyCreate = z
  .strictObject({
    env: z.enum(['test', 'live']),
    project: Slug.optional().describe('Defaults to the project of the calling key.'),
    scopes: z.array(Scope).min(1).optional(),
    brain: Slug.optional(),
    label: z.string().max(200).optional(),
  })
  .meta({ id: 'KeyCreate' });
export type KeyCreate = z.infer<typeof KeyCreate>;

export const KeyInfo = z
  .object({
    id: z.string().describe('Registry id of the key (not the secret).'),
    object: z.literal('key'),
    prefix: z.string().describe('sk_<env>_<project>'),
    last4: z.string(),
    scopes: z.array(Scope),
    brain: z.string().nullable(),
    label: z.string().nullable(),
    created_at: DateTime,
    revoked_at: DateTime.nullable(),
  })
  .meta({ id: 'Key' });
export type KeyInfo = z.infer<typeof KeyInfo>;

export const KeyCreated = KeyInfo.extend({
  secret: z.string().describe('The whole key. Shown once, never stored.'),
}).meta({
  id: 'KeyCreated',
});
export const KeyList = z.object({ data: z.array(KeyInfo) }).meta({ id: 'KeyList' });
