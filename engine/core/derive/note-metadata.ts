/**
 * Front-matter keys that describe the note, not what it is about: how a vault files it (Obsidian's
 * `tags`, `aliases`, `cssclasses`, `publish`), how a site builds it (Jekyll's and Hugo's `layout`,
 * `permalink`, `slug`, `weight`, `draft`), and its bookkeeping (`status`, `type`, `id`, its times).
 * Lower case, without spaces, `_` or `-`: "date created", "date_created" and "dateCreated" are one.
 * Not `date`: the importers date the note by it and never write its line, so a "Date: …" line is the
 * note's own (a meeting's day, a row of a Notion table).
 */
const noteMetadataKeys = new Set([
  // Obsidian
  'tags',
  'tag',
  'aliases',
  'alias',
  'cssclass',
  'cssclasses',
  'publish',
  'permalink',
  'position',
  'banner',
  'cover',
  'icon',
  // Bookkeeping, as vaults and their plugins keep it
  'status',
  'priority',
  'type',
  'kind',
  'id',
  'uid',
  'uuid',
  'draft',
  'template',
  'lang',
  'language',
  'created',
  'updated',
  'modified',
  'datecreated',
  'datemodified',
  'dateupdated',
  'createdat',
  'updatedat',
  'createdon',
  'updatedon',
  'creationdate',
  'modificationdate',
  'lastmodified',
  'lastupdated',
  // Jekyll and Hugo
  'layout',
  'published',
  'categories',
  'category',
  'slug',
  'url',
  'weight',
  'lastmod',
  'publishdate',
  'expirydate',
  'keywords',
  'toc',
  'series',
  'menu',
  'sitemap',
  'linktitle',
  'translationkey',
  'redirectfrom',
  'excerptseparator',
]);

/** A property line as the note importers write one (server/import/formats/note-properties.ts). */
const propertyLine = /^(?<key>[^:\n]{1,60}): \S/u;

/** Whether a property's key is the note's metadata ("status", "Date created", "css-class"). */
export function isNoteMetadataKey(key: string): boolean {
  return noteMetadataKeys.has(key.toLowerCase().replace(/[\s_-]+/gu, ''));
}

/**
 * A note's text with the property lines that are its metadata blanked (each character a space but
 * line ends, so every other position stays where it was, as withoutNonProse blanks). The note
 * importers write a note's front matter as its first lines, `key: value` each, then a blank line:
 * "status: active", "tags: work", "type: project" there are how the note is filed, and as Memories
 * they were statements of the person's. A property that says something of a person or a thing
 * ("birthday: March 12", "employer: Infobip") stays. Only the opening block of such lines is read: a
 * "Status: …" line further down is the note's own words.
 */
export function withoutNoteMetadata(text: string): string {
  const lines = text.split('\n');
  if (!propertyLine.test(lines[0] ?? '')) return text;
  let changed = false;
  for (let i = 0; i < lines.length && lines[i]!.trim() !== ''; i++) {
    const key = propertyLine.exec(lines[i]!)?.groups!['key'];
    if (key === undefined || !isNoteMetadataKey(key)) continue;
    lines[i] = ' '.repeat(lines[i]!.length);
    changed = true;
  }
  return changed ? lines.join('\n') : text;
}
