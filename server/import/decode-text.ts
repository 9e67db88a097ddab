import { readFile } from 'node:fs/promises';

/**
 * Text of an export file: UTF-8 (BOM dropped) or UTF-16 with a BOM; bytes that are not valid UTF-8 are
 * read as Windows-1252, the usual encoding of older exports, rather than turned into U+FFFD.
 */
export function decodeText(buf: Uint8Array): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf.subarray(2));
  if (buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf.subarray(2));
  const body = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.subarray(3) : buf;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return new TextDecoder('windows-1252').decode(body);
  }
}

export async function readText(path: string): Promise<string> {
  return decodeText(await readFile(path));
}
