import { fencedLines } from '../shared/fenced-lines.ts';

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

/** A Markdown table's row: "| Race | Time |", "|---|---|". */
const tableRow = /^\s*\|.*\|\s*$/u;
/** A line of tags alone: "#todo #health/knee". */
const tagsAlone = /^\s*#[\p{L}\p{N}_/-]+(?:\s+#[\p{L}\p{N}_/-]+)*\s*$/u;

/**
 * A note's text with the lines that say nothing in words blanked (each character a space, so every
 * other position stays where it was and what is read from it is still quoted exactly from the note):
 * fenced code, a table's rows and lines of tags alone. As Memories they were "```bash # I love cron …",
 * "| Race | Time |" and "#todo #health/knee". The Record keeps them as evidence.
 */
export function withoutNonProse(text: string): string {
  const lines = text.split('\n');
  const fenced = fencedLines(lines);
  return lines
    .map((line, i) =>
      fenced[i] || tableRow.test(line) || tagsAlone.test(line) ? ' '.repeat(line.length) : line,
    )
    .join('\n');
}
