import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Memory, MnemoRecord, RecordCreate, SyncStatus } from '../../engine/contract/index.ts';
import { openDatabase } from '../../engine/adapters/sqlite/open-database.ts';
import { testStoreKey as dbKey } from '../../engine/adapters/sqlite/testing.ts';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { startServer, type RunningServer, type ServerOptions } from '../../server/start-server.ts';

/** One Mnemo server of a sync test: its own data dir, restartable on the same dir and port. */
export interface Node {
  name: string;
  dataDir: string;
  server: RunningServer;
  key: string;
  client: MnemoClient;
  /** Stops it and starts it again on the same data dir and port; `change`, with those options changed. */
  restart(change?: Pick<NodeOptions, 'deriver'>): Promise<void>;
  stop(): Promise<void>;
}

export function tempRoot(prefix = 'mnemo-sync-'): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** How a node of a sync test differs from a local server on SQLite with the engine's own rules. */
export interface NodeOptions {
  deployment?: 'local' | 'hosted';
  sync?: ServerOptions['sync'];
  log?: ServerOptions['log'];
  /** Other rules than the engine's (a side whose deriver is older or newer than the others'). */
  deriver?: ServerOptions['deriver'];
  /** A server of the PostgreSQL engine on this database (PGlite in tests), not the local engine. */
  openDatabase?: ServerOptions['openDatabase'];
}

/**
 * The hub engines a sync test runs against in turn, each hosted: SQLite, and PostgreSQL on PGlite (a
 * database at the current schema per server). PGlite is loaded only by the tests that call this.
 */
export async function hostedHubs(): Promise<ReadonlyArray<[string, NodeOptions]>> {
  const [{ pgliteDatabases }, { postgresStorageOver }] = await Promise.all([
    import('../../engine/adapters/postgres/testing/pglite.ts'),
    import('../../engine/adapters/postgres/storage.ts'),
  ]);
  const database = await pgliteDatabases({ migrated: true });
  return [
    ['SQLite', { deployment: 'hosted' }],
    [
      'PostgreSQL (PGlite)',
      { deployment: 'hosted', openDatabase: async (o) => postgresStorageOver(await database(), o) },
    ],
  ];
}

/**
 * Starts `mnemo serve` in-process on its own data dir (hosted or local), with an admin key of project
 * `home`, env `test`. Background sync timing is slowed down so only the test decides when a run happens, unless
 * `sync` says otherwise. `log` receives the server's log lines (default: none kept).
 */
export async function startNode(root: string, name: string, o: NodeOptions = {}): Promise<Node> {
  const dataDir = join(root, name);
  const keyFile = join(root, `${name}.key`);
  writeFileSync(keyFile, `${dbKey}-${name}\n`, { mode: 0o600 });
  let port = 0;
  let deriver = o.deriver;
  const start = () =>
    startServer({
      engine: o.openDatabase ? 'postgres' : 'local',
      ...(o.openDatabase ? { openDatabase: o.openDatabase } : {}),
      ...(deriver ? { deriver } : {}),
      deployment: o.deployment ?? 'local',
      port,
      rateLimit: 0,
      dataDir,
      dbKeyFile: keyFile,
      configDir: join(root, `${name}-config`),
      sync: o.sync ?? { debounceMs: 3_600_000, intervalMs: 3_600_000 },
      shutdownGraceMs: 2_000,
      ...(o.log ? { log: o.log } : {}),
    });
  const server = await start();
  port = server.port;
  // Admin: the device's client pairs, which takes the person's key (handlers.ts, pairSync). As a hub's
  // key, handed to devices as their remote key, admin changes nothing.
  const key = (await server.registry!.create({ env: 'test', project: 'home', admin: true })).key;
  const node: Node = {
    name,
    dataDir,
    server,
    key,
    // A restart closes the kept-alive connections of the client: a call on one is tried once more.
    client: createMnemoClient({
      baseUrl: server.url,
      apiKey: key,
      retry: { maxInternalRetries: 1, maxRateLimitRetries: 0, baseDelayMs: 10 },
    }),
    async restart(change) {
      await node.server.close();
      if (change && 'deriver' in change) deriver = change.deriver;
      node.server = await start();
    },
    stop: () => node.server.close(),
  };
  return node;
}

/**
 * Starts `server` on a free port of a loopback address (`host`): its `/v1` base URL, and a close that
 * ends its sockets too.
 */
export async function onLoopback(
  server: Server,
  host = '127.0.0.1',
): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A hosted hub and two devices, each a server of its own, and a recording proxy in front of the hub. */
export interface HubAndDevices {
  /** The dir holding their data dirs (storeText reads a stopped one's store there). */
  root: string;
  h: Node;
  a: Node;
  b: Node;
  proxy: Awaited<ReturnType<typeof recordingProxy>>;
  /** Stops the proxy and the three servers, and removes their data dirs. */
  stop(): Promise<void>;
}

/** A hub and two devices; `o` gives any of them other rules or another engine. */
export async function hubAndTwoDevices(
  o: { h?: NodeOptions; a?: NodeOptions; b?: NodeOptions } = {},
): Promise<HubAndDevices> {
  const { root, remove } = tempRoot();
  const [h, a, b] = await Promise.all([
    startNode(root, 'h', { ...o.h, deployment: 'hosted' }),
    startNode(root, 'a', o.a),
    startNode(root, 'b', o.b),
  ]);
  const proxy = await recordingProxy(() => h.server.url);
  return {
    root,
    h,
    a,
    b,
    proxy,
    stop: async () => {
      await proxy.close();
      await Promise.all([h, a, b].map((n) => n.stop().catch(() => {})));
      remove();
    },
  };
}

/** Brain "ana" (its self Ana Lima) on both devices, each paired with the hub through the proxy. */
export async function pairAnaOnBoth(nodes: HubAndDevices): Promise<void> {
  for (const n of [nodes.a, nodes.b]) {
    await n.client.createBrain({ id: 'ana', self: { type: 'person', name: 'Ana Lima' } });
    await n.client.pairSync('ana', { remote: nodes.proxy.url, remote_key: nodes.h.key });
  }
}

/** Writes `body` to Brain `brain` of node `n`: the Record stored. */
export const writeTo = async (n: Node, brain: string, body: RecordCreate): Promise<MnemoRecord> =>
  (await n.client.rememberRecord(brain, body)).record;

/** A sync run of Brain `brain` on node `n`, which must end without an error. */
export async function syncOk(n: Node, brain: string): Promise<SyncStatus> {
  const s = await n.client.runSync(brain);
  assert.equal(s.last_error, null, `${n.name}: ${s.last_error}`);
  return s;
}

/** A sync run of Brain "ana" on `n` (syncOk), and what it pulled derived there. */
async function syncAna(n: Node): Promise<SyncStatus> {
  const s = await syncOk(n, 'ana');
  await n.server.engine.idle();
  return s;
}

/** Every device, in turn, twice: what one side wrote to Ana has reached and been derived by the others. */
export async function convergeAna({ h, a, b }: HubAndDevices): Promise<void> {
  for (const n of [a, b, a, b]) await syncAna(n);
  await h.server.engine.idle();
}

/** Ana's Memories in force on `n` whose statement says `what`. */
export const anaSaying = async (n: Node, what: string): Promise<Memory[]> =>
  (await n.client.listMemories('ana', { limit: 100 })).data.filter((m) => m.statement.includes(what));

/** anaSaying's statements, sorted. */
export const anaCurrent = async (n: Node, what: string): Promise<string[]> =>
  (await anaSaying(n, what)).map((m) => m.statement).sort();

/**
 * A loopback proxy in front of a server that keeps every request body that passed through it, so a
 * test can show what reached the hosted server, byte for byte.
 */
export async function recordingProxy(target: () => string): Promise<{
  url: string;
  bodies: string[];
  /** Every request's method and path (with its query), in the order they came. */
  requests: string[];
  down: boolean;
  /** When set, the proxy goes down (`down`) once a device's pairing check has gone through it. */
  downAfterCheck: boolean;
  /** Requests refused while down. */
  refused: number;
  /**
   * While set, requests whose path matches wait for `until` before they go on (`held` counts them); the
   * check before a pairing is never held.
   */
  hold: { path: RegExp; until: Promise<void>; held: number } | null;
  close: () => Promise<void>;
}> {
  const state = {
    url: '',
    bodies: [] as string[],
    requests: [] as string[],
    down: false,
    downAfterCheck: false,
    refused: 0,
    hold: null as { path: RegExp; until: Promise<void>; held: number } | null,
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.down) {
        state.refused += 1;
        req.socket.destroy();
        return;
      }
      const body = Buffer.concat(chunks);
      state.bodies.push(body.toString('utf8'));
      state.requests.push(`${req.method} ${req.url}`);
      const check = endsPairingCheck(req.method ?? '', req.url ?? '', body.toString('utf8'));
      if (state.downAfterCheck && check) {
        state.downAfterCheck = false;
        state.down = true;
      }
      // A run's requests are held, not a pairing's check.
      const hold = state.hold;
      if (hold && hold.path.test(req.url ?? '') && !check) {
        hold.held += 1;
        void hold.until.then(() => forward(body));
      } else forward(body);
    });
    const forward = (body: Buffer) => forwardTo(target(), req, res, body);
  });
  Object.assign(state, await onLoopback(server));
  return state;
}

/**
 * Every text value of every table of a stopped server's store, decrypted with its key: what the hosted
 * server holds, whatever table it ended up in.
 */
export function storeText(root: string, name: string): string {
  const db = openDatabase({ file: join(root, name, 'mnemo.db'), key: `${dbKey}-${name}` });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string }[];
    const parts: string[] = [];
    for (const { name: table } of tables) {
      let rows: unknown[];
      try {
        rows = db.prepare(`SELECT * FROM "${table}"`).all();
      } catch {
        continue; // virtual tables whose module this connection lacks
      }
      parts.push(JSON.stringify(rows, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('latin1') : v)));
    }
    return parts.join('\n');
  } finally {
    db.close();
  }
}

/** Changes a stopped server's store with its key, as an earlier version of Mnemo would have left it. */
export function editStore(
  root: string,
  name: string,
  edit: (db: ReturnType<typeof openDatabase>) => void,
): void {
  const db = openDatabase({ file: join(root, name, 'mnemo.db'), key: `${dbKey}-${name}` });
  try {
    edit(db);
  } finally {
    db.close();
  }
}

/** The raw bytes of every file of a data dir, as latin1 text (encrypted: a canary must not be there either). */
export function rawFiles(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1'))
    .join('\n');
}

/** Every Record of a Brain, through the paged list. */
export async function allRecords(client: MnemoClient, brain: string): Promise<MnemoRecord[]> {
  const out: MnemoRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listRecords(brain, { limit: 200, ...(cursor ? { cursor } : {}) });
    out.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return out;
}

/** One request a fake remote received. */
export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  at: number;
  /** Answered as part of a device's check before it paired (afterCheck): no run's request. */
  check?: boolean;
}

export type Answer = (seen: Seen, res: ServerResponse) => void;

const sendJson = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** A remote's 200 answer of `body` as JSON. */
export const json = (res: ServerResponse, body: unknown) => sendJson(res, 200, body);

/**
 * Page n of a hub's change feed read from `since_watermark=wm_<n>` on (n = 0 from the start): one
 * message of its own, as a Mnemo fills a page before it says `has_more`, and the watermark
 * `wm_<n + 1>`. (A removal would do too, but the device sends the tombstone it writes back to the hub
 * on its next run, which then counts as progress.)
 */
export function feedPage(since: string | null, hasMore: boolean): Record<string, unknown> {
  const n = Number(/^wm_(\d+)$/.exec(since ?? '')?.[1] ?? 0);
  return {
    data: [
      {
        id: `rec_01JFEED${String(n).padStart(18, '0')}`,
        object: 'record',
        content: { kind: 'message', text: `Page ${n} of the hub's feed.` },
        source: {},
        visibility: 'shareable',
        occurred_at: '2026-01-01T00:00:00.000Z',
      },
    ],
    has_more: hasMore,
    next_cursor: null,
    watermark: `wm_${n + 1}`,
    removed: [],
  };
}

/** A run, or a clear failure instead of a test that waits for a request's own limits. */
export const within = <T>(what: string, ms: number, p: Promise<T>): Promise<T> =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => {
      const t = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
      t.unref();
    }),
  ]);

/**
 * What a well-behaved hub answers a device's run: its Brain exists (with no self: it takes the one a
 * device gives it), every Record pushed is `created`, tombstones are taken, and its change feed is empty.
 */
export const hubAnswer: Answer = (seen, res) => {
  const brain = { object: 'brain', id: seen.path.split('/').pop(), self: null };
  if (seen.method === 'GET' && /^\/v1\/brains\/[^/]+$/.test(seen.path)) return sendJson(res, 200, brain);
  if (seen.method === 'POST' && /^\/v1\/brains\/[^/]+$/.test(seen.path))
    return sendJson(res, 200, { ...brain, ...(JSON.parse(seen.body) as object) });
  if (seen.method === 'POST' && seen.path.endsWith('/sync/records')) {
    const { records } = JSON.parse(seen.body) as { records: { id: string }[] };
    return sendJson(res, 200, {
      object: 'replication',
      data: records.map((r) => ({ id: r.id, outcome: 'created' })),
      watermark: 'wm_pushed',
    });
  }
  if (seen.method === 'POST' && seen.path.endsWith('/sync/tombstones'))
    return sendJson(res, 200, { object: 'tombstones', forgotten: 0, watermark: 'wm_forgot' });
  if (seen.method === 'GET' && seen.path.endsWith('/records'))
    return sendJson(res, 200, {
      data: [],
      has_more: false,
      next_cursor: null,
      watermark: 'wm_0',
      removed: [],
    });
  sendJson(res, 404, { type: 'not_found', code: 'not_found', message: 'no such route here' });
};

/**
 * The last request of the check a device makes before it pairs (server/sync/check-remote.ts): a push
 * of no Records, which no run sends.
 */
export const endsPairingCheck = (method: string, path: string, body: string) =>
  method === 'POST' && /\/sync\/records(\?|$)/.test(path) && body === '{"records":[]}';

/**
 * A remote that works while a device checks it before pairing (its requests marked `check`), and
 * answers as `answer` afterwards: a remote that breaks after the pairing, which the check cannot
 * foresee.
 */
export function afterCheck(answer: Answer): Answer {
  let checked = false;
  return (seen, res) => {
    if (checked) return answer(seen, res);
    seen.check = true;
    if (endsPairingCheck(seen.method, seen.path, seen.body)) checked = true;
    hubAnswer(seen, res);
  };
}

/**
 * A remote on loopback that answers as `answer` says (default: hubAnswer), per Brain when `byBrain`
 * names it, and keeps every request it received. close() cuts whatever it still holds open.
 */
export async function fakeRemote(): Promise<{
  url: string;
  seen: Seen[];
  answer: Answer;
  byBrain: Map<string, Answer>;
  close: () => Promise<void>;
}> {
  const state = {
    url: '',
    seen: [] as Seen[],
    answer: hubAnswer,
    byBrain: new Map<string, Answer>(),
    close: async () => {},
  };
  const server: Server = createServer(
    heard((seen, res) => {
      state.seen.push(seen);
      const brain = /^\/v1\/brains\/([^/]+)/.exec(seen.path)?.[1];
      (state.byBrain.get(brain ?? '') ?? state.answer)(seen, res);
    }),
  );
  Object.assign(state, await onLoopback(server));
  return state;
}

/** A request listener that reads each request whole, then hands what was sent to `answer`. */
export function heard(answer: Answer): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://remote');
      answer(
        {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        },
        res,
      );
    });
  };
}

/** Whose each Memory in force on `n` is whose statement says `word`. */
export async function owners(n: Node, brain: string, word: string): Promise<string[]> {
  const page = await n.client.listMemories(brain, { limit: 200 });
  return page.data
    .filter((m: Memory) => m.statement.includes(word))
    .map((m) => (m.owner.state === 'unresolved' ? 'unresolved' : `${m.owner.state}: ${m.owner.entity}`));
}

/** Sends a request read whole (`body`) on to `target` as it came, and its answer back as it comes. */
export function forwardTo(target: string, req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const t = new URL(target);
  const headers = { ...req.headers, host: t.host };
  const out = request(
    { host: t.hostname, port: t.port, path: req.url, method: req.method, headers },
    (upstream) => {
      res.writeHead(upstream.statusCode ?? 502, upstream.headers);
      upstream.pipe(res);
    },
  );
  out.on('error', () => res.destroy());
  out.end(body);
}
