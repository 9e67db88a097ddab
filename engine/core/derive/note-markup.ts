import { fencedLines } from '../shared/fenced-lines.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/**
 * A note's sentence as a Memory reads it: a wiki link as the words it shows ("[[Ana Costa|Ana]]" as
 * "Ana", "[[Packing list]]" as "Packing list"), a Markdown link as its text, emphasis and inline code
 * without their marks, and in an Obsidian note without its comments ("%% maybe earlier? %%"). The
 * quote keeps the note's own characters; only the statement is read so.
 */
export function withoutMarkup(s: string, obsidian = false): string {
  return (obsidian ? withoutComments(s, () => '').replace(/(?<=\S) {2,}(?=\S)/gu, ' ') : s)
    .replace(/\[\[([^[\]|\n]+)\|([^[\]\n]+)\]\]/gu, '$2')
    .replace(/\[\[([^[\]\n]+)\]\]/gu, '$1')
    .replace(/(?<![![])\[([^[\]\n]+)\]\([^()\s]+\)/gu, '$1')
    .replace(/(\*\*|__)(?=\S)([^*_\n]+?)(?<=\S)\1/gu, '$2')
    .replace(/(?<![\p{L}\p{N}*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\p{L}\p{N}*])/gu, '$1')
    .replace(/`([^`\n]+)`/gu, '$1');
}

/**
 * TEXT with each of Obsidian's comments ("%% … %%", inline or over lines) replaced by what FILL gives
 * for it. A "%%" inside inline code ("`%%` prints a percent sign") opens none, as in Obsidian.
 */
function withoutComments(text: string, fill: (comment: string) => string): string {
  const masked = text.replace(/`[^`\n]+`/gu, (code) => ' '.repeat(code.length));
  let out = '';
  let at = 0;
  for (const m of matchesOf(comment, masked)) {
    out += text.slice(at, m.index) + fill(text.slice(m.index, m.index + m[0].length));
    at = m.index + m[0].length;
  }
  return out + text.slice(at);
}

/** A Markdown table's row: "| Race | Time |", "|---|---|". */
const tableRow = /^\s*\|.*\|\s*$/u;
/** A line of tags alone: "#todo #health/knee". */
const tagsAlone = /^\s*#[\p{L}\p{N}_/-]+(?:\s+#[\p{L}\p{N}_/-]+)*\s*$/u;

/** A line of embeds alone: "![[whiteboard.png]]", "![[Roadmap#Q2]]", "![chart](chart.png)". */
const embedsAlone = /^\s*(?:!\[\[[^[\]\n]+\]\]\s*|!\[[^[\]\n]*\]\([^()\s]+\)\s*)+$/u;
/** An Obsidian comment, "%% … %%", inline or over lines: hidden from the note as it reads. */
const comment = /%%[^%]*(?:%(?!%)[^%]*)*%%/gu;

/**
 * A note's text with what says nothing in words blanked (each character a space but line ends, so
 * every other position stays where it was and what is read from it is still quoted exactly from the
 * note): fenced code, a table's rows, lines of tags or of embeds alone, and Obsidian's comments. As
 * Memories they were "```bash # I love cron …", "| Race | Time |", "#todo #health/knee",
 * "!whiteboard.png" and "%% private comment %%". The Record keeps them as evidence.
 */
export function withoutNonProse(text: string, obsidian = false): string {
  const lines = text.split('\n');
  const fenced = fencedLines(lines);
  const prose = lines
    .map((line, i) =>
      fenced[i] || tableRow.test(line) || tagsAlone.test(line) || embedsAlone.test(line)
        ? ' '.repeat(line.length)
        : line,
    )
    .join('\n');
  // After the code is blanked: a "%%time" in a code block opens no comment.
  return obsidian ? withoutComments(prose, (c) => c.replace(/[^\n]/gu, ' ')) : prose;
}
