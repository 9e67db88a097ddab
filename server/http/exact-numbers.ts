import type * as z from 'zod';
import { largestDouble } from '../../engine/contract/common.ts';
import { shortened } from '../../engine/errors/shown-value.ts';
import { walkJson, type JsonPath, type JsonVisitor } from './json-walk.ts';
import { acceptedAt, pathText } from './validate.ts';

/** A number of a JSON text that a double cannot keep: where it is, as it was sent, and what it becomes. */
export interface InexactNumber {
  path: (string | number)[];
  sent: string;
  kept: number;
}

/**
 * The decimal value a JSON number token denotes, written one way only: sign, digits without leading or
 * trailing zeros, exponent (`1.50e2` and `150` are both `15e1`). Zero is `0`, whatever its sign or
 * exponent: JSON.stringify writes -0 as `0`, and both denote the same value. Null for a value no double
 * comes near (an exponent of more than 15 digits), which is then no double's.
 */
function decimalValue(token: string): string | null {
  const negative = token.startsWith('-');
  const unsigned = negative ? token.slice(1) : token;
  const e = unsigned.search(/[eE]/);
  const mantissa = e < 0 ? unsigned : unsigned.slice(0, e);
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  // Indexes, not /0+$/: a regex would take quadratic time on a long run of zeros followed by a digit.
  let first = 0;
  while (first < digits.length && digits.charCodeAt(first) === 0x30) first++;
  if (first === digits.length) return '0';
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 0x30) end--;
  // A body holds at most a few million digits, so an exponent of 16 digits puts the value beyond 1e±308.
  // (Not BigInt of the whole exponent: reading millions of digits into a BigInt takes seconds.)
  const written = e < 0 ? '' : unsigned.slice(e + 1);
  const exponentDigits = written.replace(/^[+-]/, '').replace(/^0+/, '');
  if (exponentDigits.length > 15) return null;
  const exponent =
    (written.startsWith('-') ? -1 : 1) * Number(exponentDigits || '0') -
    (dot < 0 ? 0 : mantissa.length - dot - 1) +
    (digits.length - end);
  return `${negative ? '-' : ''}${digits.slice(first, end)}e${exponent}`;
}

/**
 * Whether a double keeps the number exactly as sent: read as JSON.parse reads it (the nearest double),
 * written back as JavaScript writes it (the shortest text that reads back as that double), it must
 * still denote the same decimal value. `0.1`, `1.0`, `1e3` and `9007199254740992` pass;
 * `9007199254740993`, `12345678901234567890`, `0.1000000000000000055511151231257827` and `1e-400`
 * (which reads as 0) do not, and neither does `1e400` (Infinity).
 */
export function keptExactly(token: string): boolean {
  // Up to 15 significant digits within ±1e15, a double holds every decimal (DBL_DIG is 15).
  if (token.length <= 15 && !/[eE]/.test(token)) return true;
  const value = Number(token);
  if (!Number.isFinite(value)) return false;
  // What JSON.stringify wrote comes back as it was: most numbers, and read without the slower walk.
  const written = String(value);
  if (written === token) return true;
  const sent = decimalValue(token);
  return sent !== null && sent === decimalValue(written);
}

/**
 * The first number of a JSON text (one JSON.parse accepted) that a double does not keep exactly, with
 * its path, or null. JSON.parse on Node 20 gives no number's source text, so only the text can tell
 * that `12345678901234567890` arrived and `12345678901234567000` would be stored. `where` limits the
 * search to the numbers whose path it accepts (MCP: a tool's arguments).
 */
export function firstInexactNumber(
  json: string,
  where: (path: JsonPath) => boolean = () => true,
): InexactNumber | null {
  let first: InexactNumber | null = null;
  walkJson(
    json,
    inexactNumbers(where, (found) => {
      first = found;
      return false;
    }),
  );
  return first;
}

/**
 * A visitor of walkJson that calls `found` with each number a double does not keep exactly and whose
 * path `where` accepts, in the order written (false ends the walk).
 */
export function inexactNumbers(
  where: (path: JsonPath) => boolean,
  found: (n: InexactNumber) => boolean,
): JsonVisitor {
  return {
    number: (path, token) => {
      if (keptExactly(token)) return true;
      const at = path();
      return !where(at) || found({ path: at, sent: token, kept: Number(token) });
    },
  };
}

/**
 * Whether the field at `path` of `input` takes a string (`schema`, its request's), which is then the
 * way to keep a number's digits: so does any JSON (an Object's value), and a field the schema cannot
 * tell.
 */
export function takesAString(schema: z.ZodType | undefined, path: PropertyKey[], input: unknown): boolean {
  const accepted = schema ? acceptedAt(schema, path, input) : null;
  return accepted === null || accepted.includes('a string');
}

/**
 * Why the number is refused, naming its field from `root` as validation does (`value.amount`,
 * `content.value`; `params.arguments.content.value` for MCP). `takesString`: whether the field would
 * take the number as a string (an Object's value, a fact's), which is then the way to keep its digits;
 * a field that takes only a number (`budget.tokens`) is told no such thing.
 */
export function inexactNumberMessage(found: InexactNumber, root = 'body', takesString = true): string {
  const p = pathText(found.path);
  const field = root === 'body' ? p || root : p ? `${root}.${p}` : root;
  const sent = shortened(found.sent);
  if (!Number.isFinite(found.kept))
    return `${field}: ${sent} is beyond the largest double (${largestDouble})`;
  return (
    `${field}: ${sent} would not be kept exactly: JSON numbers are read as IEEE 754 doubles, ` +
    `which hold it only as ${String(found.kept)}` +
    (takesString ? '; send it as a string to keep every digit' : '')
  );
}
