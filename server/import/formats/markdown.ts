import matter from 'gray-matter';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { readText } from '../decode-text.ts';
import { skip, type ImportItem, type ParseOptions } from '../import-item.ts';
import { toIso } from '../zoned-time.ts';
import { noteIdentities } from './note-identity.ts';

/** Folders that hold tool state, not notes. */
const ignoredDirs = new Set(['.obsidian', '.trash', '.git', 'node_modules']);

async function* walk(dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (e.name.startsWith('.') || ignoredDirs.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile() && /\.(md|markdown)$/i.test(e.name)) yield p;
  }
}

// gray-matter can eval `---js` front matter; an imported note must never run code.
const refuseEngine = () => {
  throw new Error('only YAML front matter is read');
};
const matterOptions = { engines: { js: refuseEngine, javascript: refuseEngine, coffee: refuseEngine } };

function asStringList(v: unknown): string[] {
  if (typeof v === 'string') return v.split(/[,\s]+/).filter(Boolean);
  if (Array.isArray(v))
    return v.filter((x): x is string | number => typeof x === 'string' || typeof x === 'number').map(String);
  return [];
}

/** `#tag` and `#nested/tag` outside code; headings (`# Title`) are not tags. */
export function inlineTags(body: string): string[] {
  const withoutCode = body.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const tags = new Set<string>();
  for (const m of withoutCode.matchAll(/(?:^|[\s(])#([\p{L}\p{N}_][\p{L}\p{N}_/-]*)/gu)) {
    if (!/^\d+$/.test(m[1]!)) tags.add(m[1]!);
  }
  return [...tags];
}

/** Targets of `[[Note]]`, `[[Note|alias]]` and `[[Note#Heading]]`. */
export function wikilinks(body: string): string[] {
  const out = new Set<string>();
  for (const m of body.matchAll(/!?\[\[([^\]|#\n]+)(?:#[^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g))
    out.add(m[1]!.trim());
  return [...out];
}

/**
 * One `document` Record per note: title from front matter, else the first heading, else the file name;
 * occurred_at from front matter (`date`, `created`, `updated`), else the file's time (`fileTime`: by
 * default its modification time; none when that is not known).
 * Tags (front matter and inline) and wikilink targets are appended as a footer so they stay searchable.
 * `source` and `external_id` follow from where the note lives (note-identity.ts), whether it was asked
 * for as `markdown` or `obsidian`; the report names notes by their path in what was imported.
 */
export async function* parseMarkdown(path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  const fileTime = o.fileTime ?? (async (file: string) => (await stat(file)).mtime);
  const isDir = (await stat(path)).isDirectory();
  const files = isDir
    ? walk(path)
    : (async function* () {
        yield path;
      })();
  const root = isDir ? path : dirname(path);
  const realRoot = isDir ? await realpath(path) : null;
  const identify = noteIdentities(o.uploadRoot ? await realpath(o.uploadRoot) : null);
  for await (const file of files) {
    const rel = relative(root, file).split(sep).join('/');
    // walk() passes no symlinks, so only a lone file needs resolving on its own.
    const id = await identify(realRoot ? join(realRoot, rel) : await realpath(file));
    let parsed: { data: Record<string, unknown>; content: string };
    try {
      parsed = matter(await readText(file), matterOptions);
    } catch (e) {
      yield skip(
        rel,
        `unreadable front matter: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
      );
      continue;
    }
    const body = parsed.content.trim();
    if (!body) {
      yield skip(rel, 'empty note');
      continue;
    }
    const fm = parsed.data;
    const heading = /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
    const title =
      (typeof fm.title === 'string' && fm.title.trim()) ||
      heading ||
      basename(file).replace(/\.(md|markdown)$/i, '');
    const tags = [...new Set([...asStringList(fm.tags), ...asStringList(fm.tag), ...inlineTags(body)])].map(
      (t) => t.replace(/^#/, ''),
    );
    const links = wikilinks(body);
    const footer = [
      tags.length ? `Tags: ${tags.map((t) => `#${t}`).join(' ')}` : '',
      links.length ? `Links: ${links.map((l) => `[[${l}]]`).join(' ')}` : '',
    ].filter(Boolean);
    const occurred =
      toIso(fm.date) ?? toIso(fm.created) ?? toIso(fm.updated) ?? (await fileTime(file))?.toISOString();
    yield {
      type: 'record',
      ref: rel,
      body: {
        content: {
          kind: 'document',
          title: title.slice(0, 2000),
          text: footer.length ? `${body}\n\n${footer.join('\n')}` : body,
        },
        source: { name: id.source, external_id: id.externalId },
        ...(occurred ? { occurred_at: occurred } : {}),
      },
    };
  }
}
