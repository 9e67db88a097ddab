import { fencedLines } from '../shared/fenced-lines.ts';
import { withoutMarkup } from './note-markup.ts';
import { givesWhatOnlyAPersonHas } from './person-note.ts';

/** A part of a note: the person its heading names, or null for the rest of the note. */
export interface NoteSection {
  person: string | null;
  /** The note's text with every other part blanked (each character but a newline a space). */
  text: string;
}

const heading = /^(#{1,6})\s+(\S.*)$/u;

/**
 * A note that keeps several people under headings of their names ("People.md": "## Ana Kovač",
 * "- Birthday: March 12", "## Mum (Vesna Marić)", "- Birthday: December 19"), cut into each person's
 * section (their heading to the next heading as high or higher) and the rest. Each section's text keeps
 * the note's offsets, so its quotes are still the note's own. A heading is a person's only where a
 * line under it gives what only a person has. Null where no heading is a person's other than the
 * note's own title: then the note is read whole, as before. Read whole, the note was one
 * person's (its title's, "People" taken for a first name by a birthday line), each birthday replacing
 * the one before in that one slot.
 */
export function personSections(
  text: string,
  title: string | undefined,
  personNamed: (name: string) => string | null,
  obsidian: boolean,
): NoteSection[] | null {
  const lines = text.split('\n');
  const fenced = fencedLines(lines);
  const headings = lines.flatMap((line, i) => {
    const m = fenced[i] ? null : heading.exec(line);
    return m ? [{ line: i, level: m[1]!.length, person: headed(m[2]!, personNamed, obsidian) }] : [];
  });
  const own = title?.trim().toLowerCase();
  const endOf = (h: (typeof headings)[number]) =>
    headings.find((x) => x.line > h.line && x.level <= h.level)?.line ?? lines.length;
  // Two capitalised words are as often "Key Decisions" or "Morning Run": a heading is a person's
  // where a line under it gives what only a person has (a birthday, a phone, an e-mail, a partner).
  const people = headings.filter(
    (h) =>
      h.person !== null &&
      h.person.toLowerCase() !== own &&
      lines
        .slice(h.line + 1, endOf(h))
        .some((line, k) => !fenced[h.line + 1 + k] && givesWhatOnlyAPersonHas(line, h.person!, obsidian)),
  );
  if (people.length === 0) return null;
  const owner: (string | null)[] = lines.map(() => null);
  for (const h of people) for (let i = h.line; i < endOf(h); i++) owner[i] = h.person;
  const blankedBut = (keep: (i: number) => boolean) =>
    lines.map((line, i) => (keep(i) ? line : ' '.repeat(line.length))).join('\n');
  const sections: NoteSection[] = [];
  const rest = blankedBut((i) => owner[i] === null);
  // The rest is read only where it says something beyond its headings ("# People" alone is none).
  if (lines.some((line, i) => owner[i] === null && line.trim() !== '' && !heading.test(line) && !fenced[i]))
    sections.push({ person: null, text: rest });
  for (const h of people) {
    const end = endOf(h);
    // Whose lines they are: a deeper person's heading inside ("### Ana's kids") keeps its own.
    sections.push({
      person: h.person,
      text: blankedBut((i) => i > h.line && i < end && owner[i] === h.person),
    });
  }
  return sections;
}

/**
 * The person a heading names: the heading itself ("Ana Kovač", "[[Ana Kovač]]"), or the name in
 * brackets after what she is called ("Mum (Vesna Marić)").
 */
function headed(h: string, personNamed: (name: string) => string | null, obsidian: boolean): string | null {
  // A closing run of marks ("## Ana Kovač ##") is no part of the name.
  let words = withoutMarkup(h, obsidian).trim();
  while (words.endsWith('#')) words = words.slice(0, -1).trimEnd();
  const bracketed = /^[^()]+\(([^()]+)\)$/u.exec(words);
  return personNamed(words) ?? (bracketed ? personNamed(bracketed[1]!.trim()) : null);
}
