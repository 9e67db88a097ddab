import { compile, type SelectorDefinition } from 'html-to-text';

const lineBlock = { leadingLineBreaks: 1, trailingLineBreaks: 1 };

/**
 * Compiled once: selectors are turned into a decision tree, which is the costly part of a call.
 * Mail HTML is a layout of nested tables, tracking links and images around a little prose, so cells
 * become lines (not run together), links keep their words but not their (tracking) URLs, images and
 * everything that is not shown (head, title, script, style) go, and headings keep their case.
 * Comments, Outlook's conditional ones included, never reach the text; entities are decoded.
 */
const convert = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    ...['head', 'title', 'script', 'style', 'template'].map((selector): SelectorDefinition => ({
      selector,
      format: 'skip',
    })),
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector): SelectorDefinition => ({
      selector,
      options: { uppercase: false, leadingLineBreaks: 2 },
    })),
    ...['tr', 'td', 'th'].map((selector): SelectorDefinition => ({
      selector,
      format: 'block',
      options: lineBlock,
    })),
  ],
});

/**
 * html-to-text's own default cut-off, applied here so it does not console.warn in the middle of an
 * import's progress output; a Record's text is capped far below what this much HTML yields anyway.
 */
const maxHtml = 2 ** 24;

/** The readable text of an HTML mail body: paragraphs apart, lines kept, no markup or entities. */
export function htmlToText(html: string): string {
  return convert(html.length > maxHtml ? html.slice(0, maxHtml) : html)
    .replace(/\u00a0/g, ' ') // &nbsp; spacing is layout, not content
    .replace(/(?<![ \t])[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
