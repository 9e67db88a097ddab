/**
 * Files a person chose or dropped for an import: their paths inside what was chosen, which of them
 * are worth sending (export formats hold text; pictures and attachments are left behind), and their
 * bytes as base64 for the import request.
 */
import type { ImportFile } from '../engine/contract/index.ts';
import { importMaxBodyBytes } from '../engine/contract/limits.ts';

export { addChosen } from './add-chosen.ts';

export interface ChosenFile {
  /** Relative path, "/"-separated: "Vault/notes/a.md" for a folder, "a.md" for a lone file. */
  path: string;
  file: File;
}

/**
 * Raw bytes sent at most in one import: base64 grows bytes by a third, and 1 MiB of the server's body
 * limit is left for names, JSON and the rest of the request (32 MiB -> 23 MiB of files).
 */
export const maxImportBytes =
  Math.floor(((importMaxBodyBytes - 1024 * 1024) * 3) / 4 / (1024 * 1024)) * 1024 * 1024;

/** Files from an <input type="file">, with their folder path when a folder was chosen. */
export function fromInput(list: FileList | null): ChosenFile[] {
  return [...(list ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

async function walk(entry: FileSystemEntry, out: ChosenFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    out.push({ path: entry.fullPath.replace(/^\/+/, ''), file });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches (about 100 at a time) until it returns none.
  for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader)) {
    for (const child of batch) await walk(child, out);
  }
}

/** Files and whole folders dropped on the page. */
export async function fromDrop(data: DataTransfer): Promise<ChosenFile[]> {
  const entries = [...data.items]
    .filter((i) => i.kind === 'file')
    .map((i) => i.webkitGetAsEntry())
    .filter((e): e is FileSystemEntry => e !== null);
  if (entries.length === 0) return fromInput(data.files);
  const out: ChosenFile[] = [];
  for (const e of entries) await walk(e, out);
  return out;
}

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name}: cannot be read`));
    // A data: URL is the browser's own base64 encoder: "data:<type>;base64,<bytes>".
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.readAsDataURL(file);
  });
}

/** The request's files: each path with its bytes and modification time. */
export async function toImportFiles(files: readonly ChosenFile[]): Promise<ImportFile[]> {
  return Promise.all(
    files.map(async (f) => ({
      name: f.path,
      content_base64: await base64Of(f.file),
      ...(f.file.lastModified ? { last_modified: new Date(f.file.lastModified).toISOString() } : {}),
    })),
  );
}
