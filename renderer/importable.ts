/** Which chosen files an import sends (no DOM here: tested in Node). */

/**
 * Extensions the importers read; files without one are sent too (mbox files often have none). A `zip`
 * is an export as downloaded: the server unpacks it.
 */
const textExtensions = new Set([
  'zip',
  'md',
  'markdown',
  // Obsidian's canvases are notes too; left out, an upload with forget_missing would forget them.
  'canvas',
  'txt',
  'json',
  'mbox',
  'mbx',
  'eml',
  'ics',
  'ical',
  'ifb',
  'vcf',
  'vcard',
]);

/** Whether a file belongs in an import: export text, not hidden, not inside a hidden folder (except Obsidian's marker folder). */
export function isImportable(path: string): boolean {
  const parts = path.split('/');
  const name = parts[parts.length - 1]!;
  if (parts.slice(0, -1).some((p) => p.startsWith('.') && p !== '.obsidian')) return false;
  if (name.startsWith('.')) return false;
  const dot = name.lastIndexOf('.');
  return dot <= 0 || textExtensions.has(name.slice(dot + 1).toLowerCase());
}
