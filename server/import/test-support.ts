import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import yazl from 'yazl';
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

/** An iCalendar file (CRLF lines) holding these events, each given as its property lines. */
export function icsOf(...events: string[][]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0'];
  for (const e of events) lines.push('BEGIN:VEVENT', ...e, 'END:VEVENT');
  return [...lines, 'END:VCALENDAR', ''].join('\r\n');
}

/** A ChatGPT export's conversations.json of one conversation: one message of the person's, TEXT. */
export function chatGptExportOf(title: string, text: string): string {
  const message = {
    id: 'm1',
    author: { role: 'user' },
    create_time: 1709550000,
    content: { content_type: 'text', parts: [text] },
  };
  return JSON.stringify([
    {
      title,
      conversation_id: 'c1',
      current_node: 'm1',
      mapping: { m1: { id: 'm1', parent: null, children: [], message } },
    },
  ]);
}

/** An all-day birthday on 15 April 2024 and a dentist at 17:00Z that day: the all-day shape and not. */
export const birthdayAndDentist = [
  [
    'UID:birthday@example.com',
    'DTSTART;VALUE=DATE:20240415',
    'DTEND;VALUE=DATE:20240416',
    "SUMMARY:Mum's birthday",
  ],
  ['UID:dentist@example.com', 'DTSTART:20240415T170000Z', 'DTEND:20240415T180000Z', 'SUMMARY:Dentist'],
];

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

/** A real zip archive, written by yazl: each path with its body (every entry's time MTIME when given). */
export async function zipBytes(files: Record<string, string | Buffer>, mtime?: Date): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [path, body] of Object.entries(files))
    z.addBuffer(Buffer.from(body), path, mtime === undefined ? {} : { mtime });
  z.end();
  const chunks: Buffer[] = [];
  for await (const c of z.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * ZIP with the entry NAME (a path under a three-letter folder, "xx/evil.md") named to land outside the
 * archive ("../evil.md"), as a zip-slip archive is: rewritten in place, in every header that names it.
 */
export function slipped(zip: Buffer, name: string): Buffer {
  for (let at = zip.indexOf(name); at >= 0; at = zip.indexOf(name, at + 1)) zip.write('../', at, 'latin1');
  return zip;
}
