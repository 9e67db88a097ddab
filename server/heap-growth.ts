import { setFlagsFromString } from 'node:v8';

const flagGiven = /--heap[-_]growing[-_]percent/;
/** V8 grows the old generation by at most 1.5 times what was alive after a full collection. */
const growingPercent = 50;

/**
 * Bounds how far V8 lets the main heap grow past what is alive. V8 picks the factor from the allocation
 * rate, and a server importing Records allocates ~400 KB a Record and promotes ~8% of it: the heap grew
 * to 2-3 times its ~93 MB live set at 100,000 Records, the largest part of the process's peak
 * (docs/decisions/memory-and-writes.md). A factor fixed at 1.5 held the peak to 480 MB against 589 in
 * the same run. Once per process, before the engine allocates; a factor the person gave node themselves
 * (on its command line or in NODE_OPTIONS) is left as it is.
 */
export function boundHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): boolean {
  if (execArgv.some((a) => flagGiven.test(a)) || flagGiven.test(nodeOptions)) return false;
  setFlagsFromString(`--heap-growing-percent=${growingPercent}`);
  return true;
}
