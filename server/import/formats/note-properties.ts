/**
 * Front-matter keys a note's Record carries elsewhere (title, tags, its time) or that only style how
 * Obsidian shows it.
 */
const readElsewhere = new Set([
  'title',
  'tags',
  'tag',
  'date',
  'created',
  'updated',
  'cssclass',
  'cssclasses',
  'publish',
  'position',
]);

/** One property's value as Obsidian's Properties view shows it: a list joined, a date as written. */
function shown(value: unknown, written: string | undefined): string {
  if (value instanceof Date)
    return written?.replace(/^(["'])(.*)\1$/u, '$2') ?? value.toISOString().slice(0, 10);
  if (Array.isArray(value))
    return value
      .map((v) => shown(v, undefined))
      .filter((v) => v !== '')
      .join(', ');
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number | boolean).trim();
}

/**
 * A note's properties beyond its title, tags and time, one `key: value` line each, in the order the
 * note gives them ("status: active", "company: [[Acme Corp]]", "aliases: Rita, R. Sousa"): a person's
 * note in a vault kept with properties holds its birthday and phone there, and they were dropped.
 * `writtenValue` reads a key's value as the block writes it (a date js-yaml made a Date). Those that
 * only file the note ("status", "aliases", "type") stay here, where a search finds the note by them;
 * the derivation reads them as no statement (engine/core/derive/note-metadata.ts).
 */
export function propertyLines(
  data: Readonly<Record<string, unknown>>,
  writtenValue: (key: string) => string | undefined,
): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (readElsewhere.has(key.toLowerCase())) continue;
    const text = shown(value, value instanceof Date ? writtenValue(key) : undefined);
    if (text !== '') lines.push(`${key}: ${text}`.slice(0, 10_000));
  }
  return lines;
}
