/** A line of the header block the mail importer opens a mail's text with (server/import/formats/mbox.ts). */
const headerLine = /^(?:Subject|From|To|Cc|Date): \S|^Precedence: bulk$/u;

/** The importer's header block of a mail's text, as importedMailHeader finds it. */
export interface ImportedMailHeader {
  /** How many lines it has (from the text's first). */
  lines: number;
  /** Where its last line ends in the text. */
  end: number;
  /** The Subject line's text, trimmed; null without one. */
  subject: string | null;
  /** Marked as mail sent to a list of subscribers. */
  bulk: boolean;
}

/**
 * The header block the mail importer opens a mail's text with ("Subject: …" / "From: …" / "To: …"):
 * two or more header lines from the first, which names the subject or the sender, up to the first
 * blank line or the text's end. One such line alone is a chat message as often ("From: Lisbon, finally
 * home"). Null for a text without one. Its lines are no one's words: the engine quotes the body under
 * them, and the app names the mail by its subject.
 */
export function importedMailHeader(text: string): ImportedMailHeader | null {
  if (!/^\s*(?:Subject|From): /u.test(text)) return null;
  const lines = text.split('\n');
  let i = 0;
  let end = 0;
  let subject: string | null = null;
  let bulk = false;
  for (let start = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (!headerLine.test(line)) break;
    if (subject === null && line.startsWith('Subject: ')) subject = line.slice('Subject: '.length).trim();
    if (line === 'Precedence: bulk') bulk = true;
    end = start + lines[i]!.length;
    start = end + 1;
  }
  if (i < 2 || (i < lines.length && lines[i]!.trim() !== '')) return null;
  return { lines: i, end, subject, bulk };
}
