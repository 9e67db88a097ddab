/**
 * The rule of a Slug (common.ts), as a pattern's source: 1 to 128 ASCII letters, digits, ".", "_" or
 * "-", starting with a letter or digit. Without zod, so the renderer's forms can take it as their `pattern`.
 */
export const slugPattern = '[A-Za-z0-9][A-Za-z0-9._\\-]{0,127}';
