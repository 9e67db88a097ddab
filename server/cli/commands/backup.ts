import type { Command } from 'commander';
import type { ResolvedDbKey } from '../../../engine/index.ts';
import { defaultDataDir } from '../../data-dir.ts';

interface Where {
  dataDir?: string;
  dbKeyFile?: string;
}

const where = (cmd: Command) =>
  cmd
    .option('--data-dir <dir>', "the store's data dir (default: the per-user data directory)")
    .option(
      '--db-key-file <path>',
      'file holding the database key (else MNEMO_DB_KEY, else the key in the config dir)',
    );

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

function counts(s: { brains: number; records: number; memories: number }): string {
  const n = (x: number, one: string, many: string) => `${x} ${x === 1 ? one : many}`;
  return `${n(s.brains, 'Brain', 'Brains')}, ${n(s.records, 'Record', 'Records')}, ${n(s.memories, 'Memory', 'Memories')}`;
}

/** The key of a store that exists: never a new one (resolve-db-key.ts would create one for a new store). */
async function storeKey(o: Where, dataDir?: string): Promise<ResolvedDbKey> {
  const { locateDbKey } = await import('../../../engine/index.ts');
  const found = locateDbKey({ dbKeyFile: o.dbKeyFile, create: false, dataDir });
  if (found.warning) process.stderr.write(`mnemo: warning: ${found.warning}\n`);
  return found;
}

/**
 * A restored store opens only with the backup's key, and serve looks in the config dir unless told
 * otherwise: without this, a restore on a new machine with --db-key-file ended in serve's refusal.
 */
function keyReminder(key: ResolvedDbKey): string {
  if (key.source === 'env')
    return 'the restored store opens with the key in MNEMO_DB_KEY: set it for mnemo serve too';
  if (key.source === 'file')
    return `the restored store opens with the key in ${key.path}: start mnemo serve with --db-key-file ${key.path} too`;
  return '';
}

export function register(program: Command): void {
  where(
    program
      .command('backup')
      .description(
        "write a consistent, encrypted copy of the store to a file, also while a server is using it (restore it with 'mnemo restore')",
      )
      .requiredOption('--out <file>', 'the backup file to write (never overwritten)'),
  ).action(async (o: Where & { out: string }) => {
    // Loaded when run: SQLite and the store stay out of every other command's start-up.
    const { backupStore, leftDraftLine } = await import('../../../engine/index.ts');
    const dataDir = o.dataDir ?? defaultDataDir();
    const s = await backupStore({
      dataDir,
      key: (await storeKey(o, dataDir)).key,
      out: o.out,
    });
    for (const left of s.removedDrafts) process.stderr.write(`mnemo: ${leftDraftLine(left)}\n`);
    process.stdout.write(
      `backed up ${counts(s)} to ${s.file} (${megabytes(s.bytes)}, encrypted with this store's key: ` +
        'keep the key too, a restore needs it)\n',
    );
  });

  where(
    program
      .command('restore')
      .description(
        'put a backup in place as the store of a data dir no server is using; the store it replaces is kept beside it',
      )
      .requiredOption('--from <file>', "a file written by 'mnemo backup'"),
  ).action(async (o: Where & { from: string }) => {
    const { restoreStore, leftDraftLine } = await import('../../../engine/index.ts');
    const key = await storeKey(o);
    const s = await restoreStore({
      dataDir: o.dataDir ?? defaultDataDir(),
      key: key.key,
      from: o.from,
    });
    process.stdout.write(
      `restored ${counts(s)} from ${o.from} into ${s.file}` +
        (s.replaced ? `; the store it replaced is at ${s.replaced}` : '') +
        '\n',
    );
    // On stderr: the line above is the summary scripts read.
    for (const left of s.removedDrafts) process.stderr.write(`mnemo: ${leftDraftLine(left)}\n`);
    const reminder = keyReminder(key);
    if (reminder) process.stderr.write(`mnemo: ${reminder}\n`);
  });
}
