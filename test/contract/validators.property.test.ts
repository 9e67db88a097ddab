import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ErrorBody } from '../../engine/contract/index.ts';
import { startServer, type RunningServer } from '../../server/start-server.ts';

/** Random bodies against the validators over HTTP: never a 5xx, every rejection a 4xx in the one shape. */
describe('request validators (property-based)', () => {
  let server: RunningServer;
  const key = 'sk_test_prop_fuzz1234';
  before(async () => {
    server = await startServer({ engine: 'reference', port: 0, rateLimit: 0 });
    await fetch(`${server.url}/brains`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: '{"id":"p"}',
    });
  });
  after(() => server.close());

  const post = async (path: string, body: string) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body,
    });
    const json = await res.json();
    return { status: res.status, json };
  };

  const anyJson = fc.jsonValue({ maxDepth: 4 });
  const shaped = fc.record(
    {
      content: fc.oneof(
        fc.string(),
        fc.record(
          {
            kind: fc.constantFrom('message', 'document', 'event', 'fact', 'correction', 'nope'),
            text: fc.oneof(fc.string(), fc.integer()),
            title: fc.string(),
            subject: fc.string(),
            predicate: fc.string(),
            value: anyJson,
            corrects: fc.string(),
            participants: fc.array(fc.oneof(fc.string(), fc.boolean())),
          },
          { requiredKeys: ['kind'] },
        ),
        anyJson,
      ),
      occurred_at: fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.string(),
        fc.integer(),
      ),
      visibility: fc.oneof(fc.constantFrom('local_only', 'shareable', 'redacted_summary'), fc.string()),
      source: fc.oneof(fc.record({ name: fc.string(), trust: fc.string() }), anyJson),
      query: fc.oneof(fc.string(), anyJson),
      budget: fc.oneof(
        fc.record({ tokens: fc.oneof(fc.integer(), fc.boolean(), fc.double()), ms: fc.integer() }),
        anyJson,
      ),
      mode: fc.oneof(fc.constantFrom('fast', 'thorough'), fc.string()),
      id: fc.oneof(fc.string(), anyJson),
      type: fc.string(),
      key: fc.string(),
      value: anyJson,
      if_version: fc.oneof(fc.integer(), fc.constant(null), fc.boolean()),
    },
    { requiredKeys: [] },
  );

  for (const path of ['/brains', '/brains/p/records', '/brains/p/context', '/brains/p/objects']) {
    it(`POST ${path}: random bodies never produce a 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            shaped.map((b) => JSON.stringify(b)),
            anyJson.map((b) => JSON.stringify(b)),
            fc.string(),
          ),
          async (body) => {
            const { status, json } = await post(path, body);
            assert.ok(status < 500, `${status} for ${body}: ${JSON.stringify(json)}`);
            if (status >= 400) {
              assert.ok(status < 500);
              assert.ok(ErrorBody.safeParse(json).success, JSON.stringify(json));
            }
          },
        ),
        { numRuns: 150 },
      );
    });
  }
});
