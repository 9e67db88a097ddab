import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { unflow } from './flowed-text.ts';

interface Paragraph {
  depth: number;
  text: string;
}

/** A line as RFC 3676 4.4 sends it: quote marks, then a stuffing space where the text needs one. */
function sent(depth: number, text: string): string {
  if (depth > 0) return `${'>'.repeat(depth)} ${text}`;
  return /^( |>|From )/.test(text) ? ` ${text}` : text;
}

/** A paragraph cut into lines of at most `width` characters: between words, or anywhere with DelSp. */
function flowed(p: Paragraph, width: number, delSp: boolean): string[] {
  const lines: string[] = [];
  let rest = p.text;
  while (rest.length > width) {
    let cut = width;
    if (!delSp) {
      const space = rest.lastIndexOf(' ', width);
      if (space <= 0) {
        const next = rest.indexOf(' ', width);
        if (next === -1) break;
        cut = next;
      } else cut = space;
      // The space between the words ends the line, which says the line goes on.
      lines.push(sent(p.depth, rest.slice(0, cut + 1)));
      rest = rest.slice(cut + 1);
    } else {
      // DelSp=yes: a space is added to say the line goes on, and taken off again when unflowed.
      lines.push(sent(p.depth, `${rest.slice(0, cut)} `));
      rest = rest.slice(cut);
    }
  }
  lines.push(sent(p.depth, rest));
  return lines;
}

const word = fc.stringMatching(/^[a-zA-Z0-9>.,'-]{1,12}$/).filter((w) => w !== '--');
const paragraph = fc.record({
  depth: fc.integer({ min: 0, max: 3 }),
  text: fc.array(word, { minLength: 1, maxLength: 30 }).map((ws) => ws.join(' ')),
});

test('unflow gives back the paragraphs a flowed writer cut, quote depth and stuffing included', () => {
  fc.assert(
    fc.property(
      fc.array(paragraph, { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 4, max: 40 }),
      fc.boolean(),
      fc.boolean(),
      (paragraphs, width, delSp, crlf) => {
        // Paragraphs of one depth next to each other are kept apart by a fixed line: an empty one.
        const eol = crlf ? '\r\n' : '\n';
        const body =
          paragraphs.flatMap((p) => [...flowed(p, width, delSp), sent(p.depth, '')]).join(eol) + eol;
        const expected =
          paragraphs
            .flatMap((p) => [p, { depth: p.depth, text: '' }])
            .map((p) => (p.depth > 0 ? `${'>'.repeat(p.depth)} ${p.text}` : p.text))
            .join(eol) + eol;
        assert.equal(unflow(Buffer.from(body, 'latin1'), delSp).toString('latin1'), expected);
      },
    ),
    { numRuns: 500 },
  );
});

test('unflow leaves fixed text alone and never joins across the signature separator', () => {
  const fixed = 'Line one\nLine two\n\n> quoted\n';
  assert.equal(unflow(Buffer.from(fixed), false).toString(), fixed);
  assert.equal(unflow(Buffer.from('Thanks, \n-- \nAnn\n'), false).toString(), 'Thanks, \n-- \nAnn\n');
  // A flowed line before a change of depth is fixed: its space stays, the lines stay apart.
  assert.equal(unflow(Buffer.from('> a \nb\n'), false).toString(), '> a \nb\n');
});
