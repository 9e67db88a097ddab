/**
 * How deep a request's JSON may nest arrays and objects, the body itself being level 1. Validation
 * (zod) and the engines walk a value recursively, and past ~1,000 levels the stack overflows: a 20 KB
 * body then answered 500 internal_error and logged a stack per request. No contract body needs more
 * than a handful of levels and an Object's `value` of 100 is far past any real document (serde_json
 * stops at 128, Ruby's JSON at 100), so this refuses only input made to break the server.
 */
export const maxJsonDepth = 100;

/** The message of the refusal, naming the limit; `what` is the field path ("body", "params.arguments"). */
export function tooDeepMessage(what: string): string {
  return `${what}: nests arrays and objects more than ${maxJsonDepth} levels deep`;
}

/**
 * Whether a parsed JSON value nests arrays and objects more than `limit` levels deep. It stops at the
 * limit, so its own recursion is at most `limit` frames, whatever it is given.
 */
export function nestedDeeperThan(value: unknown, limit: number = maxJsonDepth): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit <= 0) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    if (nestedDeeperThan(item, limit - 1)) return true;
  }
  return false;
}
