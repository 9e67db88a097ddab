import { importerObjectType } from '../engine/contract/importer-objects.ts';

/**
 * What an Object Mnemo's importer keeps says, in words: which items a calendar or contacts file held
 * when it was last imported, so that an import with "forget missing" can tell what was removed from it.
 * Null for any other Object.
 */
export function importedFileRecord(o: { type: string; value: unknown }): string | null {
  if (o.type !== importerObjectType || typeof o.value !== 'object' || o.value === null) return null;
  const v = o.value as { source?: unknown; file?: unknown; digests?: unknown; items?: unknown };
  if (typeof v.file !== 'string') return null;
  const listed = Array.isArray(v.digests) ? v.digests : Array.isArray(v.items) ? v.items : [];
  const what = v.source === 'vcf' ? 'contact' : 'event';
  return (
    `What ${v.file} held when it was last imported (${listed.length.toLocaleString()} ${what}` +
    `${listed.length === 1 ? '' : 's'}), so that importing it again with “forget missing” can tell what was removed.`
  );
}
