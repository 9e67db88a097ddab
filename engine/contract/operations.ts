import type * as z from 'zod';
import { AcceptedObject, ObjectAccept, ObjectListQuery, ObjectPage } from './object.ts';
import { Brain, BrainCreate, BrainList, BrainUpdate, DeletionReceipt } from './brain.ts';
import type { Scope } from './common.ts';
import { ContextProcessing, ContextReady, ContextRequest } from './context.ts';
import { KeyCreate, KeyCreated, KeyInfo, KeyList } from './key.ts';
import { MemoryDetail, MemoryListQuery, MemoryPage } from './memory.ts';
import { Census, Profile, ProfileQuery } from './profile.ts';
import { MnemoRecord, RecordCreate, RecordListQuery, RecordPage } from './record.ts';
import {
  ImportProgress,
  ImportRequest,
  ImportResult,
  SourceChatList,
  SourceItemsForget,
  SourceList,
} from './source.ts';
import { ErrorBody } from './error.ts';
import {
  ReplicateRequest,
  ReplicateResult,
  RunSyncQuery,
  SyncForgetsAccept,
  SyncPairing,
  SyncStatus,
  TombstoneRequest,
  TombstoneResult,
} from './sync.ts';
import { Trace, TraceListQuery, TracePage } from './trace.ts';

/**
 * The spec's contract has no PUT or PATCH: nothing of it is updated in place, and no route answers
 * either (405). A Brain's name and self, which a Brain made without them (a hub's, by a device's first
 * sync) needs, are set by a POST to the Brain (additive: updateBrain), as a pairing is by a POST.
 */
export type Method = 'GET' | 'POST' | 'DELETE';

/** One operation of /v1: the single table the router, the scope check and openapi.json are built from. */
export interface Operation {
  id: string;
  method: Method;
  /** Relative to /v1, with `{param}` placeholders. */
  path: string;
  summary: string;
  /** What the summary cannot say in a line: the operation's OpenAPI description. */
  description?: string;
  /** null: any valid key (Brain-level reads); 'admin': key management. */
  scope: Scope | null | 'admin';
  /** Scopes needed besides `scope`: an operation that writes this Brain from what it reads out of it. */
  alsoScopes?: Scope[];
  /**
   * A hosted deployment does not serve it and answers 501 not_implemented, for this reason: what it
   * would do there on a tenant's behalf that a shared server must not.
   */
  localOnly?: string;
  body?: z.ZodType;
  query?: z.ZodObject;
  success: { status: number; schema: z.ZodType; description: string }[];
  /** Request headers the operation reads. */
  headers?: ('Idempotency-Key' | 'Brain-Watermark')[];
  /** Response headers besides X-Request-Id. */
  responseHeaders?: ('Brain-Watermark' | 'Idempotent-Replayed')[];
  additive?: boolean;
  /** A larger body limit than the server's default (bytes), for the one route that carries files. */
  maxBodyBytes?: number;
  /**
   * The operation can answer 200 as `text/event-stream` when Accept prefers it: what its frames are.
   * Every other operation answers Accept that refuses JSON with 406 streaming_not_applicable.
   */
  eventStream?: { description: string; events?: Record<string, z.ZodType> };
}

import { importMaxBodyBytes } from './limits.ts';

/**
 * What a forget's 200 means, said on each forget: the receipt is never withheld after the deletion
 * committed (a 503 then would make a retry's 404 read as "never existed").
 */
const forgetReceipt = (notFound: string) =>
  `Receipt: the deletion has committed and is final; forgetting the same id again is 404 ${notFound}. ` +
  "On the local engine the erased bytes also leave SQLite's write-ahead log before this answer, unless a " +
  'reader (a backup) holds the log or the disk is full or failing: the receipt still answers, and the log ' +
  'is emptied by a checkpoint retried each second (and at close, and at the next start).';

// A hosted server that paired would send requests, with a key its tenant chose, to an address its tenant chose.
const deviceSide =
  'a hosted server sends no requests to addresses its callers choose (pair a device with it instead)';

export const operations: Operation[] = [
  {
    id: 'listBrains',
    method: 'GET',
    path: '/brains',
    summary: 'List the Brains this key can see (additive).',
    scope: null,
    success: [{ status: 200, schema: BrainList, description: 'Brains, oldest first' }],
    additive: true,
  },
  {
    id: 'createBrain',
    method: 'POST',
    path: '/brains',
    summary: 'Create a Brain. Not idempotent: a repeated id is brain_exists.',
    scope: 'records:write',
    body: BrainCreate,
    headers: ['Idempotency-Key'],
    responseHeaders: ['Brain-Watermark'],
    success: [{ status: 201, schema: Brain, description: 'Created' }],
  },
  {
    id: 'getBrain',
    method: 'GET',
    path: '/brains/{brain_id}',
    summary: 'Read a Brain.',
    scope: null,
    success: [{ status: 200, schema: Brain, description: 'The Brain' }],
  },
  {
    id: 'updateBrain',
    method: 'POST',
    path: '/brains/{brain_id}',
    summary:
      "Set a Brain's name or self (additive). A self set or changed re-derives the Brain's Records in the " +
      "background, so that what the self said becomes the self's; a self is never removed.",
    // What creating a Brain with them takes.
    scope: 'records:write',
    body: BrainUpdate,
    responseHeaders: ['Brain-Watermark'],
    success: [{ status: 200, schema: Brain, description: 'The Brain as it is now' }],
    additive: true,
  },
  {
    id: 'forgetBrain',
    method: 'DELETE',
    path: '/brains/{brain_id}',
    summary: 'Delete a Brain and everything derived from it.',
    scope: 'records:write',
    success: [{ status: 200, schema: DeletionReceipt, description: forgetReceipt('brain_not_found') }],
  },
  {
    id: 'getProfile',
    method: 'GET',
    path: '/brains/{brain_id}/profile',
    summary: 'The always-fresh self card, every line cited.',
    scope: 'memories:read',
    query: ProfileQuery,
    success: [{ status: 200, schema: Profile, description: 'Profile' }],
  },
  {
    id: 'getCensus',
    method: 'GET',
    path: '/brains/{brain_id}/census',
    summary: "What is noisy in this Brain's own data.",
    scope: 'memories:read',
    success: [{ status: 200, schema: Census, description: 'Census' }],
  },
  {
    id: 'listTraces',
    method: 'GET',
    path: '/brains/{brain_id}/traces',
    summary: 'Recent Context requests, newest first.',
    scope: 'context:read',
    query: TraceListQuery,
    success: [{ status: 200, schema: TracePage, description: 'Traces' }],
  },
  {
    id: 'getTrace',
    method: 'GET',
    path: '/brains/{brain_id}/traces/{trace_id}',
    summary: 'One Context request: lanes, scores, citations, budget, cost.',
    description:
      'Recent requests only: older Traces are dropped. A Trace quotes the Records it ranked, so forgetting ' +
      'a Record (forgetRecord, or with its source: forgetSource, forgetSourceChat, forgetSourceItems) removes ' +
      'every Trace that names it: a Context made before the forget then answers 404 `trace_not_found` here.',
    scope: 'context:read',
    success: [{ status: 200, schema: Trace, description: 'Trace' }],
  },
  {
    id: 'rememberRecord',
    method: 'POST',
    path: '/brains/{brain_id}/records',
    summary: 'Write a Record.',
    scope: 'records:write',
    body: RecordCreate,
    headers: ['Idempotency-Key'],
    responseHeaders: ['Brain-Watermark', 'Idempotent-Replayed'],
    success: [{ status: 202, schema: MnemoRecord, description: 'Accepted; poll getRecord while processing' }],
  },
  {
    id: 'listRecords',
    method: 'GET',
    path: '/brains/{brain_id}/records',
    summary: 'Records, the last written first (additive); since and until select by when they occurred.',
    scope: 'records:read',
    query: RecordListQuery,
    success: [{ status: 200, schema: RecordPage, description: 'Records' }],
    additive: true,
  },
  {
    id: 'getRecord',
    method: 'GET',
    path: '/brains/{brain_id}/records/{record_id}',
    summary: 'Read a Record.',
    scope: 'records:read',
    success: [{ status: 200, schema: MnemoRecord, description: 'Record' }],
  },
  {
    id: 'forgetRecord',
    method: 'DELETE',
    path: '/brains/{brain_id}/records/{record_id}',
    summary: 'Delete a Record; cascades to derived data.',
    scope: 'records:write',
    responseHeaders: ['Brain-Watermark'],
    success: [{ status: 200, schema: DeletionReceipt, description: forgetReceipt('record_not_found') }],
  },
  {
    id: 'listSources',
    method: 'GET',
    path: '/brains/{brain_id}/sources',
    summary: "The source.name values of this Brain's Records, with counts and time span (additive).",
    scope: 'records:read',
    success: [{ status: 200, schema: SourceList, description: 'Sources, by name' }],
    additive: true,
  },
  {
    id: 'forgetSource',
    method: 'DELETE',
    path: '/brains/{brain_id}/sources/{source_name}',
    summary:
      'Forget every Record of one source.name (removing a whole import); cascades as forgetRecord (additive).',
    scope: 'records:write',
    responseHeaders: ['Brain-Watermark'],
    success: [{ status: 200, schema: DeletionReceipt, description: forgetReceipt('source_not_found') }],
    additive: true,
  },
  {
    id: 'listSourceChats',
    method: 'GET',
    path: '/brains/{brain_id}/sources/{source_name}/chats',
    summary:
      "The chats of one source.name, each with how many messages the Brain holds of it: WhatsApp's, told apart by their messages' ids (additive).",
    scope: 'records:read',
    success: [{ status: 200, schema: SourceChatList, description: 'Chats, by name' }],
    additive: true,
  },
  {
    id: 'forgetSourceChat',
    method: 'DELETE',
    path: '/brains/{brain_id}/sources/{source_name}/chats/{chat}',
    summary:
      'Forget every Record of one chat of a source.name (one WhatsApp chat of an import of several), every revision, in one transaction; cascades as forgetRecord (additive).',
    scope: 'records:write',
    responseHeaders: ['Brain-Watermark'],
    success: [
      {
        status: 200,
        schema: DeletionReceipt,
        description:
          "Receipt (target: the source): the deletion has committed and is final; the source's other chats stay. source_not_found when no Record of the source is of that chat.",
      },
    ],
    additive: true,
  },
  {
    id: 'forgetSourceItems',
    method: 'POST',
    path: '/brains/{brain_id}/sources/{source_name}/forget',
    summary:
      "Forget the items of one source.name named by external id, every revision of each (an import's items gone from its files); cascades as forgetRecord (additive).",
    scope: 'records:write',
    body: SourceItemsForget,
    responseHeaders: ['Brain-Watermark'],
    success: [
      {
        status: 200,
        schema: DeletionReceipt,
        description:
          'Receipt: the deletion has committed and is final; `deleted.records` counts every revision forgotten, and an external id no Record carries is passed over (0 when none is), so the same call again answers 200 with nothing deleted. ' +
          "On the local engine the erased bytes also leave SQLite's write-ahead log before this answer, as for forgetSource.",
      },
    ],
    additive: true,
  },
  {
    id: 'importFiles',
    method: 'POST',
    path: '/brains/{brain_id}/imports',
    summary:
      'Import export files (notes, chats, mail, calendars, contacts) through the same importers as `mnemo import`; re-importing adds nothing (additive).',
    scope: 'records:write',
    body: ImportRequest,
    responseHeaders: ['Brain-Watermark'],
    success: [
      { status: 200, schema: ImportResult, description: 'What was imported, replaced, unchanged or skipped' },
    ],
    additive: true,
    maxBodyBytes: importMaxBodyBytes,
    eventStream: {
      description:
        'With Accept: text/event-stream (additive): `event: progress` frames (ImportProgress; one when planning ' +
        'ends, then at most every 250 ms), then one `event: result` frame whose data is the ImportResult, or one ' +
        '`event: error` frame (the Error shape) if the import fails after the stream began. What fails before ' +
        'it (validation, no such Brain, a bad time zone or file name) is the plain JSON error with its status. ' +
        'Closing the connection cancels the import between items: what was written stays, and the same ' +
        'request again writes the rest without duplicates.',
      events: { progress: ImportProgress, result: ImportResult, error: ErrorBody },
    },
  },
  {
    id: 'replicateRecords',
    method: 'POST',
    path: '/brains/{brain_id}/sync/records',
    summary:
      'Sync (additive): write Records under the ids their first device gave them; per id created, unchanged, ' +
      'forgotten (tombstoned here: never comes back) or conflict. A local_only Record refuses the whole call.',
    scope: 'records:write',
    body: ReplicateRequest,
    responseHeaders: ['Brain-Watermark'],
    success: [{ status: 200, schema: ReplicateResult, description: 'What became of each id' }],
    additive: true,
    // A Record's text may be up to 1,000,000 characters: one must fit in a request whatever its script.
    maxBodyBytes: importMaxBodyBytes,
  },
  {
    id: 'forgetReplicas',
    method: 'POST',
    path: '/brains/{brain_id}/sync/tombstones',
    summary:
      'Sync (additive): forget these Record ids (imported ones too) with the forgetRecord cascade, and keep a ' +
      'tombstone of each, known here or not, so none is ever written again.',
    scope: 'records:write',
    body: TombstoneRequest,
    responseHeaders: ['Brain-Watermark'],
    success: [{ status: 200, schema: TombstoneResult, description: 'Receipt' }],
    additive: true,
  },
  {
    id: 'getSync',
    method: 'GET',
    path: '/brains/{brain_id}/sync',
    summary:
      'Sync (additive): the pairing of this Brain with a hosted Mnemo, its counts and last error; never the key.',
    scope: 'records:read',
    success: [{ status: 200, schema: SyncStatus, description: 'Status (paired: false when not paired)' }],
    additive: true,
    localOnly: deviceSide,
  },
  {
    id: 'pairSync',
    method: 'POST',
    path: '/brains/{brain_id}/sync',
    summary:
      'Sync (additive): pair this Brain with a Brain on a hosted Mnemo, or change the pairing; the key is kept ' +
      'in the encrypted store only. The remote is checked first (reached, a Mnemo, the key taken with ' +
      'records:read and records:write, its change feed and replication route served; the Brain there may ' +
      'not exist yet): when it fails, nothing is stored and a pairing in place stays as it was ' +
      '(502 sync_remote_unavailable, 400 sync_remote_key_refused, 400 sync_remote_unsupported). Pairing ' +
      "needs the app's admin key too, with a loopback remote as well (403 http_403, no remote asked). Pairing " +
      'again replaces the pairing.',
    scope: 'records:write',
    // Pairing reads every shareable Record of the remote into this Brain and sends this Brain's out.
    alsoScopes: ['records:read'],
    body: SyncPairing,
    success: [{ status: 200, schema: SyncStatus, description: 'Paired; the first sync starts at once' }],
    additive: true,
    localOnly: deviceSide,
  },
  {
    id: 'unpairSync',
    method: 'DELETE',
    path: '/brains/{brain_id}/sync',
    summary: 'Sync (additive): unpair. Nothing is deleted on either side.',
    scope: 'records:write',
    success: [{ status: 200, schema: SyncStatus, description: 'Unpaired' }],
    additive: true,
    localOnly: deviceSide,
  },
  {
    id: 'runSync',
    method: 'POST',
    path: '/brains/{brain_id}/sync/run',
    summary:
      'Sync (additive): push, send tombstones and pull now; answers when the run ended, with the status ' +
      '(a failed run is a 200 whose last_error says why). `allow_more=true` (the admin key only) allows the ' +
      "pull another day's budget first.",
    scope: 'records:write',
    query: RunSyncQuery,
    success: [{ status: 200, schema: SyncStatus, description: 'Status after the run' }],
    additive: true,
    localOnly: deviceSide,
  },
  {
    id: 'acceptSyncForgets',
    method: 'POST',
    path: '/brains/{brain_id}/sync/accept-forgets',
    summary:
      'Sync (additive): confirm the forgets the remote asked for that sync held (the status’s forgets_held: ' +
      'more than sync forgets without asking), and apply them: those Records are forgotten on this device. ' +
      '`count` must be the number held now (409 sync_forgets_changed, nothing forgotten). Needs the app’s ' +
      'admin key, as pairing does (403 http_403). Answers the status after it.',
    scope: 'records:write',
    body: SyncForgetsAccept,
    success: [{ status: 200, schema: SyncStatus, description: 'Applied; the status after it' }],
    additive: true,
    localOnly: deviceSide,
  },
  {
    id: 'listMemories',
    method: 'GET',
    path: '/brains/{brain_id}/memories',
    summary: 'Memories: a full read by id, or a delta read since a watermark.',
    scope: 'memories:read',
    query: MemoryListQuery,
    success: [{ status: 200, schema: MemoryPage, description: 'Page' }],
  },
  {
    id: 'getMemory',
    method: 'GET',
    path: '/brains/{brain_id}/memories/{memory_id}',
    summary: 'A Memory with its revisions and evidence.',
    scope: 'memories:read',
    success: [{ status: 200, schema: MemoryDetail, description: 'Memory' }],
  },
  {
    id: 'acceptObject',
    method: 'POST',
    path: '/brains/{brain_id}/objects',
    summary: "Accept a value as the application's own truth. Never callable by a model.",
    scope: 'objects:write',
    body: ObjectAccept,
    headers: ['Idempotency-Key'],
    responseHeaders: ['Brain-Watermark', 'Idempotent-Replayed'],
    success: [{ status: 201, schema: AcceptedObject, description: 'Accepted version' }],
  },
  {
    id: 'listObjects',
    method: 'GET',
    path: '/brains/{brain_id}/objects',
    summary:
      'The current version of every accepted Object, by type then key; `type` narrows to one type (additive).',
    scope: 'objects:read',
    query: ObjectListQuery,
    success: [{ status: 200, schema: ObjectPage, description: 'Page' }],
    additive: true,
  },
  {
    id: 'getObject',
    method: 'GET',
    path: '/brains/{brain_id}/objects/{object_type}/{object_key}',
    summary: 'The current version of an accepted Object.',
    scope: 'objects:read',
    success: [{ status: 200, schema: AcceptedObject, description: 'Object' }],
  },
  {
    id: 'createContext',
    method: 'POST',
    path: '/brains/{brain_id}/context',
    summary: 'Cited, budgeted Context for a task.',
    scope: 'context:read',
    body: ContextRequest,
    headers: ['Brain-Watermark'],
    success: [
      { status: 200, schema: ContextReady, description: 'Ready' },
      {
        status: 202,
        schema: ContextProcessing,
        description:
          'Not yet at the requested watermark, or thorough over its synchronous budget: retry the same request (same body and Brain-Watermark) for the finished Context under the id given here. Without a Brain-Watermark, a write to the Brain in between makes it assemble afresh, once, under a new id.',
      },
    ],
    eventStream: {
      description:
        'mode thorough with Accept: text/event-stream: `event: stage` frames, then one `event: context` frame.',
    },
  },
  {
    id: 'listKeys',
    method: 'GET',
    path: '/keys',
    summary: 'Keys in the registry (admin key; additive).',
    scope: 'admin',
    success: [{ status: 200, schema: KeyList, description: 'Keys' }],
    additive: true,
  },
  {
    id: 'createKey',
    method: 'POST',
    path: '/keys',
    summary: 'Mint a key; the secret is shown once (admin key; additive).',
    scope: 'admin',
    body: KeyCreate,
    success: [
      {
        status: 201,
        schema: KeyCreated,
        description:
          'Created; also for a `brain` that its project and env do not hold yet, which `warnings` then names (brain_not_found).',
      },
    ],
    additive: true,
  },
  {
    id: 'revokeKey',
    method: 'DELETE',
    path: '/keys/{key_id}',
    summary: 'Revoke a key (admin key; additive).',
    scope: 'admin',
    success: [{ status: 200, schema: KeyInfo, description: 'Revoked' }],
    additive: true,
  },
];
