import { Command, CommanderError } from 'commander';
import { shownUrl } from '../../engine/index.ts';
import { register as registerBackup } from './commands/backup.ts';
import { register as registerBench } from './commands/bench.ts';
import { register as registerCompact } from './commands/compact.ts';
import { register as registerExport } from './commands/export.ts';
import { register as registerImport } from './commands/import.ts';
import { register as registerKeys } from './commands/keys.ts';
import { register as registerMcp } from './commands/mcp.ts';
import { register as registerServe } from './commands/serve.ts';
import { register as registerSync } from './commands/sync.ts';
import { dropOutputOnceStdoutCloses } from './closed-stdout.ts';
import { UsageError } from './options.ts';
import { noHeldSignals, type CommandContext, type HeldSignals } from './held-signals.ts';

/** `mnemo`: the command line fixed by cli-and-harness.md. */
export async function main(argv: string[], heldSignals: HeldSignals = noHeldSignals): Promise<void> {
  dropOutputOnceStdoutCloses();
  const program = new Command('mnemo')
    .description('Mnemo: local-first memory for people and their AI agents')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride()
    // commander repeats a refused option's value ("argument '<value>' is invalid"): a database URL's
    // may hold its password, so it is shown as the log shows it.
    .configureOutput({ outputError: (text, write) => write(withoutDatabaseUrls(text, argv)) });
  const commands: Array<(program: Command, context: CommandContext) => void> = [
    registerServe,
    registerKeys,
    registerImport,
    registerExport,
    registerMcp,
    registerSync,
    registerBackup,
    registerBench,
    registerCompact,
  ];
  for (const register of commands) register(program, { heldSignals });
  // Only `serve` stops on a signal of its own; the others get one held during start-up back now.
  program.hook('preAction', (_program, action) => {
    if (action.name() !== 'serve' || action.parent !== program) reraise(heldSignals);
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // A call commander refuses (an unknown option, a bad value, a missing argument) exits 2, as
      // Mnemo's own usage checks do: 1 is a command that failed, which a script must tell apart.
      process.exitCode = e.exitCode === 0 ? 0 : 2;
      return;
    }
    const cause = (e as Error).cause;
    console.error(`mnemo: ${(e as Error).message}`);
    // Local detail an API client must not see (a file's path or contents): here the user is at home.
    if (cause instanceof Error && !(e as Error).message.includes(cause.message))
      console.error(`mnemo: (${cause.message})`);
    process.exitCode = e instanceof UsageError ? 2 : 1;
  } finally {
    reraise(heldSignals);
  }
}

/**
 * TEXT with every `--database-url` value of ARGV as shownUrl shows it (no password), where commander
 * quotes it ("argument '…' is invalid"): the value's text elsewhere ("s" in "--database-url") stays.
 */
export function withoutDatabaseUrls(text: string, argv: readonly string[]): string {
  const values = argv.flatMap((a, i) =>
    a === '--database-url' && i + 1 < argv.length
      ? [argv[i + 1]!]
      : a.startsWith('--database-url=')
        ? [a.slice('--database-url='.length)]
        : [],
  );
  return values
    .filter((v) => v !== '')
    .reduce((out, v) => out.split(`'${v}'`).join(`'${shownUrl(v)}'`), text);
}

/** Node's default for a signal held while nothing could act on it: the process ends by it. */
function reraise(heldSignals: HeldSignals): void {
  const [first] = heldSignals.release();
  if (first) process.kill(process.pid, first);
}
