import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectPostgres, type PgClient } from '../client.ts';

/** A throw-away PostgreSQL cluster for tests: its own data dir, port and socket dir, all in a temp dir. */
export interface TestCluster {
  /**
   * The URL of a database of its own, created empty; `icuLocale` makes that ICU locale its default
   * collation (a text order that is not bytewise, as many servers have, for tests of COLLATE "C").
   */
  freshDatabase(options?: { icuLocale?: string }): Promise<string>;
  /** The cluster's data directory (a test reads its files: what a forget leaves on disk). */
  readonly dataDir: string;
  /** A pool on a URL, closed by `stop`. */
  connect(url: string, max?: number): PgClient;
  stop(): Promise<void>;
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

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a cluster, or says why it cannot (`skip`): no PostgreSQL binaries, or root without a
 * `postgres` user (initdb refuses to run as root, so root runs it as `postgres` through runuser).
 */
export async function startCluster(): Promise<{ cluster: TestCluster } | { skip: string }> {
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
  const as = (cmd: string, args: string[]) =>
    root
      ? (['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] as const)
      : ([join(bin, cmd), args] as const);
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = as(cmd, args);
    execFileSync(file, [...argv], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
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
  const base = `postgres://postgres@127.0.0.1:${port}`;
  const admin = connectPostgres(`${base}/postgres`, { max: 1 });
  const pools: PgClient[] = [admin];
  let databases = 0;
  return {
    cluster: {
      dataDir: data,
      async freshDatabase(options = {}) {
        const name = `mnemo_test_${++databases}`;
        const icu = options.icuLocale
          ? ` TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale.replace(/'/g, "''")}'`
          : '';
        await admin.query(`CREATE DATABASE ${name}${icu}`);
        return `${base}/${name}`;
      },
      connect(url, max = 10) {
        const pool = connectPostgres(url, { max });
        pools.push(pool);
        return pool;
      },
      async stop() {
        await Promise.allSettled(pools.map((p) => p.close()));
        try {
          run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    },
  };
}
