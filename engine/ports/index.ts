/**
 * The engine's storage ports: interfaces only, every method Promise-returning. The rules (engine/core
 * once it exists) are written against these; each storage backend is an adapter implementing them.
 * See docs/architecture.md for the layout and what is built over them so far.
 */
export type * from './rows.ts';
export type * from './repositories.ts';
export type * from './context-reads.ts';
export type * from './census-reads.ts';
export type * from './sequence.ts';
export type * from './indexes.ts';
export type * from './job-queue.ts';
export type * from './index-queue.ts';
export type * from './derivation-upgrade.ts';
export type * from './device-sync.ts';
export type * from './key-registry.ts';
export type * from './trace-store.ts';
export type * from './unit-of-work.ts';
export type * from './storage.ts';
export type * from './query-rewriter.ts';
