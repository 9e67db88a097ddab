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
      return `must be ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}, got ${describe(got)}`;
    }
    case 'unrecognized_keys':
      return 'unknown field';
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union':
      return valueAt(input, issue.path) === undefined ? 'is required' : 'has the wrong shape or type';
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

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number' && Number.isInteger(v)) return 'an integer';
  return `a ${typeof v}`;
}

/**
 * A union that failed is reported through the branch that got furthest (its first issue is deepest),
 * so `content: {kind: 'event'}` without a title says `content.title: is required`.
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
    const best = [...issue.errors].sort((a, b) => depth(b) - depth(a))[0]!;
    return flatten(
      best.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as z.core.$ZodIssue),
      input,
    );
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
