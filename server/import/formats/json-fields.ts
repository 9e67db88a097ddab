/** Readers for loosely-typed JSON exports (Slack, ChatGPT, Claude). */
export type Json = Record<string, unknown>;

/** A JSON object (not null, not an array). */
export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string with something besides whitespace, else undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
