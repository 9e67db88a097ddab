/**
 * A note's sentence as a Memory reads it: a wiki link as the words it shows ("[[Ana Costa|Ana]]" as
 * "Ana", "[[Packing list]]" as "Packing list"), a Markdown link as its text, and emphasis and inline
 * code without their marks. The quote keeps the note's own characters; only the statement is read so.
 */
export function withoutMarkup(s: string): string {
  return s
    .replace(/\[\[([^[\]|\n]+)\|([^[\]\n]+)\]\]/gu, '$2')
    .replace(/\[\[([^[\]\n]+)\]\]/gu, '$1')
    .replace(/(?<![![])\[([^[\]\n]+)\]\([^()\s]+\)/gu, '$1')
    .replace(/(\*\*|__)(?=\S)([^*_\n]+?)(?<=\S)\1/gu, '$2')
    .replace(/(?<![\p{L}\p{N}*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\p{L}\p{N}*])/gu, '$1')
    .replace(/`([^`\n]+)`/gu, '$1');
}
