import type * as z from 'zod';
// One locale by its own path: `z.locales` as a value would bundle all fifty of zod's locales (~300 KB
// that every `mnemo` start compiled).
import en from 'zod/v4/locales/en.js';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { shortened } from '../../engine/errors/shown-value.ts';
import { largestDouble } from '../../engine/contract/common.ts';

/** zod's own English wording, to tell a message zod made up from one a schema chose. */
const zodWording = en().localeError;

function isZodWording(issue: z.core.$ZodIssue, input: unknown): boolean {
  // zod words some issues by the value it saw, which a finished issue no longer carries.
  const raw = { ...issue, input: valueAt(input, issue.path) } as unknown as z.core.$ZodRawIssue;
  const text = zodWording(raw);
  return (typeof text === 'string' ? text : text?.message) === issue.message;
}

export function pathText(path: PropertyKey[]): string {
  let out = '';
  for (const p of path)
    out += typeof p === 'number' ? `[${p}]` : out ? `.${shortened(String(p))}` : shortened(String(p));
  return out;
}

function reason(issue: z.core.$ZodIssue, input: unknown, schema: z.ZodType): string {
  // A schema's own message is kept as it is; zod's wording is replaced by the project's phrasing.
  const custom = !isZodWording(issue, input);
  switch (issue.code) {
    case 'invalid_type': {
      const got = valueAt(input, issue.path);
      if (got === undefined) return 'is required';
      if (custom) return issue.message;
      // What the whole schema at that place accepts (null too, every branch of a union), not only the
      // one type zod checked last.
      const accepted = acceptedAt(schema, issue.path, input);
      return `must be ${oneOf(accepted ?? [expectedText(issue.expected)])}, got ${describe(got)}`;
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
      return custom ? issue.message : sizeText(issue);
    case 'invalid_format':
      if (custom) return issue.message;
      return issue.format === 'regex'
        ? `must match the pattern ${(issue as { pattern?: string }).pattern ?? ''}`.trimEnd()
        : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return custom ? issue.message : `must be a multiple of ${String(issue.divisor)}`;
    case 'custom':
    default:
      // A refinement of a field that was not sent at all (JsonValue's) says what type errors say.
      if (issue.code === 'custom' && issue.path.length > 0 && valueAt(input, issue.path) === undefined)
        return 'is required';
      return custom ? issue.message : 'is not valid';
  }
}

const grouped = (n: number | bigint) => n.toLocaleString('en-US');

/** "must be at least 0", "must not be empty", "must be at most 2,000 characters", "must hold at most 5 items". */
function sizeText(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === 'too_small';
  const bound = small ? issue.minimum : issue.maximum;
  const inclusive = issue.inclusive !== false;
  const relation = small ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than';
  switch (issue.origin) {
    case 'string':
      if (small && inclusive && Number(bound) === 1) return 'must not be empty';
      return `must be ${relation} ${grouped(bound)} characters`;
    case 'array':
    case 'set':
      if (small && inclusive && Number(bound) === 1) return 'must hold at least one item';
      return `must hold ${relation} ${grouped(bound)} items`;
    case 'date':
      return `must be ${small ? (inclusive ? 'at or after' : 'after') : inclusive ? 'at or before' : 'before'} ${String(bound)}`;
    default:
      if (!inclusive) return `must be ${small ? 'greater' : 'less'} than ${String(bound)}`;
      return `must be ${relation} ${String(bound)}`;
  }
}

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

/**
 * The schema a wrapper stands for (optional, default, a preprocess pipe, lazy, ...), or null when
 * the schema is no wrapper. `nullable` is one too, for a caller that does not care about null.
 */
function unwrapped(d: Def, nullable: boolean): unknown {
  switch (d.type) {
    case 'nullable':
      return nullable ? d.innerType : null;
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return d.innerType;
    case 'pipe':
      // A preprocess reads anything and hands it on: what the next schema accepts is what counts.
      return defOf(d.in).type === 'transform' ? d.out : d.in;
    case 'lazy':
      return (d.getter as () => unknown)();
    default:
      return null;
  }
}

/** What a schema accepts, as "a string", "an integer", "null", ...; null when it cannot be told. */
function acceptedBy(schema: unknown, depth = 0): string[] | null {
  if (depth > 20) return null;
  const d = defOf(schema);
  const inner = unwrapped(d, false);
  if (inner) return acceptedBy(inner, depth + 1);
  switch (d.type) {
    case 'nullable': {
      const inner = acceptedBy(d.innerType, depth + 1);
      return inner ? [...new Set([...inner, 'null'])] : null;
    }
    case 'union': {
      const all = (d.options as unknown[]).map((o) => acceptedBy(o, depth + 1));
      return all.every((a) => a !== null) ? [...new Set(all.flat() as string[])] : null;
    }
    case 'object':
    case 'record':
      return ['an object'];
    case 'array':
    case 'tuple':
      return ['an array'];
    case 'number':
      return d.format && /int/.test(String(d.format)) ? ['an integer'] : ['a number'];
    case 'string':
    case 'boolean':
    case 'null':
    case 'bigint':
      return [expectedText(d.type)];
    default:
      return null;
  }
}

/** The schema at a path of the input, following the branch of a union the input took where it can. */
function schemaAt(schema: unknown, path: PropertyKey[], input: unknown, depth = 0): unknown {
  if (path.length === 0 || depth > 50) return path.length === 0 ? schema : null;
  const d = defOf(schema);
  const [key, ...rest] = path as [PropertyKey, ...PropertyKey[]];
  const inner = unwrapped(d, true);
  if (inner) return schemaAt(inner, path, input, depth + 1);
  switch (d.type) {
    case 'union': {
      let options = d.options as unknown[];
      const tag = typeof d.discriminator === 'string' ? d.discriminator : null;
      const value = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : null;
      if (tag && value && tag in value) {
        options = options.filter((o) => {
          const shape = defOf(o).shape as Record<string, unknown> | undefined;
          const lit = shape?.[tag] ? defOf(shape[tag]) : null;
          return lit?.type === 'literal' && (lit.values as unknown[]).includes(value[tag]);
        });
      }
      for (const o of options) {
        const found = schemaAt(o, path, input, depth + 1);
        if (found) return found;
      }
      return null;
    }
    case 'object': {
      const child = (d.shape as Record<string, unknown>)[String(key)];
      return child ? schemaAt(child, rest, valueAt(input, [key]), depth + 1) : null;
    }
    case 'record':
      return schemaAt(d.valueType, rest, valueAt(input, [key]), depth + 1);
    case 'array':
      return typeof key === 'number' ? schemaAt(d.element, rest, valueAt(input, [key]), depth + 1) : null;
    default:
      return null;
  }
}

/** What the schema accepts at a path of the input ("a string", "an integer", ...); null when it cannot be told. */
export function acceptedAt(schema: z.ZodType, path: PropertyKey[], input: unknown): string[] | null {
  const at = schemaAt(schema, path, input);
  return at ? acceptedBy(at) : null;
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
  // JSON.parse reads 1e400 as Infinity: "must be a number, got a number" would say nothing.
  if (typeof v === 'number' && !Number.isFinite(v))
    return `a number beyond the largest double (${largestDouble})`;
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number' && Number.isInteger(v)) return 'an integer';
  return expectedText(typeof v);
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
function mergeAlternatives(branches: z.core.$ZodIssue[][]): z.core.$ZodIssue | null {
  const issues = branches.map((b) => (b.length === 1 ? b[0]! : null));
  const first = issues[0];
  if (!first || issues.length < 2) return null;
  const samePlace = (i: z.core.$ZodIssue | null): i is z.core.$ZodIssue =>
    i !== null && i.code === first.code && pathText(i.path) === pathText(first.path);
  if (!issues.every(samePlace)) return null;
  // Branches that failed on the type need no merging: reason() names every type the schema accepts.
  if (first.code !== 'invalid_value') return null;
  const values = [...new Set(issues.flatMap((i) => (i.code === 'invalid_value' ? i.values : [])))];
  return { ...first, values };
}

/**
 * zod 4 runs a length check even on a value of the wrong type (`include: "memories"` failed both
 * "expected array" and "at most 5 items", counting the string's characters): where the type is wrong,
 * that is the one problem at that place.
 */
function typeFirst(issues: z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const wrongType = new Set(issues.filter((i) => i.code === 'invalid_type').map((i) => pathText(i.path)));
  return issues.filter((i) => i.code === 'invalid_type' || !wrongType.has(pathText(i.path)));
}

/**
 * A union that failed is reported through the branch that got furthest (its first issue is deepest),
 * so `content: {kind: 'event'}` without a title says `content.title: is required`; branches that tie
 * on one value or type check are reported together (mergeAlternatives).
 */
function flatten(issues: z.core.$ZodIssue[], input: unknown): z.core.$ZodIssue[] {
  return typeFirst(issues).flatMap((issue) => {
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
    const branches = issue.errors.map(typeFirst);
    const deepest = Math.max(...branches.map(depth));
    const tied = branches.filter((b) => depth(b) === deepest).map(within);
    const merged = mergeAlternatives(tied);
    return merged ? [merged] : flatten(tied[0]!, input);
  });
}

/**
 * Of the bounds of one field that failed alike, the tightest: an integer past 2^53 fails both zod's
 * safe-integer maximum and the field's own (`budget.tokens`), and only the field's says what to send.
 */
function tightestBounds(issues: z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const bound = (i: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall) =>
    Number(i.code === 'too_big' ? i.maximum : i.minimum) * (i.code === 'too_big' ? 1 : -1);
  const tightest = new Map<string, z.core.$ZodIssue>();
  for (const issue of issues) {
    if (issue.code !== 'too_big' && issue.code !== 'too_small') continue;
    const key = `${issue.code} ${pathText(issue.path)}`;
    const held = tightest.get(key) as typeof issue | undefined;
    if (!held || bound(issue) < bound(held)) tightest.set(key, issue);
  }
  return issues.filter(
    (i) =>
      (i.code !== 'too_big' && i.code !== 'too_small') || tightest.get(`${i.code} ${pathText(i.path)}`) === i,
  );
}

/**
 * The spec's validation message: `<field path>: <reason>`, one clause per problem. With the schema
 * that failed, a wrong type names everything the field accepts (`must be an integer or null`).
 */
export function validationMessage(
  error: z.ZodError,
  input: unknown,
  root: string,
  schema: z.ZodType,
): string {
  const clauses = tightestBounds(flatten(error.issues, input))
    .slice(0, 5)
    .flatMap((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((k) => `${pathText([...issue.path, k])}: unknown field`);
      }
      return [`${pathText(issue.path) || root}: ${reason(issue, input, schema)}`];
    });
  // Two checks of one field can fail alike (a limit past 2^53 is neither safe nor in range).
  return [...new Set(clauses)].join('; ');
}

/** Parses with a contract schema or throws invalid_request_body with the spec's message shape. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, root = 'body'): z.infer<S> {
  const r = schema.safeParse(input);
  if (!r.success) {
    throw new MnemoError('invalid_request_body', validationMessage(r.error, input, root, schema));
  }
  return r.data;
}
