import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorBody } from '../../engine/contract/index.ts';
import { tempDir } from './local-helpers.ts';
import { startServer, type RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// A caller's value echoed in an error message is quoted by a short prefix and its length, however
// long it was sent: the answer to a 700,000-character kind is a few hundred bytes, not megabytes.
async function serveReference(
  _root: string,
): Promise<{ server: RunningServer; auth: Record<string, string> }> {
  const server = await startServer({ engine: 'reference', port: 0, rateLimit: 0, log: () => {} });
  // Without a registry the reference engine takes any well-formed key.
  return { server, auth: { authorization: 'Bearer sk_test_home_echo', 'content-type': 'application/json' } };
}

for (const [engine, serve] of [
  ['local', (root: string) => serveLocal(root)],
  ['reference', serveReference],
] as const) {
  describe(`error messages quote long values by a prefix (${engine} engine)`, () => {
    const root = tempDir();
    let local: { server: RunningServer; auth: Record<string, string> };
    before(async () => {
      local = await serve(root);
      await fetch(`${local.server.url}/brains`, { method: 'POST', headers: local.auth, body: '{"id":"b"}' });
    });
    after(() => local.server.close());

    const long = 'k'.repeat(700_000);
    const cases: [string, string, string, string | undefined][] = [
      ['unknown_kind', 'POST', '/brains/b/records', JSON.stringify({ content: { kind: long, text: 'a' } })],
      ['unknown field', 'POST', '/brains/b/records', JSON.stringify({ content: 'a', [long]: 1 })],
      ['brain id', 'GET', `/brains/${long.slice(0, 8_000)}`, undefined],
      ['record id', 'GET', `/brains/b/records/rec_${long.slice(0, 8_000)}`, undefined],
      ['query parameter', 'GET', `/brains/b/records?${long.slice(0, 8_000)}=1`, undefined],
      ['object key', 'GET', `/brains/b/objects/t/${long.slice(0, 8_000)}`, undefined],
    ];
    for (const [name, method, path, body] of cases) {
      it(`a long ${name}`, async () => {
        const res = await fetch(local.server.url + path, { method, headers: local.auth, body });
        const text = await res.text();
        assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${text.slice(0, 300)}`);
        assert.ok(text.length < 2_000, `${text.length} bytes: ${text.slice(0, 300)}`);
        const error = ErrorBody.parse(JSON.parse(text));
        assert.match(error.message, /k{196,200}"?… \([\d,]+ characters\)/u);
      });
    }
  });
}
