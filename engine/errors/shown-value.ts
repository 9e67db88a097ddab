/**
 * How error messages quote what a caller sent: at most its first 200 characters, with its length when
 * cut. A message echoes ids, kinds, field names and query parameters back, and a caller can send them
 * 700,000 characters long; the answer stays a few hundred bytes.
 */
export const shownPrefixChars = 200;

/** A message as a whole is cut here, whatever it holds (many clauses, a value no site bounded). */
export const messageMaxChars = 2_000;

const grouped = (n: number) => n.toLocaleString('en-US');

/** The first `max` characters, never ending inside a surrogate pair. */
function prefix(text: string, max: number): string {
  const end = /[\uD800-\uDBFF]/u.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

/** The text as is when short; else its first 200 characters, "…", and its length. */
export function shortened(text: string): string {
  if (text.length <= shownPrefixChars) return text;
  return `${prefix(text, shownPrefixChars)}… (${grouped(text.length)} characters)`;
}

/** A value JSON-quoted as is when short; else its first 200 characters quoted, "…", and its length. */
export function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  if (text.length <= shownPrefixChars) return typeof value === 'string' ? JSON.stringify(value) : text;
  return `${JSON.stringify(prefix(text, shownPrefixChars))}… (${grouped(text.length)} characters)`;
}

/** The whole message, cut at 2,000 characters with its length said. */
export function boundedMessage(message: string): string {
  if (message.length <= messageMaxChars) return message;
  return `${prefix(message, messageMaxChars)}… (message cut; ${grouped(message.length)} characters)`;
}
