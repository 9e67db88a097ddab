/** The contract, written once: every request and response schema, their TS types and validators. */
export * from './common.ts';
export * from './brain.ts';
export * from './record.ts';
export * from './memory.ts';
export * from './object.ts';
export * from './context.ts';
export * from './trace.ts';
export * from './profile.ts';
export * from './error.ts';
export * from './key.ts';
export * from './source.ts';
export { contractVersion } from './version.ts';
export * from './sync.ts';
