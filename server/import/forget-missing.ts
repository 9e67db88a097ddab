import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../../engine/index.ts';
import { readFoldedText } from './decode-text.ts';
import type { ImportRecord } from './import-item.ts';
import { isIgnored, walkFolder } from './walk-folder.ts';
import { isNoteFile } from './formats/note-file.ts';
import { noteIdentities } from './formats/note-identity.ts';

/**
 * What `--forget-missing` (`forget_missing` on an upload) reconciles, and how
 * (docs/decisions/import-mcp.md, "Forgetting what is missing"):
 *
 * - notes (`markdown`, `obsidian`): by where they live. The stored notes under the imported root
 *   (a folder's prefix, a file's own name, each vault found inside the root whole) that no note file
 *   under the root is named as now. A note present but unreadable, empty or skipped is still there.
 * - calendars (`ics`) and contacts (`vcf`): an item's id is its UID, never its file, so the Brain cannot
 *   tell which file an event came from, and one missing from this import's calendars may be another
 *   calendar's. They are never forgotten: those missing (by UID, read from the files' lines, so an
 *   event skipped is still there) are counted in what was kept, with the remedy.
 * - chats and mail are logs that exports cut (a date range, the last messages, one folder): never.
 */

type NoteSource = 'markdown' | 'obsidian';
type WholeSource = 'ics' | 'vcf';

/** Where stored notes lie that the import covers: under `prefix` (a folder's, ending in `/`), or it exactly. */
interface NoteScope {
  source: NoteSource;
  prefix: string;
  exact: boolean;
}

/** One item found missing: a stored external id of a source. */
export interface MissingItem {
  source: string;
  externalId: string;
}

export interface MissingPlan {
  /** What to forget, by source: external ids. */
  bySource: Map<string, string[]>;
  /** Why some or all of what is missing is kept, each a sentence the report shows. */
  kept: string[];
}

// A probe name no file has, to ask how a folder's contents are named (note-identity.ts).
const probe = '\u0000';

const kinds: Record<WholeSource, { plural: string; file: string }> = {
  ics: { plural: 'calendar events', file: 'calendar (.ics)' },
  vcf: { plural: 'contact fields', file: 'contacts (.vcf)' },
};

/**
 * The UIDs a calendar or vCard file names, read from its lines (unfolded) rather than parsed: an event
 * the parser skips (cancelled, outside the recurrence window, unreadable) is still in the file.
 */
async function uidsIn(path: string): Promise<string[]> {
  const text = (await readFoldedText(path)).replace(/\r?\n[ \t]/g, '');
  const out: string[] = [];
  for (const m of text.matchAll(/^UID(?:;[^:\r\n]*)?:(.*)$/gim)) {
    const uid = m[1]!.trim();
    if (uid) out.push(uid);
  }
  return out;
}

/**
 * Collects, as an import reads, what is there now under what was imported, and says afterwards which
 * of the Brain's items are missing. Anything that may hide an item still there (a folder or file that
 * cannot be read, a read that failed part way, a failed write) keeps everything: `cannotForget`.
 */
export class MissingItems {
  private readonly scopes: NoteScope[] = [];
  private readonly notes = new Map<NoteSource, Set<string>>([
    ['markdown', new Set()],
    ['obsidian', new Set()],
  ]);
  /** Exact external ids seen, and item prefixes (`ics:<uid>`, `vcf:<uid>:`) of whole-file sources. */
  private readonly exact = new Map<WholeSource, Set<string>>([
    ['ics', new Set()],
    ['vcf', new Set()],
  ]);
  private readonly items = new Map<WholeSource, Set<string>>([
    ['ics', new Set()],
    ['vcf', new Set()],
  ]);
  private readonly wholeSources = new Set<WholeSource>();
  private readonly blocked: string[] = [];

  /** Something under the root could not be read, or was not written: nothing is forgotten. */
  cannotForget(why: string): void {
    if (!this.blocked.includes(why)) this.blocked.push(why);
  }

  /**
   * The notes under each of ROOTS (what was imported: the PATH, or each chosen entry of an upload),
   * found by a walk of their own, paths only, and named as the reader names them; `storedName` gives a
   * plain note the name the Brain knows it by (KnownNoteNames). Each root's scope is how its contents
   * are named, and each vault inside it whole.
   */
  async coverNotes(
    roots: readonly string[],
    uploadRoot: string | undefined,
    storedName: (id: string) => Promise<string>,
  ): Promise<void> {
    const identify = noteIdentities(uploadRoot ? await realpath(uploadRoot) : null);
    const seen = async (real: string) => {
      const id = await identify(real);
      const name = id.source === 'markdown' ? await storedName(id.externalId) : id.externalId;
      this.notes.get(id.source)!.add(name);
      return id;
    };
    for (const root of roots) {
      const real = await realpath(root);
      if (!(await stat(real)).isDirectory()) {
        if (!isNoteFile(real)) continue;
        const id = await seen(real);
        this.scopes.push({ source: id.source, prefix: id.externalId, exact: true });
        continue;
      }
      const inside = await identify(join(real, probe));
      this.scopes.push({
        source: inside.source,
        prefix: inside.externalId.slice(0, -probe.length),
        exact: false,
      });
      const vaults = new Set<string>();
      for await (const e of walkFolder(root)) {
        if (e.type === 'skip') {
          if (/cannot be (read|followed)/.test(e.reason)) this.cannotForget(`${e.rel}: ${e.reason}`);
          continue;
        }
        if (e.type !== 'file' || !isNoteFile(e.rel)) continue;
        const id = await seen(e.real);
        // A vault inside the root is covered whole (one linked in from elsewhere is not).
        if (id.vault !== undefined && id.vault.startsWith(`${real}/`) && !vaults.has(id.vault)) {
          vaults.add(id.vault);
          this.scopes.push({
            source: 'obsidian',
            prefix: id.externalId.slice(0, -relIn(id.vault, e.real).length),
            exact: false,
          });
        }
      }
    }
  }

  /** A calendar or vCard file read whole: its UIDs are there, whatever became of its events. */
  async coverFile(format: WholeSource, path: string): Promise<void> {
    this.wholeSources.add(format);
    try {
      for (const uid of await uidsIn(path))
        this.items.get(format)!.add(format === 'ics' ? `ics:${uid}` : `vcf:${uid}:`);
    } catch (e) {
      this.cannotForget(`${path}: cannot be read: ${errorMessage(e)}`);
    }
  }

  /** A Record the import read (written, unchanged or skipped as a duplicate or invalid). */
  sawRecord(item: ImportRecord): void {
    const source = item.body.source.name;
    // A note read is there, even one the walk before the import did not see (made meanwhile).
    if (source === 'markdown' || source === 'obsidian') {
      this.notes.get(source)!.add(item.body.source.external_id);
      return;
    }
    if (source !== 'ics' && source !== 'vcf') return;
    this.exact.get(source)!.add(item.body.source.external_id);
    if (item.item !== undefined) this.items.get(source)!.add(item.item);
  }

  /** Whether the import looked at anything forget-missing reconciles. */
  get covers(): boolean {
    return this.scopes.length > 0 || this.wholeSources.size > 0;
  }

  /** The sources whose stored ids `missing` needs. */
  get sources(): string[] {
    return [...new Set([...this.scopes.map((s) => s.source), ...this.wholeSources])];
  }

  /**
   * The stored notes missing now, by source: STORED gives a source's external ids (null: they may not
   * be read). Kept, with the reason: everything when something could not be read or written; a note
   * scope none of whose stored notes is there now (a root that matched nothing, a vault renamed); and
   * every calendar event and contact missing from the files, which are counted and never forgotten.
   */
  async missing(stored: (source: string) => Promise<readonly string[] | null>): Promise<MissingPlan> {
    const bySource = new Map<string, string[]>();
    const kept: string[] = [];
    if (this.blocked.length > 0) {
      const shown =
        this.blocked.slice(0, 3).join('; ') +
        (this.blocked.length > 3 ? `; +${this.blocked.length - 3} more` : '');
      kept.push(
        `nothing was forgotten: not everything under what was imported was read and written (${shown}), ` +
          'so an item missing from this import may still be there; import it again once it reads',
      );
      return { bySource, kept };
    }
    for (const source of this.sources) {
      const ids = await stored(source);
      if (ids === null) {
        kept.push(
          `nothing of "${source}" was forgotten: this key may not read the Brain's Records (records:read), ` +
            'which telling what is missing needs',
        );
        continue;
      }
      const gone: string[] = [];
      if (source === 'markdown' || source === 'obsidian') {
        const present = this.notes.get(source)!;
        for (const scope of this.scopes.filter((s) => s.source === source)) {
          if (!scope.exact && scope.prefix === '') continue;
          const under = ids.filter((id) =>
            scope.exact
              ? id === scope.prefix
              : id.startsWith(scope.prefix) && !id.slice(scope.prefix.length).split('/').some(isIgnored),
          );
          const absent = under.filter((id) => !present.has(id));
          if (absent.length > 0 && absent.length === under.length && !scope.exact) {
            kept.push(
              `the ${under.length} ${source} note${under.length === 1 ? '' : 's'} the Brain holds under ` +
                `"${scope.prefix}" ${under.length === 1 ? 'is' : 'are'} all missing from this import, so none was ` +
                'forgotten (a folder renamed or emptied, or another one chosen?): remove them with ' +
                `mnemo import --remove ${source} if they should go`,
            );
            continue;
          }
          for (const id of absent) if (!gone.includes(id)) gone.push(id);
        }
      } else {
        const whole = source as WholeSource;
        const exact = this.exact.get(whole)!;
        const items = this.items.get(whole)!;
        const here = (id: string) => exact.has(id) || prefixesOf(whole, id).some((p) => items.has(p));
        const absent = ids.filter((id) => !here(id));
        const { plural, file } = kinds[whole];
        // Kept, and said: an item's id is its UID, never its file, so one missing here may have come
        // from a file this import does not hold (a calendar beside it, a vault's other folder).
        if (absent.length > 0)
          kept.push(
            `${absent.length} ${absent.length === 1 ? plural.replace(/s$/, '') : plural} the Brain holds ` +
              `${absent.length === 1 ? 'is' : 'are'} in no ${file} file of this import and ${absent.length === 1 ? 'was' : 'were'} kept: ` +
              `an item's identity is its UID, not its file, so it may come from another file imported before; ` +
              `to drop what your files no longer hold, remove them (mnemo import --remove ${whole}) and import all your ${file} files again`,
          );
        continue;
      }
      if (gone.length > 0) bySource.set(source, gone);
    }
    return { bySource, kept };
  }
}

/** FILE's path in VAULT, with `/`. */
function relIn(vault: string, file: string): string {
  return file
    .slice(vault.length + 1)
    .split('\\')
    .join('/');
}

/** The item prefixes an external id of SOURCE may belong to (`ics:<uid>` before `@`/`#`, `vcf:<uid>:`). */
function prefixesOf(source: WholeSource, id: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < id.length; i++) {
    const c = id[i];
    if (source === 'ics' && (c === '@' || c === '#')) out.push(id.slice(0, i));
    if (source === 'vcf' && c === ':') out.push(id.slice(0, i + 1));
  }
  return out;
}

/** The entries an upload's files were written as (each is what was chosen). */
export async function chosenEntries(root: string): Promise<string[]> {
  return (await readdir(root)).sort().map((name) => join(root, name));
}

/** External ids sent to forget at once (the route takes at most 1,000). */
const forgottenAtOnce = 500;

export interface Forgotten {
  items: MissingItem[];
  /** Records forgotten: every revision of each item. */
  records: number;
  /** Memories deleted because they rested on nothing else. */
  memories: number;
}

/**
 * Forgets PLAN's items through FORGET (forgetSourceItems of the engine or the API client), a batch at a
 * time, each batch one transaction with forgetRecord's cascade; `onBatch` hears each batch done.
 */
export async function forgetPlanned(
  plan: MissingPlan,
  forget: (
    source: string,
    externalIds: string[],
  ) => Promise<{ deleted: { records: number; memories: number } }>,
  onBatch?: (done: Forgotten) => void,
): Promise<Forgotten> {
  const done: Forgotten = { items: [], records: 0, memories: 0 };
  for (const [source, ids] of plan.bySource)
    for (let i = 0; i < ids.length; i += forgottenAtOnce) {
      const batch = ids.slice(i, i + forgottenAtOnce);
      const receipt = await forget(source, batch);
      done.items.push(...batch.map((externalId) => ({ source, externalId })));
      done.records += receipt.deleted.records;
      done.memories += receipt.deleted.memories;
      onBatch?.(done);
    }
  return done;
}

/** PLAN's items, listed as forgetPlanned would forget them (a dry run). */
export function plannedItems(plan: MissingPlan): MissingItem[] {
  return [...plan.bySource].flatMap(([source, ids]) => ids.map((externalId) => ({ source, externalId })));
}

/** How an import's end reconciles what is missing (reconcileMissing). */
export interface Reconcile {
  /** Items the import wrote or found unchanged; none means nothing tells what is missing. */
  written: number;
  /** Items that failed to be written: an item missing may be one of them, so nothing is forgotten. */
  failed: number;
  /** Why nothing was forgotten when nothing was written, said of what was imported. */
  nothingWritten: string;
  /** A source's stored external ids, or null when they may not be read. */
  stored: (source: string) => Promise<readonly string[] | null>;
  /** forgetSourceItems, of the engine or the API client. */
  forget: (
    source: string,
    externalIds: string[],
  ) => Promise<{ deleted: { records: number; memories: number } }>;
  /** List what would be forgotten, and forget nothing. */
  dryRun?: boolean;
  onForgotten?: (items: number) => void;
}

/**
 * After every item was read and written: the Brain's items under what was imported that the files no
 * longer hold, forgotten (a dry run: listed), or kept with the reasons in `notes` (something not read
 * or written, nothing imported, a folder that matched nothing, calendars and contacts).
 */
export async function reconcileMissing(
  missing: MissingItems,
  o: Reconcile,
): Promise<Forgotten & { notes: string[] }> {
  const none = { items: [], records: 0, memories: 0 };
  if (!missing.covers)
    return {
      ...none,
      notes: [
        'nothing was forgotten: forgetting what is missing applies to notes (calendars and contacts are counted), and this import held none; chats and mail are never forgotten so',
      ],
    };
  if (o.written === 0) return { ...none, notes: [o.nothingWritten] };
  if (o.failed > 0) missing.cannotForget(`${o.failed} item${o.failed === 1 ? '' : 's'} failed to be written`);
  const plan = await missing.missing(o.stored);
  if (o.dryRun) return { items: plannedItems(plan), records: 0, memories: 0, notes: plan.kept };
  const done = await forgetPlanned(plan, o.forget, (d) => o.onForgotten?.(d.items.length));
  return { ...done, notes: plan.kept };
}
