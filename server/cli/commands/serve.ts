import { Option, type Command } from 'commander';
import { defaultDataDir } from '../../data-dir.ts';
import { defaultShutdownGraceMs, startServer } from '../../start-server.ts';
import { nonNegativeInt, timeZoneName } from '../options.ts';

interface ServeFlags {
  engine: 'local' | 'reference';
  deployment: 'local' | 'hosted';
  host: string;
  port: number;
  dataDir?: string;
  keyRegistry?: string;
  rateLimit: number;
  docsUrlBase?: string;
  thoroughSyncMs: number;
  traceBuffer: number;
  ui: boolean;
  dbKeyFile?: string;
  embeddingModel?: string;
  timeZone?: string;
  shutdownGraceMs: number;
}

/** A repeat closer than this is the same stop (a terminal's Ctrl-C reaches `npm start` too, which forwards it). */
const repeatWindowMs = 1_000;

export function register(program: Command): void {
  program
    .command('serve')
    .description('serve the /v1 API (and the UI with --ui) on this machine')
    .addOption(
      new Option('--engine <engine>', 'memory engine').choices(['local', 'reference']).default('local'),
    )
    .addOption(
      new Option('--deployment <deployment>', 'local keeps local_only Records; hosted refuses them')
        .choices(['local', 'hosted'])
        .default('local'),
    )
    .option('--host <host>', 'address to bind (loopback unless you mean otherwise)', '127.0.0.1')
    .option('--port <port>', 'port; 0 picks a free one', nonNegativeInt, 7821)
    .option('--data-dir <dir>', 'where the encrypted store lives (default: the per-user data directory)')
    .option('--key-registry <path>', 'key registry file (local engine default: <data-dir>/keys.json)')
    .option('--rate-limit <n>', 'requests per key per minute, fixed window; 0 = off', nonNegativeInt, 20_000)
    .option('--docs-url-base <url>', "base of docs_url in errors (default: this server's /docs)")
    .option(
      '--thorough-sync-ms <n>',
      'synchronous budget of a thorough Context before it answers 202',
      nonNegativeInt,
      2_000,
    )
    .option(
      '--trace-buffer <n>',
      'how many recent traces to keep in memory (all Brains)',
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
      '--time-zone <zone>',
      'IANA zone whose days "yesterday" or "on 3 May" mean in queries (default: this machine\'s)',
      timeZoneName,
    )
    .option(
      '--shutdown-grace-ms <n>',
      'on SIGTERM/SIGINT, how long in-flight requests may finish before they are answered 500 (a second signal stops waiting)',
      nonNegativeInt,
      defaultShutdownGraceMs,
    )
    .action(async (flags: ServeFlags) => {
      const quiet = process.env.MNEMO_LOG === 'silent';
      const log = (line: string) => {
        if (!quiet) process.stderr.write(`${new Date().toISOString()} ${line}\n`);
      };
      const dataDir = flags.engine === 'local' ? (flags.dataDir ?? defaultDataDir()) : flags.dataDir;
      const server = await startServer({ ...flags, dataDir, log });
      process.stdout.write(`listening on ${server.url}\n`);
      const zone = server.engine.info.timeZone;
      log(
        `engine ${flags.engine}, deployment ${flags.deployment}${dataDir ? `, data dir ${dataDir}` : ''}${zone ? `, time zone ${zone}` : ''}`,
      );
      if (server.uiUrl) process.stderr.write(`ui: ${server.uiUrl}\n`);
      await new Promise<void>((resolve) => {
        let firstAt: number | null = null;
        const stop = (signal: string) => {
          if (firstAt === null) {
            firstAt = Date.now();
            log(
              `${signal}: finishing in-flight requests and closing the store (${signal} again to stop waiting)`,
            );
            server.close().then(resolve, (e: unknown) => {
              log(`error while closing: ${(e as Error).message}`);
              process.exitCode = 1;
              resolve();
            });
            return;
          }
          if (Date.now() - firstAt < repeatWindowMs) return;
          log(`${signal} again: not waiting for in-flight requests`);
          void server.close({ force: true });
        };
        // Listeners stay on: a second signal must reach stop(), not Node's default (exit at once).
        process.on('SIGTERM', () => stop('SIGTERM'));
        process.on('SIGINT', () => stop('SIGINT'));
      });
    });
}
