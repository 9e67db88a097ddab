/**
 * A job that cannot run yet because something it needs is still to be derived (a correction from
 * another side and the Records it names): thrown so the worker tries it again later, as a failed job
 * is, but said as the wait it is, not as a fault. Should it still wait after the last attempt, it is
 * recorded for Census as a failed job is.
 */
export class WaitsForDerivation extends Error {}
