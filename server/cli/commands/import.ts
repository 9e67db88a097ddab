import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import cliProgress from 'cli-progress';
import { chatSources, Slug } from '../../../engine/contract/index.ts';
import { MnemoApiError, createMnemoClient, type MnemoClient } from '../../client/index.ts';
import { importFormats, type ImportFormat } from '../../import/import-item.ts';
import type { ImportProgress, ImportSummary } from '../../import/run-import.ts';
import { isTimeZone } from '../../import/zoned-time.ts';
import { removeTempFolders } from '../../import/temp-folders.ts';
import { emptyWindowMessage } from '../../import/formats/recurrence-window.ts';
import { bySchema, keyOnCommandLineWarning, nonNegativeInt, urlOptionHelp } from '../options.ts';
import { apiBaseFor } from '../locate-server.ts';
import { errorMessage } from '../../../engine/index.ts';

/** Reports a failed import or removal on stderr (the API's code when there is one) and fails the command. */
function fail(e: unknown): void {
  const detail = e instanceof MnemoApiError ? `${e.code}: ${e.message}` : errorMessage(e);
  console.error(`mnemo import: ${detail}`);
  process.exitCode = 1;
}

interface ImportFlags {
  brain: string;
  format: ImportFormat | 'auto';
  url?: string;
  key?: string;
  concurrency: number;
  timeZone?: string;
  self?: string;
  dateOrder?: 'dmy' | 'mdy';
  visibility?: 'local_only' | 'redacted_summary' | 'shareable';
  since?: Date;
  until?: Date;
  json: boolean;
  remove?: string;
  chat?: string;
  list: boolean;
  forgetMissing: boolean;
  dryRun: boolean;
}

function dateArg(v: string): Date {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw new InvalidArgumentError('must be a date, e.g. 2023-01-01');
  return d;
}

/** `  N x REASON (examples)` lines, most frequent reason first. */
function grouped(items: { ref: string; reason: string }[]): string[] {
  const byReason = new Map<string, string[]>();
  for (const k of items) byReason.set(k.reason, [...(byReason.get(k.reason) ?? []), k.ref]);
  return [...byReason]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([reason, refs]) => {
      const shown = refs.slice(0, 3).join('; ');
      return `  ${refs.length} x ${reason} (${shown}${refs.length > 3 ? `; +${refs.length - 3} more` : ''})`;
    });
}

/**
 * Human summary: counts, then each file's counts when a folder held several, skip reasons grouped with
 * a few examples each, notes on what was imported with a caveat, failures.
 */
export function formatSummary(s: ImportSummary): string {
  const counts = `imported ${s.imported}, replaced ${s.replaced}, unchanged ${s.unchanged}, skipped ${s.skipped}, failed ${s.failed}`;
  const readable = s.parts.filter((p) => p.format !== null);
  const formats = [...new Set(readable.map((p) => p.format))].join(', ');
  const lines = s.dryRun
    ? [
        `dry run, nothing written: ${s.total - s.skipped} items to send (new, changed or unchanged) to brain "${s.brain}", skipped ${s.skipped}`,
      ]
    : s.nothingToImport
      ? [`nothing to import: brain "${s.brain}" was not touched; skipped ${s.skipped}`]
      : [
          `${s.format === 'mixed' ? formats : s.format} -> brain "${s.brain}"${s.brainCreated ? ' (created)' : ''}: ${counts} ` +
            `in ${(s.elapsedMs / 1000).toFixed(1)} s`,
        ];
  if (readable.length > 1 && !s.dryRun) {
    lines.push('files:');
    for (const p of readable)
      lines.push(
        `  ${p.name} (${p.format}): imported ${p.imported}, replaced ${p.replaced}, unchanged ${p.unchanged}, skipped ${p.skipped}, failed ${p.failed}`,
      );
  }
  if (s.skippedItems.length) lines.push('skipped:', ...grouped(s.skippedItems));
  if (s.notes.length)
    lines.push('imported with a note:', ...grouped(s.notes.map((n) => ({ ref: n.ref, reason: n.note }))));
  const matched = s.matchedNotes;
  if (matched.count) {
    // Matched by folder and file name only: a note of another folder of that name would be merged too.
    lines.push(
      `${matched.count === 1 ? '1 note was' : `${matched.count} notes were`} written under the name the brain already had for it (chosen another way):`,
      ...matched.examples.map((m) => `  ${m.item} -> ${m.name}`),
    );
    if (matched.count > matched.examples.length)
      lines.push(`  +${matched.count - matched.examples.length} more`);
  }
  if (s.forgottenItems.length) {
    const verb = s.dryRun ? 'would forget' : 'forgot';
    lines.push(
      `${verb} ${s.forgottenItems.length} item${s.forgottenItems.length === 1 ? '' : 's'} missing from ${s.dryRun ? 'the files' : 'the files, with every revision'}` +
        (s.dryRun ? ':' : ` (${s.forgottenRecords} Records, ${s.forgottenMemories} Memories):`),
      ...s.forgottenItems.slice(0, 20).map((i) => `  ${i.source}: ${i.externalId}`),
    );
    if (s.forgottenItems.length > 20) lines.push(`  +${s.forgottenItems.length - 20} more`);
  }
  for (const n of s.forgetNotes) lines.push(`kept: ${n}`);
  for (const n of s.heldNotes) lines.push(`note: ${n}`);
  if (s.failedItems.length) lines.push('failed:');
  for (const f of s.failedItems.slice(0, 20)) lines.push(`  ${f.ref}: ${f.code}: ${f.reason}`);
  if (s.failedItems.length > 20) lines.push(`  +${s.failedItems.length - 20} more`);
  return lines.join('\n');
}

/**
 * Ctrl-C or a SIGTERM while an import runs: the progress bar gives the terminal its cursor and line
 * wrapping back, the person is told what is kept and how to go on, and the signal then ends the
 * process as it would have (exit 130 for Ctrl-C). The bar had hidden the cursor for good, and nothing
 * was said.
 */
function onInterrupt(
  display: { stop: () => void; last: () => ImportProgress | null },
  dryRun: boolean,
): () => void {
  const stops: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const interrupted = (signal: NodeJS.Signals) => {
    for (const s of stops) process.off(s, interrupted);
    display.stop();
    // Ended by the signal, the import's own clean-up never runs: archives it unpacked go now.
    removeTempFolders();
    const p = display.last();
    const sofar =
      p === null
        ? ''
        : p.counting !== undefined
          ? ` while counting the items to import (${p.counting} so far), before any was sent`
          : p.scanning !== undefined && p.done === 0
            ? ` while reading ${basename(p.scanning.ref)} (${Math.floor(p.scanning.fraction * 100)}%), before any item`
            : p.expected === undefined
              ? ` after ${p.done} of the ${p.total} items read so far`
              : ` after ${p.done} of about ${p.expected} items`;
    console.error(
      dryRun
        ? `\nmnemo import: stopped${sofar}. A dry run: nothing was written.`
        : `\nmnemo import: stopped${sofar}. What was written is kept; the same command again goes on (items already stored count as unchanged).`,
    );
    process.kill(process.pid, signal);
  };
  for (const s of stops) process.on(s, interrupted);
  return () => {
    for (const s of stops) process.off(s, interrupted);
  };
}

function progressDisplay(): {
  update: (p: ImportProgress) => void;
  stop: () => void;
  last: () => ImportProgress | null;
} {
  let last: ImportProgress | null = null;
  if (!process.stderr.isTTY)
    return {
      update: (p) => {
        last = p;
      },
      stop: () => {},
      last: () => last,
    };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format:
        'importing [{bar}] {value}/{total} | {rate}/s | ETA {eta_formatted} | skipped {skipped}, failed {failed}',
      etaBuffer: 200,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = Date.now();
  let begun = false;
  let scanShown = false;
  return {
    update(p) {
      last = p;
      // The count before the first item is sent, and a file read once before its first item (a large
      // mailbox): each said on one line, redrawn, until the bar starts.
      if (p.counting !== undefined || p.scanning !== undefined) {
        if (begun) return;
        process.stderr.write(
          p.counting !== undefined
            ? `\r\x1b[2Kcounting the items to import: ${p.counting}`
            : `\r\x1b[2Kreading ${basename(p.scanning!.ref)} before importing: ${Math.floor(p.scanning!.fraction * 100)}%`,
        );
        scanShown = true;
        return;
      }
      if (scanShown) {
        process.stderr.write('\r\x1b[2K');
        scanShown = false;
      }
      const rate = (p.done / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(0);
      // Records are sent as they are parsed, so `total` is a queue ahead of `done` until the last is
      // read: the bar's end is what the import was counted to hold (countFirst).
      const total = Math.max(p.total, p.expected ?? 0);
      if (!begun) {
        bar.start(total, p.done, { rate, skipped: p.skipped, failed: p.failed });
        begun = true;
      } else {
        bar.setTotal(total);
        bar.update(p.done, { rate, skipped: p.skipped, failed: p.failed });
      }
    },
    stop: () => {
      if (begun) bar.stop();
      else if (scanShown) process.stderr.write('\n');
      begun = false;
      scanShown = false;
    },
    last: () => last,
  };
}

/** A source's chats; none from a server older than the route (404 for the path itself). */
async function chatsOf(client: MnemoClient, brain: string, source: string) {
  try {
    return (await client.listSourceChats(brain, source)).data;
  } catch (e) {
    if (e instanceof MnemoApiError && e.code === 'http_404') return [];
    throw e;
  }
}

const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * `--list` and `--remove`: what was imported into a Brain, and removing one import whole, or one chat
 * of it (`--chat`: WhatsApp keeps every chat under one source, so removing the source took them all).
 */
async function manageSources(client: MnemoClient, flags: ImportFlags): Promise<void> {
  try {
    if (flags.list) {
      const { data, without_source: unsourced = null } = await client.listSources(flags.brain);
      // A chat source's chats are listed under it, by the names --chat takes.
      const listed = await Promise.all(
        data.map(async (s) =>
          chatSources.includes(s.name)
            ? {
                ...s,
                chats: (await chatsOf(client, flags.brain, s.name)).map((c) => ({
                  name: c.name,
                  messages: c.messages,
                })),
              }
            : s,
        ),
      );
      // Records written over /v1 with no source are no import, and --remove cannot name them; but left
      // out, a Brain of only those read as empty. Said apart, after the sources.
      const apart =
        unsourced === null
          ? ''
          : `written over the API with no source: ${counted(unsourced.records, 'Record')}` +
            `\t${unsourced.first_occurred_at.slice(0, 10)} .. ${unsourced.last_occurred_at.slice(0, 10)}\n`;
      if (flags.json) process.stdout.write(`${JSON.stringify(listed)}\n`);
      else if (data.length === 0) process.stdout.write(`brain "${flags.brain}" has no sources\n${apart}`);
      else {
        for (const s of listed) {
          // What the source holds now, by item: an edited note's replaced version stays a Record of it
          // (its history), so "3 Records" was said of 2 notes. Replaced versions are said apart.
          const replaced = s.records - s.items;
          const imported = s.items - (s.records - s.reconciled_records);
          process.stdout.write(
            `${s.name}\t${counted(s.items, 'item')} (${imported} imported)` +
              (replaced > 0 ? `, ${counted(replaced, 'replaced version')}` : '') +
              `\t${s.first_occurred_at.slice(0, 10)} .. ${s.last_occurred_at.slice(0, 10)}\n`,
          );
          if ('chats' in s)
            for (const c of s.chats)
              process.stdout.write(`  chat ${JSON.stringify(c.name)}\t${c.messages} messages\n`);
        }
        process.stdout.write(apart);
      }
      return;
    }
    const receipt =
      flags.chat === undefined
        ? await client.forgetSource(flags.brain, flags.remove!)
        : await client.forgetSourceChat(flags.brain, flags.remove!, flags.chat);
    const what =
      flags.chat === undefined
        ? `source "${flags.remove}"`
        : `chat ${JSON.stringify(flags.chat)} of source "${flags.remove}"`;
    process.stdout.write(
      flags.json
        ? `${JSON.stringify(receipt)}\n`
        : `removed ${what} from brain "${flags.brain}": ${receipt.deleted.records} Records and ` +
            `${receipt.deleted.memories} Memories forgotten, ${receipt.rederiving.memories} Memories being worked out again from what remains\n`,
    );
  } catch (e) {
    fail(e);
  }
}

export function register(program: Command): void {
  program
    .command('import')
    .description(
      "import notes, chats, mail, calendars or contacts through a running server's /v1 API; " +
        'or list the imports of a Brain (--list), or remove a whole import (--remove SOURCE) or one chat of it ' +
        '(--remove whatsapp --chat NAME)',
    )
    .argument(
      '[path]',
      'file or folder of the export; a folder of several files is read file by file, a .zip in it as what it holds',
    )
    .requiredOption('--brain <brain>', 'Brain to import into (created when missing)', bySchema(Slug))
    .addOption(
      new Option('--format <format>', 'export format').choices(['auto', ...importFormats]).default('auto'),
    )
    .option('--url <url>', urlOptionHelp)
    .option('--key <key>', 'API key (env MNEMO_KEY)')
    .option('--concurrency <n>', 'requests in flight at once', nonNegativeInt, 8)
    .option(
      '--time-zone <zone>',
      'IANA zone of times written without an offset (WhatsApp, floating calendar times, note front matter)',
      (v: string) => {
        if (!isTimeZone(v)) throw new InvalidArgumentError('must be an IANA time zone, e.g. Europe/Berlin');
        return v;
      },
    )
    .option(
      '--self <name>',
      'the sender name that is you (WhatsApp, Slack, mail): recorded as speaker "self"; default: the name of the Brain\'s own person, as the app\'s import has it',
    )
    .addOption(
      new Option(
        '--date-order <order>',
        'day and month order of WhatsApp dates and of numeric note dates (05/01/2024) when they cannot tell',
      ).choices(['dmy', 'mdy']),
    )
    .addOption(
      new Option(
        '--visibility <visibility>',
        "the Records' visibility (default shareable): local_only never leaves this device, redacted_summary " +
          'syncs only redacted; Records imported before keep their own (forget them with --remove)',
      ).choices(['local_only', 'redacted_summary', 'shareable']),
    )
    .option('--since <date>', 'recurring events: expand from this date (default: two years ago)', dateArg)
    .option('--until <date>', 'recurring events: expand until this date (default: a year from now)', dateArg)
    .option('--json', 'print the summary as JSON', false)
    .option(
      '--remove <source>',
      'forget every Record of this source name (e.g. whatsapp, obsidian) in the Brain, and what was derived from them',
    )
    .option(
      '--chat <name>',
      'with --remove whatsapp: forget only this chat (as --list names it, e.g. "Porto trip"); the other chats stay',
    )
    .option(
      '--list',
      "list the Brain's sources (source names, items and replaced versions, time span), each WhatsApp chat, and how many Records were written with no source",
      false,
    )
    .option(
      '--forget-missing',
      'also forget what is gone from PATH, once all of it was read and written: notes, and calendar events and ' +
        'contact cards deleted (or cancelled) from the .ics/.vcf files under it, or gone with their file; ' +
        'permanent, with what rested only on them. An event another file still holds stays; chats and mail ' +
        'are never forgotten so',
      false,
    )
    .option(
      '--dry-run',
      'read PATH and write nothing: say what would be sent and (--forget-missing) forgotten',
      false,
    )
    .action(async (path: string | undefined, flags: ImportFlags) => {
      if (flags.key !== undefined) keyOnCommandLineWarning('import', '--key', 'set MNEMO_KEY instead');
      const apiKey = flags.key ?? process.env.MNEMO_KEY;
      const modes = [path !== undefined, flags.remove !== undefined, flags.list].filter(Boolean).length;
      if (modes !== 1) {
        console.error('mnemo import: give exactly one of PATH, --remove SOURCE or --list');
        process.exitCode = 2;
        return;
      }
      // Ignored, --chat would have the whole source forgotten for good.
      if (flags.chat !== undefined && flags.remove === undefined) {
        console.error(
          'mnemo import: --chat goes with --remove SOURCE (--remove whatsapp --chat NAME); nothing was done',
        );
        process.exitCode = 2;
        return;
      }
      // Both apply to importing PATH: ignored beside --remove, a --dry-run meant as a preview would
      // forget the whole import for good.
      const pathOnly = [flags.dryRun && '--dry-run', flags.forgetMissing && '--forget-missing'].filter(
        Boolean,
      );
      if (path === undefined && pathOnly.length > 0) {
        console.error(
          `mnemo import: ${pathOnly.join(' and ')} go${pathOnly.length === 1 ? 'es' : ''} with PATH, not with ` +
            `${flags.list ? '--list' : '--remove SOURCE'}; nothing was done` +
            (flags.remove !== undefined ? ' (--list shows what --remove would forget)' : ''),
        );
        process.exitCode = 2;
        return;
      }
      if (!apiKey) {
        console.error(
          'mnemo import: pass --key or set MNEMO_KEY (mnemo keys create --project P --env live makes one)',
        );
        process.exitCode = 2;
        return;
      }
      const server = await apiBaseFor('import', flags.url);
      if (server === null) return;
      if (path === undefined) {
        await manageSources(createMnemoClient({ ...server, apiKey }), flags);
        return;
      }
      const given = {
        ...(flags.since ? { windowStart: flags.since } : {}),
        ...(flags.until ? { windowEnd: flags.until } : {}),
      };
      const empty = emptyWindowMessage(given, new Date(), {
        since: '--since',
        until: '--until',
      });
      if (empty) {
        console.error(`mnemo import: ${empty}`);
        process.exitCode = 2;
        return;
      }
      // Before anything is sent: a path that is not there is the command line's mistake, said plainly.
      const missing = await stat(path).then(
        () => null,
        (e: NodeJS.ErrnoException) => e,
      );
      if (missing) {
        console.error(
          `mnemo import: ${
            missing.code === 'ENOENT' || missing.code === 'ENOTDIR'
              ? `there is no file or folder at ${path}`
              : `cannot read ${path}: ${errorMessage(missing)}`
          }`,
        );
        process.exitCode = 2;
        return;
      }
      const display = progressDisplay();
      const released = onInterrupt(display, flags.dryRun);
      try {
        const { runImport } = await import('../../import/run-import.ts');
        const summary = await runImport({
          client: createMnemoClient({ ...server, apiKey }),
          brainId: flags.brain,
          path,
          format: flags.format,
          concurrency: Math.max(1, flags.concurrency),
          timeZone: flags.timeZone,
          selfName: flags.self,
          dateOrder: flags.dateOrder,
          visibility: flags.visibility,
          windowStart: flags.since,
          windowEnd: flags.until,
          forgetMissing: flags.forgetMissing,
          dryRun: flags.dryRun,
          // Where a bar is drawn, its end and ETA are right from the start: the count costs a few
          // percent of an import's time (countItems). A pipe sees only the summary.
          countFirst: process.stderr.isTTY,
          onProgress: display.update,
        });
        released();
        display.stop();
        process.stdout.write(`${flags.json ? JSON.stringify(summary) : formatSummary(summary)}\n`);
        if (summary.nothingToImport)
          console.error(
            `mnemo import: nothing in ${path} can be imported${flags.format === 'auto' ? '' : ` as ${flags.format}`}; ` +
              `nothing was written to brain "${summary.brain}" (${summary.skipped ? 'the skipped list says why' : 'it holds no files to read'})`,
          );
        // The command line's spec: exit 0 when every item was imported, unchanged or skipped with a
        // reason, which holds for an export with nothing to import too (each file's reason is listed).
        process.exitCode = summary.failed === 0 ? 0 : 1;
      } catch (e) {
        released();
        display.stop();
        fail(e);
      }
    });
}
