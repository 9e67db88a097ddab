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
  // A body's fields are named from its top ("content.text"), as validation names them.
  const at = (path: PropertyKey[]) => {
    const p = pathText(path);
    return root === 'body' ? p || root : p ? `${root}.${p}` : root;
  };
  const walk = (v: unknown, path: PropertyKey[]): string | null => {
    if (typeof v === 'string') return loneSurrogate.test(v) ? `${at(path)}: ${reason(v)}` : null;
    if (v === null || typeof v !== 'object' || path.length > maxJsonDepth) return null;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], [...path, i]);
        if (found) return found;
      }
      return null;
    }
    for (const [k, item] of Object.entries(v)) {
      if (loneSurrogate.test(k)) return `${at(path)}: a field name ${reason(k)}`;
      const found = walk(item, [...path, k]);
      if (found) return found;
    }
    return null;
  };
  return walk(value, []);
}

function reason(text: string): string {
  const unit = text.match(loneSurrogate)![0].charCodeAt(0);
  return `holds a lone surrogate (\\u${unit.toString(16)}), which is not Unicode text; send each surrogate pair whole`;
}
