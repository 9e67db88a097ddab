import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectPostgres, type PgClient } from '../client.ts';
import { freePort } from '../../../../test/support/free-port.ts';

/**
 * Names a cluster started once for a whole test run (`npm test` does, see scripts/test.mjs): its URL
 * without a database, as `postgres://postgres@127.0.0.1:PORT`. A test file then makes its databases
 * there instead of paying for an initdb and a server start of its own; without it, each file starts one.
 */
export const sharedClusterEnv = 'MNEMO_TEST_POSTGRES';

/** A throw-away PostgreSQL cluster for tests: databases of the file's own, dropped by `stop`. */
export interface TestCluster {
  /**
   * The URL of a database of its own, created empty; `icuLocale` makes that ICU locale its default
   * collation (a text order that is not bytewise, as many servers have, for tests of COLLATE "C").
   */
  freshDatabase(options?: { icuLocale?: string }): Promise<string>;
  /**
   * The cluster's data directory (a test reads its files: what a forget leaves on disk). Only of a
   * cluster started with `own`: the shared one's files are other test files' too, written meanwhile.
   */
  readonly dataDir: string;
  /** A pool on a URL, closed by `stop`. */
  connect(url: string, max?: number): PgClient;
  stop(): Promise<void>;
}

/** A running server: its URL without a database, and how to stop it (a command, so plain JS can too). */
export interface StartedServer {
  base: string;
  dataDir: string;
  /** The temp dir holding the data dir and socket, removed after `stopCommand`. */
  dir: string;
  stopCommand: [string, string[]];
}

/** Where initdb and pg_ctl are: on PATH, else Debian's newest /usr/lib/postgresql/<n>/bin. */
function binDir(): string | null {
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const onPath = which.status === 0 ? which.stdout.trim() : '';
  if (onPath) return join(onPath, '..');
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return null;
  const versions = readdirSync(debian)
    .filter((v) => existsSync(join(debian, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(debian, versions[0], 'bin') : null;
}

/**
 * Starts a server in a temp dir of its own, or says why it cannot (`skip`): no PostgreSQL binaries, or
 * root without a `postgres` user (initdb refuses to run as root, so root runs it as `postgres` through
 * runuser).
 */
export async function startServer(): Promise<{ server: StartedServer } | { skip: string }> {
  const bin = binDir();
  if (!bin) return { skip: 'PostgreSQL is not installed (no initdb): apt-get install postgresql' };
  const root = process.getuid?.() === 0;
  let owner: { uid: number; gid: number } | null = null;
  if (root) {
    const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (id.status !== 0) return { skip: 'running as root and there is no postgres user to run initdb as' };
    owner = { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const as = (cmd: string, args: string[]): [string, string[]] =>
    root ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = as(cmd, args);
    execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
  };
  const port = await freePort();
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    server: {
      base: `postgres://postgres@127.0.0.1:${port}`,
      dataDir: data,
      dir,
      stopCommand: as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    },
  };
}

/** Stops a server `startServer` started and removes its files. */
export function stopServer(server: Pick<StartedServer, 'dir' | 'stopCommand'>): void {
  try {
    const [file, argv] = server.stopCommand;
    execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
  } finally {
    rmSync(server.dir, { recursive: true, force: true });
  }
}

/**
 * A cluster for the test file: the run's shared one (sharedClusterEnv) when there is one, else one
 * started for the file, or why there can be none (`skip`). `own` always starts one: for a test that
 * reads the cluster's files, which on the shared one other files write at the same time.
 */
export async function startCluster(
  options: { own?: boolean } = {},
): Promise<{ cluster: TestCluster } | { skip: string }> {
  const shared = process.env[sharedClusterEnv];
  if (shared && !options.own) return { cluster: clusterOn(shared, null) };
  const started = await startServer();
  if ('skip' in started) return started;
  return { cluster: clusterOn(started.server.base, started.server) };
}

/**
 * The shared cluster serves three test files at once beside typecheck and lint: on a loaded machine a
 * connection (or a CREATE DATABASE it waits behind) can take longer than a server's 15 s, and a test
 * is bounded by its own waits, not by connecting.
 */
const connectionTimeoutMs = 120_000;

/**
 * Databases on the server at `base`, named apart from other processes' (the shared cluster serves
 * several files at once); `stop` drops them, and stops the server too when the file started it (`own`).
 */
function clusterOn(base: string, own: StartedServer | null): TestCluster {
  const admin = connectPostgres(`${base}/postgres`, { max: 1, connectionTimeoutMs });
  const pools: PgClient[] = [];
  const prefix = `mnemo_test_${process.pid}_${randomBytes(3).toString('hex')}_`;
  const made: string[] = [];
  return {
    get dataDir() {
      if (!own)
        throw new Error("the shared cluster's files are not the file's own: startCluster({ own: true })");
      return own.dataDir;
    },
    async freshDatabase(options = {}) {
      const name = `${prefix}${made.length + 1}`;
      const icu = options.icuLocale
        ? ` TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale.replace(/'/g, "''")}'`
        : '';
      await admin.query(`CREATE DATABASE ${name}${icu}`);
      made.push(name);
      return `${base}/${name}`;
    },
    connect(url, max = 10) {
      // Prepared, as the engine's pool is.
      const pool = connectPostgres(url, { max, connectionTimeoutMs, prepare: true });
      pools.push(pool);
      return pool;
    },
    async stop() {
      await Promise.allSettled(pools.map((p) => p.close()));
      try {
        // A server started for this file goes whole; on the shared one, the file's databases only.
        if (!own) for (const name of made) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.close();
        if (own) stopServer(own);
      }
    },
  };
}
