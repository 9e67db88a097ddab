/**
 * Which lines of a Markdown text belong to a fenced code block (``` or ~~~, three or more, closed by the
 * same fence or running to the end), fences included, also inside a quotation or a list. A backtick run
 * with a backtick after it on its line (```npm ci``` inline) opens no block. The importer reads tags and
 * headings outside them; the deriver reads no Memory from them.
 */
export function fencedLines(lines: readonly string[]): boolean[] {
  /** What closes the block open now: the same fence, at least as long. */
  let closing: RegExp | null = null;
  return lines.map((line) => {
    if (closing === null) {
      const open = /^[\s>]*(?:(`{3,})[^`]*$|(~{3,}))/u.exec(line);
      if (!open) return false;
      const fence = open[1] ?? open[2]!;
      closing = new RegExp(`^[\\s>]*${fence[0]}{${fence.length},}\\s*$`, 'u');
      return true;
    }
    if (closing.test(line)) closing = null;
    return true;
  });
}

/**
 * Where a text's fenced code blocks lie, fences included ([start, end) offsets, one per line): a chat
 * answer's code ("items = [1, 2, 3]") is no statement of its speaker's. Most texts have no fence.
 */
export function fencedRanges(text: string): { start: number; end: number }[] {
  if (!text.includes('```') && !text.includes('~~~')) return [];
  const lines = text.split('\n');
  const fenced = fencedLines(lines);
  const out: { start: number; end: number }[] = [];
  let at = 0;
  lines.forEach((line, i) => {
    if (fenced[i]) out.push({ start: at, end: at + line.length });
    at += line.length + 1;
  });
  return out;
}
