import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { readHead } from './decode-text.ts';
import type { ImportFormat } from './import-item.ts';
import { isSlackExport } from './formats/slack.ts';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** ChatGPT and Claude both name their export conversations.json; the shape tells them apart. */
async function conversationsFormat(file: string): Promise<ImportFormat | null> {
  const start = await readHead(file, 64 * 1024);
  if (/"mapping"\s*:/.test(start) || /"current_node"\s*:/.test(start)) return 'chatgpt';
  if (/"chat_messages"\s*:/.test(start)) return 'claude';
  return null;
}

/** The import that resolves: the format and, for a folder holding one file of it, that file. */
export interface Detected {
  format: ImportFormat;
  path: string;
}

/**
 * The export a folder is by its marker files: Slack's users.json and channels.json, Obsidian's
 * .obsidian, a ChatGPT or Claude conversations.json, WhatsApp's _chat.txt. Such a folder is read whole
 * by its format; null for any other folder. What else it holds is not thereby the export's: a vault's
 * other files, and the files beside a conversations.json that its export did not put there, are
 * planned one by one (plan-import.ts).
 */
export async function exportFolder(path: string): Promise<Detected | null> {
  if (await isSlackExport(path)) return { format: 'slack', path };
  if (await exists(join(path, '.obsidian'))) return { format: 'obsidian', path };
  const conv = join(path, 'conversations.json');
  if (await exists(conv)) {
    // Unreadable, it names no export: the walk then lists it as a file that cannot be read.
    const f = await conversationsFormat(conv).catch(() => null);
    if (f) return { format: f, path: conv };
  }
  // A folder that cannot be listed is no export either. Thrown, it ended a whole import over one
  // unreadable subfolder (EACCES); the walk reports it as "folder cannot be read" and goes on.
  const names = await readdir(path).catch(() => null);
  if (names?.includes('_chat.txt')) return { format: 'whatsapp', path: join(path, '_chat.txt') };
  return null;
}

/**
 * Guesses the format of PATH: folders by their marker files (exportFolder), else Markdown notes; files
 * by name and first bytes. Returns null when nothing fits; the caller then asks for --format.
 */
export async function detectFormat(path: string): Promise<Detected | null> {
  const info = await stat(path);
  if (info.isDirectory()) return (await exportFolder(path)) ?? { format: 'markdown', path };
  const ext = extname(path).toLowerCase();
  // A canvas is Obsidian's, read by the notes' reader as a note is (formats/canvas.ts).
  if (ext === '.md' || ext === '.markdown' || ext === '.canvas') return { format: 'markdown', path };
  if (ext === '.ics' || ext === '.ical' || ext === '.ifb') return { format: 'ics', path };
  if (ext === '.vcf' || ext === '.vcard') return { format: 'vcf', path };
  // A saved mail (.eml) is read as a mailbox of one: the same mail in an mbox is the same item.
  if (ext === '.mbox' || ext === '.mbx' || ext === '.eml') return { format: 'mbox', path };
  const start = await readHead(path);
  if (ext === '.json') {
    const f = await conversationsFormat(path);
    return f ? { format: f, path } : null;
  }
  if (/^BEGIN:VCALENDAR/im.test(start)) return { format: 'ics', path };
  if (/^BEGIN:VCARD/im.test(start)) return { format: 'vcf', path };
  if (/^From \S+ /.test(start)) return { format: 'mbox', path };
  // Header fields only a mail opens with (a saved mail without its .eml).
  if (/^(?:Return-Path|Received|Delivered-To):/i.test(start)) return { format: 'mbox', path };
  if (ext === '.txt' || basename(path) === '_chat.txt') {
    const firstLines = start.split(/\r?\n/).slice(0, 5).join('\n');
    if (/^[\u200e\u200f]*\[?\d{1,4}[./-]\d{1,2}[./-]\d{1,4},?\s+\d{1,2}[:.]\d{2}/m.test(firstLines))
      return { format: 'whatsapp', path };
  }
  return null;
}
