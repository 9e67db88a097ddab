import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ImportItem, ImportRecord, ImportSkip } from './import-item.ts';

/** Drains a parser into records and skips (tests only). */
export async function collect(items: AsyncIterable<ImportItem> | Iterable<ImportItem>) {
  const records: ImportRecord[] = [];
  const skips: ImportSkip[] = [];
  for await (const item of items) (item.type === 'record' ? records : skips).push(item as never);
  return { records, skips };
}

/** A temp folder with the given files (string or raw bytes); returns its path and a remover. */
export function writeTree(files: Record<string, string | Uint8Array>): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'mnemo-import-'));
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A calendar whose one weekly series (three standups from 7 March 2022) lies before the default window. */
export const standups2022Ics = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'BEGIN:VEVENT',
  'UID:standup-2022',
  'DTSTART:20220307T090000Z',
  'RRULE:FREQ=WEEKLY;COUNT=3',
  'SUMMARY:Team standup',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');
