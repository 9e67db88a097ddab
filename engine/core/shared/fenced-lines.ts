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
