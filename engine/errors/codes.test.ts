import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorCodes } from './codes.ts';

// The spec's code table (Errors, Codes), copied row by row: code, HTTP status, type. Codes are stable
// and never repurposed, so a change here is a change of the contract, not a refactor.
const specTable: Array<[string, number, string]> = [
  ['invalid_api_key', 401, 'authentication'],
  ['key_revoked', 401, 'authentication'],
  ['key_registry_unreadable', 500, 'internal'],
  ['missing_scope', 403, 'permission'],
  ['mcp_brain_unbound', 403, 'permission'],
  ['mcp_identity_unconfigured', 401, 'authentication'],
  ['invalid_request_body', 400, 'invalid_request'],
  ['unknown_query_parameter', 400, 'invalid_request'],
  ['unknown_kind', 400, 'invalid_request'],
  ['invalid_watermark', 400, 'invalid_request'],
  ['conflicting_parameters', 400, 'invalid_request'],
  ['streaming_not_applicable', 406, 'invalid_request'],
  ['brain_not_found', 404, 'not_found'],
  ['record_not_found', 404, 'not_found'],
  ['record_not_erasable', 403, 'policy'],
  ['memory_not_found', 404, 'not_found'],
  ['memory_pending_rederivation', 404, 'not_found'],
  ['object_not_found', 404, 'not_found'],
  ['trace_not_found', 404, 'not_found'],
  ['corrected_memory_not_found', 404, 'not_found'],
  ['brain_exists', 409, 'conflict'],
  ['idempotency_conflict', 409, 'conflict'],
  ['stale_version', 409, 'conflict'],
  ['correction_conflict', 409, 'conflict'],
  ['not_implemented', 501, 'internal'],
  ['local_only_record', 403, 'policy'],
  ['too_many_requests', 429, 'rate_limit'],
  ['unsupported_media_type', 415, 'invalid_request'],
  ['memory_without_lineage', 500, 'internal'],
  ['internal_error', 500, 'internal'],
  ['http_400', 400, 'invalid_request'],
  ['http_401', 401, 'authentication'],
  ['http_403', 403, 'permission'],
  ['http_404', 404, 'not_found'],
  ['http_405', 405, 'invalid_request'],
  ['http_406', 406, 'invalid_request'],
  ['http_409', 409, 'conflict'],
  ['http_415', 415, 'invalid_request'],
  ['http_429', 429, 'rate_limit'],
];

describe('error codes', () => {
  it("every code of the spec's table has its status and type", () => {
    for (const [code, status, type] of specTable) {
      const info = (errorCodes as Record<string, { status: number; type: string }>)[code];
      assert.ok(info, `${code} is defined`);
      assert.deepEqual([info.status, info.type], [status, type], code);
    }
  });
});
