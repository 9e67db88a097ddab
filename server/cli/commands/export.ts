import { once } from 'node:events';
import { closeSync, existsSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { Slug } from '../../../engine/contract/index.ts';
import { errorMessage, nameWithoutReplacing } from '../../../engine/index.ts';
import { MnemoApiError, createMnemoClient } from '../../client/index.ts';
import { exportBrain, writeExport, type ExportEnd } from '../../client/brain-export.ts';
import { bySchema, keyOnCommandLineWarning, urlOptionHelp } from '../options.ts';
import { apiBaseFor } from '../locate-server.ts';

interface ExportFlags {
  brain: string;
  url?: string;
  key?: string;
  localOnly: boolean;
}

/** Standard output as a pipe takes it: waits when the reader is slower than the export. */
async function toStdout(chunk: string): Promise<void> {
  if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
}

/** Removes DRAFT if the process is stopped by a signal before it is named, then stops as the signal would. */
function removeOnSignal(draft: string): () => void {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const handler = (signal: NodeJS.Signals) => {
    rmSync(draft, { force: true });
    for (const s of signals) process.off(s, handler);
    process.kill(process.pid, signal);
  };
  for (const s of signals) process.on(s, handler);
  return () => {
    for (const s of signals) process.off(s, handler);
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function summary(brain: string, end: ExportEnd, where: string): string {
  const left =
    end.left_out.records + end.left_out.memories > 0
      ? ` (left out: ${plural(end.left_out.records, 'Record', 'Records')}, ` +
        `${plural(end.left_out.memories, 'Memory', 'Memories')})`
      : '';
  return (
    `exported brain "${brain}": ${plural(end.records, 'Record', 'Records')}, ` +
    `${plural(end.memories, 'Memory', 'Memories')}, ${plural(end.objects, 'Object', 'Objects')}${left} ${where}`
  );
}

export function register(program: Command): void {
  program
    .command('export')
    .description(
      "write a Brain's Records, Memories and Objects as JSON Lines, each line a resource as /v1 serves it " +
        '(docs/agents.md, "Exporting a Brain"); the file is not encrypted',
    )
    .argument('[file]', 'file to write (never overwritten; owner-only); without it, standard output')
    .requiredOption('--brain <brain>', 'Brain to export', bySchema(Slug))
    .option('--url <url>', urlOptionHelp)
    .option('--key <key>', 'API key with records:read, memories:read and objects:read (env MNEMO_KEY)')
    .option(
      '--no-local-only',
      'leave out local_only Records and the Memories citing them, for a file that leaves this device',
    )
    .action(async (file: string | undefined, flags: ExportFlags) => {
      if (flags.key !== undefined) keyOnCommandLineWarning('export', '--key', 'set MNEMO_KEY instead');
      const apiKey = flags.key ?? process.env.MNEMO_KEY;
      if (!apiKey) {
        console.error(
          'mnemo export: pass --key or set MNEMO_KEY (mnemo keys create --project P --env live makes one)',
        );
        process.exitCode = 2;
        return;
      }
      // A Brain's every line on a terminal helps nobody, and it is easy to do by mistake.
      if (file === undefined && process.stdout.isTTY) {
        console.error('mnemo export: name a FILE, or send standard output to one (mnemo export … > FILE)');
        process.exitCode = 2;
        return;
      }
      const server = await apiBaseFor('export', flags.url);
      if (server === null) return;
      const client = createMnemoClient({ ...server, apiKey });
      const lines = exportBrain(client, flags.brain, { includeLocalOnly: flags.localOnly });
      const out = file === undefined ? null : resolve(file);
      // Written beside FILE under another name and named FILE only once whole: a failed or interrupted
      // export leaves no file that looks complete. Owner-only: it holds the person's memory in the clear.
      const draft = out === null ? null : `${out}.partial-${process.pid}`;
      const exists = `${out} exists already: an export never overwrites a file; name another`;
      // Said before the export is read, not after.
      const refused =
        out === null
          ? null
          : existsSync(out)
            ? exists
            : existsSync(dirname(out))
              ? null
              : `the folder ${dirname(out)} does not exist`;
      if (refused !== null) {
        console.error(`mnemo export: ${refused}`);
        process.exitCode = 1;
        return;
      }
      try {
        let end: ExportEnd;
        if (out === null || draft === null) {
          end = await writeExport(lines, toStdout);
        } else {
          const fd = openSync(draft, 'wx', 0o600);
          const release = removeOnSignal(draft);
          try {
            end = await writeExport(lines, (chunk) => void writeSync(fd, chunk));
            fsyncSync(fd);
          } finally {
            closeSync(fd);
            release();
          }
          nameWithoutReplacing(draft, out, exists);
        }
        const said = summary(flags.brain, end, out === null ? 'to standard output' : `to ${out}`);
        if (out === null) console.error(said);
        else console.log(said);
      } catch (e) {
        if (draft !== null) rmSync(draft, { force: true });
        const detail = e instanceof MnemoApiError ? `${e.code}: ${e.message}` : errorMessage(e);
        console.error(`mnemo export: ${detail}`);
        process.exitCode = 1;
      }
    });
}
