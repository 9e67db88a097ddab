import { maxJsonDepth } from './json-depth.ts';
import { pathText } from './validate.ts';

/** A lone surrogate: with the u flag a surrogate pair is one code point and does not match. */
const loneSurrogate = /[\uD800-\uDFFF]/u;

/**
 * Where a parsed JSON value holds text that is not well-formed Unicode (a lone surrogate, which JSON's
 * `\ud83d` escape can spell though no UTF-8 byte sequence can), as a message naming the field; null when
 * every string and property name is well-formed. Such text cannot be stored as sent: SQLite and
 * PostgreSQL keep UTF-8, which turns it into U+FFFD, and a Memory's quote would then no longer be a
 * substring of its Record. Bytes that are not UTF-8 are refused as the body's; this is the same refusal
 * for the escapes. The walk stops past the nesting a body may have (json-depth.ts, checked before).
 */
export function illFormedTextProblem(value: unknown, root: string): string | null {
  const found = firstIllFormed(value, 0);
  if (!found) return null;
  // A body's fields are named from its top ("content.text"), as validation names them.
  const p = pathText(found.path);
  return `${root === 'body' ? p || root : p ? `${root}.${p}` : root}: ${found.reason}`;
}

/**
 * Whether JSON text may spell a lone surrogate at all: only an escape from \uD800 to \uDFFF can, once
 * its bytes are UTF-8. Most bodies have none, and are not walked.
 */
export const spellsSurrogate = (json: string): boolean => /\\u[dD][89a-fA-F]/.test(json);

/** The first ill-formed string or field name, its path built only once one is found. */
function firstIllFormed(v: unknown, depth: number): { path: PropertyKey[]; reason: string } | null {
  if (typeof v === 'string') return loneSurrogate.test(v) ? { path: [], reason: reason(v) } : null;
  if (v === null || typeof v !== 'object' || depth > maxJsonDepth) return null;
  const entries: Iterable<[PropertyKey, unknown]> = Array.isArray(v) ? v.entries() : Object.entries(v);
  for (const [k, item] of entries) {
    if (typeof k === 'string' && loneSurrogate.test(k))
      return { path: [], reason: `a field name ${reason(k)}` };
    const found = firstIllFormed(item, depth + 1);
    if (found) {
      found.path.unshift(k);
      return found;
    }
  }
  return null;
}

function reason(text: string): string {
  const unit = text.match(loneSurrogate)![0].charCodeAt(0);
  return `holds a lone surrogate (\\u${unit.toString(16)}), which is not Unicode text; send each surrogate pair whole`;
}
