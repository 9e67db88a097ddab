import { refusedPortWarning } from '../../fetch-refused-ports.ts';
import { Option, type Command } from 'commander';
import { constants as osConstants } from 'node:os';
import { defaultDataDir } from '../../data-dir.ts';
import { isLoopbackHost, parsePublicUrl } from '../../http/loopback-guard.ts';
import { defaultShutdownGraceMs } from '../../shutdown-grace.ts';
import { durationWords } from '../../ui/token-ttl.ts';
import type { RunningServer } from '../../start-server.ts';
import type { CommandContext } from '../held-signals.ts';
import {
  httpUrl,
  nonNegativeInt,
  port,
  postgresUrl,
  publicUrlList,
  rewriteUrl,
  timeZoneName,
} from '../options.ts';

interface ServeFlags {
  engine: 'local' | 'reference' | 'postgres';
  deployment?: 'local' | 'hosted';
  databaseUrl?: string;
  host: string;
  port: number;
  dataDir?: string;
  keyRegistry?: string;
  rateLimit: number;
  docsUrlBase?: string;
  publicUrl?: string[];
  thoroughSyncMs: number;
  traceBuffer: number;
  ui: boolean;
  dbKeyFile?: string;
  embeddingModel?: string;
  rewriteUrl?: string;
  rewriteModel?: string;
  timeZone?: string;
  shutdownGraceMs: number;
}

/** A repeat closer than this is the same stop (a terminal's Ctrl-C reaches `npm start` too, which forwards it). */
const repeatWindowMs = 1_000;

export function register(program: Command, { heldSignals }: CommandContext): void {
  // The spec writes them as alternatives ([--ui | --no-ui]): given both, the last would win unsaid.
  const uiFlags = new Set<string>();
  program
    .command('serve')
    .on('option:ui', () => uiFlags.add('--ui'))
    .on('option:no-ui', () => uiFlags.add('--no-ui'))
    .description('serve the /v1 API (and the UI with --ui) on this machine')
    .addOption(
      new Option('--engine <engine>', 'memory engine')
        .choices(['local', 'reference', 'postgres'])
        .default('local'),
    )
    .addOption(
      new Option(
        '--deployment <deployment>',
        'local keeps local_only Records; hosted refuses them (default: hosted with --engine postgres, else local)',
      ).choices(['local', 'hosted']),
    )
    .option(
      '--database-url <url>',
      "the postgres engine's database, postgres://... (also MNEMO_DATABASE_URL)",
      postgresUrl,
    )
    .option('--host <host>', 'address to bind (loopback unless you mean otherwise)', '127.0.0.1')
    .option('--port <port>', 'port (0-65535); 0 picks a free one', port, 7821)
    .option('--data-dir <dir>', 'where the encrypted store lives (default: the per-user data directory)')
    .option('--key-registry <path>', 'key registry file (local engine default: <data-dir>/keys.json)')
    .option(
      '--rate-limit <n>',
      'requests per key per minute, fixed window, counted by each server process; 0 = off',
      nonNegativeInt,
      20_000,
    )
    .option(
      '--docs-url-base <url>',
      "http(s) base of docs_url in errors (default: this server's /docs)",
      httpUrl,
    )
    .option(
      '--public-url <url>',
      'address clients use through a reverse proxy, e.g. https://mnemo.example.com/v1 (repeatable; ' +
        'also MNEMO_PUBLIC_URL, comma-separated): its host is accepted besides loopback, docs_url uses it',
      publicUrlList,
    )
    .option(
      '--thorough-sync-ms <n>',
      'how long a thorough Context may take before it answers 202 and goes on in the background; ' +
        '0 = no limit, it always answers 200 when done (the reference engine always answers at once)',
      nonNegativeInt,
      2_000,
    )
    .option(
      '--trace-buffer <n>',
      'how many recent traces to keep: in memory for all Brains (local, reference), in the database per Brain (postgres)',
      nonNegativeInt,
      1_000,
    )
    .option('--ui', 'serve the UI at / and print its one-time address', false)
    .option('--no-ui', 'do not serve the UI')
    .option(
      '--db-key-file <path>',
      'file holding the database key (else MNEMO_DB_KEY, else a key in the config dir)',
    )
    .option(
      '--embedding-model <dir>',
      'sentence-transformers ONNX model directory (model.onnx + tokenizer.json)',
    )
    .option(
      '--rewrite-url <url>',
      'OpenAI-compatible API base (e.g. http://127.0.0.1:11434/v1) whose model rewrites thorough ' +
        "Contexts' questions into search phrasings; needs --rewrite-model; key from MNEMO_REWRITE_KEY; " +
        'https unless on a loopback host',
      rewriteUrl,
    )
    .option('--rewrite-model <name>', 'the model --rewrite-url runs the query rewrite with')
    .option(
      '--time-zone <zone>',
      'IANA zone whose days "yesterday" or "on 3 May" mean in queries (default: this machine\'s)',
      timeZoneName,
    )
    .option(
      '--shutdown-grace-ms <n>',
      'on SIGTERM/SIGINT/SIGHUP, how long in-flight requests may finish before they are answered 500 (a second signal stops waiting)',
      nonNegativeInt,
      defaultShutdownGraceMs,
    )
    .action(async (flags: ServeFlags, command: Command) => {
      if (uiFlags.size > 1)
        command.error("error: option '--ui' cannot be used with option '--no-ui'", { exitCode: 2 });
      const deployment = flags.deployment ?? (flags.engine === 'postgres' ? 'hosted' : 'local');
      const databaseUrl = flags.databaseUrl ?? (process.env.MNEMO_DATABASE_URL || undefined);
      if (flags.engine === 'postgres') {
        if (!databaseUrl)
          command.error('error: --engine postgres needs --database-url URL (or MNEMO_DATABASE_URL)', {
            exitCode: 1,
          });
        try {
          postgresUrl(databaseUrl);
        } catch (e) {
          command.error(`error: MNEMO_DATABASE_URL: ${(e as Error).message}`, { exitCode: 2 });
        }
        // Keys live in the database, where every process reads them and a revoke reaches them all: a
        // registry file would give one process keys of its own that no revoke in the database touches.
        if (flags.keyRegistry !== undefined)
          command.error(
            'error: --key-registry is not used with --engine postgres: its keys live in the database (mnemo keys ... --database-url URL)',
            { exitCode: 2 },
          );
      } else if (flags.databaseUrl)
        command.error('error: --database-url is for --engine postgres', { exitCode: 2 });
      if ((flags.rewriteUrl === undefined) !== (flags.rewriteModel === undefined))
        command.error('error: --rewrite-url and --rewrite-model go together', { exitCode: 2 });
      if (flags.rewriteUrl !== undefined && flags.engine === 'reference')
        command.error('error: --rewrite-url is for the local and postgres engines', { exitCode: 2 });

      // Flags were checked as commander read them; the variable is checked here.
      const publicUrls = flags.publicUrl ?? publicUrlsFromEnv(process.env.MNEMO_PUBLIC_URL);
      if (!flags.publicUrl) {
        for (const url of publicUrls) {
          try {
            parsePublicUrl(url);
          } catch (e) {
            command.error(`error: MNEMO_PUBLIC_URL: ${(e as Error).message}`, { exitCode: 2 });
          }
        }
      }
      // With no registry the reference engine takes every well-formed key (spec, Authentication 5): on
      // the network, or behind a proxy that brings the network to it, anyone could read and write it.
      if (flags.engine === 'reference' && flags.keyRegistry === undefined) {
        const reach = !isLoopbackHost(flags.host)
          ? `to bind ${flags.host}`
          : publicUrls.length > 0
            ? 'to serve a public URL'
            : null;
        if (reach !== null)
          command.error(
            `error: --engine reference without --key-registry accepts any well-formed key, so it serves only this machine: give --key-registry PATH ${reach}`,
            { exitCode: 2 },
          );
      }
      const quiet = process.env.MNEMO_LOG === 'silent';
      const log = (line: string) => {
        if (!quiet) process.stderr.write(`${new Date().toISOString()} ${line}\n`);
      };
      // Listening from the start (and taking over what bin/mnemo.mjs held while the modules loaded): a
      // stop asked for during start-up is carried out once there is a server to stop, exit code 0.
      let server: RunningServer | null = null;
      let firstAt: number | null = null;
      let stopped = () => {};
      const done = new Promise<void>((resolve) => (stopped = resolve));
      const close = (s: RunningServer) =>
        s.close().then(stopped, (e: unknown) => {
          log(`error while closing: ${(e as Error).message}`);
          process.exitCode = 1;
          stopped();
        });
      const stop = (signal: NodeJS.Signals) => {
        if (firstAt === null) {
          firstAt = Date.now();
          if (!server) {
            log(`${signal}: stopping as soon as start-up is done (${signal} again to exit at once)`);
            return;
          }
          log(
            `${signal}: finishing in-flight requests and closing the store (${signal} again to stop waiting)`,
          );
          void close(server);
          return;
        }
        if (Date.now() - firstAt < repeatWindowMs) return;
        if (!server) {
          // Start-up is stuck (a slow disk, a listen that waits on DNS): the person asked twice. Nothing
          // is mid-write between two event-loop turns (each SQLite transaction is one synchronous call),
          // so this leaves the store as a crash would, which SQLite recovers on the next open; the OS
          // lets go of the data dir's lock. Not a clean stop, so not exit code 0.
          const code = 128 + osConstants.signals[signal];
          log(`${signal} again: exiting now, before start-up finished (exit code ${code})`);
          process.exit(code);
        }
        log(`${signal} again: not waiting for in-flight requests`);
        void server.close({ force: true });
      };
      // Listeners stay on: a second signal must reach stop(), not Node's default (exit at once).
      const onTerm = () => stop('SIGTERM');
      const onInt = () => stop('SIGINT');
      // The terminal it runs in was closed: stop as cleanly as for SIGTERM (Node's default would end
      // the process at once, leaving the WAL and the holder file for the next start to deal with).
      const onHup = () => stop('SIGHUP');
      process.on('SIGTERM', onTerm);
      process.on('SIGINT', onInt);
      process.on('SIGHUP', onHup);
      for (const signal of heldSignals.release()) stop(signal);

      const dataDir = flags.engine === 'local' ? (flags.dataDir ?? defaultDataDir()) : flags.dataDir;
      try {
        // Loaded here, not with the command line: every other command starts without the engine.
        const { startServer } = await import('../../start-server.ts');
        server = await startServer({
          ...flags,
          deployment,
          databaseUrl,
          publicUrls,
          dataDir,
          log,
          warmUp: true,
        });
      } catch (e) {
        // Nothing to stop: a signal now should end the process as usual.
        process.off('SIGTERM', onTerm);
        process.off('SIGINT', onInt);
        process.off('SIGHUP', onHup);
        throw e;
      }
      if (firstAt !== null) {
        log('start-up done: closing the store');
        void close(server);
        await done;
        return;
      }
      process.stdout.write(`listening on ${server.url}\n`);
      const refusedPort = refusedPortWarning(server.port);
      if (refusedPort !== null) log(`warn: ${refusedPort}`);
      const zone = server.engine.info.timeZone;
      log(
        `engine ${flags.engine}, deployment ${deployment}${
          flags.engine === 'local'
            ? `, data dir ${dataDir}`
            : flags.dataDir
              ? ' (--data-dir is not used by this engine)'
              : ''
        }${zone ? `, time zone ${zone}` : ''}`,
      );
      const exposed = exposureWarning(flags.host);
      // Not a log line: it shows with MNEMO_LOG=silent too.
      if (exposed) process.stderr.write(`${exposed}\n`);
      if (server.uiUrl) {
        process.stderr.write(`ui: ${server.uiUrl}\n`);
        // A line of its own: scripts take the address as the rest of the ui: line (cli-and-harness.md).
        if (server.uiUrlValidity) process.stderr.write(`${uiLinkValidity(server.uiUrlValidity)}\n`);
      }
      await done;
    });
}

/** What `serve --ui` says below the ui: line: how long that link signs in, and how to get another. */
export function uiLinkValidity(v: { ttlMs: number; until: number }): string {
  // This machine's time of day, as its clock shows it.
  const until = new Date(v.until).toTimeString().slice(0, 5);
  return (
    `the ui: link signs in once, within ${durationWords(v.ttlMs)} (until ${until}); ` +
    'for a new one, restart mnemo serve --ui'
  );
}

/** MNEMO_PUBLIC_URL's URLs: comma-separated, blanks around them ignored. */
export function publicUrlsFromEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
}

/** What `serve` says on stderr when --host is not loopback-only, or null. */
export function exposureWarning(host: string): string | null {
  if (isLoopbackHost(host)) return null;
  return (
    `warning: bound to ${host}, so this server is reachable from other machines on the network ` +
    '(every /v1 request still needs an API key; --host 127.0.0.1 keeps it to this machine)'
  );
}
