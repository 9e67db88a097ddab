import type * as z from 'zod';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';

function pathText(path: PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

function reason(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      const got = valueAt(input, issue.path);
      if (got === undefined) return 'is required';
      if (!issue.message.startsWith('Invalid input')) return issue.message;
      return `must be ${expectedText(issue.expected)}, got ${describe(got)}`;
    }
    case 'unrecognized_keys':
      return 'unknown field';
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union': {
      if (valueAt(input, issue.path) === undefined) return 'is required';
      // A discriminated union whose tag matched no option lists its tags (zod adds `options`, untyped).
      const options = (issue as { options?: unknown }).options;
      if (Array.isArray(options) && options.length > 0)
        return `must be one of ${options.map((v) => JSON.stringify(v)).join(', ')}`;
      return 'has the wrong shape or type';
    }
    case 'too_small':
    case 'too_big':
    case 'invalid_format':
    case 'custom':
    default:
      return issue.message.replace(/^Invalid input: /, '');
  }
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

function expectedText(expected: string): string {
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number' && Number.isInteger(v)) return 'an integer';
  return `a ${typeof v}`;
}

/** "a string", "a string or a number", "a string, a number or a boolean". */
function oneOf(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/**
 * Branches that failed equally far, each on one value or type check at the same place, are one
 * problem with several allowed answers: `z.union([z.literal('auto'), ImportFormat])` must list every
 * value, not only the first branch's "auto". Returns null when the branches failed differently.
 */
function mergeAlternatives(branches: z.core.$ZodIssue[][], input: unknown): z.core.$ZodIssue | null {
  const issues = branches.map((b) => (b.length === 1 ? b[0]! : null));
  const first = issues[0];
  if (!first || issues.length < 2) return null;
  const samePlace = (i: z.core.$ZodIssue | null): i is z.core.$ZodIssue =>
    i !== null && i.code === first.code && pathText(i.path) === pathText(first.path);
  if (!issues.every(samePlace)) return null;
  if (first.code === 'invalid_value') {
    const values = [...new Set(issues.flatMap((i) => (i.code === 'invalid_value' ? i.values : [])))];
    return { ...first, values };
  }
  // Only zod's own type messages are merged; a schema's custom message is kept as it is.
  if (first.code === 'invalid_type' && issues.every((i) => i.message.startsWith('Invalid input'))) {
    const got = valueAt(input, first.path);
    if (got === undefined) return first;
    const expected = [
      ...new Set(issues.map((i) => (i.code === 'invalid_type' ? expectedText(i.expected) : ''))),
    ];
    return { code: 'custom', path: first.path, message: `must be ${oneOf(expected)}, got ${describe(got)}` };
  }
  return null;
}

/**
 * A union that failed is reported through the branch that got furthest (its first issue is deepest),
 * so `content: {kind: 'event'}` without a title says `content.title: is required`; branches that tie
 * on one value or type check are reported together (mergeAlternatives).
 */
function flatten(issues: z.core.$ZodIssue[], input: unknown): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (
      issue.code !== 'invalid_union' ||
      issue.errors.length === 0 ||
      valueAt(input, issue.path) === undefined
    )
      return [issue];
    const depth = (branch: z.core.$ZodIssue[]) =>
      Math.max(
        ...branch.map((i) => i.path.length + (i.code === 'invalid_type' && i.path.length === 0 ? -1 : 0)),
      );
    const within = (branch: z.core.$ZodIssue[]) =>
      branch.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as z.core.$ZodIssue);
    const deepest = Math.max(...issue.errors.map(depth));
    const tied = issue.errors.filter((b) => depth(b) === deepest).map(within);
    const merged = mergeAlternatives(tied, input);
    return merged ? [merged] : flatten(tied[0]!, input);
  });
}

/** The spec's validation message: `<field path>: <reason>`, one clause per problem. */
export function validationMessage(error: z.ZodError, input: unknown, root = 'body'): string {
  const clauses = flatten(error.issues, input)
    .slice(0, 5)
    .flatMap((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((k) => `${pathText([...issue.path, k])}: unknown field`);
      }
      return [`${pathText(issue.path) || root}: ${reason(issue, input)}`];
    });
  return clauses.join('; ');
}

/** Parses with a contract schema or throws invalid_request_body with the spec's message shape. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, root = 'body'): z.infer<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new MnemoError('invalid_request_body', validationMessage(r.error, input, root));
  return r.data;
}
