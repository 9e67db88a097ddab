import { fencedLines } from '../shared/fenced-lines.ts';
import { segmentInWindows } from '../shared/segment-in-windows.ts';
import { isForeignMonthName } from '../retrieve/time-languages.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/** A span of the source text: text.slice(start, end) === value, trimmed. */
export interface Span {
  start: number;
  end: number;
  value: string;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** text[start, end) without its surrounding whitespace, as a Span; null when nothing else is left. */
export function trimmedSpan(text: string, start: number, end: number): Span | null {
  while (start < end && /\s/u.test(text[start]!)) start += 1;
  while (end > start && /\s/u.test(text[end - 1]!)) end -= 1;
  return end > start ? { start, end, value: text.slice(start, end) } : null;
}

/**
 * Titles and abbreviations that Node's ICU segmenter (it has no abbreviation suppressions) takes for a
 * sentence's end before a capital: "My dentist is Dr. Silva in Braga." was two Memories, "My dentist is
 * Dr." and "Silva in Braga.", and correcting the first left the second current; "…the landlord, Sr.
 * Álvaro Magalhães: …" was cut the same way. A segment ending in one is joined to the next on the same
 * line. That errs the other way for a sentence that really ends in one ("… on Oak St. Then …", "… Bob
 * Smith Jr. He …" stay one sentence), which keeps every statement whole rather than cutting one in two.
 * Titles of the languages Mnemo's people write in besides English: Portuguese and Spanish "Sr.",
 * "Sra.", "Srta.", "Dra.", German "Hr." ("Fr." is there as Father). Written as usual or in capitals
 * ("DR. SILVA", a form's or an old system's export), not in any other mix; "HR." is a department.
 */
const titles = [
  ...['Mrs', 'Mr', 'Ms', 'Mx', 'Dr', 'Prof', 'Rev', 'Fr', 'St', 'Mt', 'Ft', 'Gen', 'Col', 'Capt', 'Lt'],
  ...['Sgt', 'Hon', 'Sen', 'Rep', 'Gov', 'Insp', 'Det', 'Supt', 'vs', 'approx', 'cf', 'Jr'],
  ...['Sr', 'Sra', 'Srta', 'Dra'],
]
  .flatMap((t) => [t, t.toUpperCase()])
  .concat('Hr');
/** Where a tail ends after one of `words` and its full stop, the word standing alone. */
const endsAfter = (words: string) => new RegExp(`(?:^|[^\\p{L}\\p{N}.])(?:${words})\\.[ \\t\\u00a0]*$`, 'u');
const title = endsAfter(titles.join('|'));
/** "e.g." and "i.e." go on into what they name, a capital's word as well ("e.g. Apples or pears"). */
const forExample = /(?:^|[^\p{L}\p{N}.])(?:e\.g|i\.e|E\.g|I\.e)\.[ \t\u00a0]*$/u;
/**
 * What is written before a number: "No. 5", "no. 12", "p. 12", "pp. 3-4", "Jan. 8". Only there: "He
 * said No. Then he left." ends after its "No."
 */
const beforeNumber = endsAfter(
  'No|no|NO|Nos|nos|Nr|nr|p|pp|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Vol|vol|Fig|fig',
);
/**
 * A day of the month written with its full stop, as Croatian, German and their neighbours write a date
 * ("12. lipnja", "24. Dezember", "3. svibnja 2027."): before a month's name it ends no sentence.
 * "vjenčanje je 12. lipnja u Samoboru" was two Memories, "…vjenčanje je 12." and "lipnja u Samoboru".
 */
const dayOfMonth = /(?:^|[^\p{L}\p{N}.])(?:0?[1-9]|[12]\d|3[01])\.[ \t\u00a0]*$/u;
const beforeMonth = (next: string) => isForeignMonthName(firstWord(next));
/** A single capital's initial ("J.", "K."); not "I", which ends "So do I." */
const initial = /(?:^|[^\p{L}\p{N}.'’])(?!I\.)\p{Lu}\.[ \t\u00a0]*$/u;
/**
 * Capitalised words that open a sentence far more often than they follow an initial in a name: after
 * "vitamin D." or "plan B." they start the next sentence ("We went with plan B. It worked.").
 */
const sentenceOpeners = new Set(
  `I I'm I've I'd I'll Im It It's Its He She We They You The A An This That These Those There Here Then
   But And So Or Nor Yet My Our Your His Her Their What When Where Why How Who Which If Also Yes No Not
   Ok Okay Thanks Thank Please Now Today Tomorrow Yesterday Tonight Next Last After Before Because
   Anyway Well Oh Still Maybe Just Let Let's Do Does Did Is Are Was Were Can Could Will Would Should
   Shall Might Must Have Has Had In On At For With From To As By Of Some All Every Each One Two
   Never Always Sometimes Actually Apparently Luckily Sadly Hopefully Otherwise Meanwhile However
   Though Although Since Until While Once Both Either Neither Nothing Everything Someone Everyone
   Nobody Hi Hello Hey Sorry Great Good Nice Cool Wow`.split(/\s+/u),
);
/** The word a segment opens with, as written. */
const firstWord = (segment: string) => /^[\p{L}\p{M}'’]+/u.exec(segment)?.[0] ?? '';

/**
 * Whether a sentence the segmenter ended (its last characters `tail`) goes on into the next segment:
 * after a title, "e.g." or "i.e." before a word, after "No." or "p." before a number, and after an
 * initial before another initial or a name ("J. R. R. Tolkien", "Anna K. Smith"), not before a
 * sentence's usual first word ("I need more vitamin D. The doctor said so.").
 */
function goesOn(tail: string, next: string): boolean {
  // The next word, or one opening a quote or a bracket ("Dr. \"Silva\"", "Mr. (Bo) Reis").
  const word = /^[\p{Pi}\p{Ps}"']?[\p{L}\p{N}]/u.test(next);
  if (word && (title.test(tail) || forExample.test(tail))) return true;
  if (/^\p{N}/u.test(next) && beforeNumber.test(tail)) return true;
  if (dayOfMonth.test(tail) && beforeMonth(next)) return true;
  if (!initial.test(tail)) return false;
  if (/^\p{Lu}\.(?:\s|$)/u.test(next)) return true;
  const w = firstWord(next);
  return /^\p{Lu}\p{Ll}/u.test(w) && !sentenceOpeners.has(w.replace('’', "'"));
}

/** The segmenter's sentences as [start, end) of text, with those cut after a title joined again. */
function* wholeSentences(
  text: string,
  listed: ReadonlySet<number>,
): Generator<{ index: number; segment: string }> {
  let held: { start: number; end: number } | null = null;
  for (const seg of segmentInWindows(segmenter, text)) {
    const end = seg.index + seg.segment.length;
    // Only the held sentence's end can hold the title: a bounded tail keeps a chain of joins linear.
    if (held && goesOn(text.slice(Math.max(held.start, held.end - 24), held.end), seg.segment)) {
      held.end = end;
      continue;
    }
    // A mark with no space after it ends no sentence: ICU cuts "…/edit?usp=sharing" after its "?",
    // and the half ending in "?" read as a question, so the message was no Memory. (CJK's full-width
    // marks are not these: its sentences follow each other with no space.)
    if (
      held &&
      /[?!.]$/u.test(text.slice(held.end - 1, held.end)) &&
      /^[\p{L}\p{N}=&%#/_-]/u.test(seg.segment)
    ) {
      held.end = end;
      continue;
    }
    // A numbered list's "1." ends no sentence: ICU cuts after it, and the item's number stood alone.
    if (held && numberedItem(text, held, listed)) {
      held.end = end;
      continue;
    }
    if (held) yield { index: held.start, segment: text.slice(held.start, held.end) };
    held = { start: seg.index, end };
  }
  if (held) yield { index: held.start, segment: text.slice(held.start, held.end) };
}

/**
 * A list item's marker and a task's box before a line's words ("- Hotel: Casa das Flores", "* [ ] Book
 * flights", "• Budget"): the list's, not the sentence's, so no Memory opens with it.
 */
const listMarker = /^(?:[-*+•‣◦]\s+)(?:\[[ xX]\]\s+)?(?=\S)/u;
/**
 * A numbered item's marker ("1. Book the van", "3) Cancel the gym"): a list's only where the text
 * numbers its lines in order (numberedLines), since a line may open with a day ("24. Dezember"), a
 * floor ("2. OG") or the number a hard-wrapped line carried over ("on March\n3. Bring …").
 */
const numberMarker = /^(\d{1,3})[.)]\s+(?:\[[ xX]\]\s+)?(?=\S)/u;
const numberAtLineStart = /(?:^|\n)[ \t]*(\d{1,3})[.)][ \t]/gu;

/** The numbers text's lines open with ("1. …", "2) …"): one is a list's where the next or the one before is too. */
export function numberedLines(text: string): ReadonlySet<number> {
  const out = new Set<number>();
  for (const m of matchesOf(numberAtLineStart, text)) out.add(Number(m[1]));
  return out;
}
const inOrder = (n: number, listed: ReadonlySet<number>) => listed.has(n - 1) || listed.has(n + 1);

/** The marker a line opens with, a bullet's or a listed number's; null for none. */
function markerOf(line: string, listed: ReadonlySet<number>): RegExpExecArray | null {
  const bullet = listMarker.exec(line);
  if (bullet) return bullet;
  const numbered = numberMarker.exec(line);
  return numbered && inOrder(Number(numbered[1]), listed) ? numbered : null;
}

/**
 * Whether a held sentence is a listed number alone on its line ("…\n2."), where ICU ends a sentence
 * after it: the item's words after it are its sentence.
 */
function numberedItem(
  text: string,
  held: { start: number; end: number },
  listed: ReadonlySet<number>,
): boolean {
  // Only the held sentence's last few characters: a number's line is short, and a bounded tail keeps a
  // text of many sentences linear.
  const from = Math.max(held.start, held.end - 12);
  const tail = text.slice(from, held.end).trimEnd();
  const nl = tail.lastIndexOf('\n');
  const m = /^[ \t]*(\d{1,3})\.$/u.exec(nl >= 0 ? tail.slice(nl + 1) : tail);
  if (m === null || !inOrder(Number(m[1]), listed)) return false;
  if (nl >= 0) return true;
  // No line break in the tail: the number is the whole held sentence, which opens a line.
  const before = text.slice(Math.max(0, held.start - 8), held.start);
  const atTextStart = held.start === before.length;
  return from === held.start && (atTextStart ? /(?:^|\n)[ \t]*$/u : /\n[ \t]*$/u).test(before);
}

/**
 * Short words a chat writes with a full stop inside a sentence, before a lower-case word. Not those
 * that end one as often ("no", "sat", "min", "sec"), nor those written before a number ("no. 5",
 * "fig. 2"), where no cut is made.
 */
const lowerAbbreviations = new Set(
  `mr mrs ms mx dr prof st mt ft vs etc approx cf ca inc ltd jr sr sra srta dra dept ave rd oz lb lbs esp prob def
   appt incl univ blvd hwy apt tbsp tsp govt assoc sgt capt lt rev col jan feb apr jun jul aug sep
   sept oct nov dec tue tues thu thur thurs fri yr yrs hr hrs wk wks`.split(/\s+/u),
);
/**
 * A full stop and the space after it, before a lower-case word. Not an ellipsis: "i'm married... to my
 * job lol" trails on into what it means.
 */
const stopBeforeLower = /(?<=[^\s.])(\.)(\s+)(?=\p{Ll})/gu;

const wordChar = /[\p{L}\p{N}.'’-]/u;
/** The word that ends at `at`, read back no further than `floor`. */
function wordBefore(text: string, at: number, floor: number): string {
  let start = at;
  while (start > floor && wordChar.test(text[start - 1]!)) start -= 1;
  return text.slice(start, at);
}

/**
 * A chat written all in lower case ("we broke up. im sad"): ICU takes a full stop before a lower-case
 * word for an abbreviation's and keeps the two one sentence, so neither read as what it says alone.
 * There, a full stop after a word that is no abbreviation (nor an initial, nor "e.g.") ends a sentence;
 * an ellipsis does not.
 * So is one that opens in lower case, or says "i": its writer leaves sentences uncased, whatever names
 * they capitalise ("my sister Maya lives in Madrid. she's a nurse"). Any other line with a capital but
 * a lone "I" is cased, and left to the segmenter.
 */
function* lowerCaseSentences(text: string, span: Span): Generator<Span> {
  const uncased =
    !/\p{Lu}/u.test(span.value.replace(/(?<![\p{L}\p{N}])I(?![\p{L}\p{N}])/gu, '')) ||
    /^[^\p{L}]*\p{Ll}/u.test(span.value) ||
    /(?<![\p{L}\p{N}'’])i(?:m|['’]m)?(?![\p{L}\p{N}'’])/u.test(span.value);
  if (!uncased) {
    yield span;
    return;
  }
  let from = span.start;
  for (const m of matchesOf(stopBeforeLower, span.value)) {
    const at = span.start + m.index;
    const word = wordBefore(text, at, Math.max(from, at - 24));
    const bare = word.toLowerCase();
    if (word.length < 2 || word.includes('.') || lowerAbbreviations.has(bare)) continue;
    if (dayOfMonth.test(word + '.') && beforeMonth(span.value.slice(m.index + m[0].length))) continue;
    const cut = at + m[1]!.length;
    const piece = trimmedSpan(text, from, cut);
    if (piece) yield piece;
    from = cut;
  }
  const rest = trimmedSpan(text, from, span.end);
  if (rest) yield rest;
}

/**
 * Sentences as exact, trimmed substrings of text (Intl.Segmenter, with titles and abbreviations kept
 * in, and a chat in lower case cut at its full stops), each without a list item's marker before it.
 */
export function sentences(text: string): Span[] {
  const out: Span[] = [];
  const listed = numberedLines(text);
  for (const seg of wholeSentences(text, listed)) {
    // The segmenter keeps line breaks inside a "sentence"; lines (lists, chat lines) are units too.
    let offset = seg.index;
    for (const line of seg.segment.split('\n')) {
      const whole = trimmedSpan(text, offset, offset + line.length);
      offset += line.length + 1;
      if (!whole) continue;
      for (const span of lowerCaseSentences(text, whole)) {
        const marker = markerOf(span.value, listed);
        out.push(marker ? trimmedSpan(text, span.start + marker[0].length, span.end)! : span);
      }
    }
  }
  return out;
}

/**
 * Lines that are a form's, not a wrapped sentence's: a heading, a table's row, a quotation, a code
 * fence, a rule or a signature's "-- ", a "Key: value" line (a mail's header, a note's property, a
 * chat's "Ana: see you", of a key of up to four words) and a chat's or a log's line opening with its
 * stamp ("[12/03/2026, 10:02] …", "2026-06-02 …"); not a time alone ("8:00 and 12:00 to …").
 */
const formLine = new RegExp(
  [
    String.raw`^[ \t]*(?:#{1,6}[ \t]|\||>|\x60{3}|~{3}|-{2,}[ \t]*$|\*{3,}[ \t]*$|_{3,}[ \t]*$)`,
    String.raw`^[ \t]*[\p{L}\p{N}][\p{L}\p{N}_'’.&/()-]*(?:[ \t]+[\p{L}\p{N}_'’.&/()-]+){0,3}:(?:[ \t]|$)`,
    String.raw`^[ \t]*(?:\[\d[^\]\n]{3,40}\]|\d{1,4}[./-]\d{1,2}[./-]\d{1,4}(?![\p{L}\p{N}]))`,
  ].join('|'),
  'u',
);
/** A bullet's marker; a number's is a list's only in order (markerOf). */
const bulletLine = /^[ \t]*[-*+•‣◦][ \t]+\S/u;
/**
 * Where a line ends a sentence, or a Markdown hard break ends it ("  " or "\\" after its words): its last
 * mark before closing quotes and brackets.
 */
const endsLine = /(?:[.!?…:;。！？][\p{Pe}\p{Pf}"'*_]{0,3}|[ \t]{2}|\\)$/u;
/**
 * Words a sentence goes on after, so the capital that opens the next line is a name's ("than\nNever …",
 * "near\nPraça da Liberdade"): English's, and the articles and prepositions of the languages a mail or
 * a note is often written in beside it (Portuguese, Spanish, French, German, Italian).
 */
const goesOnAfter = new Set(
  `a an the of to in on at for with from by about as into onto over under than and or but nor that which
   who whose whom my your his her its our their this these those is are was were be been being have has
   had do does did will would can could should may might must not very more most some any every each
   both either like through between after before since until while because if when where how what
   near behind beside across along around against among toward towards without within upon via past
   called named visit visiting meet meeting
   da das do dos na nas no nos em para com pelo pela um uma
   el la los las en con del al por
   le les du des au aux dans sur chez pour avec et
   der die das dem den im am zum zur mit bei von nach und
   il lo gli della delle dei nel nella alla al per`.split(/\s+/u),
);
/** The shortest line a wrapping editor or mailer leaves before its width: shorter ones are lines as written. */
const wrappedLineMin = 45;

/**
 * Whether the line break between `line` and `next` (two lines of one paragraph, `width` its longest) is
 * a soft one, a wrap inside a sentence: `line` ends no sentence and is about as long as the paragraph
 * allows (the next word would not have fit on it), and `next` goes on with it (in lower case, a number,
 * or a capital after a word a sentence does not end with). Neither is a form's line (formLine), and
 * `next` opens no list item; a list item's own words wrap onto an indented line.
 */
function softBreak(crLine: string, crNext: string, width: number, listed: ReadonlySet<number>): boolean {
  const [line, next] = [crLine, crNext].map((x) => (x.endsWith('\r') ? x.slice(0, -1) : x)) as [
    string,
    string,
  ];
  const l = line.trimEnd();
  if (l.length < wrappedLineMin || endsLine.test(line) || formLine.test(line) || formLine.test(next))
    return false;
  if (bulletLine.test(next) || markerOf(next.trimStart(), listed) !== null) return false;
  const item = bulletLine.test(line) || markerOf(line.trimStart(), listed) !== null;
  const indent = /^[ \t]*/u.exec(next)![0].length;
  if (item ? indent === 0 : indent > 3) return false;
  const word = /^\S+/u.exec(next.trimStart())?.[0] ?? '';
  if (l.length + 1 + word.length <= width * 0.85) return false;
  const first = /^[\p{Pi}\p{Ps}"'*_]*(.)/u.exec(word)?.[1] ?? '';
  if (/[\p{Ll}\p{Lo}\p{N}]/u.test(first)) return true;
  if (!/\p{Lu}/u.test(first)) return false;
  // The line's last word, read back no further than a word's length.
  let from = l.length;
  while (from > l.length - 16 && from > 0 && /\p{L}/u.test(l[from - 1]!)) from -= 1;
  return /[,–—]$/u.test(l) || goesOnAfter.has(l.slice(from).toLowerCase());
}

/**
 * text with the line breaks that only wrap a paragraph's prose (softBreak: a note's or a mail's lines
 * hard-wrapped at 72 or 100 characters) as spaces. The same length, so that every span of it is a
 * span of text, quoted from text as it is. In Markdown a single line break inside a paragraph is soft;
 * every line was a sentence of its own, and a wrapped note's sentences were Memories in pieces ("I
 * loved how slowly the truth comes through the", "journal entries."). Lists, checklists, headings,
 * tables, quotations, code, "Key: value" lines, chats and short lines (a signature, an address, a note
 * of a thought a line) stay lines.
 */
export function unwrapped(text: string): string {
  if (!text.includes('\n')) return text;
  const lines = text.split('\n');
  const fenced = fencedLines(lines);
  const listed = numberedLines(text);
  const soft: number[] = [];
  let offset = 0;
  let block: number[] = [];
  const readBlock = () => {
    // A loop, not Math.max(...): a Record may hold hundreds of thousands of lines in one paragraph.
    let width = 0;
    for (const i of block) width = Math.max(width, lines[i]!.trimEnd().length);
    for (let k = 0; k + 1 < block.length; k++) {
      const i = block[k]!;
      if (!fenced[i] && !fenced[i + 1] && softBreak(lines[i]!, lines[i + 1]!, width, listed)) soft.push(i);
    }
    block = [];
  };
  const ends: number[] = [];
  lines.forEach((line, i) => {
    offset += line.length;
    ends.push(offset);
    offset += 1;
    if (line.trim() === '') readBlock();
    else block.push(i);
  });
  readBlock();
  if (soft.length === 0) return text;
  let out = '';
  let at = 0;
  for (const i of soft) {
    const nl = ends[i]!;
    // A CRLF's "\r" goes with its "\n".
    const from = text[nl - 1] === '\r' ? nl - 1 : nl;
    out += text.slice(at, from) + ' '.repeat(nl + 1 - from);
    at = nl + 1;
  }
  return out + text.slice(at);
}

/**
 * A passage's list items, each a span of its own without its marker or task box ("- [ ] Register with
 * a GP"), where lines of it open with one: a checklist is one thing a line, not one statement whose
 * items' markers run through it. A line that opens with none goes on the item before it. The passage
 * itself where it holds no list.
 */
export function listItems(text: string, p: Span, listed: ReadonlySet<number>): Span[] {
  const out: Span[] = [];
  let from = p.start;
  let offset = p.start;
  for (const line of p.value.split('\n')) {
    const lead = /^[ \t]*/u.exec(line)![0].length;
    // An indented item ("  - not confirmed yet") stays with the one it is under.
    const marker = offset > p.start && lead === 0 ? markerOf(line, listed) : null;
    if (marker) {
      const item = trimmedSpan(text, from, offset);
      if (item) out.push(item);
      from = offset + marker[0].length;
    }
    offset += line.length + 1;
  }
  const last = trimmedSpan(text, from, p.end);
  if (last) out.push(last);
  return out;
}

/** A task's line: its bullet or number, its box, and the item's words after it ("- [x] Renew passport"). */
const taskLine = /^[ \t]*(?:[-*+•‣◦]|\d{1,3}[.)])[ \t]+\[([ xX])\][ \t]+(?=\S)/u;
/** A box anywhere: a text without one holds no task. */
const taskBox = /\[[ xX]\]/u;

/**
 * A task of a checklist: where its words stand in the text, and whether its box is ticked. `end` is
 * where its first sentence ends: what the box ticks ("- [x] Call mum. She sounded tired." ticks the
 * call; the rest is what was said of it).
 */
export interface TaskItem {
  start: number;
  end: number;
  done: boolean;
}

/**
 * The tasks of a text's checklists ("- [x] renew passport", "- [ ] send Priya the doc", "1. [ ] …"),
 * each the words on its line after the box. A box is a task's wherever a line opens with one after a
 * bullet or a number: unlike a number alone, "[ ]" and "[x]" after one say nothing else.
 */
export function taskItems(text: string): TaskItem[] {
  // Every note and message is read for tasks, and almost none holds a box: no split for those.
  if (!taskBox.test(text)) return [];
  const out: TaskItem[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const m = taskLine.exec(line);
    if (m) {
      const start = offset + m[0].length;
      // Most tasks are one sentence: the segmenter only for a line with a stop inside it.
      const words = line.slice(m[0].length);
      const first = /[.!?。！？]\s*\S/u.test(words.trimEnd()) ? sentences(words)[0] : undefined;
      const end = first === undefined ? offset + line.trimEnd().length : start + first.end;
      out.push({ start, end, done: m[1] !== ' ' });
    }
    offset += line.length + 1;
  }
  return out;
}

/** "To-do", "todo", "to do", "TODO": a to-do named so, in a note's first line or a sentence (task-said.ts). */
export const todoWord = String.raw`to[- ]?do`;

/**
 * A to-do's opening line: "To-do: renew passport", as a calendar's to-do (VTODO) is imported
 * (server/import/formats/ics.ts), or as a person opens a note of one thing to do ("Todo: call the
 * bank"). Words after the colon on the same line: "To do:" over a checklist names the list.
 */
const todoOpening = new RegExp(String.raw`^[ \t]*${todoWord}[ \t]*:[ \t]+(?=\S)`, 'iu');
/** What the importer writes under a to-do's opening: when it is due, and that (or when) it was done. */
const dueLine = /^Due:[ \t]+\S/u;
const doneLine = /^Done(?::[ \t]+\S.*)?$/u;

/**
 * A to-do that a whole Record is: its words (`start`, `end`) and whether it is done, as a checklist's
 * task; `through` is where its opening and the lines that say when it is due and whether it was done
 * end ("To-do: Renew passport\nDue: 2026-02-01…\nDone: 2026-01-30…"), which are the task and no
 * statements of their own. What follows them (a to-do's description) is the Record's other text.
 */
export interface TodoEntry extends TaskItem {
  through: number;
}

/**
 * The to-do a text is, when it opens with one (todoOpening) on its first line; null otherwise. A done
 * line directly under the opening (after a due line or not) makes it done: the importer writes one
 * for a to-do COMPLETED or given a COMPLETED time. A to-do with no summary is imported as "To-do: (no
 * title)", which says no task: its description is read as any note's.
 */
export function todoEntry(text: string): TodoEntry | null {
  const m = todoOpening.exec(text);
  if (m === null) return null;
  const lines = text.split('\n');
  const first = lines[0]!;
  const start = m[0].length;
  const end = first.trimEnd().length;
  if (text.slice(start, end) === '(no title)') return null;
  let through = first.length;
  let due = false;
  let done = false;
  for (const line of lines.slice(1)) {
    if (!due && dueLine.test(line)) due = true;
    else if (!done && doneLine.test(line.trimEnd())) done = true;
    else break;
    through += 1 + line.length;
  }
  return { start, end, done, through };
}

/**
 * A passage cut at its Markdown headings, each heading line a span of its own: a note that puts a
 * heading on the line right above its words ("## Bacalhau à Brás\nPotatoes, eggs…") has it in the
 * same paragraph, where the heading would be a sentence and a Memory, "## Bacalhau à Brás", and in a
 * note of no one's a passage would run through its headings. The heading alone is what `notePassages`
 * leaves out.
 */
export function headingsApart(text: string, p: Span): Span[] {
  const out: Span[] = [];
  let from = p.start;
  let offset = p.start;
  for (const line of p.value.split('\n')) {
    if (/^#{1,6}\s+\S/u.test(line)) {
      for (const span of [trimmedSpan(text, from, offset), trimmedSpan(text, offset, offset + line.length)])
        if (span) out.push(span);
      from = offset + line.length;
    }
    offset += line.length + 1;
  }
  if (from === p.start) return [p];
  const last = trimmedSpan(text, from, p.end);
  if (last) out.push(last);
  return out;
}

/**
 * Passages of at most ~maxChars, made of whole sentences where possible and never spanning a blank
 * line (paragraph break). Each is an exact substring of text, so it can be quoted as is.
 */
export function passages(text: string, maxChars = 800): Span[] {
  const out: Span[] = [];
  let cur: Span | null = null;
  const flush = () => {
    if (cur) out.push(cur);
    cur = null;
  };
  for (const s of sentences(text)) {
    for (const piece of hardSplit(text, s, maxChars)) {
      const paragraphBreak = cur !== null && /\n\s*\n/.test(text.slice(cur.end, piece.start));
      if (cur && !paragraphBreak && piece.end - cur.start <= maxChars) {
        cur = { start: cur.start, end: piece.end, value: text.slice(cur.start, piece.end) };
      } else {
        flush();
        cur = piece;
      }
    }
  }
  flush();
  return out;
}

/** Splits an over-long sentence at whitespace so no passage exceeds maxChars. */
function hardSplit(text: string, s: Span, maxChars: number): Span[] {
  if (s.end - s.start <= maxChars) return [s];
  const out: Span[] = [];
  let start = s.start;
  while (start < s.end) {
    let end = Math.min(start + maxChars, s.end);
    if (end < s.end) {
      const ws = text.lastIndexOf(' ', end);
      if (ws > start + maxChars / 2) end = ws;
    }
    const span = trimmedSpan(text, start, end);
    if (span) out.push(span);
    start = end;
  }
  return out;
}
