/**
 * Text sent as `format=flowed` (RFC 3676) with its soft line breaks taken out, on the part's bytes
 * (any ASCII-compatible charset). A line that ends in a space goes on in the next line of the same
 * quote depth; a change of depth ends it (4.5), and the signature separator `-- ` never flows. Quote
 * marks and the space stuffed after them are read off each line and written once per joined line,
 * as `> `. postal-mime joins the lines without looking at their quote marks, so a reply's quotation
 * came out as one line with `>` in the middle of its sentences.
 */
export function unflow(body: Buffer, delSp: boolean): Buffer {
  const crlf = body.includes('\r\n');
  const joined: { depth: number; text: string; flows: boolean }[] = [];
  // latin1 maps each byte to one char and back, so the part's own charset passes through untouched.
  const lines = body.toString('latin1').split('\n');
  const last = lines.pop()!; // '' when the body ends with a line break, as MIME bodies do
  for (const physical of last === '' ? lines : [...lines, last]) {
    const line = physical.endsWith('\r') ? physical.slice(0, -1) : physical;
    let depth = 0;
    while (line.charCodeAt(depth) === 0x3e) depth++;
    let text = line.slice(depth);
    if (text.startsWith(' ')) text = text.slice(1);
    const flows = text.endsWith(' ') && text !== '-- ';
    const prev = joined.at(-1);
    if (prev?.flows && prev.depth === depth && text !== '-- ') {
      // With DelSp=yes the space that ends a flowed line was added to fold a word, and goes.
      prev.text = (delSp ? prev.text.slice(0, -1) : prev.text) + text;
      prev.flows = flows;
    } else joined.push({ depth, text, flows });
  }
  const eol = crlf ? '\r\n' : '\n';
  const out = joined.map((l) => (l.depth > 0 ? `${'>'.repeat(l.depth)} ${l.text}` : l.text));
  return Buffer.from(out.join(eol) + (last === '' ? eol : ''), 'latin1');
}
