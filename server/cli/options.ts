import { InvalidArgumentError } from 'commander';

/** commander parser for non-negative integers ("--port 0" is meaningful). */
export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(value);
}
