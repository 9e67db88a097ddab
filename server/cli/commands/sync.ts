import type { Command } from 'commander';
import { Slug, type SyncStatus } from '../../../engine/contract/index.ts';
import { errorMessage } from '../../../engine/index.ts';
import { MnemoApiError, createMnemoClient, type MnemoClient } from '../../client/index.ts';
import { bySchema, keyOnCommandLineWarning, nonNegativeInt, urlOptionHelp } from '../options.ts';
import { bytesText } from '../../sync/pull-budget.ts';
import { apiServerFor, type LocateOptions, type ProvenServerOptions } from '../locate-server.ts';

interface ServerFlags {
  brain: string;
  url?: string;
  key?: string;
}

/**
 * A usage error (exit code 2): said on stderr, and with --json on stdout too, in the error body's shape,
 * so a script reading the output gets JSON whatever went wrong.
 */
function usage(
  json: boolean,
  error: { type: 'invalid_request' | 'authentication'; code: string; message: string },
  line = `mnemo sync: ${error.message}`,
): void {
  console.error(line);
  if (json) console.log(JSON.stringify({ error }));
  process.exitCode = 2;
}

/**
 * The running local server's client (`--url`/`--key`, MNEMO_URL/MNEMO_KEY), or null after saying why.
 * O is where to look for server.json (LocateOptions; tests name their own dirs).
 */
export async function localServer(
  flags: ServerFlags & { json?: boolean },
  o: LocateOptions & ProvenServerOptions = {},
): Promise<MnemoClient | null> {
  const json = flags.json === true;
  const env = o.env ?? process.env;
  if (flags.key !== undefined) keyOnCommandLineWarning('sync', '--key', 'set MNEMO_KEY instead');
  const apiKey = flags.key ?? env.MNEMO_KEY;
  if (!apiKey) {
    usage(json, {
      type: 'authentication',
      code: 'invalid_api_key',
      message: 'pass --key or set MNEMO_KEY (mnemo keys create --project P --env live makes one)',
    });
    return null;
  }
  // An address given is used as given; without one, only a server that proves it is the one its
  // server.json names gets the key, and only while it still is (checked again before each request).
  const server = await apiServerFor(flags.url, { ...o, env });
  if ('usage' in server) {
    usage(json, { type: 'invalid_request', code: 'invalid_request_body', message: server.usage });
    return null;
  }
  if ('unreachable' in server) {
    const body = {
      type: 'internal',
      code: 'network_error',
      message: server.unreachable,
      reached_server: false,
    };
    fail(new MnemoApiError(0, body), json);
    return null;
  }
  return createMnemoClient({ ...server, apiKey });
}

/**
 * Says why the command failed on stderr, and with --json on stdout too as one object, `{"error": body}`
 * (the spec's error body), so a script that reads the output gets JSON either way.
 */
function fail(e: unknown, json = false): void {
  const detail = e instanceof MnemoApiError ? `${e.code}: ${e.message}` : errorMessage(e);
  console.error(`mnemo sync: ${detail}`);
  if (json) {
    const body =
      e instanceof MnemoApiError
        ? e.body
        : { type: 'internal', code: 'internal_error', message: errorMessage(e) };
    console.log(JSON.stringify({ error: body }));
  }
  process.exitCode = 1;
}

/** What the corrections from other sides did here, when there are any. */
function correctionsLine(c: SyncStatus['corrections'] | undefined): string[] {
  if (!c || c.applied + c.applied_by_fallback + c.not_applied === 0) return [];
  return [
    `corrections from other sides: ${c.applied} applied, ${c.applied_by_fallback} applied by fallback, ` +
      `${c.not_applied} not applied (each correction Record's correction_outcome says why)`,
  ];
}

/**
 * What the pull read in the last day against its budget, and whether it waits (the warning says why
 * and how to allow more); none from a server older than the budget.
 */
function budgetLine(b: SyncStatus['pull_budget'] | undefined): string[] {
  if (!b) return [];
  const n = (x: number) => x.toLocaleString('en-US');
  return [
    `pulled in the last 24 h: ${n(b.records)} of ${n(b.records_per_day)} Records, ` +
      `${bytesText(b.bytes)} of ${bytesText(b.bytes_per_day)}` +
      (b.paused_until ? `; the pull is paused until ${b.paused_until}` : ''),
  ];
}

/**
 * What the remote made this device forget, and what waits for the person to confirm; nothing when
 * neither (a server older than these counts gives neither).
 */
function forgetsLines(s: SyncStatus): string[] {
  const forgotten = s.forgotten_by_remote ?? 0;
  const held = s.forgets_held ?? 0;
  return [
    ...(forgotten > 0 ? [`forgotten here because the remote said so: ${forgotten}`] : []),
    ...(held > 0
      ? [
          `forgets held for you to confirm: ${held} (nothing forgotten yet; ` +
            `mnemo sync accept-forgets --brain ${s.brain_id} --count ${held} applies them)`,
          // Which ones, to look at before confirming (mnemo records get).
          ...((s.forgets_held_examples ?? []).length > 0
            ? [`  the newest of them: ${(s.forgets_held_examples ?? []).join(', ')}`]
            : []),
        ]
      : []),
  ];
}

/** The status as a person reads it: what is paired, the counts, the last success and error, the next run. */
export function formatStatus(s: SyncStatus): string {
  if (!s.paired) return `Brain ${s.brain_id} is not paired`;
  return [
    `Brain ${s.brain_id} <-> ${s.remote_brain} at ${s.remote}`,
    `pending ${s.pending}, pushed ${s.pushed}, pulled ${s.pulled}, held back ${s.held_back}, skipped ${s.skipped}`,
    // Each on its line with why: a health note held back is the redactor doing its job, not a failure.
    ...(s.held_back_reasons.length > 0
      ? [
          'held back, the newest:',
          ...s.held_back_reasons.map(
            (r) => `  ${r.record_id}: ${r.reason ?? 'held back by an earlier version, which kept no reason'}`,
          ),
        ]
      : []),
    ...(s.skipped_examples.length > 0 ? [`skipped, the newest: ${s.skipped_examples.join(', ')}`] : []),
    ...correctionsLine(s.corrections),
    ...budgetLine(s.pull_budget),
    ...forgetsLines(s),
    `last success: ${s.last_success_at ?? 'never'}`,
    ...(s.last_error ? [`last error: ${s.last_error}`] : []),
    // A status from a server older than the warning has none.
    ...(s.warning ? [`warning: ${s.warning}`] : []),
    ...(s.catching_up
      ? ['catching up: the last run stopped with more to do and kept what it did; the next goes on by itself']
      : []),
    `next run: ${s.running ? 'under way now' : (s.next_run_at ?? 'none planned')}`,
  ].join('\n');
}

/**
 * What a person needs after a failed run: a call cut off may have been applied on the hub before it
 * failed (the counts here cannot know), and when the next try is.
 */
function afterFailure(s: SyncStatus): string {
  const next = s.next_run_at ?? 'none planned';
  return (
    'mnemo sync run: what the failed call sent may have reached the hub; the next run sends it again ' +
    `and each Record is kept there once. Next run: ${next}; or run this again once the hub answers.`
  );
}

const withServer = (c: Command) =>
  c
    .requiredOption('--brain <brain>', 'the local Brain', bySchema(Slug))
    .option('--url <url>', `local ${urlOptionHelp}`)
    .option('--key <key>', 'API key of the local server (env MNEMO_KEY)');

export function register(program: Command): void {
  const sync = program
    .command('sync')
    .description(
      'pair a local Brain with a Brain on a hosted Mnemo, and sync them (through the running local server)',
    );

  withServer(
    sync
      .command('add')
      .description(
        'pair the Brain (or change its pairing) once the remote has shown a sync would work; it syncs at once',
      ),
  )
    .requiredOption('--remote <url>', "the hosted Mnemo's base URL, ending in /v1")
    .option(
      '--remote-key <key>',
      'a key of the hosted Mnemo (env MNEMO_REMOTE_KEY); kept in the encrypted store only',
    )
    .option('--remote-brain <brain>', 'the Brain there (default: the same id)', bySchema(Slug))
    .option('--json', 'print the status after pairing as one JSON object (an error as {"error": ...})', false)
    .action(
      async (
        flags: ServerFlags & { remote: string; remoteKey?: string; remoteBrain?: string; json: boolean },
      ) => {
        if (flags.remoteKey !== undefined)
          keyOnCommandLineWarning('sync add', '--remote-key', 'set MNEMO_REMOTE_KEY instead');
        // Keys are pasted or read from files (`$(cat key)`): a line break around one is not part of it.
        const remoteKey = (flags.remoteKey ?? process.env.MNEMO_REMOTE_KEY)?.trim();
        if (!remoteKey) {
          usage(
            flags.json,
            {
              type: 'invalid_request',
              code: 'invalid_request_body',
              message: 'remote_key: pass --remote-key or set MNEMO_REMOTE_KEY',
            },
            'mnemo sync add: pass --remote-key or set MNEMO_REMOTE_KEY',
          );
          return;
        }
        const client = await localServer(flags);
        if (!client) return;
        try {
          const s = await client.pairSync(flags.brain, {
            remote: flags.remote,
            remote_key: remoteKey,
            ...(flags.remoteBrain ? { remote_brain: flags.remoteBrain } : {}),
          });
          console.log(flags.json ? JSON.stringify(s) : formatStatus(s));
        } catch (e) {
          fail(e, flags.json);
        }
      },
    );

  withServer(sync.command('status').description('the pairing, counts, last success and last error'))
    .option('--json', 'print one JSON object', false)
    .action(async (flags: ServerFlags & { json: boolean }) => {
      const client = await localServer(flags);
      if (!client) return;
      try {
        const s = await client.getSync(flags.brain);
        console.log(flags.json ? JSON.stringify(s) : formatStatus(s));
      } catch (e) {
        fail(e, flags.json);
      }
    });

  withServer(
    sync
      .command('run')
      .description(
        'sync now; exit code 1 when the run failed, 3 when it stopped at its deadline with its progress kept ' +
          '(a long sync under way, which the server goes on with by itself)',
      ),
  )
    .option('--json', 'print the status after the run as one JSON object', false)
    .option(
      '--allow-more',
      "allow the pull another day's budget from now, when your own large history paused it (the admin key only)",
      false,
    )
    .action(async (flags: ServerFlags & { json: boolean; allowMore: boolean }) => {
      const client = await localServer(flags);
      if (!client) return;
      try {
        const s = await client.runSync(flags.brain, flags.allowMore ? { allowMore: true } : {});
        console.log(flags.json ? JSON.stringify(s) : formatStatus(s));
        if (s.last_error) {
          process.exitCode = s.catching_up ? 3 : 1;
          // The status is the command's output; why it failed is also said where a script looks for errors.
          if (!s.catching_up)
            console.error(`mnemo sync run: the run failed: ${s.last_error}\n${afterFailure(s)}`);
        }
      } catch (e) {
        fail(e, flags.json);
      }
    });

  withServer(
    sync
      .command('accept-forgets')
      .description(
        'confirm the forgets the remote asked for that sync held (the status says how many), and forget ' +
          "those Records here; needs the app's admin key",
      ),
  )
    .requiredOption(
      '--count <n>',
      'how many you confirm: the number the status gives; another number held now forgets nothing',
      nonNegativeInt,
    )
    .option('--json', 'print the status after it as one JSON object', false)
    .action(async (flags: ServerFlags & { count: number; json: boolean }) => {
      const client = await localServer(flags);
      if (!client) return;
      try {
        const s = await client.acceptSyncForgets(flags.brain, flags.count);
        console.log(flags.json ? JSON.stringify(s) : formatStatus(s));
      } catch (e) {
        fail(e, flags.json);
      }
    });

  withServer(sync.command('remove').description('unpair; nothing is deleted on either side'))
    .option('--json', 'print the status after unpairing as one JSON object', false)
    .action(async (flags: ServerFlags & { json: boolean }) => {
      const client = await localServer(flags);
      if (!client) return;
      try {
        const s = await client.unpairSync(flags.brain);
        console.log(
          flags.json
            ? JSON.stringify(s)
            : `Brain ${s.brain_id} is unpaired; nothing was deleted on either side`,
        );
      } catch (e) {
        fail(e, flags.json);
      }
    });
}
