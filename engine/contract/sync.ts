import * as z from 'zod';
import { DateTime, Slug, Visibility } from './common.ts';
import {
  CorrectionContent,
  DocumentContent,
  EventContent,
  FactContent,
  MessageContent,
  RecordSource,
} from './record.ts';

export const RecordId = z
  .string()
  .regex(/^rec_[0-9A-Za-z]{1,64}$/, 'must be a Record id (rec_...)')
  .describe('A Record id (`rec_...`).');

/**
 * The corrected Memory of a correction that travels, as every side can find it: a Memory id is one
 * side's own (each derives its own Memories), a Record id is the same everywhere.
 */
export const CorrectionTarget = z
  .strictObject({
    records: z
      .array(RecordId)
      .min(1, 'must hold at least one Record id')
      .max(200)
      .describe('The Records the corrected Memory cites where the correction was written.'),
    statement: z
      .string()
      .min(1)
      .max(1_000_000)
      .describe(
        'The corrected Memory’s statement there; a side corrects its Memory of these Records that says it.',
      ),
  })
  .meta({ id: 'CorrectionTarget' });
export type CorrectionTarget = z.infer<typeof CorrectionTarget>;

/** A correction as it travels: `corrects` names the Memory where it was written, `target` it anywhere. */
export const ReplicaCorrection = z
  .strictObject({ ...CorrectionContent.shape, target: CorrectionTarget })
  .meta({ id: 'ReplicaCorrection' });
export type ReplicaCorrection = z.infer<typeof ReplicaCorrection>;

/**
 * Sync of a Brain with a Brain on a hosted Mnemo (additive; docs/sync.md). Records travel with their
 * own ids; each side derives its own Memories. A correction travels with its target (ReplicaCorrection),
 * and each side corrects its own Memory of the same Records and statement.
 */
export const ReplicableContent = z
  .discriminatedUnion('kind', [MessageContent, DocumentContent, EventContent, FactContent, ReplicaCorrection])
  .meta({ id: 'ReplicableContent' });

/**
 * Content fields a replication route of an earlier version does not know, by kind: it refuses the push
 * that carries one (`400 invalid_request_body`, "records[i].content.<field>: unknown field"), and a
 * device's push then sends those Records without it (docs/sync.md, "A hub older than the device").
 * Each is optional: the Record is whole without it, only less precise.
 */
export const newerContentFields: Readonly<Record<string, readonly string[]>> = {
  correction: ['valid_from'],
};

export const RecordReplica = z
  .strictObject({
    id: RecordId.describe('The id the Record has on every side.'),
    content: ReplicableContent,
    source: RecordSource.optional(),
    visibility: Visibility.describe(
      '`shareable` or `redacted_summary` (a copy the device redacted); `local_only` is refused with `local_only_record`.',
    ),
    occurred_at: DateTime,
  })
  .meta({ id: 'RecordReplica' });
export type RecordReplica = z.infer<typeof RecordReplica>;

export const ReplicateRequest = z
  .strictObject({ records: z.array(RecordReplica).min(1, 'must hold at least one Record').max(200) })
  .meta({ id: 'ReplicateRequest' });
export type ReplicateRequest = z.infer<typeof ReplicateRequest>;

export const ReplicaOutcome = z
  .enum(['created', 'unchanged', 'forgotten', 'conflict'])
  .describe(
    '`created`: written now. `unchanged`: that id was already here with the same content. `forgotten`: that id ' +
      'was forgotten here and never comes back. `conflict`: that id is here with other content (or in another Brain); nothing was written.',
  )
  .meta({ id: 'ReplicaOutcome' });
export type ReplicaOutcome = z.infer<typeof ReplicaOutcome>;

export const ReplicateResult = z
  .object({
    object: z.literal('replication'),
    data: z.array(z.object({ id: z.string(), outcome: ReplicaOutcome })),
    watermark: z.string().describe('The boundary after the writes.'),
  })
  .meta({ id: 'ReplicateResult' });
export type ReplicateResult = z.infer<typeof ReplicateResult>;

export const TombstoneRequest = z
  .strictObject({ ids: z.array(RecordId).min(1, 'must hold at least one id').max(1000) })
  .meta({ id: 'TombstoneRequest' });
export type TombstoneRequest = z.infer<typeof TombstoneRequest>;

export const TombstoneResult = z
  .object({
    object: z.literal('tombstones'),
    forgotten: z
      .number()
      .int()
      .describe('Records of this Brain forgotten now (the rest were gone already or never here).'),
    watermark: z.string(),
  })
  .meta({ id: 'TombstoneResult' });
export type TombstoneResult = z.infer<typeof TombstoneResult>;

/**
 * Hosts a plain http: remote may have: this machine, where no network sees the key go by. Pairing with
 * any other needs the app's admin key (server/http/handlers.ts).
 */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Why a URL must not be sent an API key, or null: plain http beyond this machine, where the key (and
 * what goes with it) would cross the network in the clear. The one rule for a pairing's remote and for
 * the server the CLI's commands send their key to (server/cli/options.ts).
 */
export function plainHttpProblem(u: URL): string | null {
  return u.protocol === 'http:' && !isLoopback(u.hostname)
    ? 'must be https: plain http is for a loopback host only (127.0.0.0/8, ::1, localhost)'
    : null;
}

/** A pairing's remote as it is kept and asked: the /v1 base without a trailing slash. */
export const pairingBase = (remote: string): string => (remote.endsWith('/') ? remote.slice(0, -1) : remote);

const remoteUrl = z
  .string()
  .max(2_000)
  .superRefine((v, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      problem(
        "must be a URL: the hosted Mnemo's base, ending in /v1 (https://mnemo.example.org/v1; plain http on a loopback host only)",
      );
      return;
    }
    if (u.username !== '' || u.password !== '') {
      // fetch refuses a URL with credentials, so such a pairing could never run; and the URL is shown
      // back (the status, the check's messages) where a password must not be.
      problem('must not hold a user name or password: the key goes in remote_key');
      return;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      problem(`must be https (or plain http on a loopback host), not ${u.protocol.slice(0, 20)}`);
      return;
    }
    // The remote key and every shareable Record would cross the network in the clear.
    const plain = plainHttpProblem(u);
    if (plain !== null) problem(plain);
    // Each problem said on its own: `http://127.0.0.1:4100` lacks only /v1, and is told just that.
    if (!/\/v1\/?$/.test(u.pathname)) {
      problem(
        u.pathname === '/'
          ? `must end in /v1, the API's base: ${u.protocol === 'http:' && !isLoopback(u.hostname) ? 'https:' : u.protocol}//${u.host}/v1`
          : `must end in /v1, the API's base; its path is ${u.pathname.slice(0, 200)}`,
      );
    }
  });

/**
 * The spec's key format (engine/auth/api-key.ts parses it): four `_`-separated segments of printable
 * ASCII. A key with a space or a line break would reach fetch's header check, whose message quotes the
 * whole header, key and all.
 */
const remoteKey = z
  .string()
  .max(500)
  .regex(
    /^sk_(?:test|live)_[\x21-\x5e\x60-\x7e]+_[\x21-\x5e\x60-\x7e]+$/,
    'must be a key of the hosted Mnemo, sk_<env>_<project>_<secret>: printable ASCII, no spaces or line breaks',
  );

export const SyncPairing = z
  .strictObject({
    remote: remoteUrl.describe(
      "The hosted Mnemo's base URL, ending in /v1, with no user name or password: https, or plain http on a loopback host (127.0.0.0/8, ::1, localhost).",
    ),
    remote_brain: Slug.optional().describe('The Brain there; default: the same id as here.'),
    remote_key: remoteKey.describe(
      'A key of the hosted Mnemo (`sk_<env>_<project>_<secret>`) with records:read and records:write. Kept in the encrypted store only; never shown again.',
    ),
  })
  .meta({ id: 'SyncPairing' });
export type SyncPairing = z.infer<typeof SyncPairing>;

export const RunSyncQuery = z.strictObject({
  allow_more: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      "Additive: true allows the pull another day's budget from now (what it read in the day before is no " +
        "longer counted), for a large history of the person's own that paused it (SyncStatus.pull_budget). " +
        "Needs the app's admin key (403 http_403 otherwise, nothing run).",
    ),
});
export type RunSyncQuery = z.infer<typeof RunSyncQuery>;
export const SyncForgetsAccept = z
  .strictObject({
    count: z
      .number()
      .int()
      .min(0)
      .describe(
        'How many held forgets the person confirms: the status’s `forgets_held` as shown to them. Another number ' +
          'held now (more arrived, or another confirmation applied them) answers 409 sync_forgets_changed and forgets nothing.',
      ),
  })
  .meta({ id: 'SyncForgetsAccept' });
export type SyncForgetsAccept = z.infer<typeof SyncForgetsAccept>;

export const SyncStatus = z
  .object({
    object: z.literal('sync_status'),
    brain_id: z.string(),
    paired: z.boolean(),
    remote: z.string().nullable(),
    remote_brain: z.string().nullable(),
    paired_at: DateTime.nullable(),
    last_success_at: DateTime.nullable(),
    last_attempt_at: DateTime.nullable(),
    pending: z
      .number()
      .int()
      .describe(
        'Records the next runs will go through: those after the push cursor that are neither local_only nor ' +
          'pulled, and corrections an older version kept home, offered again. It includes corrections that cannot travel (then counted as skipped) and redacted_summary ' +
          'Records the redactor will hold back (then counted as held_back).',
      ),
    pushed: z
      .number()
      .int()
      .describe(
        'Records sent to the remote Brain. This, held_back and skipped count from the pairing, or from when it last started over (the remote Brain was made again).',
      ),
    pulled: z.number().int(),
    held_back: z
      .number()
      .int()
      .describe(
        'redacted_summary Records not sent: they speak of health or another special category (sexual orientation, religion, political opinions, trade union membership, genetic data), which a redacted copy never carries, or the redactor was unsure of them. One forgotten since is not counted.',
      ),
    held_back_examples: z
      .array(z.string())
      .describe(
        'Up to five of the Records counted in held_back, the newest first: their ids, to open and see why.',
      ),
    held_back_reasons: z
      .array(z.object({ record_id: z.string(), reason: z.string().nullable() }))
      .describe(
        'The Records of held_back_examples, in the same order, each with why it was held back (null: held back by a version that kept no reason). Additive.',
      ),
    skipped: z
      .number()
      .int()
      .describe(
        'Records that cannot travel (a correction whose Memory rests on Records that do not travel as they are) or that the remote refused, and pulled Records not taken: not valid replicas, or redacted_summary ones the redactor was unsure of. A Record of this side forgotten since is not counted.',
      ),
    skipped_examples: z
      .array(z.string())
      .describe(
        'Up to five of the Records counted in skipped that were skipped on this side (by the push), the newest first: their ids.',
      ),
    corrections: z
      .object({
        applied: z.number().int(),
        applied_by_fallback: z.number().int(),
        not_applied: z.number().int(),
      })
      .describe(
        'Corrections that came from other sides into this Brain, by what each did here once derived (its ' +
          "Record's correction_outcome says how and why): applied to the Memory saying what it corrected, " +
          'applied by a fallback (the Memory holding its slot or closest in words, or its statement as a ' +
          'Memory of its own), or not applied.',
      ),
    last_error: z.string().nullable(),
    catching_up: z
      .boolean()
      .describe(
        'The last run stopped with more to do and kept what it did (its limit of feed pages, or, after some ' +
          'progress, its 30-minute deadline or its server stopping; last_error then names run_deadline or ' +
          'run_stopped): the next run goes on within seconds, by itself. Not a failure.',
      ),
    warning: z
      .string()
      .nullable()
      .describe(
        "Additive: what sync found and did not stop for, the person's to know; null: nothing. The hosted " +
          "Brain's self differs from this Brain's (sync gives a side a self only where it has none, and never " +
          'changes one), or the hosted Mnemo is too old to take a self: kept until a run finds otherwise. And, ' +
          'after it, Records the push sent without a newer content field the hosted Mnemo refused as unknown ' +
          '(an older version): kept until it takes such a field.',
      ),
    forgotten_by_remote: z
      .number()
      .int()
      .describe(
        'Additive: Records of this Brain forgotten on this device because the remote said so (a push answered ' +
          '`forgotten`, a removal in its change feed), counted from the pairing as `pulled` is. A forget made on the ' +
          'hub or on another device reaches this device so; the server logs a line for each run that forgot any.',
      ),
    forgets_held: z
      .number()
      .int()
      .describe(
        'Additive: forgets the remote asked for that wait for the person to confirm them (nothing is forgotten ' +
          'for them yet): more than 25 Records and more than 10% of the Records that went up from here within a ' +
          'rolling day (those confirmed count in it), and every ' +
          'later forget from the remote while any wait. `warning` says so; POST /v1/brains/{id}/sync/accept-forgets ' +
          'with this count applies them; unpairing drops them and keeps the Records. Counts the Records here they ' +
          'reach: an id that names nothing here (never here, forgotten since, never sent) is not counted.',
      ),
    forgets_held_examples: z
      .array(z.string())
      .describe(
        'Additive: up to five of the Records forgets_held counts, the newest first: their ids here (the original ' +
          'for a redacted copy the remote named), to open before confirming.',
      ),
    pull_budget: z
      .object({
        records: z
          .number()
          .int()
          .describe('Records the pull read from the remote’s feed in the last 24 hours.'),
        bytes: z.number().int().describe('Their bytes, as the feed’s JSON.'),
        records_per_day: z.number().int(),
        bytes_per_day: z.number().int(),
        paused_until: DateTime.nullable().describe(
          'The pull has read its day’s budget (either count) and asks for no page until then (the push goes ' +
            'on); warning says so, and how to allow more. Null: it is not paused.',
        ),
      })
      .nullable()
      .describe(
        'Additive: what the pull may read from the remote in a rolling day, and has (docs/sync.md, "The ' +
          'pull’s budget"); null when not paired, and on a server that does not pair.',
      ),
    next_run_at: DateTime.nullable().describe(
      'When this server runs the sync by itself next (sooner after a write); null while a run is under way, ' +
        'when not paired, and on a server that does not pair.',
    ),
    running: z.boolean().describe('A run is under way now.'),
  })
  .meta({ id: 'SyncStatus' });
export type SyncStatus = z.infer<typeof SyncStatus>;
