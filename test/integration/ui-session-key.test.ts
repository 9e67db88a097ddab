import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { hashKey } from '../../engine/auth/api-key.ts';
import { ErrorBody } from '../../engine/contract/index.ts';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { registryPathFor } from '../../server/data-dir.ts';
import { startServer } from '../../server/start-server.ts';
import { serveProcess } from './serve-process.ts';

/**
 * A server with the UI on a data dir of its own, `extra` its options; a failed assertion must not
 * leave it listening (closing twice is harmless), nor its data.
 */
async function uiServer(extra: Partial<Parameters<typeof startServer>[0]> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mnemo-ui-key-'));
  const server = await startServer({
    engine: 'local',
    port: 0,
    dataDir,
    dbKey: 'a'.repeat(64),
    ui: true,
    ...extra,
  });
  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { server, dataDir };
}

test('the one-time UI token yields an admin key once, and that key is revoked when the server stops', async () => {
  const { server, dataDir } = await uiServer();
  const token = new URL(server.uiUrl!).hash.replace('#ui_token=', '');
  const exchange = () =>
    fetch(`${server.origin}/ui/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
  const first = await exchange();
  assert.equal(first.status, 200);
  const { api_key: key } = (await first.json()) as { api_key: string };
  assert.equal((await exchange()).status, 401, 'the token works once');
  const keys = await fetch(`${server.url}/keys`, { headers: { Authorization: `Bearer ${key}` } });
  assert.equal(keys.status, 200, 'the UI key is an admin key');
  await server.close();
  const registry = new FileKeyRegistry(registryPathFor(dataDir));
  assert.notEqual((await registry.byHash(hashKey(key)))?.revoked_at ?? null, null);
});

test('a sign-in link past its time is refused in the error shape, says why, and never mints a key', async () => {
  const { server } = await uiServer({ uiTokenTtlMs: 300 });
  assert.equal(server.uiUrlValidity?.ttlMs, 300);
  const token = new URL(server.uiUrl!).hash.replace('#ui_token=', '');
  const keysBefore = (await server.registry!.list()).length;
  await sleep(400);
  const late = await fetch(`${server.origin}/ui/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  assert.equal(late.status, 401);
  const error = ErrorBody.parse(await late.json());
  assert.equal(error.code, 'http_401');
  assert.match(
    error.message,
    /^This sign-in link has expired: each one signs in once, within 300 ms of being printed\. Restart `mnemo serve --ui` for a new link/,
  );
  assert.equal((await server.registry!.list()).length, keysBefore, 'no key was minted');
});

test('a sign-in body trickled slower than its deadline has its connection closed', async () => {
  const { server } = await uiServer({ uiSessionBodyMs: 300 });
  const { hostname: host, port } = new URL(server.origin);
  const socket = connect(Number(port), host);
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
  socket.on('error', () => {});
  let answer = '';
  socket.on('data', (d: Buffer) => (answer += d.toString()));
  const sent = Date.now();
  socket.write(
    `POST /ui/session HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{`,
  );
  // A byte every 100 ms would keep it open for the server's request timeout (5 minutes).
  const drip = setInterval(() => socket.write(' '), 100);
  const at = await Promise.race([closed, sleep(10_000).then(() => null)]);
  clearInterval(drip);
  socket.destroy();
  assert.ok(at !== null, 'the connection was still open after 10 s');
  assert.ok(at - sent >= 300, `closed after ${at - sent} ms, before the deadline: ${answer}`);
});

const cliEnv = { ...process.env, MNEMO_LOG: '', MNEMO_EMBEDDER: 'none', MNEMO_DB_KEY: 'b'.repeat(64) };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a UI key left active by a server killed with SIGKILL is revoked when the next server starts on that data dir', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mnemo-ui-key-crash-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await serveProcess(['--data-dir', dataDir, '--ui'], cliEnv);
  const token = /ui_token=(\S+)\n/.exec(first.stderr())![1]!;
  // The line below the address says how long it signs in, and how to get another.
  const validity =
    /ui_token=\S+\nthe ui: link signs in once, within 10 minutes \(until \d\d:\d\d\); for a new one, restart mnemo serve --ui\n/;
  for (let i = 0; i < 200 && !validity.test(first.stderr()); i++) await sleep(10);
  assert.match(first.stderr(), validity);
  const origin = new URL(first.url).origin;
  const exchanged = await fetch(`${origin}/ui/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const { api_key: key } = (await exchanged.json()) as { api_key: string };
  first.child.kill('SIGKILL');
  await first.exited;
  const registry = new FileKeyRegistry(registryPathFor(dataDir));
  assert.equal(
    (await registry.byHash(hashKey(key)))?.revoked_at,
    null,
    'no clean-up ran: the key is still active',
  );
  // A key someone made by hand is not a session key, whatever its label says.
  const handMade = await registry.create({
    env: 'live',
    project: 'local',
    admin: true,
    label: 'desktop UI session',
  });

  const second = await serveProcess(['--data-dir', dataDir], cliEnv);
  const refused = await fetch(`${second.url}/keys`, { headers: { Authorization: `Bearer ${key}` } });
  assert.equal(refused.status, 401);
  assert.equal(((await refused.json()) as { code: string }).code, 'key_revoked');
  const kept = await fetch(`${second.url}/keys`, { headers: { Authorization: `Bearer ${handMade.key}` } });
  assert.equal(kept.status, 200, 'the hand-made key still works');
  second.child.kill('SIGTERM');
  await second.exited;
});

test("starting a server never revokes a running server's session keys", async () => {
  const mine = mkdtempSync(join(tmpdir(), 'mnemo-ui-key-live-'));
  const other = mkdtempSync(join(tmpdir(), 'mnemo-ui-key-other-'));
  after(() => {
    rmSync(mine, { recursive: true, force: true });
    rmSync(other, { recursive: true, force: true });
  });
  const dbKey = 'c'.repeat(64);
  const running = await startServer({ engine: 'local', port: 0, dataDir: mine, dbKey });
  after(() => running.close());
  const key = await running.mintSessionKey('desktop app');
  const works = async () =>
    (await fetch(`${running.url}/keys`, { headers: { Authorization: `Bearer ${key}` } })).status;
  assert.equal(await works(), 200);

  // A second server on the same data dir is refused before it touches anything.
  await assert.rejects(startServer({ engine: 'local', port: 0, dataDir: mine, dbKey }), /is in use/);
  assert.equal(await works(), 200);

  // One on another data dir sharing the registry revokes only the leftovers of its own data dir.
  const beside = await startServer({
    engine: 'local',
    port: 0,
    dataDir: other,
    dbKey,
    keyRegistry: registryPathFor(mine),
  });
  await beside.close();
  assert.equal(await works(), 200);
});
