import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { reusedPgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import { testStoreKey } from '../../engine/adapters/sqlite/testing.ts';
import { cliBundleEnv } from '../../test/support/cli-env.ts';
import { jsonRpcLines, type ToolResult } from '../../test/support/json-rpc-lines.ts';
import { createMnemoClient, type MnemoApiError } from '../client/index.ts';
import { runStdioBridge } from '../mcp/stdio-bridge.ts';
import { identityProof, readServerFile, serverFilePath, type ServerFile } from '../server-file.ts';
import { startServer, type RunningServer } from '../start-server.ts';
import { localServer as syncClient } from './commands/sync.ts';
import { apiBaseFor, locateServer, provenServer, serverDiscovery, stillCurrent } from './locate-server.ts';

// The embedder's worker thread is beside the point here, and slow to load.
process.env.MNEMO_EMBEDDER = 'none';

const root = mkdtempSync(join(tmpdir(), 'mnemo-locate-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
/** A fresh owner-only dir under root. */
const privateDir = (name: string) => {
  const dir = join(root, `${name}-${(n += 1)}`);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
};

const localServer = (dataDir: string, more: { rateLimit?: number } = {}) =>
  startServer({
    engine: 'local',
    port: 0,
    rateLimit: 0,
    dataDir,
    dbKey: testStoreKey,
    configDir: join(dataDir, '..', `config-${(n += 1)}`),
    timeZone: 'UTC',
    ...more,
  });

/** What a squatter was sent: each request's method, path and headers. */
interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A plain HTTP server of another user's: it records everything, and answers every request 200 with a
 * made-up proof (or, given `answer`, whatever that says), as a squatter doing its best would.
 */
async function squatter(
  answer?: (seen: Seen) => Promise<string>,
  onPort = 0,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const s = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      seen.push(s);
      void (answer ? answer(s) : Promise.resolve(JSON.stringify({ proof: 'x'.repeat(43) }))).then((text) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(onPort, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.unref();
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/v1`, seen };
}

/** A server.json written as a forger (or a server that died) would leave it, owner-only unless told. */
function plantServerFile(dir: string, file: Partial<ServerFile>, mode = 0o600): void {
  const whole: ServerFile = {
    url: 'http://127.0.0.1:1/v1',
    pid: process.pid,
    secret: randomBytes(32).toString('base64url'),
    started_at: new Date().toISOString(),
    ...file,
  };
  writeFileSync(serverFilePath(dir), JSON.stringify(whole), { mode });
}

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/** The environment of a `mnemo` with no MNEMO_URL, looking for server.json in DATA_DIR only. */
function cliEnv(dataDir: string, more: Record<string, string>): NodeJS.ProcessEnv {
  const home = privateDir('home');
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    // The desktop app's folders: empty here, as on a machine without the app.
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'share'),
    MNEMO_DATA_DIR: dataDir,
    MNEMO_LOG: 'silent',
    ...cliBundleEnv,
    ...more,
  };
}

/** `mnemo ARGS` with no MNEMO_URL, looking for server.json in DATA_DIR (MNEMO_DATA_DIR) only. */
function mnemo(
  args: string[],
  dataDir: string,
  key: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/mnemo.mjs', ...args], {
      env: cliEnv(dataDir, { MNEMO_KEY: key }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * `mnemo mcp` itself, as an MCP host starts it (no MNEMO_URL, server.json looked for in DATA_DIR only):
 * one get_profile call for Brain BRAIN of project `home`, and its result.
 */
async function mnemoMcp(dataDir: string, key: string, brain: string): Promise<ToolResult> {
  const child = spawn(process.execPath, ['bin/mnemo.mjs', 'mcp'], {
    env: cliEnv(dataDir, { MNEMO_KEY: key, MNEMO_PROJECT: 'home', MNEMO_BRAIN: brain }),
  });
  const closed = new Promise((resolve) => child.on('close', resolve));
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const mcp = jsonRpcLines(child.stdin, child.stdout, { tries: 800, said: () => stderr });
  try {
    await mcp.initialize();
    return await mcp.call('get_profile');
  } finally {
    child.stdin.end();
    await closed;
  }
}

/** Posts a nonce to the server's /local/identity as a client does, with extra headers. */
function askIdentity(
  origin: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}/local/identity`,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a server that owns a data dir says where it listens, in server.json', () => {
  let dir: string;
  let server: RunningServer;
  before(async () => {
    dir = privateDir('data');
    server = await localServer(dir);
  });
  after(() => server.close());

  test('the file names its URL on its random port and its pid, owner-only, and goes when it stops', async () => {
    const path = serverFilePath(dir);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const file = JSON.parse(readFileSync(path, 'utf8')) as ServerFile;
    assert.equal(file.url, server.url);
    assert.notEqual(server.port, 7821);
    assert.equal(file.pid, process.pid);
    assert.match(file.secret, /^[A-Za-z0-9_-]{43}$/);
    // A second server on its own dir: stopped, its file is gone; the first one's stays.
    const other = privateDir('data');
    const second = await localServer(other);
    assert.ok(existsSync(serverFilePath(other)));
    await second.close();
    assert.equal(existsSync(serverFilePath(other)), false, 'removed on a clean stop');
    assert.ok(existsSync(path));
  });

  test('it answers a nonce with the HMAC of its secret, without a key, and nothing else', async () => {
    const { secret } = JSON.parse(readFileSync(serverFilePath(dir), 'utf8')) as ServerFile;
    const nonce = randomBytes(32).toString('base64url');
    const r = await askIdentity(server.origin, JSON.stringify({ nonce }));
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { proof: identityProof(secret, new URL(server.url).host, nonce) });
  });

  test('its identity endpoint refuses what the other routes refuse: other origins and hosts, bad bodies', async () => {
    const nonce = JSON.stringify({ nonce: randomBytes(32).toString('base64url') });
    const cross = await askIdentity(server.origin, nonce, { origin: 'https://evil.example' });
    assert.equal(cross.status, 403);
    const rebound = await askIdentity(server.origin, nonce, { host: `evil.example:${server.port}` });
    assert.equal(rebound.status, 403);
    assert.equal((await askIdentity(server.origin, JSON.stringify({ nonce: 'short' }))).status, 400);
    assert.equal((await askIdentity(server.origin, 'nonce', { 'content-type': 'text/plain' })).status, 415);
  });

  test("a flood of bad and of good identity requests leaves the owner's clients finding it", async () => {
    // A limit of 5 a minute: were the endpoint counted against a bucket any caller can fill, the
    // stranger's first few requests would leave the owner answered 429.
    const dataDir = privateDir('flooded');
    const limited = await localServer(dataDir, { rateLimit: 5 });
    try {
      const junk = () => askIdentity(limited.origin, 'x', { 'content-type': 'text/plain' });
      const good = () =>
        askIdentity(limited.origin, JSON.stringify({ nonce: randomBytes(32).toString('base64url') }));
      const statuses = new Set<number>();
      for (let i = 0; i < 4; i += 1)
        for (const r of await Promise.all([
          ...Array.from({ length: 10 }, junk),
          ...Array.from({ length: 10 }, good),
        ]))
          statuses.add(r.status);
      assert.deepEqual([...statuses].sort(), [200, 415]);
      const found = await locateServer({ dirs: [dataDir] });
      assert.ok('url' in found, 'problem' in found ? found.problem : '');
      assert.equal(found.url, limited.url);
    } finally {
      await limited.close();
    }
  });

  test('a client given no URL finds it through server.json, and it proves itself', async () => {
    const found = await locateServer({ dirs: [privateDir('empty'), dir] });
    assert.ok('url' in found, 'problem' in found ? found.problem : '');
    assert.equal(found.url, server.url);
    assert.equal(stillCurrent(found), true);
  });

  test('mnemo export with no MNEMO_URL reaches it on its random port', async () => {
    const key = (await server.registry!.create({ env: 'test', project: 'home' })).key;
    await createMnemoClient({ baseUrl: server.url, apiKey: key }).createBrain({ id: 'ana' });
    const r = await mnemo(['export', '--brain', 'ana'], dir, key);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /"object":"mnemo_export"/);
  });

  // Each command finds the server by its own lookup: one that went back to 7821 blindly fails here.
  test('mnemo import --list with no MNEMO_URL reaches it on its random port', async () => {
    const key = (await server.registry!.create({ env: 'test', project: 'home' })).key;
    await createMnemoClient({ baseUrl: server.url, apiKey: key }).createBrain({ id: 'listed' });
    const r = await mnemo(['import', '--list', '--brain', 'listed'], dir, key);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /brain "listed" has no sources/);
  });

  test('mnemo sync status with no MNEMO_URL reaches it on its random port', async () => {
    const key = (await server.registry!.create({ env: 'test', project: 'home' })).key;
    await createMnemoClient({ baseUrl: server.url, apiKey: key }).createBrain({ id: 'synced' });
    const r = await mnemo(['sync', 'status', '--brain', 'synced', '--json'], dir, key);
    assert.equal(r.status, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { paired: boolean }).paired, false);
  });

  test('mnemo mcp with no MNEMO_URL reaches it on its random port, and its calls work', async () => {
    const key = (await server.registry!.create({ env: 'test', project: 'home' })).key;
    await createMnemoClient({ baseUrl: server.url, apiKey: key }).createBrain({ id: 'bridged' });
    const result = await mnemoMcp(dir, key, 'bridged');
    assert.equal(result.isError, undefined, result.content[0]?.text);
  });

  test("what the bridge refuses itself links the found server's error pages, not 7821's", async () => {
    const key = (await server.registry!.create({ env: 'test', project: 'home' })).key;
    const api = createMnemoClient({ baseUrl: server.url, apiKey: key });
    await api.createBrain({ id: 'me' });
    const { record } = await api.rememberRecord('me', {
      content: { kind: 'message', text: 'Written by another app.', speaker: 'user' },
      source: { name: 'notes-app' },
    });
    const bridge = bridgeSession(
      { defaultUrl: 'http://127.0.0.1:7821/v1', discovery: serverDiscovery({ dirs: [dir] }) },
      key,
    );
    try {
      const refused = await bridge.call('forget_record', { record_id: record.id });
      assert.equal(refused.isError, true);
      assert.equal(refused.structuredContent?.['code'], 'record_not_erasable');
      assert.equal(
        refused.structuredContent?.['docs_url'],
        `${server.origin}/docs/errors/record_not_erasable`,
      );
    } finally {
      await bridge.close();
    }
  });

  test("a bad first call, before any reached the server, links the found server's error pages", async () => {
    const key = (await server.registry!.create({ env: 'test', project: 'home' })).key;
    const bridge = bridgeSession(
      { defaultUrl: 'http://127.0.0.1:7821/v1', discovery: serverDiscovery({ dirs: [dir] }) },
      key,
    );
    try {
      const refused = await bridge.call('remember', {});
      assert.equal(refused.isError, true);
      assert.equal(refused.structuredContent?.['code'], 'invalid_request_body');
      assert.equal(
        refused.structuredContent?.['docs_url'],
        `${server.origin}/docs/errors/invalid_request_body`,
      );
    } finally {
      await bridge.close();
    }
  });

  // The desktop app and mnemo serve both running: the one found refuses a key of the other one's.
  test('a key it refuses: the command says which server.json chose it, and that MNEMO_URL picks another', async () => {
    const others = `sk_test_home_${'o'.repeat(32)}`;
    const r = await mnemo(['export', '--brain', 'ana'], dir, others);
    assert.equal(r.status, 1);
    const names = `which ${serverFilePath(dir)} names`;
    assert.ok(r.stderr.includes(`the key went to the Mnemo at ${server.url}, ${names}`), r.stderr);
    assert.match(r.stderr, /set MNEMO_URL to that one's address/);
    const bridged = await bridgeCall(
      { defaultUrl: 'http://127.0.0.1:1/v1', discovery: serverDiscovery({ dirs: [dir] }) },
      others,
    );
    assert.equal(bridged.isError, true);
    assert.ok(bridged.content[0]!.text.includes(names), bridged.content[0]!.text);
  });
});

describe('a client given no URL sends its key to no server that cannot prove itself', () => {
  const key = `sk_test_home_${'k'.repeat(32)}`;

  test('a forged server.json naming a squatter: it gets no key, and the command says why', async () => {
    const { url, seen } = await squatter();
    const dir = privateDir('forged');
    plantServerFile(dir, { url });
    const r = await mnemo(['export', '--brain', 'ana'], dir, key);
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      new RegExp(
        `^mnemo export: the server at ${url}, which .*server\\.json names, did not prove it wrote that file`,
      ),
    );
    assert.match(r.stderr, /set MNEMO_URL to the address of a server you trust/);
    assert.deepEqual(
      seen.map((s) => `${s.method} ${s.path}`),
      ['POST /local/identity'],
      'it was only asked to prove itself',
    );
    assert.ok(seen.every((s) => s.headers.authorization === undefined && !s.body.includes(key)));
  });

  test('a squatter that passes the nonce on to the real server gets no key: the proof names the port', async () => {
    const realDir = privateDir('real');
    const real = await localServer(realDir);
    after(() => real.close());
    const { secret } = JSON.parse(readFileSync(serverFilePath(realDir), 'utf8')) as ServerFile;
    // The relay asks the real server as the real server's client, and hands its answer back.
    const relay = await squatter(async (s) => JSON.stringify((await askIdentity(real.origin, s.body)).json));
    const dir = privateDir('relayed');
    // Even with the real secret in its file (the worst case), the answer is for the real server's Host.
    plantServerFile(dir, { url: relay.url, secret });
    const found = await locateServer({ dirs: [dir] });
    assert.ok('problem' in found);
    assert.match(found.problem, /did not prove it wrote that file \(its answer is not the proof\)/);
    assert.ok(relay.seen.every((s) => s.headers.authorization === undefined));
  });

  test('a stale server.json (its server gone) is passed over: nothing is sent to the port it names', async () => {
    const { url, seen } = await squatter();
    const dir = privateDir('stale');
    plantServerFile(dir, { url, pid: await deadPid() });
    const found = await locateServer({ dirs: [dir] });
    assert.ok('problem' in found);
    assert.match(
      found.problem,
      /^no running Mnemo server of yours was found: none has written a server\.json in /,
    );
    assert.match(found.problem, /Nothing was sent, not to http:\/\/127\.0\.0\.1:7821\/v1 either/);
    assert.equal(seen.length, 0);
  });

  test('a server.json other users could read is not trusted, and its server is not asked', async () => {
    const { url, seen } = await squatter();
    const dir = privateDir('open');
    plantServerFile(dir, { url }, 0o644);
    const found = await locateServer({ dirs: [dir] });
    assert.ok('problem' in found);
    assert.match(found.problem, /server\.json is not used: other users can read or change it \(mode 0644\)/);
    assert.equal(seen.length, 0);
  });

  test(
    'a server.json that is a FIFO or a dir is refused at once: the open does not wait for a writer',
    {
      skip: process.platform === 'win32',
    },
    async () => {
      const fifoDir = privateDir('fifo');
      execFileSync('mkfifo', ['-m', '600', serverFilePath(fifoDir)]);
      const dirDir = privateDir('dir');
      mkdirSync(serverFilePath(dirDir), { mode: 0o700 });
      for (const dir of [fifoDir, dirDir])
        assert.deepEqual(readServerFile(dir), {
          kind: 'untrusted',
          path: serverFilePath(dir),
          why: 'it is not a regular file',
        });
    },
  );

  test('a data dir given as a symlink: its own server is found through the link, and proves itself', async () => {
    const real = privateDir('real-dir');
    const link = join(root, `link-${(n += 1)}`);
    symlinkSync(real, link);
    const server = await localServer(link);
    try {
      assert.equal(readServerFile(link).kind, 'found');
      const found = await locateServer({ dirs: [link] });
      assert.ok('url' in found, 'problem' in found ? found.problem : '');
      assert.equal(found.url, server.url);
      assert.equal(stillCurrent(found), true);
    } finally {
      await server.close();
    }
  });

  test('a server.json that is itself a symlink is not trusted, and its server is not asked', async () => {
    const { url, seen } = await squatter();
    const elsewhere = privateDir('elsewhere');
    plantServerFile(elsewhere, { url });
    const dir = privateDir('linked-file');
    symlinkSync(serverFilePath(elsewhere), serverFilePath(dir));
    const found = await locateServer({ dirs: [dir] });
    assert.ok('problem' in found);
    assert.match(found.problem, /server\.json is not used: it is not a regular file/);
    assert.equal(seen.length, 0);
  });

  test('the stdio bridge with no MNEMO_URL sends nothing to the address it once defaulted to', async () => {
    // The old default, here a squatter's port: the bridge sent every call there with the key.
    const fallback = await squatter();
    const result = await bridgeCall({
      defaultUrl: fallback.url,
      discovery: serverDiscovery({ dirs: [privateDir('none')] }),
    });
    assert.equal(result.isError, true);
    assert.match(
      result.content[0]!.text,
      /^network_error \(no HTTP answer\): no running Mnemo server of yours/,
    );
    assert.equal(fallback.seen.length, 0);
  });

  test('the stdio bridge with no MNEMO_URL finds a server that proves itself, and its calls work', async () => {
    const dir = privateDir('bridge');
    const real = await localServer(dir);
    after(() => real.close());
    const key = (await real.registry!.create({ env: 'test', project: 'home' })).key;
    await createMnemoClient({ baseUrl: real.url, apiKey: key }).createBrain({ id: 'me' });
    const fallback = await squatter();
    const result = await bridgeCall(
      {
        defaultUrl: fallback.url,
        discovery: serverDiscovery({ dirs: [dir] }),
      },
      key,
    );
    assert.equal(result.isError, undefined, result.content[0]?.text);
    assert.equal(fallback.seen.length, 0);
  });
});

describe('a bridge that found its server proves it again before it sends the key', () => {
  test('its server crashed, its file stayed with a pid that runs, a squatter took the port: no key goes there', async () => {
    const dir = privateDir('crashed');
    const real = await localServer(dir);
    const key = (await real.registry!.create({ env: 'test', project: 'home' })).key;
    await createMnemoClient({ baseUrl: real.url, apiKey: key }).createBrain({ id: 'me' });
    const bridge = bridgeSession(
      { defaultUrl: 'http://127.0.0.1:1/v1', discovery: serverDiscovery({ dirs: [dir], reproveAfter: 0 }) },
      key,
    );
    try {
      assert.equal((await bridge.getProfile()).isError, undefined);
      // As a crash leaves it: the file as it was, its pid (this process) still running.
      const file = readFileSync(serverFilePath(dir), 'utf8');
      await real.close();
      writeFileSync(serverFilePath(dir), file, { mode: 0o600 });
      const squat = await squatter(undefined, real.port);
      const second = await bridge.getProfile();
      assert.equal(second.isError, true);
      assert.match(second.content[0]!.text, /did not prove it wrote that file/);
      assert.ok(squat.seen.length > 0, 'the squatter was asked to prove itself');
      assert.deepEqual(
        [...new Set(squat.seen.map((s) => `${s.method} ${s.path}`))],
        ['POST /local/identity'],
      );
      assert.ok(squat.seen.every((s) => s.headers.authorization === undefined && !s.body.includes(key)));
    } finally {
      await bridge.close();
    }
  });
});

describe('export, import and sync check their server again before each request', () => {
  /** A server of DIR's with a Brain `me`, and a key of project `home`. */
  async function serving(name: string) {
    const dir = privateDir(name);
    const real = await localServer(dir);
    after(() => real.close());
    const key = (await real.registry!.create({ env: 'test', project: 'home' })).key;
    await createMnemoClient({ baseUrl: real.url, apiKey: key }).createBrain({ id: 'me' });
    return { dir, real, key };
  }

  /** The client's next request after its server went: refused before it was sent. */
  async function refusedUnsent(call: Promise<unknown>, why: RegExp) {
    await assert.rejects(call, (e: MnemoApiError) => {
      assert.equal(e.code, 'network_error');
      assert.equal(e.body.reached_server, false);
      assert.match(e.message, why);
      assert.match(e.message, /Nothing was sent/);
      return true;
    });
  }

  test('export and import: the server stopped, a squatter took its port: the next request carries no key', async () => {
    const { dir, real, key } = await serving('stopped');
    const server = await apiBaseFor('export', undefined, { dirs: [dir] });
    assert.ok(server);
    const client = createMnemoClient({ ...server, apiKey: key });
    assert.deepEqual(
      (await client.listBrains()).data.map((b) => b.id),
      ['me'],
    );
    await real.close();
    assert.equal(existsSync(serverFilePath(dir)), false);
    const squat = await squatter(undefined, real.port);
    await refusedUnsent(client.listBrains(), /has stopped or restarted since it was found/);
    assert.deepEqual(squat.seen, []);
  });

  test('sync: the server stopped, a squatter took its port: the next request carries no key', async () => {
    const { dir, real, key } = await serving('sync-stopped');
    const client = await syncClient({ brain: 'me' }, { dirs: [dir], env: { MNEMO_KEY: key } });
    assert.ok(client);
    assert.equal((await client.getSync('me')).paired, false);
    await real.close();
    const squat = await squatter(undefined, real.port);
    await refusedUnsent(client.getSync('me'), /has stopped or restarted since it was found/);
    assert.deepEqual(squat.seen, []);
  });

  test('its server crashed, its file stayed with a pid that runs, a squatter took the port: it is asked for a proof, not sent the key', async () => {
    const { dir, real, key } = await serving('client-crashed');
    const server = await apiBaseFor('import', undefined, { dirs: [dir], reproveAfter: 0 });
    assert.ok(server);
    const client = createMnemoClient({ ...server, apiKey: key });
    await client.listBrains();
    const file = readFileSync(serverFilePath(dir), 'utf8');
    await real.close();
    writeFileSync(serverFilePath(dir), file, { mode: 0o600 });
    const squat = await squatter(undefined, real.port);
    await refusedUnsent(client.listBrains(), /did not prove it wrote that file again/);
    // Perhaps asked twice (the client may retry a failed request), but only ever for a proof.
    assert.ok(squat.seen.length > 0, 'the squatter was asked to prove itself');
    assert.deepEqual([...new Set(squat.seen.map((s) => `${s.method} ${s.path}`))], ['POST /local/identity']);
    assert.ok(squat.seen.every((s) => s.headers.authorization === undefined && !s.body.includes(key)));
  });

  test('a proof holds 5 s by the monotonic clock: none within it, one shared by checks at once, a wall clock stepped back changes nothing', async () => {
    const { dir } = await serving('window');
    const found = await locateServer({ dirs: [dir] });
    assert.ok('url' in found);
    let proofs = 0;
    const counting: typeof fetch = (input, init) => {
      proofs += 1;
      return fetch(input, init);
    };
    const held = provenServer(found, { fetch: counting });
    assert.deepEqual(await Promise.all([held.check(), held.check(), held.check()]), [null, null, null]);
    assert.equal(proofs, 0, 'the default window (5 s) holds the proof locateServer just took');

    const always = provenServer(found, { fetch: counting, reproveAfter: 0 });
    assert.deepEqual(await Promise.all([always.check(), always.check()]), [null, null]);
    assert.equal(proofs, 1, 'checks at once share one proof');

    const short = provenServer(found, { fetch: counting, reproveAfter: 30 });
    const realNow = Date.now;
    const stepped = realNow() - 3_600_000;
    Date.now = () => stepped;
    try {
      await new Promise((r) => setTimeout(r, 60));
      assert.equal(await short.check(), null);
    } finally {
      Date.now = realNow;
    }
    assert.equal(proofs, 2, 'the wall clock stepped back an hour: the proof is still 60 ms old');
  });
});

describe('servers without a data dir write nothing', () => {
  test('postgres (hosted): no server.json even with --data-dir, and no identity endpoint', async () => {
    const database = await reusedPgliteDatabases({ vector: true, migrated: true });
    const dir = privateDir('pg');
    const server = await startServer({
      engine: 'postgres',
      port: 0,
      rateLimit: 0,
      dataDir: dir,
      openDatabase: async (kept) => postgresStorageOver(await database(), kept),
    });
    try {
      assert.equal(existsSync(serverFilePath(dir)), false);
      const r = await askIdentity(
        server.origin,
        JSON.stringify({ nonce: randomBytes(32).toString('base64url') }),
      );
      assert.equal(r.status, 404);
    } finally {
      await server.close();
    }
  });
});

/** One get_profile call through the stdio bridge, for Brain `me` of project `home`, with no MNEMO_URL. */
async function bridgeCall(
  o: Pick<Parameters<typeof runStdioBridge>[0], 'defaultUrl' | 'discovery'>,
  key = `sk_test_home_${'k'.repeat(32)}`,
): Promise<ToolResult> {
  const bridge = bridgeSession(o, key);
  try {
    return await bridge.getProfile();
  } finally {
    await bridge.close();
  }
}

/** A stdio bridge for Brain `me` of project `home`, with no MNEMO_URL: tool calls, one by one. */
function bridgeSession(
  o: Pick<Parameters<typeof runStdioBridge>[0], 'defaultUrl' | 'discovery'>,
  key: string,
): {
  getProfile(): Promise<ToolResult>;
  call(name: string, args: object): Promise<ToolResult>;
  close(): Promise<void>;
} {
  const input = new PassThrough();
  const output = new PassThrough();
  const running = runStdioBridge({
    env: { MNEMO_PROJECT: 'home', MNEMO_BRAIN: 'me', MNEMO_KEY: key },
    input,
    output,
    log: () => {},
    ...o,
  });
  const mcp = jsonRpcLines(input, output);
  const initialized = mcp.initialize();
  return {
    getProfile: async () => {
      await initialized;
      return mcp.call('get_profile');
    },
    call: async (name, args) => {
      await initialized;
      return mcp.call(name, args);
    },
    close: async () => {
      input.end();
      await running;
    },
  };
}
