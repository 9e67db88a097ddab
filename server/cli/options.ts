import { networkInterfaces } from 'node:os';
import { InvalidArgumentError } from 'commander';
import { publicUrlProblem } from '../http/loopback-guard.ts';
import type * as z from 'zod';
import { databaseUrlProblem, isTimeZone } from '../../engine/index.ts';
import { plainHttpProblem } from '../../engine/contract/index.ts';
import { rewriteUrlProblem } from '../query-rewriter-choice.ts';

/** A commander parser from a contract schema, so the CLI refuses what the HTTP API refuses, in its words. */
export const bySchema =
  (schema: z.ZodType<string>) =>
  (value: string): string => {
    const r = schema.safeParse(value);
    if (!r.success) throw new InvalidArgumentError(r.error.issues[0]!.message);
    return value;
  };

/** commander parser for non-negative integers ("--port 0" is meaningful). */
export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(value);
}

/** commander parser for an IANA time zone name ("Europe/Lisbon", "UTC"). */
export function timeZoneName(value: string): string {
  if (!isTimeZone(value))
    throw new InvalidArgumentError('must be an IANA time zone name, e.g. Europe/Lisbon or UTC');
  return value;
}

/** commander parser for a TCP port: 0 (any free one) to 65535, checked before anything is opened. */
export function port(value: string): number {
  const n = nonNegativeInt(value);
  if (n > 65_535) throw new InvalidArgumentError('must be a port number from 0 to 65535');
  return n;
}

/** commander parser for an absolute http: or https: URL (a base that links are built on). */
export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError('must be an absolute http:// or https:// URL');
  // Links are built by appending a path: after a query or fragment they break, and a user or password
  // would be shown in every error body, to callers without a key too (as --public-url refuses them).
  if (url.username || url.password || url.search || url.hash)
    throw new InvalidArgumentError('must have no user, query or fragment');
  return value;
}

/**
 * commander parser for --rewrite-url: the key and every thorough question go there, so https unless
 * the model runs on this machine (rewriteUrlProblem).
 */
export function rewriteUrl(value: string): string {
  const problem = rewriteUrlProblem(value);
  if (problem !== null) throw new InvalidArgumentError(problem);
  return value;
}

/** commander parser for a PostgreSQL connection string (postgres:// or postgresql://). */
export function postgresUrl(value: string): string {
  const problem = databaseUrlProblem(value);
  if (problem !== null) throw new InvalidArgumentError(problem);
  return value;
}

/**
 * MNEMO_DATABASE_URL, checked as `--database-url` is (commander checks only the flag): refused before
 * anything connects, in the same words, naming the variable.
 */
export function databaseUrlFromEnv(): string | undefined {
  const value = process.env.MNEMO_DATABASE_URL || undefined;
  const problem = value === undefined ? null : databaseUrlProblem(value);
  if (problem !== null) throw new UsageError(`MNEMO_DATABASE_URL: ${problem}`);
  return value;
}

/**
 * A call refused before anything was done, for a setting that stands for a flag (MNEMO_DATABASE_URL):
 * `mnemo` exits 2 with it, as for a flag commander refuses; 1 is a command that failed.
 */
export class UsageError extends Error {}

/** commander parser for a repeatable `--public-url`: each checked as it comes, all kept in order. */
export function publicUrlList(value: string, previous: string[] = []): string[] {
  const problem = publicUrlProblem(value);
  if (problem !== null) throw new InvalidArgumentError(problem);
  return [...previous, value];
}

/**
 * Says on stderr, in one line, that a key given on the command line (`--key`, `--remote-key`, a whole
 * key to `keys revoke`) is in other programs' view: /proc/PID/cmdline, `ps`, and shell history. The
 * flags stay (the CLI spec has them, and scripts use them); the line names what keeps it out instead.
 */
export function keyOnCommandLineWarning(command: string, given: string, instead: string): void {
  console.error(
    `mnemo ${command}: warning: ${given} on the command line is visible to other programs (ps) and kept ` +
      `in shell history; ${instead}`,
  );
}

/**
 * The desktop app's address, named in help and messages. Clients told no URL (`--url`, MNEMO_URL) do not
 * go there blindly: they look for a server.json that vouches for a server (locate-server.ts).
 */
export const defaultBaseUrl = 'http://127.0.0.1:7821/v1';

/** What `--url`'s help says is used without it. */
export const urlOptionHelp =
  "server base ending in /v1 (env MNEMO_URL; default: the running Mnemo named in its data dir's server.json)";

/**
 * What is wrong with URL as the API's base, or null. The base is what the listening line prints,
 * ending in /v1: given the server's root instead, every request would answer http_404 and say only
 * that the path does not exist. Plain http is for this machine only, as for a pairing's remote.
 */
export function apiBaseProblem(url: string): string | null {
  if (!URL.canParse(url))
    return `"${url}" is not a URL; give the base the server's listening line prints (${defaultBaseUrl})`;
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `"${url}" is not an http(s) URL`;
  // Every command that takes this base sends its key there: as a pairing's remote, not in the clear,
  // unless it names this machine, as the listening line of `mnemo serve --host 0.0.0.0` (or a LAN
  // address of its own) does: that key never leaves it.
  if (!thisMachine(u.hostname) && plainHttpProblem(u) !== null)
    return `"${url}" must be https: plain http is for this machine only (a loopback host, 0.0.0.0, [::] or one of its own addresses)`;
  if (!/\/v1\/?$/.test(u.pathname))
    return `"${url}" is not the API's base: it ends in /v1, as the server's listening line prints (${new URL('/v1', u).href}?)`;
  return null;
}

/** Whether HOSTNAME (a URL's) is this machine: any address (0.0.0.0, [::]) or one of its own interfaces'. */
function thisMachine(hostname: string): boolean {
  const bare = (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname).toLowerCase();
  if (bare === '0.0.0.0' || bare === '::') return true;
  return Object.values(networkInterfaces()).some((list) =>
    (list ?? []).some((a) => a.address.toLowerCase() === bare),
  );
}
