import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { monthNames } from '../../../engine/index.ts';

/** Moment.js tokens a daily note's format may use, longest first, each as a pattern and what it reads. */
const tokens: ReadonlyArray<[string, string, 'year' | 'short year' | 'month' | 'month name' | 'day' | null]> =
  [
    ['YYYY', String.raw`(\d{4})`, 'year'],
    ['YY', String.raw`(\d{2})`, 'short year'],
    ['MMMM', String.raw`(\p{L}+)`, 'month name'],
    ['MMM', String.raw`(\p{L}{3})`, 'month name'],
    ['MM', String.raw`(\d{2})`, 'month'],
    ['M', String.raw`(\d{1,2})`, 'month'],
    ['Do', String.raw`(\d{1,2})(?:st|nd|rd|th)`, 'day'],
    ['DD', String.raw`(\d{2})`, 'day'],
    ['D', String.raw`(\d{1,2})`, 'day'],
    ['dddd', String.raw`\p{L}+`, null],
    ['ddd', String.raw`\p{L}{2,3}`, null],
  ];

/**
 * A daily note's day read from its name by the moment.js format the vault's Daily notes plugin names
 * it with ("DD-MM-YYYY", "YYYY/MM/DD dddd", "[Journal] MMMM Do, YYYY"), as year, month and day; null
 * where the name is not in that format or names no day of the calendar. `name` is the note's path in
 * its folder without ".md" when the format holds a "/", else its file name.
 */
export function dayFromFormat(
  name: string,
  format: string,
): { year: number; month: number; day: number } | null {
  let pattern = '';
  const reads: Array<'year' | 'short year' | 'month' | 'month name' | 'day'> = [];
  for (let i = 0; i < format.length;) {
    if (format[i] === '[') {
      const close = format.indexOf(']', i);
      const literal = close < 0 ? format.slice(i + 1) : format.slice(i + 1, close);
      pattern += literal.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');
      i = close < 0 ? format.length : close + 1;
      continue;
    }
    const token = tokens.find(([t]) => format.startsWith(t, i));
    if (token) {
      pattern += token[1];
      if (token[2] !== null) reads.push(token[2]);
      i += token[0].length;
      continue;
    }
    pattern += format[i]!.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');
    i += 1;
  }
  if (!reads.includes('day') || !reads.some((r) => r === 'year' || r === 'short year')) return null;
  const m = new RegExp(`^${pattern}$`, 'iu').exec(name);
  if (!m) return null;
  let year = 0;
  let month = 0;
  let day = 0;
  reads.forEach((r, k) => {
    const v = m[k + 1]!;
    if (r === 'year') year = Number(v);
    else if (r === 'short year') year = 2000 + Number(v);
    else if (r === 'month') month = Number(v);
    else if (r === 'month name') month = monthNames.findIndex((n) => n.startsWith(v.toLowerCase())) + 1;
    else day = Number(v);
  });
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = month >= 1 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? { year, month, day } : null;
}

/** The Daily notes plugin's settings of a vault: its format and folder, when set. */
export interface DailyNotes {
  format: string;
  folder: string;
}

/** `.obsidian/daily-notes.json` of a vault, or null where it is absent, unreadable or has no format. */
export async function readDailyNotes(vault: string): Promise<DailyNotes | null> {
  const data = await dailyNotesSettings(vault);
  if (data === null) return null;
  const { format, folder } = data as { format?: unknown; folder?: unknown };
  if (typeof format !== 'string' || format.trim() === '') return null;
  return {
    format: format.trim(),
    folder: typeof folder === 'string' ? folder.split('/').filter(Boolean).join('/') : '',
  };
}

async function dailyNotesSettings(vault: string): Promise<object | null> {
  try {
    const data: unknown = JSON.parse(await readFile(join(vault, '.obsidian', 'daily-notes.json'), 'utf8'));
    return typeof data === 'object' && data !== null ? data : null;
  } catch {
    return null;
  }
}

/**
 * The notes a vault names as templates one by one: the Daily notes plugin's template
 * (`.obsidian/daily-notes.json` `template`, "Templates/Daily template"), kept wherever the person put
 * it, with or without a templates folder of the Templates plugin. Paths in the vault, without `.md`.
 */
export async function readTemplateNotes(vault: string): Promise<string[]> {
  const template = ((await dailyNotesSettings(vault)) as { template?: unknown } | null)?.template;
  if (typeof template !== 'string') return [];
  const clean = template.split('/').filter(Boolean).join('/').replace(/\.md$/iu, '');
  return clean === '' ? [] : [clean];
}

/**
 * The folders a vault keeps its templates in: the core Templates plugin's (`.obsidian/templates.json`)
 * and Templater's (`templates_folder`). Their notes are blanks with `{{title}}` in them, not notes.
 */
export async function readTemplateFolders(vault: string): Promise<string[]> {
  const folders: string[] = [];
  for (const [file, key] of [
    [join(vault, '.obsidian', 'templates.json'), 'folder'],
    [join(vault, '.obsidian', 'plugins', 'templater-obsidian', 'data.json'), 'templates_folder'],
  ] as const) {
    try {
      const data: unknown = JSON.parse(await readFile(file, 'utf8'));
      const folder =
        typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[key] : undefined;
      if (typeof folder === 'string') {
        const clean = folder.split('/').filter(Boolean).join('/');
        if (clean !== '') folders.push(clean);
      }
    } catch {
      // No such plugin, or settings it cannot read: no templates folder.
    }
  }
  return folders;
}
