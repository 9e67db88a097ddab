import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive } from './process-alive.ts';
import { storeFileName } from './store-file-name.ts';

/**
 * The drafts a backup or a restore killed midway (kill -9, a crash, a power loss) leaves behind: a
 * backup's `<out>.partial-<pid>` beside the file it was to become, wherever that is, and a restore's
 * `mnemo.db.restoring-<pid>` in the data dir. Each is a copy of the store, as large as the store and
 * holding what was forgotten since, that nothing else would ever remove.
 *
 * A backup notes its draft in the data dir before making it (`mnemo.backup-<pid>-<id>.json`), so the
 * next backup of that data dir, or the next engine to open it, finds the draft wherever it was written
 * and removes it once its process has ended. A process that is still there keeps its draft, and so
 * does one on another machine (a data dir on a shared disk), whose pids mean nothing here.
 */
export interface LeftDraft {
  file: string;
  /** The process that was writing it, and has ended. */
  pid: number;
}

/** What is said of a draft removed: a person may have thought that backup was made. */
export function leftDraftLine(left: LeftDraft): string {
  return (
    `removed ${left.file}, the unfinished copy of a backup or restore that ended midway ` +
    `(its process, pid ${left.pid}, is gone); that backup was not made`
  );
}

const backupNote = /^mnemo\.backup-(\d+)-[0-9a-f]+\.json$/;
const restoreDraft = new RegExp(`^${storeFileName.replaceAll('.', '\\.')}\\.restoring-(\\d+)$`);

/** A restore's draft of the store in `dataDir`, named after this process. */
export const restoreDraftName = (dataDir: string): string =>
  join(dataDir, `${storeFileName}.restoring-${process.pid}`);

/**
 * Notes in `dataDir` that this process is writing the backup draft `draft`; the function it returns
 * drops the note, once the draft is gone or has its name. Best effort: a data dir that cannot be
 * written in fails the backup itself, with the reason said better than here.
 */
export function noteBackupDraft(dataDir: string, draft: string): () => void {
  const note = join(dataDir, `mnemo.backup-${process.pid}-${randomBytes(4).toString('hex')}.json`);
  try {
    writeFileSync(note, JSON.stringify({ pid: process.pid, host: hostname(), draft }), {
      mode: 0o600,
      flag: 'wx',
    });
  } catch {
    return () => {};
  }
  return () => rmSync(note, { force: true });
}

/** Removes the drafts of `dataDir`'s backups and restores whose processes have ended; says which. */
export function removeDeadDrafts(dataDir: string): LeftDraft[] {
  let names: string[];
  try {
    names = readdirSync(dataDir);
  } catch {
    return [];
  }
  const removed: LeftDraft[] = [];
  for (const name of names) {
    const restoring = restoreDraft.exec(name);
    if (restoring) {
      const pid = Number(restoring[1]);
      const file = join(dataDir, name);
      if (!processAlive(pid) && removeDraft(file) === 'removed') removed.push({ file, pid });
      continue;
    }
    const noted = backupNote.exec(name);
    if (!noted) continue;
    const pid = Number(noted[1]);
    const note = join(dataDir, name);
    const left = readNote(note, pid);
    // Another machine's, or a process still at it (or a pid this machine reuses: kept, to be safe).
    if (left === 'elsewhere' || processAlive(pid)) continue;
    const draft = left === null ? 'gone' : removeDraft(left);
    // A draft that could not be removed keeps its note: the next one tries again.
    if (draft === 'kept') continue;
    if (draft === 'removed') removed.push({ file: left!, pid });
    removeFile(note);
  }
  return removed;
}

/**
 * The draft a note names, if it is a draft of that process (`….partial-<pid>`: never another file);
 * null for a note cut short by the crash, written before its draft was made.
 */
function readNote(note: string, pid: number): string | 'elsewhere' | null {
  let noted: { pid?: unknown; host?: unknown; draft?: unknown };
  try {
    noted = JSON.parse(readFileSync(note, 'utf8')) as typeof noted;
  } catch {
    return null;
  }
  if (noted.host !== hostname()) return 'elsewhere';
  const draft = noted.draft;
  if (noted.pid !== pid || typeof draft !== 'string' || !draft.endsWith(`.partial-${pid}`)) return null;
  return draft;
}

/**
 * Removes a draft and the journal SQLite keeps beside it while VACUUM INTO writes it: 'gone' when
 * neither was there (a backup that got its name before it died).
 */
function removeDraft(file: string): 'removed' | 'gone' | 'kept' {
  const there = [file, `${file}-journal`].filter((f) => existsSync(f));
  if (there.length === 0) return 'gone';
  try {
    for (const f of there) rmSync(f, { force: true });
    return 'removed';
  } catch {
    return 'kept';
  }
}

function removeFile(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Tried again next time.
  }
}
