import * as z from 'zod';
import { DateTime, Scope, Slug } from './common.ts';

/**
 * A key's project: one segment of `sk_<env>_<project>_<secret>`, so no `_` (the separator), unlike a Slug.
 */
export const KeyProject = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9.-]{0,127}$/,
    'must be 1-128 characters of ASCII letters (A-Z, a-z), digits (0-9), "." or "-", starting with a letter or digit ("_" separates the parts of a key)',
  );

/** Key management (additive to the spec; used by the desktop UI, needs an admin key). */
export const KeyCreate = z
  .strictObject({
    env: z
      .enum(['test', 'live'])
      .describe('A test key mints test keys only (403 http_403): a live key would reach the live data.'),
    project: KeyProject.optional().describe(
      "The calling key's project, which is also the default: the project comes from the credential only, so any other is refused with 403 http_403.",
    ),
    scopes: z
      .array(Scope)
      .min(1)
      .optional()
      .describe(
        "At most the calling key's own scopes, which are the default; one it does not hold is 403 http_403.",
      ),
    brain: Slug.optional().describe(
      'Binds the key to one Brain. A Brain-bound caller mints keys for its own Brain only, which is the default (another is 403 http_403).',
    ),
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
    admin: z
      .boolean()
      .describe(
        "Whether the key may manage keys over /v1/keys (the desktop UI's own, or `mnemo keys create --admin`).",
      ),
    created_at: DateTime,
    revoked_at: DateTime.nullable(),
  })
  .meta({ id: 'Key' });
export type KeyInfo = z.infer<typeof KeyInfo>;

/** Something about a key just made that its maker should check: it was made all the same. */
export const KeyWarning = z
  .object({
    code: z
      .string()
      .describe(
        'Stable, never repurposed; clients show `message` for a code they do not know. `brain_not_found`: ' +
          'the key is bound to a Brain that its project and env do not hold (yet), the same words as ' +
          '`mnemo keys create --brain` says on stderr.',
      ),
    message: z.string().describe('For people; not to be parsed.'),
  })
  .meta({ id: 'KeyWarning' });
export type KeyWarning = z.infer<typeof KeyWarning>;

export const KeyCreated = KeyInfo.extend({
  secret: z.string().describe('The whole key. Shown once, never stored.'),
  warnings: z
    .array(KeyWarning)
    .describe(
      'Additive: what to check about this key, which was issued all the same; empty when nothing. A key ' +
        'bound to a Brain that does not exist yet may create it, so that is a warning, not an error.',
    ),
}).meta({
  id: 'KeyCreated',
});
export const KeyList = z.object({ data: z.array(KeyInfo) }).meta({ id: 'KeyList' });
