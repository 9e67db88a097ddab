/** The spec's error codes as data: each code's HTTP status and `type`. Codes are never repurposed. */
export const errorTypes = [
  'invalid_request',
  'authentication',
  'permission',
  'not_found',
  'conflict',
  'rate_limit',
  'policy',
  'internal',
] as const;
export type ErrorType = (typeof errorTypes)[number];

interface CodeInfo {
  status: number;
  type: ErrorType;
  /** One sentence for the human-readable docs page served at {docs_url_base}/errors/{code}. */
  summary: string;
}

export const errorCodes = {
  invalid_api_key: {
    status: 401,
    type: 'authentication',
    summary:
      'The Authorization header is missing, not a Bearer credential, or not a key of the form sk_<env>_<project>_<secret>.',
  },
  key_revoked: {
    status: 401,
    type: 'authentication',
    summary: 'The key was revoked in the key registry. It never works again; create a new key.',
  },
  key_registry_unreadable: {
    status: 500,
    type: 'internal',
    summary: 'A key registry is configured but could not be read, so every key is refused until it can be.',
  },
  missing_scope: {
    status: 403,
    type: 'permission',
    summary:
      'The key lacks the scope this operation needs; the message names it. Scopes cannot be escalated per call.',
  },
  mcp_brain_unbound: {
    status: 403,
    type: 'permission',
    summary: 'The hosted MCP endpoint needs a key bound to exactly one Brain.',
  },
  mcp_identity_unconfigured: {
    status: 401,
    type: 'authentication',
    summary: 'The local stdio MCP bridge was started without MNEMO_PROJECT and MNEMO_BRAIN.',
  },
  invalid_request_body: {
    status: 400,
    type: 'invalid_request',
    summary:
      'The body, or a typed query field, failed validation. The message reads "<field path>: <reason>".',
  },
  unknown_query_parameter: {
    status: 400,
    type: 'invalid_request',
    summary:
      'The request carried a query parameter this operation does not declare; the message lists the names.',
  },
  unknown_kind: {
    status: 400,
    type: 'invalid_request',
    summary: 'content.kind is not one of the kinds this engine accepts.',
  },
  invalid_watermark: {
    status: 400,
    type: 'invalid_request',
    summary: 'The watermark was not issued by this Brain: constructed, truncated, or from another Brain.',
  },
  conflicting_parameters: {
    status: 400,
    type: 'invalid_request',
    summary:
      "since_watermark (a delta read) cannot be combined with a full read's cursor or order (nor, on listRecords, its filters); on listRecords, has_source=false not with a source name.",
  },
  streaming_not_applicable: {
    status: 406,
    type: 'invalid_request',
    summary:
      'Only a thorough createContext and importFiles stream; Accept: text/event-stream was sent on another call.',
  },
  brain_not_found: {
    status: 404,
    type: 'not_found',
    summary: 'No Brain with this id exists in the project and environment of this key.',
  },
  record_not_found: {
    status: 404,
    type: 'not_found',
    summary: 'No Record with this id is in the Brain (forgetting a Record is permanent).',
  },
  source_not_found: {
    status: 404,
    type: 'not_found',
    summary: 'No Record of the Brain carries this source.name (additive: forgetSource).',
  },
  sync_not_paired: {
    status: 404,
    type: 'not_found',
    summary:
      'The Brain is not paired with a hosted Mnemo (additive: the sync routes; pair it with POST /v1/brains/{id}/sync).',
  },
  store_unavailable: {
    status: 503,
    type: 'internal',
    summary:
      "The server cannot use its store now: a hosted server's database is down, restarting or failing over (GET /v1/health answers it for as long as that lasts), or it answers but is overloaded (every connection busy, or out of connections, memory or disk); a local store's disk is full or failing, its log could not be synced to disk (until Mnemo is restarted), or its file is damaged (put your latest backup in its place: mnemo restore --from FILE with the server stopped, or File → Restore… in the desktop app; the damaged file is kept beside it). The message says which, the server's log says more.",
  },
  sync_remote_unavailable: {
    status: 502,
    type: 'internal',
    summary:
      'Pairing checks the remote first, and it could not be reached, did not answer in time, answered as no Mnemo does (not its JSON, or a redirect elsewhere, which is not followed), or failed itself (429, 5xx). Nothing was paired or changed; check the address, or pair again later.',
  },
  sync_remote_key_refused: {
    status: 400,
    type: 'invalid_request',
    summary:
      'Pairing checks the remote first, and it refused remote_key (unknown, revoked, or without records:read and records:write); remote_code says what it answered. Nothing was paired or changed.',
  },
  sync_remote_unsupported: {
    status: 400,
    type: 'invalid_request',
    summary:
      'Pairing checks the remote first, and it is a Mnemo that cannot serve sync (no change feed or replication routes: another engine or an older version); remote_code says what it answered. Nothing was paired or changed.',
  },
  sync_forgets_changed: {
    status: 409,
    type: 'conflict',
    summary:
      'The number of forgets confirmed is not the number the sync guard holds now (additive: acceptSyncForgets); read the sync status again and confirm what it gives. Nothing was forgotten.',
  },
  record_not_erasable: {
    status: 403,
    type: 'policy',
    summary: 'The Record was reconciled from an external source; remove the whole import instead.',
  },
  memory_not_found: {
    status: 404,
    type: 'not_found',
    summary:
      'No such Memory: unknown, not yet derived (retry while its Record is processing), or deleted with its last Record.',
  },
  memory_pending_rederivation: {
    status: 404,
    type: 'not_found',
    summary: 'The Memory lost some supporting Records and is excluded from reads until it is derived again.',
  },
  object_not_found: {
    status: 404,
    type: 'not_found',
    summary: 'Nothing has been accepted at this type and key.',
  },
  trace_not_found: {
    status: 404,
    type: 'not_found',
    summary:
      'The trace is no longer held: traces live in a bounded recent-only buffer that a restart clears, ' +
      'and forgetting a Record removes every trace that quoted it.',
  },
  corrected_memory_not_found: {
    status: 404,
    type: 'not_found',
    summary: 'The correction names a Memory this Brain does not hold. Nothing was written.',
  },
  brain_exists: {
    status: 409,
    type: 'conflict',
    summary: 'A Brain with this id already exists; creation is deliberately not idempotent.',
  },
  idempotency_conflict: {
    status: 409,
    type: 'conflict',
    summary: 'The Idempotency-Key was already used with different content.',
  },
  stale_version: {
    status: 409,
    type: 'conflict',
    summary:
      "if_version differs from the Object's current version, given in current_version. Re-read and re-apply.",
  },
  correction_conflict: {
    status: 409,
    type: 'conflict',
    summary:
      'The corrected Memory was already superseded and its slot has a newer active value. Nothing was written.',
  },
  not_implemented: {
    status: 501,
    type: 'internal',
    summary: 'The route is real but this engine does not serve it. Do not retry.',
  },
  local_only_record: {
    status: 403,
    type: 'policy',
    summary: 'local_only Records stay on the device; a hosted deployment neither stores nor serves them.',
  },
  too_many_requests: {
    status: 429,
    type: 'rate_limit',
    summary:
      'The per-key per-minute limit was exceeded. Wait retry_after_seconds, then back off exponentially.',
  },
  unsupported_media_type: {
    status: 415,
    type: 'invalid_request',
    summary: 'The body is not JSON. Send Content-Type: application/json (any +json type is accepted).',
  },
  memory_without_lineage: {
    status: 500,
    type: 'internal',
    summary: 'A stored Memory has no supporting Records. It is never served; this is a bug indicator.',
  },
  internal_error: {
    status: 500,
    type: 'internal',
    summary: 'An unhandled failure. Retry once; a rememberRecord retry must resend the same Idempotency-Key.',
  },
  http_400: {
    status: 400,
    type: 'invalid_request',
    summary: 'The request was rejected before routing (for example, malformed JSON).',
  },
  http_401: { status: 401, type: 'authentication', summary: 'Authentication failed below the route layer.' },
  http_403: {
    status: 403,
    type: 'permission',
    summary:
      'Refused below the route layer (for example, a cross-origin browser request or a key bound to another Brain).',
  },
  http_404: { status: 404, type: 'not_found', summary: 'The path does not exist.' },
  http_405: {
    status: 405,
    type: 'invalid_request',
    summary: 'The path exists but not with this method; the Allow header lists the methods it accepts.',
  },
  http_406: { status: 406, type: 'invalid_request', summary: 'The Accept header excludes JSON.' },
  http_409: { status: 409, type: 'conflict', summary: 'Conflict below the route layer.' },
  http_415: { status: 415, type: 'invalid_request', summary: 'Wrong content type on a body.' },
  http_429: { status: 429, type: 'rate_limit', summary: 'Too many requests.' },
} as const satisfies Record<string, CodeInfo>;

export type ErrorCode = keyof typeof errorCodes;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(errorCodes, code);
}
