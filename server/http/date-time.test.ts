import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createLocalEngine } from '../../engine/local/index.ts';
import type { Engine } from '../../engine/types.ts';
import { serveApp, type ServedApp } from './testing/serve-app.ts';

// The local engine (SQLite) behind a real server on loopback: what is stored and echoed is canonical.
const dir = mkdtempSync(join(tmpdir(), 'mnemo-date-time-'));
const auth = { authorization: 'Bearer sk_test_p_datetimesecret', 'content-type': 'application/json' };
let engine: Engine;
let server: ServedApp;
let base = '';

before(async () => {
  engine = await createLocalEngine({ dataDir: dir, dbKey: 'd'.repeat(64), reranker: null });
  server = await serveApp({ engine, registry: null });
  base = `${server.origin}/v1`;
  await fetch(`${base}/brains`, { method: 'POST', headers: auth, body: JSON.stringify({ id: 'b' }) });
});

after(async () => {
  await server.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  fetch(`${base}/brains/b${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });

test('a lower-case t and z (RFC 3339 5.6) are accepted, stored and echoed in upper case', async () => {
  const res = await post('/records', {
    content: { kind: 'event', title: 'Dentist', starts_at: '2024-05-03t09:00:00+01:00' },
    occurred_at: '2024-05-01t09:30:00z',
  });
  assert.equal(res.status, 202);
  const written = (await res.json()) as { id: string; occurred_at: string };
  assert.equal(written.occurred_at, '2024-05-01T09:30:00Z');
  const read = (await (await fetch(`${base}/brains/b/records/${written.id}`, { headers: auth })).json()) as {
    occurred_at: string;
    content: { starts_at: string };
  };
  assert.equal(read.occurred_at, '2024-05-01T09:30:00Z');
  assert.equal(read.content.starts_at, '2024-05-03T09:00:00+01:00');
  const ctx = await post('/context', { query: 'dentist', as_of: '2024-06-01t00:00:00z' });
  assert.equal(ctx.status, 200);
  const list = await fetch(`${base}/brains/b/memories?as_of=2024-06-01t00:00:00z`, { headers: auth });
  assert.equal(list.status, 200);
});

test('the space separator is still refused (RFC 3339 leaves it to the application)', async () => {
  const res = await post('/records', { content: 'x', occurred_at: '2024-05-01 09:30:00Z' });
  assert.equal(res.status, 400);
  const body = (await res.json()) as { code: string; message: string };
  assert.equal(body.code, 'invalid_request_body');
  assert.match(body.message, /^occurred_at: must be an RFC 3339 date-time with an offset/);
});

test('a leap second is refused by name, not as "not an RFC 3339 date-time"', async () => {
  const res = await post('/records', { content: 'leap', occurred_at: '2016-12-31T23:59:60Z' });
  assert.equal(res.status, 400);
  const err = (await res.json()) as { code: string; message: string };
  assert.equal(err.code, 'invalid_request_body');
  assert.match(err.message, /^occurred_at: is a leap second \(:60\), which is not accepted/);
});

test('a window whose since is later than its until is refused, naming since (Context and Records)', async () => {
  const res = await post('/context', {
    query: 'dentist',
    filter: { since: '2024-06-01T00:00:00Z', until: '2024-05-01T00:00:00+02:00' },
  });
  assert.equal(res.status, 400);
  const body = (await res.json()) as { code: string; message: string };
  assert.equal(body.code, 'invalid_request_body');
  assert.match(body.message, /^filter\.since: must not be later than until/);
  // The same instant in two offsets is a window of one instant, not a reversed one.
  const same = await post('/context', {
    query: 'dentist',
    filter: { since: '2024-06-01T02:00:00+02:00', until: '2024-06-01T00:00:00Z' },
  });
  assert.equal(same.status, 200);

  const list = await fetch(`${base}/brains/b/records?since=2024-06-01T00:00:00Z&until=2024-05-01T00:00:00Z`, {
    headers: auth,
  });
  assert.equal(list.status, 400);
  const listed = (await list.json()) as { code: string; message: string };
  assert.match(listed.message, /since: must not be later than until/);
});

test("an offset's '+' sent unencoded in a query, read as a space, is refused saying to encode it as %2B", async () => {
  const get = async (query: string) => {
    const res = await fetch(`${base}/brains/b${query}`, { headers: auth });
    return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
  };
  const plain = await get('/memories?as_of=2026-01-01T00:00:00+01:00');
  assert.equal(plain.status, 400);
  assert.equal(plain.body.code, 'invalid_request_body');
  assert.equal(
    plain.body.message,
    `as_of: must be an RFC 3339 date-time with an offset, and "2026-01-01T00:00:00 01:00" has a space where its ` +
      `offset's '+' would be: a URL query reads an unencoded '+' as a space, so encode it as %2B ` +
      '(as_of=2026-01-01T00:00:00%2B01:00)',
  );
  const since = await get('/records?since=2026-01-01T00:00:00.5+05:30');
  assert.match(since.body.message ?? '', /^since: .* encode it as %2B/);
  assert.equal((await get('/memories?as_of=2026-01-01T00:00:00%2B01:00')).status, 200);
  // A space that no '+' would mend is no date-time, said as before.
  const other = await get('/memories?as_of=2026-01-01%2000:00:00Z');
  assert.match(other.body.message ?? '', /^as_of: must be an RFC 3339 date-time with an offset, e\.g\./);
});

test('an instant outside the years 0000-9999 in UTC is refused; the edges of that range are kept', async () => {
  for (const occurred_at of ['9999-12-31T23:59:59-23:59', '0000-01-01T00:00:00+01:00']) {
    const res = await post('/records', { content: 'edge', occurred_at });
    assert.equal(res.status, 400, occurred_at);
    const err = (await res.json()) as { code: string; message: string };
    assert.equal(err.code, 'invalid_request_body');
    assert.match(err.message, /^occurred_at: is an instant outside the years 0000-9999 in UTC/);
  }
  for (const occurred_at of ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z']) {
    const res = await post('/records', { content: 'edge', occurred_at, source: { name: 'edges' } });
    assert.equal(res.status, 202, occurred_at);
  }
  // Every time the API writes back stays RFC 3339 (listSources writes its instants in UTC).
  const sources = (await (await fetch(`${base}/brains/b/sources`, { headers: auth })).json()) as {
    data: { name: string; first_occurred_at: string; last_occurred_at: string }[];
  };
  const edges = sources.data.find((s) => s.name === 'edges')!;
  assert.deepEqual(
    [edges.first_occurred_at, edges.last_occurred_at],
    ['0000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.000Z'],
  );
});
