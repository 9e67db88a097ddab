import { maxJsonDepth } from './json-depth.ts';
import { pathText } from './validate.ts';

/** A lone surrogate: with the u flag a surrogate pair is one code point and does not match. */
const loneSurrogate = /[\uD800-\uDFFF]/u;
/** Text no store of Mnemo's keeps: a lone surrogate, or U+0000 (PostgreSQL's text holds none). */
// eslint-disable-next-line no-control-regex -- U+0000 is what this looks for
const refused = /[\uD800-\uDFFF\u0000]/u;

/**
 * Where a parsed JSON value holds text that is not well-formed Unicode (a lone surrogate, which JSON's
 * `\ud83d` escape can spell though no UTF-8 byte sequence can), as a message naming the field; null when
 * every string and property name is well-formed. Such text cannot be stored as sent: SQLite and
 * PostgreSQL keep UTF-8, which turns it into U+FFFD, and a Memory's quote would then no longer be a
 * substring of its Record. Bytes that are not UTF-8 are refused as the body's; this is the same refusal
 * for the escapes. U+0000 is refused too, on every engine: PostgreSQL's text cannot hold it, so a
 * Record a device kept with one could never reach a hosted Brain, and no text a person writes has one.
 * The walk stops past the nesting a body may have (json-depth.ts, checked before).
 */
export function illFormedTextProblem(value: unknown, root: string): string | null {
  const found = firstIllFormed(value, 0);
  if (!found) return null;
  // A body's fields are named from its top ("content.text"), as validation names them.
  const p = pathText(found.path);
  return `${root === 'body' ? p || root : p ? `${root}.${p}` : root}: ${found.reason}`;
}

/**
 * Whether JSON text may spell refused text at all: only an escape can, from \uD800 to \uDFFF or \u0000,
 * once its bytes are UTF-8 (JSON holds no raw control character in a string). Most bodies have none,
 * and are not walked.
 */
export const spellsRefusedText = (json: string): boolean => /\\u(?:[dD][89a-fA-F]|0000)/.test(json);

/** The first ill-formed string or field name, its path built only once one is found. */
function firstIllFormed(v: unknown, depth: number): { path: PropertyKey[]; reason: string } | null {
  if (typeof v === 'string') return refused.test(v) ? { path: [], reason: refusedTextReason(v) } : null;
  if (v === null || typeof v !== 'object' || depth > maxJsonDepth) return null;
  const entries: Iterable<[PropertyKey, unknown]> = Array.isArray(v) ? v.entries() : Object.entries(v);
  for (const [k, item] of entries) {
    if (typeof k === 'string' && refused.test(k))
      return { path: [], reason: `a field name ${refusedTextReason(k)}` };
    const found = firstIllFormed(item, depth + 1);
    if (found) {
      found.path.unshift(k);
      return found;
    }
  }
  return null;
}

/** Whether a string holds text no store here keeps (a query value, a path segment). */
export const holdsRefusedText = (text: string): boolean => refused.test(text);

/** Why `text` (which holds refused text) is refused. */
export function refusedTextReason(text: string): string {
  if (!loneSurrogate.test(text)) return 'holds U+0000 (NUL), which is not text this API keeps';
  const unit = text.match(loneSurrogate)![0].charCodeAt(0);
  return `holds a lone surrogate (\\u${unit.toString(16)}), which is not Unicode text; send each surrogate pair whole`;
}
