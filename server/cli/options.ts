import { InvalidArgumentError } from 'commander';
import { isTimeZone } from '../../engine/retrieve/time-zone.ts';

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
