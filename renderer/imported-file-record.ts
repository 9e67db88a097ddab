import { importerObjectType } from '../engine/contract/importer-objects.ts';

/**
 * What an Object Mnemo's importer keeps says, in words: which items a calendar or contacts file held
 * when it was last imported, so that an import with "forget missing" can tell what was removed from it;
 * which folders each device imported under a name (digests only); or, its value null, a record the
 * importer no longer uses (one that named a file by its path on a disk). Null for any other Object.
 */
export function importedFileRecord(o: { type: string; value: unknown }): string | null {
  if (o.type !== importerObjectType || typeof o.value !== 'object') return null;
  if (o.value === null)
    return 'A record of an imported file that Mnemo no longer uses (it named the file by its place on a disk).';
  const v = o.value as {
    source?: unknown;
    file?: unknown;
    name?: unknown;
    digests?: unknown;
    items?: unknown;
  };
  if (v.source === 'folder' && typeof v.name === 'string')
    return (
      `Which folders were imported as “${v.name}”, on each device, so that two different folders of that ` +
      'name on one device stay apart (no path is kept, only digests).'
    );
  if (typeof v.file !== 'string') return null;
  const listed = Array.isArray(v.digests) ? v.digests : Array.isArray(v.items) ? v.items : [];
  const what = v.source === 'vcf' ? 'contact' : 'event';
  return (
    `What ${v.file} held when it was last imported (${listed.length.toLocaleString()} ${what}` +
    `${listed.length === 1 ? '' : 's'}), so that importing it again with “forget missing” can tell what was removed.`
  );
}
