/** Text to match as itself inside a pattern built with `new RegExp`: every syntax character escaped. */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');
