import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

export interface StaticFile {
  body: Buffer;
  contentType: string;
  /** Vite names files under assets/ by content hash, so they never change and can be cached forever. */
  immutable: boolean;
}

/**
 * Reads `urlPath` from inside `root`, or null when it is not a file there. Paths that would leave the
 * root (`..`, encoded or not) are refused rather than normalised into it.
 */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split('/').includes('..')) return null;
  const base = resolve(root);
  const full = resolve(base, '.' + (decoded.startsWith('/') ? decoded : '/' + decoded));
  if (full !== base && !full.startsWith(base + sep)) return null;
  try {
    const s = await stat(full);
    if (!s.isFile()) return null;
    const body = await readFile(full);
    const rel = full
      .slice(base.length + 1)
      .split(sep)
      .join('/');
    return {
      body,
      contentType: types[extname(full).toLowerCase()] ?? 'application/octet-stream',
      immutable: rel.startsWith('assets/'),
    };
  } catch {
    return null;
  }
}
