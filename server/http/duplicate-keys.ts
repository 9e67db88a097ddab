import type { JsonPath, JsonVisitor } from './json-walk.ts';
import { pathText } from './validate.ts';

/**
 * A visitor of walkJson that calls `found` with the path of each field name the text gives twice in one
 * object, in the order written (false ends the walk); `where` limits the search to the paths
 * it accepts (MCP: a tool's arguments). JSON.parse keeps the last of the two and says nothing, so
 * `{"content":"a","content":"b"}` stored "b": RFC 8259 (4) leaves what a reader does with one
 * unpredictable, and a proxy or client that reads the first sees another request than the one served.
 * Names are compared as JSON.parse reads them (`"a"` and `"\u0061"` are one name).
 */
export function duplicateKeys(
  where: (path: JsonPath) => boolean,
  found: (path: JsonPath) => boolean,
): JsonVisitor {
  return {
    name: (path, _name, again) => {
      if (!again) return true;
      const at = path();
      return !where(at) || found(at);
    },
  };
}

/** Why a field given twice is refused, named as validation names it (`content.text: …`). */
export function duplicateKeyMessage(path: (string | number)[]): string {
  return `${pathText(path)}: must be given once (this object names it twice; JSON readers disagree on which to take)`;
}
