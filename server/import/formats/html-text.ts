import { compile, type SelectorDefinition } from 'html-to-text';

const lineBlock = { leadingLineBreaks: 1, trailingLineBreaks: 1 };

/**
 * Compiled once: selectors are turned into a decision tree, which is the costly part of a call.
 * Mail HTML is a layout of nested tables, tracking links and images around a little prose, so cells
 * become lines (not run together), links keep their words but not their (tracking) URLs, images and
 * everything that is not shown (head, title, script, style, a hidden preheader) go, and headings keep
 * their case.
 * Comments, Outlook's conditional ones included, never reach the text; entities are decoded.
 */
const convert = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    // What a mail hides: a preheader ("display:none", Outlook's "mso-hide:all"), the `hidden` attribute.
    ...[
      'head',
      'title',
      'script',
      'style',
      'template',
      '[hidden]',
      '[style*="display:none" i]',
      '[style*="display: none" i]',
      '[style*="mso-hide:all" i]',
      '[style*="mso-hide: all" i]',
    ].map((selector): SelectorDefinition => ({
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
  return (
    convert(html.length > maxHtml ? html.slice(0, maxHtml) : html)
      .replace(/\u00a0/g, ' ') // &nbsp; spacing is layout, not content
      // Invisible characters pad a preheader or break words for the layout; a zero-width space or
      // non-joiner between two letters is a script's own (Persian, Thai) and stays, as a joiner (emoji).
      .replace(/\u00ad|\u034f|\u2060|\ufeff|(?<!\p{L})[\u200b\u200c]|[\u200b\u200c](?!\p{L})/gu, '')
      .replace(/(?<![ \t])[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}
