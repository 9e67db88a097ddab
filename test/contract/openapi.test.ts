import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildOpenApi } from '../../engine/contract/openapi.ts';
import { operations } from '../../engine/contract/operations.ts';
import { errorCodes } from '../../engine/errors/codes.ts';

describe('openapi.json', () => {
  it('the committed docs/openapi.json is what the schemas generate (run `npm run openapi` after changing them)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    assert.deepEqual(committed, JSON.parse(JSON.stringify(buildOpenApi())));
  });

  it('every date-time pattern accepts what the server accepts: a lower-case t or z, not a space', () => {
    const patterns = new Set<string>();
    JSON.stringify(buildOpenApi(), (_k, v: unknown) => {
      const s = v as { format?: unknown; pattern?: unknown } | null;
      if (s && s.format === 'date-time' && typeof s.pattern === 'string') patterns.add(s.pattern);
      return v;
    });
    assert.ok(patterns.size > 0);
    for (const p of patterns) {
      const re = new RegExp(p);
      for (const ok of ['2024-05-01T09:30:00Z', '2024-05-01t09:30:00.5z', '2024-05-01T09:30:00+01:00'])
        assert.ok(re.test(ok), `${ok} against ${p}`);
      for (const bad of ['2024-05-01 09:30:00Z', '2024-05-01T09:30:00', '2024-02-30T09:30:00Z'])
        assert.ok(!re.test(bad), `${bad} against ${p}`);
    }
  });

  it('refuses what the server refuses: a blank query, an Idempotency-Key beyond visible ASCII', () => {
    const doc = buildOpenApi() as {
      components: { schemas: Record<string, { properties: Record<string, { pattern?: string }> }> };
      paths: Record<
        string,
        Record<string, { parameters: { name: string; description?: string; schema: { pattern?: string } }[] }>
      >;
    };
    const query = new RegExp(doc.components.schemas.ContextRequest!.properties.query!.pattern!);
    for (const blank of ['   ', '\t\n', '\u3000', '\u00a0', '\ufeff'])
      assert.ok(!query.test(blank), JSON.stringify(blank));
    assert.ok(query.test(' tea '));
    const key = (path: string) =>
      doc.paths[path]!.post!.parameters.find((p) => p.name === 'Idempotency-Key')!;
    const pattern = new RegExp(key('/brains/{brain_id}/records').schema.pattern!);
    assert.ok(pattern.test('order-42_é'.slice(0, 8)));
    for (const bad of ['order 42', 'ключ', 'a\tb']) assert.ok(!pattern.test(bad), bad);
    // The spec: createBrain takes the header, but a repeated id is brain_exists, never a replay.
    assert.match(key('/brains').description!, /not idempotent.*brain_exists/);
    assert.match(key('/brains/{brain_id}/records').description!, /replay/);
    // An Object version is forgotten only with its Brain: its key's text must not speak of a Record.
    const objectKey = key('/brains/{brain_id}/objects').description!;
    assert.match(objectKey, /replay.*original version.*as long as its Brain/);
    assert.doesNotMatch(objectKey, /Record/);
  });

  it('declares the 15 operations of the spec with their methods and paths', () => {
    const doc = buildOpenApi() as { paths: Record<string, Record<string, { operationId: string }>> };
    const declared = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([m, op]) => `${op.operationId} ${m.toUpperCase()} ${path}`),
    );
    for (const expected of [
      'createBrain POST /brains',
      'getBrain GET /brains/{brain_id}',
      'forgetBrain DELETE /brains/{brain_id}',
      'getProfile GET /brains/{brain_id}/profile',
      'getCensus GET /brains/{brain_id}/census',
      'listTraces GET /brains/{brain_id}/traces',
      'getTrace GET /brains/{brain_id}/traces/{trace_id}',
      'rememberRecord POST /brains/{brain_id}/records',
      'getRecord GET /brains/{brain_id}/records/{record_id}',
      'forgetRecord DELETE /brains/{brain_id}/records/{record_id}',
      'listMemories GET /brains/{brain_id}/memories',
      'getMemory GET /brains/{brain_id}/memories/{memory_id}',
      'acceptObject POST /brains/{brain_id}/objects',
      'getObject GET /brains/{brain_id}/objects/{object_type}/{object_key}',
      'createContext POST /brains/{brain_id}/context',
    ]) {
      assert.ok(declared.includes(expected), `missing ${expected}`);
    }
    assert.equal(new Set(operations.map((o) => o.id)).size, operations.length);
  });

  it('every operation declares the Error shape as its default response, with every code in the enum', () => {
    const doc = buildOpenApi() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties: { code: { enum: string[] } } }> };
    };
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) {
        const error = op.responses.default as { headers: Record<string, unknown> };
        // What the server sends with a failure: a generated client or a validating proxy keeps only these.
        assert.deepEqual(Object.keys(error.headers).sort(), ['Allow', 'Retry-After', 'X-Request-Id']);
      }
    }
    // The document itself is a path too, read without a key.
    const self = doc.paths['/openapi.json']!.get as unknown as { security: unknown[]; operationId: string };
    assert.deepEqual(self.security, []);
    assert.deepEqual(
      [...doc.components.schemas.Error!.properties.code.enum].sort(),
      Object.keys(errorCodes).sort(),
    );
  });

  it('request bodies are closed; responses and errors stay open to additive fields', () => {
    const doc = buildOpenApi() as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { additionalProperties?: unknown }> };
    };
    const schemas = doc.components.schemas;
    const refsIn = (v: unknown) =>
      [...JSON.stringify(v).matchAll(/#\/components\/schemas\/(\w+)/g)].map((m) => m[1]!);
    // Every schema reachable from V, through the schemas it refers to.
    const reach = (v: unknown, seen = new Set<string>()) => {
      for (const id of refsIn(v))
        if (!seen.has(id)) {
          seen.add(id);
          reach(schemas[id], seen);
        }
      return seen;
    };
    const bodies = new Set<string>();
    const responses = new Set<string>();
    for (const methods of Object.values(doc.paths))
      for (const op of Object.values(methods)) {
        if (op.requestBody) for (const id of refsIn(op.requestBody)) bodies.add(id);
        reach(op.responses, responses);
      }
    for (const id of bodies) assert.equal(schemas[id]!.additionalProperties, false, `${id} (request body)`);
    for (const id of ['Error', 'Record', 'Memory', 'Context', 'Brain', 'Trace', 'SyncStatus'])
      assert.ok(responses.has(id), `${id} is a response`);
    const inBodies = reach([...bodies].map((id) => ({ $ref: `#/components/schemas/${id}` })));
    for (const id of [...responses].filter((r) => !inBodies.has(r)))
      assert.notEqual(schemas[id]!.additionalProperties, false, `${id} (response only)`);
    // Nested response objects too: a Context's budget is read by clients that validate.
    const context = JSON.stringify(schemas.Context);
    assert.ok(!context.includes('"additionalProperties":false'), 'Context has no closed object inside');
  });
});
