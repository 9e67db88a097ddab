import { InvalidArgumentError } from 'commander';
import type * as z from 'zod';
import { isTimeZone } from '../../engine/retrieve/time-zone.ts';

/** A commander parser from a contract schema, so the CLI refuses what the HTTP API refuses, in its words. */
export const bySchema =
  (schema: z.ZodType<string>) =>
  (value: string): string => {
    const r = schema.safeParse(value);
    if (!r.success) throw new InvalidArgumentError(r.error.issues[0]!.message);
    return value;
  };

/** commander parser for non-negative integers ("--port 0" is meaningful). */
export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(value);
}

/** commander parser for an IANA time zone name ("Europe/Lisbon", "UTC"). */
export function timeZoneName(value: string): string {
  if (!isTimeZone(value))
    throw new InvalidArgumentError('must be an IANA time zone name, e.g. Europe/Lisbon or UTC');
  return value;
}
