import { importedMailHeader } from '../../contract/mail-header.ts';

/**
 * The parts of a message that are not its speaker saying something: a mail's header lines (as the mail
 * importer writes them), text quoted from someone else ("> ..." lines, the "On ... wrote:" line above
 * them, an "Original Message" or forwarded mail below its marker), and a signature after "-- ". As
 * Memories they made a reply's sender the owner of what the other person wrote ("We need to cut travel by
 * 20%", owned by the one who only quoted it), and filled a mailbox's Memories with "Subject: Q2 budget".
 * The Record keeps every word: it is still evidence, found and quoted as written.
 */
export interface Range {
  start: number;
  end: number;
}

/**
 * A header line of the mail importer's own form (server/import/formats/mbox.ts); "Precedence: bulk" marks
 * mail sent to a list of subscribers (since rules-v78).
 */
/**
 * The line that introduces a quote: "On Mon, 4 Mar 2024 at 10:02, Carol Diaz <carol@x> wrote:", or with
 * the name after the verb, "Am Di., 12. März 2024 um 09:00 Uhr schrieb Ana Silva <ana@x>:".
 */
const attributionVerb =
  '(?:wrote|writes|schrieb|a écrit|escribió|escreveu|ha scritto|schreef|skrev|napisał)(?![\\p{L}\\p{N}])';
const attribution = new RegExp(`(?<![\\p{L}\\p{N}])${attributionVerb}[^\\n]*:$`, 'iu');
/** A line that is the attribution's verb and what follows it: "Wrote:", "schrieb Ana Silva <...>:". */
const attributionVerbFirst = new RegExp(`^${attributionVerb}`, 'iu');
/**
 * How attribution lines open, for one that a mail client wrapped over two lines ("On …" in English,
 * "Am …" German, "Le …" French, "El …" Spanish, "Em …" Portuguese, "Il …" Italian, "Op …" Dutch).
 */
const attributionOpening = /^(?:On|Am|Le|El|Em|Il|Op|Den|W dniu)\s/u;
/** A marker after which the rest is someone else's mail (Outlook and Gmail write these). */
const originalMarker =
  /^(?:-{2,}\s*(?:Original Message|Forwarded message|Mensagem original|Ursprüngliche Nachricht|Message d'origine|Mensaje original)\s*-{2,}|Begin forwarded message:)$/iu;

/**
 * A reply's header block over the mail it answers, as Outlook writes it in the body ("From: Klaus Weber
 * <k@x>" / "Sent: Tuesday, …" / "To: …" / "Subject: Contract"), in the languages Outlook is set to; and
 * the block postal-mime writes for a mail forwarded as an attachment (a line of dashes, then "From:    …").
 * Its "From:" line opens it; a sent or date line and a subject line follow within a few lines.
 */
const replyFrom = /^(?:From|Von|De|Da|Van|Från|Fra|Od):\s+\S/u;
const replySent =
  /^(?:Sent|Date|Gesendet|Datum|Envoyé|Enviado|Enviada|Data|Inviato|Verzonden|Skickat|Sendt|Wysłano|Wysłane):\s+\S/u;
const replySubject = /^(?:Subject|Betreff|Objet|Assunto|Asunto|Oggetto|Onderwerp|Ämne|Emne|Temat):\s+\S/u;
const dashes = /^-{10,}$/u;
/** The line a phone's or an app's mail adds below what was written: "Sent from my iPhone". */
const sentFrom =
  /^(?:Sent from my [\p{L}\p{N} ]{2,30}|Sent from (?:Outlook|Mail|Yahoo Mail|Gmail|Proton Mail)(?: for [\p{L}\p{N} ]{2,20})?|Get Outlook for (?:iOS|Android|Mac|Windows)|Enviado do meu [\p{L}\p{N} ]{2,30}|Enviado desde mi [\p{L}\p{N} ]{2,30}|Von meinem [\p{L}\p{N} ]{2,30} gesendet|Envoyé de mon [\p{L}\p{N} ]{2,30})\.?$/u;
/** Lines of a signature under a sign-off ("Kind regards," / "Ana Silva" / "Head of Platform | Acme"): at most. */
const signatureLines = 6;

interface Line {
  start: number;
  end: number;
  /** Trimmed. */
  text: string;
  /** As written (without its newline and a CR before it): "-- " keeps the space that makes it a delimiter. */
  raw: string;
}

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const part of text.split('\n')) {
    out.push({ start, end: start + part.length, text: part.trim(), raw: part.replace(/\r$/u, '') });
    start += part.length + 1;
  }
  return out;
}

/**
 * The second half of an attribution line a client wrapped, not a line of its own: it goes on from the
 * first ("carol@x> wrote:", "<carol@x> wrote:"), or the first stopped at a comma ("On Mon, 4 Mar 2024 at
 * 10:02," / "Carol Diaz <carol@x> wrote:"). "Carol wrote:" under a line of the speaker's own that has
 * no full stop ("On Monday I start at Acme") is a whole attribution, and that line stays said.
 */
function continuesAttribution(prev: Line, l: Line): boolean {
  if (!attributionOpening.test(prev.text) || attributionOpening.test(l.text) || isQuoted(prev)) return false;
  // A client's attribution carries the date and time, or the address: digits, "<" or "@".
  if (!/[\d<@]/u.test(prev.text)) return false;
  // It goes on from the first (lower case, "<"), the first stopped at a comma or "<", the second holds
  // the address ("Diaz <carol@x> wrote:", the name cut in two), or it is the verb alone ("Wrote:").
  return (
    !/^\p{Lu}/u.test(l.text) ||
    /[,<]$/u.test(prev.text) ||
    /[<@]/u.test(l.text) ||
    attributionVerbFirst.test(l.text)
  );
}

const isQuoted = (l: Line) => l.text.startsWith('>');

/** Whether a reply's or a forward's header block opens at line i: its "From:" line, or the dashes above it. */
function opensReplyAt(lines: readonly Line[], i: number): boolean {
  const at = dashes.test(lines[i]!.text) ? i + 1 : i;
  if (i === 0 || at >= lines.length || !replyFrom.test(lines[at]!.text)) return false;
  const next = lines.slice(at + 1, at + 5).map((x) => x.text);
  return next.some((t) => replySent.test(t)) && next.some((t) => replySubject.test(t));
}

/**
 * A chat's line, alone, that hands over to someone else's words below it: "forwarding from ines:",
 * "Fwd from Tom:", "what mum texted me:", "ines said:", "message from Tom:", "copying Ana's email:". Not
 * the speaker's own lead-ins ("Update:", "Things to remember:") nor words of their own ("I told him:").
 */
const handsOver =
  /^(?:(?:fwd|fw|forward(?:ed|ing)?)(?:\s+(?:from|of)\s+[^:\n]{1,40})?|(?:copy(?:ing)?|pasting|copy-pasting|quoting)\s+(?:from\s+)?\p{L}+['’]s?\s[^:\n]{0,30}|[^:\n]{1,40}?\s(?:texted|messaged|sent|said|says|wrote|writes|posted|replied|emailed|dmed|dm['’]d)(?:\s+(?:me|us|to\s+me))?(?:\s+this)?|(?:message|text|msg|email|e-mail|mail|dm|note)\s+from\s+[^:\n]{1,40}):$/iu;
/** The speaker in such a line ("So I said:", "Here's what I posted:", "my details:"): their own words follow. */
const ownHandOver = /(?<![\p{L}\p{N}])(?:i|my|we|our)(?![\p{L}\p{N}'’])/iu;
/** A paragraph after the forwarded words that opens as the speaker's again: "Anyway, I work at …". */
const backToOwn =
  /^(?:anyway|anyways|btw|also|so|ok|okay|lol|haha|but|and\s+(?:i|me)|as\s+for\s+me|me\s+too|meanwhile)(?![\p{L}\p{N}])/iu;

/** Whether lines below line i hold words, and not a quote's lines (then line i is its attribution). */
function handsOverTo(lines: readonly Line[], i: number): boolean {
  let j = i + 1;
  while (j < lines.length && lines[j]!.text === '') j += 1;
  return j < lines.length && !isQuoted(lines[j]!);
}

/** A signature's line: short, and no sentence ("I'll call you tomorrow about the contract."). */
const signatureLike = (l: Line) =>
  l.text.length <= 80 && !(/[.!?]$/u.test(l.text) && l.text.split(/\s+/u).length >= 5);

/** A line that only signs off, with nothing after it: "Kind regards,", "Best", "Thanks!". */
function signsOffAlone(line: string): boolean {
  const lower = line.toLowerCase().replace(/(?<![\s,.!])[\s,.!]+$/u, '');
  const m = signOffs.exec(lower) ?? thanksAlone.exec(lower);
  return m !== null && m[0].length === lower.length;
}

/** What a part of a message that is not its speaker's statement is: a quote holds someone else's words. */
type PartKind = 'header' | 'quote' | 'signature';

interface Part extends Range {
  kind: PartKind;
}

/** The ranges of a message's text that are not its speaker's own statements, in text order. */
export function notSaid(text: string): Range[] {
  const out: Range[] = [];
  for (const p of partsOf(text)) {
    const last = out[out.length - 1];
    if (last && last.end >= p.start - 1) last.end = Math.max(last.end, p.end);
    else out.push({ start: p.start, end: p.end });
  }
  return out;
}

/** The parts of a text that hold someone else's words (quoted lines with their attribution, a mail below its marker). */
export function quotes(text: string): Range[] {
  const out: Range[] = [];
  for (const p of partsOf(text)) {
    if (p.kind !== 'quote') continue;
    const last = out[out.length - 1];
    // A quote's lines, its attribution and the blank lines between them are one quote.
    if (last && text.slice(last.end, p.start).trim() === '') last.end = p.end;
    else out.push({ start: p.start, end: p.end });
  }
  return out;
}

/**
 * The mail importer's header block opening a message ("Subject: …" / "From: …" / "To: …"), and its
 * subject as written (null when the block has no Subject line); null for a text without one. Its lines
 * are no one's words: Context shows the subject in a block's header line and quotes the body.
 */
export function mailHeader(text: string): { range: Range; subject: string | null; bulk: boolean } | null {
  const header = importedMailHeader(text);
  return header && { range: { start: 0, end: header.end }, subject: header.subject, bulk: header.bulk };
}

/**
 * Where the words of someone else at `at` open, `at` lying in `quote` (one of quotes(text)): the line
 * that introduces them ("On … Carol wrote:", "-----Original Message-----", an Outlook "From:" line; the
 * nearest such line above `at`, for a thread quoted mail under mail), else the quote's first line.
 */
export function quoteOpening(text: string, quote: Range, at: number): number {
  const lines = linesOf(text.slice(quote.start, at));
  for (let i = lines.length - 1; i > 0; i -= 1) {
    const l = lines[i]!;
    if (originalMarker.test(l.text) || replyFrom.test(l.text) || attribution.test(l.text))
      return quote.start + l.start;
  }
  return quote.start;
}

function partsOf(text: string): Part[] {
  const lines = linesOf(text);
  const out: Part[] = [];
  const add = (from: Line, to: Line, kind: PartKind) => out.push({ start: from.start, end: to.end, kind });
  const header = importedMailHeader(text);
  if (header) add(lines[0]!, lines[header.lines - 1]!, 'header');
  const isMail = out.length > 0;
  // The importer's own header block is the mail's, not a reply's over another mail.
  const bodyStart = isMail ? lines.findIndex((x) => x.end >= out[0]!.end) + 1 : 0;
  for (let i = 0; i < lines.length; i += 1) {
    const l = lines[i]!;
    // The signature delimiter is "-- " (RFC 3676). Some mail clients drop its space, but in a chat a
    // bare "--" is only a separator, with more of the speaker's words below it.
    const delimiter = l.raw === '-- ' || (isMail && l.text === '--');
    if (originalMarker.test(l.text) || delimiter) {
      add(l, lines[lines.length - 1]!, delimiter ? 'signature' : 'quote');
      break;
    }
    // The mail this one answers or forwards, under its header block: the rest is someone else's.
    if (i >= bodyStart && opensReplyAt(lines, i)) {
      add(l, lines[lines.length - 1]!, 'quote');
      break;
    }
    if (isMail && sentFrom.test(l.text)) {
      add(l, l, 'signature');
      continue;
    }
    // A sign-off alone on its line, and the short lines under it up to a blank one: a signature block
    // without its "-- " (name, role, phone).
    if (isMail && signsOffAlone(l.text)) {
      let j = i + 1;
      while (j < lines.length && lines[j]!.text !== '' && j - i <= signatureLines) j += 1;
      const last = j - 1;
      // The block ends at a blank line or the text's end: a longer run of lines is the mail's own.
      const ended = j >= lines.length || lines[j]!.text === '';
      if (last > i && ended && lines.slice(i + 1, j).every(signatureLike)) {
        add(lines[i + 1]!, lines[last]!, 'signature');
        i = last;
      }
      continue;
    }
    if (isQuoted(l)) {
      add(l, l, 'quote');
      continue;
    }
    // "forwarding from ines:" alone on its line, with words below it: the rest is hers. (Over quoted
    // lines it is a quote's attribution, below.)
    if (
      !isMail &&
      l.text.endsWith(':') &&
      handsOver.test(l.text) &&
      !ownHandOver.test(l.text) &&
      handsOverTo(lines, i)
    ) {
      // To the end, or to a paragraph that opens as the speaker's again ("Anyway, I …").
      let j = i + 1;
      while (j < lines.length && !(lines[j - 1]!.text === '' && backToOwn.test(lines[j]!.text))) j += 1;
      let last = j - 1;
      while (last > i && lines[last]!.text === '') last -= 1;
      add(l, lines[last]!, 'quote');
      if (j >= lines.length) break;
      i = j - 1;
      continue;
    }
    // The attribution line is the quote's, when a quoted line follows it (blank lines between allowed).
    if (!l.text.endsWith(':')) continue;
    let j = i + 1;
    while (j < lines.length && lines[j]!.text === '') j += 1;
    if (j >= lines.length || !isQuoted(lines[j]!)) continue;
    // Gmail wraps a long one, the verb on either line: "On Mon, 4 Mar 2024 at 10:02, Carol Diaz <" /
    // "carol@x> wrote:". Not a line of the speaker's that happens to begin with "On" ("On Friday I
    // start at Acme", above "Carol wrote:").
    const prev = lines[i - 1];
    const wrapped =
      prev !== undefined && continuesAttribution(prev, l) && attribution.test(`${prev.text} ${l.text}`);
    if (wrapped) add(prev, l, 'quote');
    else if (attribution.test(l.text)) add(l, l, 'quote');
  }
  const signed = isMail ? signedByName(lines, out) : null;
  if (signed) add(signed, signed, 'signature');
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The line a mail's own words end with when it is only its sender's name, or part of it, as the
 * importer's "From:" line gives it ("Jonas", "Thomas Gruber", "Ordination Dr. Huber" from "Ordination
 * Dr. Markus Huber"): a signature with no sign-off above it. Each was a Memory, "Thomas Gruber" in the
 * landlord's list. Null when the mail's header names no one, or the line says more.
 */
function signedByName(lines: readonly Line[], parts: readonly Part[]): Line | null {
  const header = parts.find((p) => p.kind === 'header')!;
  const from = lines.find(
    (l) => l.start >= header.start && l.end <= header.end && l.text.startsWith('From: '),
  );
  const display = from ? /^From: ([^<@]*)</u.exec(from.text)?.[1]!.replace(/"/gu, '').trim() : '';
  if (!display) return null;
  const nameWords = new Set(display.toLowerCase().split(/[\s,]+/u));
  // Its own words end where the first part after the header starts (a quote, a signature), else at the end.
  const ownEnd = Math.min(...parts.filter((p) => p.start > header.end).map((p) => p.start), Infinity);
  const own = lines.filter((l) => l.start > header.end && l.end <= ownEnd && l.text !== '');
  const last = own.at(-1);
  if (!last || own.length < 2 || within(parts, last.start, last.end)) return null;
  const words = last.text.replace(/[,.]$/u, '').toLowerCase().split(/\s+/u);
  return words.length <= 4 && words.every((w) => nameWords.has(w)) ? last : null;
}

/** Longest first, so "best regards" is taken whole before "best" ("Best regards, Carol"). */
const opening = (words: string) =>
  new RegExp(
    `^(?:${words
      .split('|')
      .sort((a, b) => b.length - a.length)
      .join('|')})(?=$|[\\s,!.:])`,
    'u',
  );
/** Words that greet or thank someone, lower-cased: names may follow them ("Hi Ana", "Thanks Bob!"). */
const greetings = opening(
  'hi|hello|hey|dear|hallo|hola|olá|ola|oi|bonjour|salut|ciao|good morning|good afternoon|good evening|thanks|thank you|many thanks|thanks again|bok|zdravo|hej|moin|servus|ahoj|cześć|bom dia|boa tarde|buenos días|buongiorno|dobar dan|draga|dragi|drage|querida|querido|liebe|lieber|liebes|chère|cher|sehr geehrte|sehr geehrter|sehr geehrtes|guten tag|guten morgen|guten abend|grüß gott|grüß dich|grüezi|poštovani|poštovana|poštovane|poštovanje|dobro jutro|dobra večer',
);
/**
 * Greetings that address someone, lower-cased: besides names, a group may follow them ("Dear tenants,",
 * "Liebe Kolleginnen und Kollegen,", "Sehr geehrte Damen und Herren,"), closed by a comma or ":" as a
 * salutation is (addressesGroup). Not thanks: "Thanks for the lift," says what for.
 */
const addressing = opening(
  'hi|hello|hey|dear|hallo|hola|olá|bonjour|ciao|good morning|bok|zdravo|hej|moin|servus|draga|dragi|drage|querida|querido|liebe|lieber|liebes|chère|cher|sehr geehrte|sehr geehrter|sehr geehrtes|guten tag|guten morgen|grüß gott|grüezi|poštovani|poštovana|poštovane|dobar dan',
);
/** Words that name a group a mail is sent to, lower-cased (besides an English plural). */
const groupNouns = new Set(
  (
    'all everyone everybody team folks guys people family friends staff crew ladies gentlemen children ' +
    'customer member guest user client subscriber resident tenant neighbour neighbor colleague friend ' +
    'kolleginnen kollegen damen herren mieter mieterinnen nachbarn nachbarinnen freunde freundinnen eltern ' +
    'kunden kundinnen mitglieder zusammen alle leute kolege kolegice susjedi prijatelji roditelji stanari ' +
    'članovi svi ekipa'
  ).split(' '),
);
/** Words that may stand before or between such a group's: "Dear valued customer,", "Damen und Herren,". */
const groupJoins = new Set(
  'and und i y et e & valued dear fellow all my our lieber liebe lieben geschätzte werte verehrte drage dragi'.split(
    ' ',
  ),
);

/**
 * Whether what follows a greeting addresses a group and nothing else, closed by a comma or ":": "
 * tenants,", " Kolleginnen und Kollegen,", " valued customer,". Any other word makes it a sentence that
 * begins with a greeting ("Hi dentist moved to Friday!", "Hello from the hospital:").
 */
function addressesGroup(rest: string): boolean {
  const m = /^[ \t]+(\S.*?)[,:]$/u.exec(rest);
  if (!m) return false;
  const words = m[1]!.split(/[ \t]+/u);
  if (words.length > 4) return false;
  let group = false;
  let titled = false;
  for (const said of words) {
    const w = said.toLowerCase();
    if (groupNouns.has(w) || /^\p{Ll}{3,}s$/u.test(w)) group = true;
    else if (titles.has(w)) titled = true;
    // A name after a title in lower case: "Poštovani gospodine Horvat,".
    else if (titled && /^\p{Lu}/u.test(said)) group = true;
    else if (!groupJoins.has(w)) return false;
  }
  return group;
}

/** Titles written in lower case before a name in a salutation. */
const titles = new Set([
  'gospodine',
  'gospođo',
  'gospođice',
  'gospodo',
  'señor',
  'señora',
  'senhor',
  'senhora',
]);
/** Thanks as a sign-off, above a name: "Thanks," / "Carol". */
const thanksAlone = /^(?:thanks|thank you|many thanks|thanks again|thx|ta)$/u;
/** A time of day alone greets too ("Morning all!", "Morning Ana"), but opens other sentences as often. */
const timeOfDay = opening('morning|afternoon|evening');
/** Words that sign off: a name follows them only after a comma ("Best, Carol"; not "Love Lisbon!"). */
const signOffs = opening(
  'best|best regards|kind regards|warm regards|regards|cheers|sincerely|yours|yours truly|love|take care|all the best|cumprimentos|abraço|abraços|beijos|até breve|viele grüße|liebe grüße|mit freundlichen grüßen|bis bald|cordialement|à bientôt|a bientôt|bien à vous|saludos|un saludo|saludos cordiales|atentamente|hasta pronto|pozdrav|lijep pozdrav|srdačan pozdrav|puno pozdrava|pozdrawiam|s pozdravem|saluti|cordiali saluti|un abbraccio|groetjes|met vriendelijke groet|hälsningar|mvh|beste grüße|herzliche grüße|freundliche grüße|schöne grüße|viele liebe grüße|mit besten grüßen|mit freundlichen grüssen|viele grüsse|liebe grüsse|beste grüsse|herzliche grüsse|freundliche grüsse|herzlichst|alles liebe|hochachtungsvoll|lg|glg|vg|mfg|namaste|srdačno|s poštovanjem|lp|pozdravi',
);
/**
 * A sign-off by a team for its people, with its name ("Ihr Praxisteam Dr. Novak", "Euer HR-Team", "Ihr
 * FitInn Team", "Your Yogawerk team", "Vaš tim Dr. Horvat"): the opening lower-cased, the name after
 * "team" capitalised, so "Your team is great!" is none.
 */
const teamSignOff =
  /^(?:ihr|ihre|euer|eure|dein|deine|your|vaš|vaša|vaše|tvoj|tvoja)[ \t]+(?:[\p{L}\p{N}&'’.-]+[ \t]+){0,3}?(?:[\p{L}\p{N}&'’.-]*team|(?<=[ \t])tim)(?=$|[ \t,!.])/u;
const afterTeam = /^(?:[ \t]+\p{Lu}[\p{L}\p{M}'’.-]*){0,3}[,!.]?$/u;
/**
 * A group addressed by itself, closing with a comma, "!" or ":": "Team,", "All,", "Everyone!",
 * "Leute,", "Ekipa,". Lower-cased.
 */
const groupAlone = /^(?:team|all|everyone|everybody|folks|guys|people|leute|zusammen|ekipa|svima)[,!:]$/u;
/** A capitalised name, not "I". */
const name = String.raw`[ \t]+(?!I(?![\p{L}\p{M}]))\p{Lu}[\p{L}\p{M}'’-]*`;
const names = (min: number, max: number, lead: string) =>
  new RegExp(`^${lead}(?:${name}){${min},${max}}[,!.:]?$`, 'u');
/** What may follow each kind of opening: names (how many, after what), or a group. */
const afterGreeting = names(0, 3, '[,!.:]?');
const afterTimeOfDay = names(0, 1, '[,!.:]?');
const namedAfterComma = names(1, 3, ',');
const afterSignOff = (rest: string) => /^[,!.:]?$/u.test(rest) || namedAfterComma.test(rest);
const group =
  /^[,!.:]?[ \t]+(?:all|everyone|everybody|team|there|folks|guys|both|zusammen|alle|allerseits|leute|svima|ekipa)[,!.:]?$/iu;

/**
 * A sentence that only greets or signs off: "Hi Ana,", "Hallo Ana,", "Hey there!", "Best, Carol",
 * "Thanks,", "Kind regards". Said, but nothing to remember. "Hi I'm Ana", "Love it", "Love Lisbon!",
 * "Cheers Acme Corp" and "Morning Standup Moved" are not.
 */
export function isCourtesy(said: string): boolean {
  const sentence = said.trim();
  const lower = sentence.toLowerCase();
  const rest = (m: RegExpExecArray) => sentence.slice(m[0].length);
  if (groupAlone.test(lower)) return true;
  const team = teamSignOff.exec(lower);
  if (team && afterTeam.test(rest(team))) return true;
  const addressed = addressing.exec(lower);
  if (addressed && addressesGroup(rest(addressed))) return true;
  const greeting = greetings.exec(lower);
  if (greeting) return afterGreeting.test(rest(greeting)) || group.test(rest(greeting));
  const time = timeOfDay.exec(lower);
  if (time) return afterTimeOfDay.test(rest(time)) || group.test(rest(time));
  const signOff = signOffs.exec(lower);
  if (signOff) return afterSignOff(rest(signOff)) || group.test(rest(signOff));
  return false;
}

/**
 * What a mailing prints around its content: "Click here to read more.", "Unsubscribe anytime.", "View
 * this email in your browser", "You are receiving this because you signed up …". Said by nobody to
 * anybody: no Memory of the newsletter's.
 */
const boilerplate =
  /^(?:(?:click|tap)\s+here\b|(?:read|learn|see|find\s+out)\s+more[.!…]*$|(?:view|read|open)\s+(?:this\s+)?(?:e-?mail|message|newsletter|it)\s+(?:online|in\s+(?:your\s+|a\s+)?browser)|(?:you\s+can\s+)?unsubscribe\b|(?:manage|update|change)\s+(?:your\s+)?(?:e-?mail\s+|subscription\s+|notification\s+)?(?:preferences|settings|subscription)|you(?:['’]re|\s+are)\s+receiving\s+this\b|this\s+e-?mail\s+was\s+sent\s+to\b|(?:forward|share)\s+(?:this\s+)?(?:e-?mail\s+|newsletter\s+)?(?:to|with)\s+a\s+friend|(?:follow|like)\s+us\s+on\b|©|copyright\s+(?:©\s*)?\d{4}|all\s+rights\s+reserved[.!]*$|privacy\s+policy[.!]*$)/iu;

/** A sentence that is a mailing's boilerplate (see `boilerplate`), or greets or signs off (isCourtesy). */
export function isUnsaid(sentence: string): boolean {
  return isCourtesy(sentence) || boilerplate.test(sentence.trim());
}

/** True when the span [start, end) lies within one of the ranges. */
export function within(ranges: readonly Range[], start: number, end: number): boolean {
  return ranges.some((r) => start >= r.start && end <= r.end);
}
