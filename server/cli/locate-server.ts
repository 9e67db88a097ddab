import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { MnemoApiError } from '../client/index.ts';
import { createLoopbackFetch, loopbackFetch } from '../client/loopback-fetch.ts';
import { defaultDataDir, desktopDataDirs } from '../data-dir.ts';
import { localIdentityPath } from '../http/local-identity.ts';
import { proofHolds, readServerFile, type ServerFile, type ServerFileRead } from '../server-file.ts';
import type { ServerDiscovery } from '../mcp/stdio-bridge.ts';
import { apiBaseProblem, defaultBaseUrl } from './options.ts';

/** A server found through a data dir's server.json that proved it wrote that file. */
export interface LocatedServer {
  url: string;
  /** The server.json it was found by. */
  path: string;
  dataDir: string;
  file: ServerFile;
}

export interface LocateOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** The data dirs to look in (default: serverFileDirs). */
  dirs?: readonly string[];
  fetch?: typeof fetch;
  /** How long the server may take to prove itself (default 5 s). */
  timeoutMs?: number;
}

/**
 * Where a client given no URL looks for server.json, in order: `mnemo serve`'s data dir (MNEMO_DATA_DIR,
 * else the platform's default, as `mnemo serve` resolves it), then the desktop app's.
 */
export function serverFileDirs(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string[] {
  const seen = new Set<string>();
  const dirs: string[] = [];
  for (const dir of [defaultDataDir(env, platform), ...desktopDataDirs(env, platform)]) {
    // A case-insensitive file system (macOS, Windows) has one folder for `Mnemo` and `mnemo`.
    let real = dir;
    try {
      real = realpathSync(dir);
    } catch {
      // Not there: kept, to be named as looked in.
    }
    if (seen.has(real)) continue;
    seen.add(real);
    dirs.push(dir);
  }
  return dirs;
}

/** What a client says when it sends nothing: ends with what to do. */
const trustHint =
  'start Mnemo (the desktop app, or mnemo serve), set MNEMO_DATA_DIR to the --data-dir of a mnemo serve ' +
  "that runs with one, or set MNEMO_URL to the address of a server you trust (its listening line's, " +
  'ending in /v1): an address given explicitly is not checked';

/**
 * The server a client given no URL (no --url, no MNEMO_URL) may send its key to: the one named by a
 * server.json of this user's (serverFileDirs) that proves it wrote that file (POST /local/identity, an
 * HMAC of a fresh nonce under the file's secret). Port 7821, the old default, is never trusted blindly:
 * anyone on this machine may be listening there (the desktop app moves when it is taken), so without a
 * server.json that vouches for it nothing is sent there. Several live servers: the one on 7821 first,
 * then the order of the dirs.
 */
export async function locateServer(o: LocateOptions = {}): Promise<LocatedServer | { problem: string }> {
  const env = o.env ?? process.env;
  const dirs = o.dirs ?? serverFileDirs(env, o.platform);
  const reads = dirs.map((dir) => ({ dir, read: readServerFile(dir) }));
  const found = reads
    .filter(
      (r): r is { dir: string; read: Extract<ServerFileRead, { kind: 'found' }> } => r.read.kind === 'found',
    )
    .sort((a, b) => Number(portOf(b.read.file.url) === 7821) - Number(portOf(a.read.file.url) === 7821));
  const refusals: string[] = [];
  for (const r of reads)
    if (r.read.kind === 'untrusted') refusals.push(`${r.read.path} is not used: ${r.read.why}`);
  for (const { dir, read } of found) {
    const { file, path } = read;
    const problem = apiBaseProblem(file.url);
    if (problem !== null) {
      refusals.push(`${path} names ${problem}`);
      continue;
    }
    const failed = await proveIdentity(file, o.fetch, o.timeoutMs);
    if (failed === null) return { url: file.url, path, dataDir: dir, file };
    refusals.push(
      `the server at ${file.url}, which ${path} names, did not prove it wrote that file (${failed})`,
    );
  }
  if (refusals.length === 0)
    refusals.push(
      `no running Mnemo server of yours was found: none has written a server.json in ${dirs.join(', ')} ` +
        '(the desktop app and mnemo serve write one in their data dir while they run)',
    );
  return {
    problem:
      `${refusals.join('; ')}. Nothing was sent, not to ${defaultBaseUrl} either, where any program on ` +
      `this machine may be listening: ${trustHint}`,
  };
}

/**
 * Whether LOCATED is still the server its file names: the file is unchanged and its process runs (a
 * restarted server writes a new secret and may listen elsewhere, and must prove itself again).
 */
export function stillCurrent(located: LocatedServer): boolean {
  const read = readServerFile(located.dataDir);
  if (read.kind !== 'found') return false;
  const { url, pid, secret } = read.file;
  return url === located.file.url && pid === located.file.pid && secret === located.file.secret;
}

/**
 * The fetch a client of a located server sends its key with: LoopbackFetch, and when the server
 * refuses the key (401) its message also says which server.json chose that server and that MNEMO_URL
 * picks another. With the desktop app and `mnemo serve` both running, the one on 7821 is found first,
 * and a key of the other one's was refused with no word of why.
 */
export function keyRefusalExplained(
  located: LocatedServer,
  inner: typeof fetch = loopbackFetch,
): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    if (res.status !== 401) return res;
    let body: unknown;
    try {
      body = await res.clone().json();
    } catch {
      return res;
    }
    if (
      body === null ||
      typeof body !== 'object' ||
      typeof (body as { message?: unknown }).message !== 'string'
    )
      return res;
    const said = body as { message: string };
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(JSON.stringify({ ...said, message: `${said.message} ${whichServer(located)}` }), {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  };
}

const whichServer = (located: LocatedServer) =>
  `(No MNEMO_URL was set, so the key went to the Mnemo at ${located.url}, which ${located.path} names. ` +
  "If the key is another Mnemo's (the desktop app and mnemo serve each have their own data dir and " +
  "keys), set MNEMO_URL to that one's address, ending in /v1.)";

/** How long a client trusts a server's last proof before it asks again (provenServer). */
export const reproveAfterMs = 5_000;

export interface ProvenServerOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** How long a proof holds, in ms (default reproveAfterMs). */
  reproveAfter?: number;
}

/**
 * A located server, checked again before each use: its server.json unchanged and its pid running
 * (stillCurrent), and when the last proof is older than `reproveAfter` ms, proved again. An unchanged
 * file whose pid runs is not enough on its own: after a crash the pid may be another process's (and
 * "alive"), and the old port anyone's. At most one loopback round trip per check, and none while checks
 * come within `reproveAfter` of the last proof. Checks at once share one proof.
 */
export function provenServer(located: LocatedServer, o: ProvenServerOptions = {}) {
  const within = o.reproveAfter ?? reproveAfterMs;
  // Monotonic: a wall clock stepped back would keep an old proof "fresh" until it caught up.
  let provedAt = performance.now();
  let proving: Promise<string | null> | null = null;
  /** Null when LOCATED is still the server that proved itself, else why not (nothing is to be sent). */
  const check = async (): Promise<string | null> => {
    if (!stillCurrent(located))
      return (
        `the Mnemo at ${located.url} has stopped or restarted since it was found ` +
        `(${located.path} is gone or changed)`
      );
    if (performance.now() - provedAt < within) return null;
    proving ??= proveIdentity(located.file, o.fetch, o.timeoutMs).finally(() => (proving = null));
    const failed = await proving;
    if (failed !== null)
      return `the server at ${located.url}, which ${located.path} names, did not prove it wrote that file again (${failed})`;
    provedAt = performance.now();
    return null;
  };
  /**
   * The fetch a client of LOCATED sends its key with: keyRefusalExplained, each request sent only after
   * check() holds. A long export or import that outlives the server would otherwise hand its key to
   * whoever binds the port next.
   */
  const checkedFetch = (inner: typeof fetch = loopbackFetch): typeof fetch => {
    const explained = keyRefusalExplained(located, inner);
    return async (input, init) => {
      const why = await check();
      if (why !== null)
        throw new MnemoApiError(0, {
          type: 'internal',
          code: 'network_error',
          message: `${why}. Nothing was sent: ${trustHint}`,
          reached_server: false,
        });
      return explained(input, init);
    };
  };
  return { check, fetch: checkedFetch };
}

/**
 * How `mnemo mcp` with no MNEMO_URL finds its server (stdio-bridge.ts): locateServer, and then, for each
 * call, whether it is still that server (provenServer's check: at most one loopback round trip per call).
 */
export function serverDiscovery(o: LocateOptions & { reproveAfter?: number } = {}): ServerDiscovery {
  return {
    locate: async () => {
      const found = await locateServer(o);
      if ('problem' in found) return found;
      const proven = provenServer(found, o);
      return {
        url: found.url,
        // The bridge checks before each call (current), so its fetch need not check again.
        fetch: keyRefusalExplained(found),
        current: async () => (await proven.check()) === null,
      };
    },
  };
}

function portOf(url: string): number | null {
  try {
    const u = new URL(url);
    return u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port);
  } catch {
    return null;
  }
}

/** An answer to the proof is a few dozen bytes: a listener that sends more is not Mnemo. */
const proofAnswerBytes = 4096;

/**
 * Asks the server at FILE's URL to prove it holds FILE's secret, without a key: null when it did, else
 * why not. Its answer must be HMAC(secret, Host sent + nonce) for a fresh random nonce (server-file.ts).
 */
export async function proveIdentity(
  file: ServerFile,
  fetchVia: typeof fetch = createLoopbackFetch({ maxResponseBytes: proofAnswerBytes }),
  timeoutMs = 5_000,
): Promise<string | null> {
  const base = new URL(file.url);
  const nonce = randomBytes(32).toString('base64url');
  let res: Response;
  let body: unknown;
  try {
    res = await fetchVia(new URL(localIdentityPath, base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ nonce }),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.status === 404)
      return 'it answered HTTP 404, as a Mnemo older than this one or another program would';
    if (res.status !== 200) return `it answered HTTP ${res.status}`;
    body = await res.json();
  } catch (e) {
    if ((e as Error).name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
    const cause = (e as { cause?: { code?: unknown } }).cause?.code;
    return `${(e as Error).message}${typeof cause === 'string' ? ` (${cause})` : ''}`;
  }
  const proof = body && typeof body === 'object' ? (body as { proof?: unknown }).proof : undefined;
  return proofHolds(file.secret, base.host, nonce, proof) ? null : 'its answer is not the proof';
}

/**
 * Where a command sends its key and with what fetch: `--url`, else MNEMO_URL, each the person's choice
 * and used as given (`usage` when it is not an API base); else the server locateServer finds and
 * checks, checked again before each request (provenServer), whose refusal of the key says how it was
 * found (keyRefusalExplained); `unreachable` when none can be trusted.
 */
export async function apiServerFor(
  flagUrl: string | undefined,
  o: LocateOptions & ProvenServerOptions = {},
): Promise<{ baseUrl: string; fetch: typeof fetch } | { usage: string } | { unreachable: string }> {
  const given = flagUrl ?? ((o.env ?? process.env).MNEMO_URL || undefined);
  if (given !== undefined) {
    const problem = apiBaseProblem(given);
    if (problem === null) return { baseUrl: given, fetch: loopbackFetch };
    return { usage: `${flagUrl !== undefined ? '--url' : 'MNEMO_URL'}: ${problem}` };
  }
  const located = await locateServer(o);
  if ('problem' in located) return { unreachable: located.problem };
  return { baseUrl: located.url, fetch: provenServer(located, o).fetch() };
}

/**
 * apiServerFor for a command that says on stderr why it cannot go on: null then, with exit code 2 for
 * a URL that is no API base and 1 where no server can be trusted.
 */
export async function apiBaseFor(
  command: string,
  flagUrl: string | undefined,
  o: LocateOptions & ProvenServerOptions = {},
): Promise<{ baseUrl: string; fetch: typeof fetch } | null> {
  const server = await apiServerFor(flagUrl, o);
  if ('baseUrl' in server) return server;
  console.error(`mnemo ${command}: ${'usage' in server ? server.usage : server.unreachable}`);
  process.exitCode = 'usage' in server ? 2 : 1;
  return null;
}
