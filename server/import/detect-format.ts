import { open, readdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { ImportFormat } from './import-item.ts';
import { isSlackExport } from './formats/slack.ts';

async function head(path: string, bytes = 4096): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\ufeff/, '');
  } finally {
    await fh.close();
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** ChatGPT and Claude both name their export conversations.json; the shape tells them apart. */
async function conversationsFormat(file: string): Promise<ImportFormat | null> {
  const start = await head(file, 64 * 1024);
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
 * Guesses the format of PATH: folders by their marker files (Slack's users.json and channels.json,
 * Obsidian's .obsidian, conversations.json, WhatsApp's _chat.txt, else Markdown notes), files by name
 * and first bytes. Returns null when nothing fits; the caller then asks for --format.
 */
export async function detectFormat(path: string): Promise<Detected | null> {
  const info = await stat(path);
  if (info.isDirectory()) {
    if (await isSlackExport(path)) return { format: 'slack', path };
    if (await exists(join(path, '.obsidian'))) return { format: 'obsidian', path };
    const conv = join(path, 'conversations.json');
    if (await exists(conv)) {
      const f = await conversationsFormat(conv);
      if (f) return { format: f, path: conv };
    }
    const names = await readdir(path);
    if (names.includes('_chat.txt')) return { format: 'whatsapp', path: join(path, '_chat.txt') };
    return { format: 'markdown', path };
  }
  const ext = extname(path).toLowerCase();
  if (ext === '.md' || ext === '.markdown') return { format: 'markdown', path };
  if (ext === '.ics' || ext === '.ical' || ext === '.ifb') return { format: 'ics', path };
  if (ext === '.vcf' || ext === '.vcard') return { format: 'vcf', path };
  if (ext === '.mbox' || ext === '.mbx') return { format: 'mbox', path };
  const start = await head(path);
  if (ext === '.json') {
    const f = await conversationsFormat(path);
    return f ? { format: f, path } : null;
  }
  if (/^BEGIN:VCALENDAR/im.test(start)) return { format: 'ics', path };
  if (/^BEGIN:VCARD/im.test(start)) return { format: 'vcf', path };
  if (/^From \S+ /.test(start)) return { format: 'mbox', path };
  if (ext === '.txt' || basename(path) === '_chat.txt') {
    const firstLines = start.split(/\r?\n/).slice(0, 5).join('\n');
    if (/^[\u200e\u200f]*\[?\d{1,4}[./-]\d{1,2}[./-]\d{1,4},?\s+\d{1,2}[:.]\d{2}/m.test(firstLines))
      return { format: 'whatsapp', path };
  }
  return null;
}
