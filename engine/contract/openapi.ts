import * as z from 'zod';
import { errorCodes } from '../errors/codes.ts';
import * as contract from './index.ts';
import { operations, type Operation } from './operations.ts';
import { contractVersion } from './version.ts';
import { matchesOf } from './matches-of.ts';

type Json = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function idOf(schema: z.ZodType): string | undefined {
  return (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id;
}

/**
 * DateTime reads a lower-case `t` or `z` as upper case before it checks the string (common.ts), but
 * zod's pattern for the check knows only upper case: the document says what the server accepts.
 */
function acceptedDateTime(ctx: { jsonSchema: Json }): void {
  const s = ctx.jsonSchema;
  if (s.format !== 'date-time' || typeof s.pattern !== 'string') return;
  s.pattern = s.pattern.replace(')))T(?:', ')))[Tt](?:').replace('(?:Z|', '(?:[Zz]|');
}

/**
 * A plain `z.object` (every response shape) is open: the spec makes responses and errors grow by additive
 * fields, so a client validating against this document must not reject one. zod's output form marks
 * every object closed; only a `z.strictObject` (a request body, which the server checks field by field)
 * says so here.
 */
function openUnlessStrict(ctx: { zodSchema: z.core.$ZodTypes; jsonSchema: Json }): void {
  const def = ctx.zodSchema._zod.def;
  if (def.type === 'object' && def.catchall === undefined && ctx.jsonSchema.additionalProperties === false)
    delete ctx.jsonSchema.additionalProperties;
}

/** Every schema the operations reach, keyed by its contract id, as JSON Schema 2020-12. */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  const add = (s: z.ZodType | undefined) => {
    const id = s && idOf(s);
    if (s && id && !registry.has(s)) registry.add(s, { id });
  };
  for (const value of Object.values(contract)) {
    if (value instanceof z.ZodType) add(value);
  }
  const out = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
    override: (ctx) => {
      acceptedDateTime(ctx);
      openUnlessStrict(ctx);
    },
  }) as { schemas: Record<string, Json> };
  for (const schema of Object.values(out.schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return out.schemas;
}

function queryParameters(op: Operation): Json[] {
  if (!op.query) return [];
  return Object.entries(op.query.shape).map(([name, schema]) => {
    const json = z.toJSONSchema(schema as z.ZodType, {
      io: 'input',
      unrepresentable: 'any',
      override: acceptedDateTime,
    }) as Json;
    delete json.$schema;
    return { name, in: 'query', required: false, schema: json };
  });
}

function pathParameters(op: Operation): Json[] {
  return [...matchesOf(/\{(\w+)\}/g, op.path)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema:
      m[1] === 'brain_id' || m[1] === 'object_type' || m[1] === 'object_key'
        ? ref('Slug')
        : { type: 'string' },
  }));
}

const headerParams: Record<string, Json> = {
  'Idempotency-Key': {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A replay with identical content returns the original result; different content is idempotency_conflict. ' +
      'A key lives as long as what it wrote: once that Record is forgotten, the key is free, and the same ' +
      'request is a new write (a new id, Idempotent-Replayed: false), never a replay of the forgotten Record.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  },
  'Brain-Watermark': {
    name: 'Brain-Watermark',
    in: 'header',
    required: false,
    description: 'Answer at or after this boundary, else 202 with status processing.',
    schema: { type: 'string' },
  },
};

/** Every failure, of every route: the one error shape, and the headers the server sends with it. */
const errorResponse: Json = {
  description:
    'Error (the one error shape). A 405 (http_405) also carries an Allow header naming the methods the path answers to.',
  headers: {
    'X-Request-Id': { schema: { type: 'string' }, description: 'The request id, as in the body.' },
    'Retry-After': {
      schema: { type: 'string' },
      description: 'On 429 (too_many_requests) only: seconds to wait, as retry_after_seconds in the body.',
    },
    Allow: { schema: { type: 'string' }, description: 'On 405 (http_405) only.' },
  },
  content: { 'application/json': { schema: ref('Error') } },
};

/** The document itself, served without a key (registered before the auth check in server/http/app.ts). */
const getOpenApi: Json = {
  operationId: 'getOpenApi',
  summary: 'This OpenAPI document (no key needed)',
  security: [],
  parameters: [],
  responses: {
    '200': {
      description: 'The contract, as committed in docs/openapi.json',
      headers: { 'X-Request-Id': { schema: { type: 'string' } } },
      content: { 'application/json': { schema: { type: 'object' } } },
    },
    default: errorResponse,
  },
};

/** Whether this process can serve now, without a key: for a load balancer's health check (additive). */
const getHealth: Json = {
  operationId: 'getHealth',
  summary: 'Whether this server can serve now (no key needed)',
  description:
    "200 while the server can reach its store; 503 `store_unavailable` while it cannot (a hosted server's " +
    'database down or restarting; a local store a read found damaged, or whose log failed to sync), answered ' +
    'within about 3 s. It says nothing else but what mends a local store: why is in the server log.',
  security: [],
  parameters: [],
  'x-additive': true,
  responses: {
    '200': {
      description: 'The server can serve.',
      headers: { 'X-Request-Id': { schema: { type: 'string' } } },
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['status'],
            properties: { status: { type: 'string', const: 'ok' } },
          },
        },
      },
    },
    default: errorResponse,
  },
};

function operationObject(op: Operation): Json {
  const responses: Json = {};
  for (const r of op.success) {
    const id = idOf(r.schema);
    const content: Json = { 'application/json': { schema: id ? ref(id) : {} } };
    if (op.eventStream && r.status === 200) {
      const events = Object.entries(op.eventStream.events ?? {});
      content['text/event-stream'] = {
        schema: { type: 'string' },
        description: op.eventStream.description,
        // The data of each event by its name (OpenAPI 3.1 cannot describe the frames themselves).
        ...(events.length
          ? { 'x-event-data': Object.fromEntries(events.map(([name, s]) => [name, ref(idOf(s) ?? '')])) }
          : {}),
      };
    }
    responses[String(r.status)] = {
      description: r.description,
      headers: {
        'X-Request-Id': { schema: { type: 'string' } },
        ...(op.responseHeaders?.includes('Brain-Watermark')
          ? { 'Brain-Watermark': { schema: { type: 'string' } } }
          : {}),
        ...(op.responseHeaders?.includes('Idempotent-Replayed')
          ? {
              'Idempotent-Replayed': {
                description:
                  'Sent when the request carried an Idempotency-Key: true when the key returned an earlier ' +
                  'result and nothing was written, false when this request wrote.',
                schema: { type: 'string', enum: ['true', 'false'] },
              },
            }
          : {}),
      },
      content,
    };
  }
  responses.default = errorResponse;
  return {
    operationId: op.id,
    summary: op.summary,
    ...(op.description || op.localOnly
      ? {
          description: [
            op.description,
            op.localOnly &&
              `Not served on a hosted deployment, which answers 501 \`not_implemented\` to any key: ${op.localOnly}.`,
          ]
            .filter(Boolean)
            .join(' '),
        }
      : {}),
    ...(op.localOnly ? { 'x-local-deployment-only': true } : {}),
    ...(op.scope && op.scope !== 'admin' ? { 'x-required-scope': op.scope } : {}),
    ...(op.alsoScopes ? { 'x-also-required-scopes': op.alsoScopes } : {}),
    ...(op.scope === 'admin' ? { 'x-requires-admin-key': true } : {}),
    ...(op.additive ? { 'x-additive': true } : {}),
    ...(op.maxBodyBytes ? { 'x-max-body-bytes': op.maxBodyBytes } : {}),
    parameters: [
      ...pathParameters(op),
      ...queryParameters(op),
      ...(op.headers ?? []).map((h) =>
        // The spec: createBrain accepts the header, but creation is deliberately not idempotent.
        h === 'Idempotency-Key' && op.id === 'createBrain'
          ? {
              ...headerParams[h],
              description:
                'Accepted and not used: creating a Brain is not idempotent, and a repeated id is brain_exists (409) whatever the key.',
            }
          : h === 'Idempotency-Key' && op.id === 'acceptObject'
            ? // An Object version is never forgotten on its own (only with its Brain): the Record wording
              // of rememberRecord's key does not apply to it.
              {
                ...headerParams[h],
                description:
                  'A replay with identical content returns the original version (201, Idempotent-Replayed: true), even after ' +
                  'later versions were accepted; different content is idempotency_conflict. A key lives as long as the ' +
                  'version it wrote, that is as long as its Brain.',
              }
            : headerParams[h],
      ),
    ],
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref(idOf(op.body) ?? '') } },
          },
        }
      : {}),
    responses,
  };
}

/** The machine-readable contract (OpenAPI 3.1), generated from the schemas; committed as docs/openapi.json. */
export function buildOpenApi(): Json {
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    paths[op.path] ??= {};
    paths[op.path]![op.method.toLowerCase()] = operationObject(op);
  }
  paths['/openapi.json'] = { get: getOpenApi };
  paths['/health'] = { get: getHealth };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Mnemo memory service',
      version: contractVersion,
      description:
        'The /v1 memory API served on localhost. Decisions the spec leaves open are in docs/decisions.md. ' +
        'Numbers in a request body are read as IEEE 754 doubles, and one that would not come back as the ' +
        'same decimal value (12345678901234567890 would come back as 12345678901234567000; also ' +
        '9007199254740993, 0.1000000000000000055511151231257827, 1e-400) is refused, 400 ' +
        'invalid_request_body naming its field, rather than stored as another number: send such a value ' +
        "as a string where the field takes one (an Object's value, a fact's value). 0.1, 1.0, 1e3 and " +
        'every integer up to 2^53 come back as sent (1.0 as 1, 1e3 as 1000). ' +
        `Error codes: ${Object.keys(errorCodes).join(', ')}.`,
    },
    servers: [{ url: 'http://127.0.0.1:7821/v1' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'sk_<env>_<project>_<secret>' },
      },
      schemas: componentSchemas(),
    },
  };
}
