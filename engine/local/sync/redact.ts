import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { selfSpeakerNames, type RecordReplica } from '../../contract/index.ts';
import { escapeRegExp } from '../../core/shared/escape-reg-exp.ts';
import { basesOf } from '../../core/shared/name-forms.ts';
import {
  baseName,
  isEverydayWord,
  isGivenName,
  nameBesideKnown,
  personNameOf,
  replaceUnknownNames,
  surnameMark,
  tagsAsOneName,
  valueParts,
} from './redact-people.ts';
import {
  decimal,
  digitValue,
  holdsDate,
  isBirthPredicate,
  mentionsBirth,
  oldFullDate,
  joinAddresses,
  outsideRoleWords,
  replaceAddresses,
  replaceAmounts,
  replaceBirthDates,
  replaceNumbers,
  replacePostcodesWithDash,
} from './redact-places.ts';
import { isCodePredicate, isSecretPredicate, replaceCodes, replaceSecrets } from './redact-secrets.ts';
import { specialCategoryOf } from './special-categories.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/** The people a Brain knows: its self, the speakers of its messages, its contacts and event participants. */
export interface KnownPeople {
  self: string | null;
  /**
   * Anyone else, as written. A word that means the Brain's own person (selfSpeakerNames: `user`,
   * `me`, `self` ...) is no one else: the redactor leaves it out, since as a name it would make a
   * pseudonym of "the user asked" and "call me", and of her as a speaker.
   */
  others: readonly string[];
  /**
   * The values of the Brain's slots of a person, as written ("Ivana", "Dr. Babić", "Ana, Marko"): a
   * partner, a parent, a manager, a dentist, of anyone. A value may name a firm or a place instead
   * ("Klinika Babić"), which is no one (withRelations).
   */
  relations?: readonly string[];
}

export type Redacted = { ok: true; replica: RecordReplica } | { ok: false; reason: string };

class Unsure extends Error {}

const roleOfSelf = '[self]';
// Said of "Marko Horvat" where the Brain knows a Marko and Horvat is the self's surname. It quotes the
// text's own words for the surname, never a pseudonym: on the device, where the reason is read, one says
// nothing.
const surnameBeside = (words: readonly string[]) =>
  `a name that shares a part with one the Brain knows (${[...new Set(words)]
    .slice(0, 2)
    .map((w) => `"${w}"`)
    .join(', ')}, its surname, right beside another name: perhaps one name, of someone else)`;
const secretRole = '[secret]';
const dateRole = '[date]';
/** Predicates whose value is a postal address: read after `addressCue`, as the text rules read one. */
// "lives in" is the deriver's predicate of a residence: its value is a city ("Zagreb"), which stays, or
// a street and its number ("42 Ilica").
const addressPredicate =
  /(?<![\p{L}])(?:address|home address|home|residence|lives at|lives on|lives in|lived in|lives|resides|resides at|moved to|moving to|moved into|location|adresa|prebivalište|boravište|morada|residência|adresse|wohnort|wohnsitz|dirección|endereço)(?![\p{L}])/iu;
const addressCue = 'address: ';
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Redacts text and typed content for a `redacted_summary` Record's copy: e-mail addresses, URLs, IP
 * addresses, IBANs, card and phone numbers become role words (`[email]`, `[url]`, ...), and the names of
 * the people the Brain knows become stable per-Brain pseudonyms (`[person-7KQ2]`; the Brain's self is
 * `[self]`), in any regular case of theirs too ("Goranom" as Goran). When something is left that looks
 * identifying but fits no rule (an `@handle`, an address spelled "at ... dot", an IBAN whose check
 * digits fail, a name part two known people share) the redactor is unsure and the Record is held back
 * rather than sent half-redacted. `places`: the names the Brain knows as a home, an employer or a
 * school (knownBySlots), which no rule for an unknown person's name takes for one ("Infobip called");
 * a known person's name is a person still.
 */
export function createRedactor(people: KnownPeople, secret: Buffer, places: readonly string[] = []) {
  const pseudonym = (name: string) => {
    const mac = createHmac('sha256', secret).update(name.normalize('NFC').toLowerCase()).digest();
    let tag = '';
    for (let i = 0; i < 4; i += 1) tag += alphabet[mac[i]! % 32];
    return `[person-${tag}]`;
  };
  const notPeople = new Set(places.map((p) => fold(collapse(p))).filter((p) => p.length >= 2));
  const isPlace = (name: string) => notPeople.has(fold(collapse(name)));
  const notSelf = (list: readonly string[]) => list.filter((n) => !meansSelf(n));
  const names = nameTable(
    withRelations(
      {
        ...people,
        others: notSelf(people.others),
        ...(people.relations ? { relations: notSelf(people.relations) } : {}),
      },
      isPlace,
    ),
    pseudonym,
  );

  const redactText = (written: string): string => {
    // The surname mark means nothing in a person's text: one already there would pass for the mark.
    const text = written.includes(surnameMark) ? written.replaceAll(surnameMark, '\uFFFD') : written;
    // First: a secret has no shape of its own, and a later rule would read it as something else (a
    // password with an "@" as a handle, a code of two digits as a count).
    let out = replaceUrls(replaceSecrets(text));
    out = replaceEmails(withEncodedAts(out));
    out = replaceObfuscatedEmails(out);
    out = replaceIbans(out);
    out = replaceIps(out);
    // Before the digit rules, which would read "1100-148" of "1100-148 Lisboa" as a phone.
    out = replacePostcodesWithDash(out);
    out = replaceDigitRuns(out);
    out = replaceBareUrls(out);
    // Before names: a known name as an address's local part ("ana at example dot com") is still one.
    if (spelledAddress.test(out)) throw new Unsure('an address spelled out ("at ... dot")');
    // Before names: a street may be named after a person ("Ulica Nikole Tesle 5").
    out = outsideRoleWords(out, replaceBirthDates);
    out = outsideRoleWords(out, replaceAmounts);
    out = joinAddresses(outsideRoleWords(out, replaceAddresses));
    out = outsideRoleWords(out, replaceNumbers);
    // The text's words that went as a surname's pseudonym (surnameMark), for a reason that names them.
    const surnames: string[] = [];
    out = replaceNames(out, names, surnames);
    out = replaceKnownForms(out, names, surnames);
    const beside = nameBesideKnown(out);
    if (beside !== null)
      throw new Unsure(`a name that shares a part with one the Brain knows ("${beside}" beside it)`);
    if (tagsAsOneName(out)) throw new Unsure(surnameBeside(surnames));
    out = replaceUnknownNames(out, pseudonym, notPeople.size > 0 ? isPlace : undefined);
    // A name the rules for an unknown one found right beside a known surname ("Snježana [self]" where a
    // sentence opens, which nameBesideKnown does not read as a name).
    if (tagsAsOneName(out)) throw new Unsure(surnameBeside(surnames));
    out = out.replaceAll(surnameMark, '');
    if (atSign.test(out)) throw new Unsure('an @ that is not part of an e-mail address (a handle?)');
    // Read on what would go: words inside an address or a URL that went are not said on the hub.
    const special = specialCategoryOf(out);
    if (special !== null)
      throw new Unsure(
        `it speaks of ${special.category} ("${special.word}"), which a redacted copy never carries`,
      );
    return out;
  };
  // A speaker, participant or subject that means the Brain's own person is hers on the hub as on the
  // device: `[self]` is one of selfSpeakerNames, as `user` is.
  const redactName = (name: string): string => {
    if (meansSelf(name)) return roleOfSelf;
    const whole = names.whole.get(fold(collapse(name)));
    return whole ?? redactText(name);
  };
  // A number is text a person wrote as digits (a phone, a card): it goes as its redaction when that
  // changes it, else as itself. The predicate is the cue that text would have before the value: a
  // secret's value goes whole ("password: hunter2", "door code: 48"), a birth's date does whatever its
  // form ("date of birth: 1990-05-03", "born: 1990"), and an address's value is read as one after
  // "address:" ("42 Ilica").
  const redactValue = (predicate: string, value: string | number | boolean): string | number | boolean => {
    if (typeof value === 'boolean') return value;
    if (isSecretPredicate(predicate)) return secretRole;
    // "gate: 48", "wifi: Tr0ub4dor&3": a code in the value of a predicate that names a secret only with
    // another word is one; "wifi: yes" is not.
    if (isCodePredicate(predicate)) {
      const coded = replaceCodes(String(value), predicate);
      if (coded !== String(value)) return coded === secretRole ? secretRole : redactText(coded);
    }
    if (isBirthPredicate(predicate) && holdsDate(String(value))) return dateRole;
    if (mentionsBirth(predicate) && oldFullDate(String(value), new Date().getUTCFullYear())) return dateRole;
    if (typeof value === 'string') {
      if (!addressPredicate.test(predicate)) return redactText(value);
      const read = redactText(`${addressCue}${value}`);
      return read.startsWith(addressCue) ? read.slice(addressCue.length) : redactText(value);
    }
    if (typeof value !== 'number') return value;
    const redacted = redactText(String(value));
    return redacted === String(value) ? value : redacted;
  };

  return {
    pseudonym,
    redact(replica: RecordReplica): Redacted {
      // A correction travels only shareable: its target's statement would need redacting as its
      // Memory's Records were, where they were redacted, for any side to find that Memory.
      if (replica.content.kind === 'correction')
        return { ok: false, reason: 'a correction travels only shareable, never redacted' };
      try {
        const c = replica.content;
        const content: RecordReplica['content'] =
          c.kind === 'message'
            ? {
                kind: 'message',
                text: redactText(c.text),
                ...(c.speaker !== undefined ? { speaker: redactName(c.speaker) } : {}),
                ...(c.thread !== undefined ? { thread: redactText(c.thread) } : {}),
              }
            : c.kind === 'document'
              ? {
                  kind: 'document',
                  text: redactText(c.text),
                  ...(c.title !== undefined ? { title: redactText(c.title) } : {}),
                }
              : c.kind === 'event'
                ? {
                    kind: 'event',
                    title: redactText(c.title),
                    ...(c.starts_at !== undefined ? { starts_at: c.starts_at } : {}),
                    ...(c.ends_at !== undefined ? { ends_at: c.ends_at } : {}),
                    ...(c.participants !== undefined ? { participants: c.participants.map(redactName) } : {}),
                    ...(c.place !== undefined ? { place: redactText(c.place) } : {}),
                  }
                : {
                    kind: 'fact',
                    subject: redactName(c.subject),
                    predicate: redactText(c.predicate),
                    value: redactValue(c.predicate, c.value),
                  };
        // The source's external id names an item of another system (a mail's Message-ID, a contact's
        // uid): it does not travel with a redacted copy; its name and trust do.
        const source = replica.source
          ? {
              ...(replica.source.name !== undefined ? { name: redactText(replica.source.name) } : {}),
              ...(replica.source.trust !== undefined ? { trust: replica.source.trust } : {}),
            }
          : undefined;
        return {
          ok: true,
          replica: {
            id: replica.id,
            content,
            ...(source ? { source } : {}),
            visibility: 'redacted_summary',
            occurred_at: replica.occurred_at,
          },
        };
      } catch (e) {
        if (e instanceof Unsure) return { ok: false, reason: e.message };
        throw e;
      }
    },
  };
}

interface NameTable {
  /** Full names and name parts, longest first, with their replacement (null: shared, so unsure). */
  words: { pattern: RegExp; word: string; replacement: string | null }[];
  /** Full names, case folded, with their replacement. */
  whole: Map<string, string>;
  /**
   * Each word a known name is, or has as a part, case folded, with its replacement (null: shared): what
   * a case of it (replaceKnownForms) stands for.
   */
  single: Map<string, string | null>;
  /** The first two letters of each of those, folded: a word that starts otherwise is a case of none. */
  heads: Set<string>;
}

const collapse = (name: string) => name.trim().replace(/\s+/g, ' ');
/** Whether a name is a word for the Brain's own person, as resolveOwner compares it. */
const meansSelf = (name: string) => selfSpeakerNames.has(collapse(name).toLowerCase());
/**
 * What a reader does not see inside a name: format characters (a zero-width space or joiner, a soft
 * hyphen, a word joiner), and the Hangul fillers, letters that print as nothing.
 */
const invisibleClass = '[\\p{Cf}\\u115F\\u1160\\u3164\\uFFA0]';
const invisible = new RegExp(invisibleClass, 'gu');
/**
 * Names are matched whatever their case, accents, hyphens and apostrophes ("ana", "ANA LIMA", "Jose
 * Alvarez" for José Álvarez, "Mary Jane" for Mary-Jane, "ONeill" for O'Neill): compared folded, found by
 * namePattern.
 */
const fold = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[łøđħıŧ]/gu, (ch) => plainOf[ch]!)
    .replace(/[\s\u002D\u2010\u2011\u2013]+/gu, ' ')
    .replace(/['’ʼ]/gu, '')
    .replace(invisible, '');

/** Letters with a stroke or without a dot, which NFD does not take apart: "Łukasz" is written "Lukasz". */
const plainOf: Readonly<Record<string, string>> = { ł: 'l', ø: 'o', đ: 'd', ħ: 'h', ı: 'i', ŧ: 't' };
/** A letter's base: its plain letter, else NFD's first character, lower case. */
const baseOf = (ch: string): string => {
  const lower = ch.toLowerCase();
  return plainOf[lower] ?? lower.normalize('NFD')[0]!;
};

/** Each Latin letter with every accented form of it, by its base letter. */
const latinForms: ReadonlyMap<string, string> = (() => {
  const forms = new Map<string, string>();
  for (const [from, to] of [
    [0xc0, 0x24f],
    [0x1e00, 0x1eff],
  ] as const)
    for (let cp = from; cp <= to; cp += 1) {
      const ch = String.fromCodePoint(cp);
      const base = baseOf(ch);
      if (base === ch.toLowerCase() || !/^[a-z]$/u.test(base)) continue;
      forms.set(base, (forms.get(base) ?? base + base.toUpperCase()) + ch);
    }
  return forms;
})();

/**
 * A name as a regex that finds it as fold compares it: any accent, hyphen or space, apostrophe or none,
 * and invisible format characters between its letters ("B\u200bob", "Bo\u00adb"), which a reader never
 * sees and which would otherwise leave the name in clear.
 */
function namePattern(name: string): RegExp {
  let source = '';
  for (const ch of name.normalize('NFC').replace(invisible, '')) {
    if (/[\s\u002D\u2010\u2011\u2013]/u.test(ch)) {
      if (!source.endsWith('+')) source += '[\\s\\u002D\\u2010\\u2011\\u2013]+';
    } else if (/['’ʼ]/u.test(ch)) source += "['’ʼ]?";
    else {
      const forms = latinForms.get(baseOf(ch));
      source += forms ? `[${forms}]\\p{M}*` : `${escapeRegExp(ch)}\\p{M}*`;
    }
    source += `${invisibleClass}*`;
  }
  return new RegExp(source, 'giu');
}

/** The people a Brain knows, with the names its slots give that it knows by no other (withRelations). */
interface NamedPeople {
  self: string | null;
  others: readonly string[];
  /** Names only a slot gives: each keeps a part only where no person of `self` and `others` has it. */
  slotNames: readonly SlotName[];
}

interface SlotName {
  name: string;
  /** Later words of a value typed in lower case that are everyday words, not parts of the name (folded). */
  everydayParts?: ReadonlySet<string>;
}

/**
 * The people a Brain knows with those its slots name (`relations`), so that a name no rule for an
 * unknown person finds ("Babić" alone, a name missing from the given names) is replaced as a known
 * one, in its cases too: each value, and each of a list ("Ana, Marko", "Ana i Marko", "Ana / Marko":
 * valueParts), that is written as a person's name (personNameOf: "Dr. Babić" is Babić) and is no place
 * or firm the Brain knows. One known already, whole or as a part of a known name, stays that person's
 * ("Marko" where the Brain knows a Marko Babić).
 */
function withRelations(people: KnownPeople, isPlace: (name: string) => boolean): NamedPeople {
  const base = { self: people.self, others: people.others, slotNames: [] };
  if (!people.relations || people.relations.length === 0) return base;
  const known = new Set<string>();
  for (const name of [people.self, ...people.others]) {
    if (!name) continue;
    const full = collapse(name);
    known.add(fold(full));
    for (const part of full.split(' ')) known.add(fold(part));
  }
  const slotNames: SlotName[] = [];
  for (const value of people.relations)
    for (const one of valueParts(value)) {
      const name = personNameOf(one);
      if (name === null || isPlace(one) || isPlace(name) || known.has(fold(name))) continue;
      known.add(fold(name));
      // A value typed in lower case ("ivan work", "marta sick", "marta jurić") is a name by its first
      // word, a given name (personNameOf): a word after it is a part of the name, a surname, unless it
      // is an everyday one, which as a part would be hidden in every copy ("long day at work"). The
      // whole is hers still.
      const everyday = /\p{Lu}/u.test(one)
        ? undefined
        : new Set(name.split(' ').slice(1).filter(isEverydayWord).map(fold));
      slotNames.push(everyday && everyday.size > 0 ? { name, everydayParts: everyday } : { name });
    }
  return { ...base, slotNames };
}

function nameTable(people: NamedPeople, pseudonym: (name: string) => string): NameTable {
  const whole = new Map<string, string>();
  const spelled = new Map<string, string>();
  const parts = new Map<string, { word: string; replacements: Set<string>; later: boolean }>();
  // The parts of the names of the self and the people the Brain met (speakers, contacts).
  const metParts = new Set<string>();
  // A slot's name that is a surname alone ("Babić" of "dentist: Dr. Babić"): marked as a later part is
  // (surnameMark), so that a given name beside it ("Marko Babić") is held back as one name of another.
  const surnamesAlone = new Set<string>();
  const add = (name: string, replacement: string, bySlot = false, everydayParts?: ReadonlySet<string>) => {
    const full = collapse(name);
    const key = fold(full);
    if (full.length < 2 || whole.has(key)) return;
    whole.set(key, replacement);
    spelled.set(key, full);
    const words = full.split(' ');
    if (bySlot && words.length === 1 && !isGivenName(full.split('-')[0]!)) surnamesAlone.add(key);
    // Each word, and each half of a double surname ("Horvat-Kovačević": either alone is her), a later
    // word marked as a surname's (surnameMark).
    const partsOf = words.flatMap((word, k) => {
      const halves = k > 0 && word.includes('-') ? word.split('-') : [];
      return [word, ...halves].map((part) => ({ part, later: k > 0 }));
    });
    for (const { part, later } of partsOf) {
      // A part counts as a name when it is written as one in the name: capitalised, three letters or more.
      if (part.length < 3 || !/^\p{Lu}/u.test(part) || part === full) continue;
      if (later && everydayParts?.has(fold(part))) continue;
      // A slot's name whose part is a met person's ("Dr. Marko Babić", a dentist, where Marko Kos
      // speaks) leaves that part to the met one: "Marko" alone is far likelier the one who speaks, and
      // a part two people share would hold back every copy naming him. The whole name is the slot's.
      if (!bySlot) metParts.add(fold(part));
      else if (metParts.has(fold(part))) continue;
      const entry = parts.get(fold(part)) ?? {
        word: part,
        replacements: new Set<string>(),
        later: false,
      };
      entry.replacements.add(replacement);
      entry.later ||= later;
      parts.set(fold(part), entry);
    }
  };
  if (people.self) add(people.self, roleOfSelf);
  for (const other of people.others) add(other, pseudonym(collapse(other)));
  for (const { name, everydayParts } of people.slotNames)
    add(name, pseudonym(collapse(name)), true, everydayParts);
  const entries = [
    ...[...whole].map(([key, replacement]) => ({
      word: spelled.get(key)!,
      replacement: (surnamesAlone.has(key) ? replacement + surnameMark : replacement) as string | null,
    })),
    ...[...parts]
      .filter(([key]) => !whole.has(key))
      .map(([, { word, replacements, later }]) => ({
        word,
        replacement: replacements.size === 1 ? [...replacements][0]! + (later ? surnameMark : '') : null,
      })),
  ].sort((a, b) => b.word.length - a.word.length);
  // The regex runs over the text itself, so every match is at its place in it whatever case folding
  // would do to the length of the text; any run of white space stands for the space in a name.
  const words = entries.map((e) => ({
    ...e,
    pattern: namePattern(e.word),
  }));
  const single = new Map<string, string | null>();
  for (const e of entries) if (!e.word.includes(' ')) single.set(fold(e.word), e.replacement);
  const heads = new Set([...single.keys()].map((w) => w.slice(0, 2)));
  return { words, whole, single, heads };
}

const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);

function replaceNames(text: string, names: NameTable, surnames: string[] = []): string {
  let out = text;
  for (const { pattern, word, replacement } of names.words) {
    out = out.replace(pattern, (match: string, at: number, whole: string) => {
      // Inside a longer word ("Anabela", "Stoneware") it is not the name.
      if (isWordChar(whole[at - 1]) || isWordChar(whole[at + match.length])) return match;
      if (replacement === null) throw new Unsure(`a name two known people share ("${word}")`);
      if (replacement.endsWith(surnameMark)) surnames.push(match);
      return replacement;
    });
  }
  return out;
}

const capitalisedWord = /(?<![\p{L}\p{M}\p{N}_'’-])\p{Lu}[\p{L}\p{M}]{2,}(?![\p{L}\p{M}\p{N}_-])/gu;

/**
 * Known names in a regular case of theirs (name-forms.ts: "Goranu", "Goranom" of a known Goran;
 * "Željkom" of Željka Babić) as the name's replacement. A case of two known names is the one the text
 * names too, or as baseName reads it; a case of a name two known people share leaves the redactor
 * unsure, as the name does. The same person twice in a row ("Goranom Babićem": two cases, one name)
 * is one pseudonym.
 */
/** The first two letters of a word as fold writes them ("Željka": "ze"), marks written apart skipped. */
function headOf(word: string): string {
  if (word.charCodeAt(0) < 0x80 && word.charCodeAt(1) < 0x80) return word.slice(0, 2).toLowerCase();
  let head = '';
  for (const ch of word) {
    if (/\p{M}/u.test(ch)) continue;
    head += baseOf(ch);
    if (head.length === 2) break;
  }
  return head;
}

function replaceKnownForms(text: string, names: NameTable, surnames: string[] = []): string {
  if (names.single.size === 0) return text;
  const out = text.replace(capitalisedWord, (word: string, at: number, whole: string) => {
    // Two letters first: folding every capitalised word of every text would cost a tenth of the redaction.
    if (!names.heads.has(headOf(word)) || basesOf(word).length === 0) return word;
    if (names.single.has(fold(word))) return word;
    const base = baseName(
      word,
      whole,
      at,
      (b) => names.single.has(fold(b)),
      (b) => {
        const replacement = names.single.get(fold(b));
        return replacement != null && whole.includes(replacement.replace(surnameMark, ''));
      },
    );
    if (base === null) return word;
    const replacement = names.single.get(fold(base))!;
    if (replacement === null) throw new Unsure(`a name two known people share ("${base}", as "${word}")`);
    if (replacement.endsWith(surnameMark)) surnames.push(word);
    return replacement;
  });
  return out === text
    ? out
    : out.replace(/(\[(?:self|person-[0-9A-Z]{4})\])\uE001?(?:[ \u00a0]\1\uE001?)+/gu, '$1');
}

const closing = '.,;:!?)]}\'"';

function replaceUrls(text: string): string {
  return text.replace(/\b(?:https?:\/\/|www\.)[^\s<>"]+/gi, (url) => `[url]${url.slice(urlEnd(url))}`);
}

// A host and a path or query, with no scheme ("example.com/a?b=1"): the path or query is what names a
// page or carries a token. It runs after the digit rules, so it cannot take in part of a number.
const bareUrl = /(?<![\p{L}\p{N}_@.-])(?:[\p{L}\p{N}-]+\.)+\p{L}{2,}(?::\d{1,5})?[/?#][^\s<>"]+/gu;

function replaceBareUrls(text: string): string {
  return text.replace(bareUrl, (url) => {
    const end = urlEnd(url);
    const found = url.slice(0, end);
    // Nothing after the "/" or "?" ("example.com/", "did you open notes.md?"): no path, no query.
    if (/[/?#]$/.test(found) || namesFilesOrTools(found)) return url;
    return `[url]${url.slice(end)}`;
  });
}

// Suffixes of files and of the names of tools ("Node.js", "main.py"); a few are also countries' domains
// (.md, .py, .sh, .rs), whose sites then need a scheme, "www." or a path that is more than words.
const toolSuffix =
  /\.(?:[cm]?js|jsx|tsx?|py|ipynb|rb|md|mdx|json|ya?ml|toml|xml|html?|css|scss|sh|rs|go|java|kt|swift|cpp|hpp|cs|php|sql|txt|csv|pdf|docx?|xlsx?|pptx?|png|jpe?g|gif|svg|vue|lock|ini|cfg|conf|log|zip|gz|tar|exe|dll)$/i;
// A word, maybe a tool's ("C++", "C#", ".NET", "Next.js"): no digits, nothing a page's name or a token
// would hold.
const toolWord = /^\.?\p{L}+(?:[+#]{1,2}|\.\p{L}+)?$/u;

/**
 * Whether a host with a path is the name of a file or a tool and words after a "/" ("Node.js/TypeScript",
 * "main.py/utils.py", "Vue.js/React/Next.js"): a list of things a person works with, not a page.
 */
function namesFilesOrTools(found: string): boolean {
  const host = found.slice(0, found.search(/[/?#:]/));
  if (!toolSuffix.test(host) || found[host.length] !== '/') return false;
  return found
    .slice(host.length + 1)
    .split('/')
    .every((word) => toolWord.test(word));
}

/**
 * Where a URL found in text ends: before the punctuation that closes the sentence or bracket around it.
 * A closing bracket with its opener in the URL is the URL's (`wiki/Foo_(bar)`, a role word `[phone]`).
 */
function urlEnd(url: string): number {
  // Closers not yet matched by an opener, per kind: counted once, so a long tail costs no more.
  const unmatched = new Map<string, number>();
  for (const [close, open] of Object.entries(openers))
    unmatched.set(close, url.split(close).length - url.split(open).length);
  let end = url.length;
  while (end > 0 && closing.includes(url[end - 1]!)) {
    const ch = url[end - 1]!;
    const left = unmatched.get(ch);
    if (left !== undefined) {
      if (left <= 0) break;
      unmatched.set(ch, left - 1);
    }
    end -= 1;
  }
  return end;
}

const openers: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

// Characters are read as NFKC reads them, so that "ana＠example．com" (full width) is an address as
// "ana@example.com" is; the text around them is left as it was written.
const atSigns = /[@\uFE6B\uFF20]/g;
const atSign = /[@\uFE6B\uFF20]/;
const localChar = /^[\p{L}\p{N}._%+-]+$/u;
const domainChar = /^[\p{L}\p{N}.-]+$/u;
const compat = (ch: string) => ch.normalize('NFKC');

/** Scans for each `@` and takes the address around it, without a regex that could backtrack. */
function replaceEmails(text: string): string {
  let out = '';
  let from = 0;
  for (const { index: at } of matchesOf(atSigns, text)) {
    if (at < from) continue;
    let start = at;
    while (start > from && localChar.test(compat(text[start - 1]!))) start -= 1;
    let end = at + 1;
    while (end < text.length && domainChar.test(compat(text[end]!))) end += 1;
    while (end > at + 1 && /^[.-]$/.test(compat(text[end - 1]!))) end -= 1;
    const domain = compat(text.slice(at + 1, end));
    if (start === at || !/\.\p{L}{2,}$/u.test(domain)) continue;
    out += `${text.slice(from, start)}[email]`;
    from = end;
  }
  return out + text.slice(from);
}

/** "carla.m%40corp-mail.net", as a mailto: link or a form encodes it: an `@` between an address's characters. */
const withEncodedAts = (text: string): string =>
  text.includes('%40') ? text.replace(/(?<=[\p{L}\p{N}._+-])%40(?=[\p{L}\p{N}])/gu, '@') : text;

/** An "at" written for "@" so machines miss it: "(at)", "[at]", "{at}", "<at>", or " at " alone. */
const writtenAt = /\s?(?:[([{<] ?(?:at|At|AT) ?[)\]}>])\s?|\s(?:at|At|AT)\s/gu;
const localPart = /^[\p{L}\p{N}._%+-]$/u;
const domainPart = /^[\p{L}\p{N}.-]$/u;

/**
 * Addresses with their "@" written out: "carla.m [at] corp-mail.net", "carla (at) corp-mail.net",
 * "carla.m at corp-mail.net". A bracketed "at" takes any local part; a bare one a local part with a
 * dot, a digit or a sign in it (so "I work at acme.com" keeps its words); both a domain with a dot and
 * letters after it. Scanned outwards from each "at", without a regex that could backtrack.
 */
function replaceObfuscatedEmails(text: string): string {
  let out = '';
  let from = 0;
  for (const m of matchesOf(writtenAt, text)) {
    const at = m.index;
    if (at < from) continue;
    let start = at;
    while (start > from && at - start < 64 && localPart.test(text[start - 1]!)) start -= 1;
    const after = at + m[0].length;
    let end = after;
    while (end < text.length && end - after < 253 && domainPart.test(text[end]!)) end += 1;
    while (end > after && (text[end - 1] === '.' || text[end - 1] === '-')) end -= 1;
    const local = text.slice(start, at);
    const labels = text.slice(after, end).split('.');
    const domain = labels.length >= 2 && labels.every((l) => l !== '') && /^\p{L}{2,}$/u.test(labels.at(-1)!);
    const bracketed = /[([{<]/u.test(m[0]);
    // A bare "at" after a time or a version is a place: "at 10.30 at booking.com", "v2.0 at github.com".
    const addressLike = /[._%+\d-]/u.test(local) && /\p{L}{2}/u.test(local) && !/^v?\d/iu.test(local);
    if (local === '' || !domain || (!bracketed && !addressLike)) continue;
    out += `${text.slice(from, start)}[email]`;
    from = end;
  }
  return out + text.slice(from);
}

// After an underscore too ("iban_PT50_0002_..."): an underscore may stand between an IBAN's groups.
const ibanStart = /(?<![A-Z0-9])[A-Z]{2}\d{2}(?=[\s_>A-Z0-9]{11})/gi;
// As between a card's groups (`weakJoint`): spaces, and an e-mail's quote marks on the next line.
const ibanLineBreak = / {0,4}(?:\r\n|[\n\v\f\r\u0085\u2028\u2029]) {0,4}(?:> ?){0,4}/y;
const anySpace = /\p{Zs}/gu;

/**
 * IBANs (with or without spaces or underscores), checked by their mod-97 digits; one that fails the
 * check is unsure. One that goes on across a line break is read on its line first, then with the next
 * line's groups: the check tells which is the IBAN.
 */
function replaceIbans(text: string): string {
  // Spaces of any width (no-break, narrow no-break, thin) read as one, as the digit rules read them; each
  // is one UTF-16 unit, so the IBAN found lies at the same place in the text as written.
  const spaced = text.replace(anySpace, ' ');
  let out = '';
  let from = 0;
  for (const m of matchesOf(ibanStart, spaced)) {
    const start = m.index;
    if (start < from) continue;
    const read = ibanAt(spaced, start).filter(
      ({ compact }) => compact.length >= 15 && /\d/.test(compact.slice(4)),
    );
    const iban = read.find(({ compact }) => ibanValid(compact));
    if (!iban) {
      if (
        read.some(({ compact, onlyIfValid }) => !onlyIfValid && /^[A-Z]{2}\d{2}[A-Z0-9]*\d{6}/.test(compact))
      )
        throw new Unsure('something shaped like an IBAN whose check digits fail');
      continue;
    }
    out += `${text.slice(from, start)}[iban]`;
    from = iban.end;
  }
  return out + text.slice(from);
}

interface IbanReading {
  /** Upper-cased, 34 characters at most. */
  compact: string;
  end: number;
  /** Whether it is read as an IBAN only when its check passes: failing, it is something else. */
  onlyIfValid: boolean;
}

/**
 * The IBAN that may start at `start`, read on its line and, when a line break follows, on into the next.
 * One whose country is in upper case may be spaced any way; one written in lower case is read only as
 * IBANs are printed (no spaces, or groups of four), so that the words of a sentence around it are not
 * taken in, and going on across a line break it is an IBAN only when its check passes: a word such as
 * "id42" at the end of a line is more often not one.
 */
function ibanAt(text: string, start: number): IbanReading[] {
  const head = text.slice(start, start + 100);
  const upper = /^[A-Z]{2}/.test(head);
  const onLine = ibanGroups(head, 0, upper);
  const readings = [ibanReading(onLine.groups, start, upper, false)];
  ibanLineBreak.lastIndex = onLine.end;
  if (ibanLineBreak.test(head)) {
    const next = ibanGroups(head, ibanLineBreak.lastIndex, upper);
    if (next.groups.length > 0)
      readings.push(ibanReading([...onLine.groups, ...next.groups], start, upper, !upper));
  }
  return readings;
}

interface IbanGroup {
  text: string;
  /** Where it starts, from the start of the IBAN. */
  at: number;
}

/** The groups of letters and digits from `from` on, apart by one space or underscore, and where they end. */
function ibanGroups(head: string, from: number, upper: boolean): { groups: IbanGroup[]; end: number } {
  const run = upper ? /[A-Z0-9]+(?:[ _][A-Z0-9]+)*/y : /[A-Z0-9]+(?:[ _][A-Z0-9]+)*/iy;
  run.lastIndex = from;
  const found = run.exec(head);
  if (!found) return { groups: [], end: from };
  const groups = [...matchesOf(/[A-Z0-9]+/gi, found[0])].map((g) => ({ text: g[0], at: from + g.index }));
  return { groups, end: from + found[0].length };
}

function ibanReading(groups: IbanGroup[], start: number, upper: boolean, onlyIfValid: boolean): IbanReading {
  const read = upper ? groups : groups.slice(0, printedGroups(groups.map((g) => g.text)).length);
  let compact = '';
  let end = start;
  for (const group of read) {
    const taken = group.text.slice(0, 34 - compact.length);
    if (taken === '') break;
    end = start + group.at + taken.length;
    compact += taken;
  }
  return { compact: compact.toUpperCase(), end, onlyIfValid };
}

/**
 * The leading groups that read as a printed IBAN: one group without spaces, or fours and a last one of one
 * to four. None when a group of digits goes on after them: that is a longer number, not an IBAN.
 */
function printedGroups(groups: string[]): string[] {
  let n = 1;
  if (groups[0]!.length === 4) {
    while (n < groups.length && groups[n]!.length === 4) n += 1;
    if (n < groups.length && groups[n]!.length < 4) n += 1;
  }
  return /^\d/.test(groups[n] ?? '') ? [] : groups.slice(0, n);
}

function ibanValid(compact: string): boolean {
  const moved = compact.slice(4) + compact.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const v = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of v) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

/** IP addresses; an IPv6 one with "::" first, so that an IPv4 address inside it goes with it. */
function replaceIps(text: string): string {
  const withIpv6 = replaceShortIpv6(text);
  const inNumber = ipv4InNumbers(withIpv6);
  const withIpv4 = withIpv6.replace(ipv4, (found: string, at: number, whole: string) =>
    isVersion(whole, at, found.length) || inNumber.has(at) ? found : '[ip]',
  );
  const numbers = numbersOf(withIpv4);
  return withIpv4.replace(ipv6, (found: string, at: number, whole: string) => {
    const [from, to] = outsideNumbers(numbers(), at, found.length);
    if (from === at && to === at + found.length) return '[ip]';
    // Without a number's groups, read again: "a:b:c:d:4111,1111,..." is an address and a card.
    const rest = whole.slice(from, to).replace(/^:|:$/g, '');
    const address = ipv6Alone.test(rest) ? '[ip]' : rest;
    return (
      whole.slice(at, from) +
      whole.slice(from, to).replace(rest, address) +
      whole.slice(to, at + found.length)
    );
  });
}

/**
 * Where the IPv4 addresses of `text` start that are part of a longer number the digit rules take, one
 * with digits besides addresses': a phone whose groups change separator after four dotted ones
 * ("06.12.34.56 78", "01 00.00.00.00"). Those go with the number; addresses side by side
 * ("10.0.0.1-10.0.0.255", an address and its mask) stay addresses.
 */
function ipv4InNumbers(text: string): Set<number> {
  const addresses = [...matchesOf(ipv4, text)].map((m) => [m.index, m.index + m[0].length] as const);
  const found = new Set<number>();
  if (addresses.length === 0) return found;
  let k = 0;
  for (const [start, end] of numberSpans(text)) {
    while (k < addresses.length && addresses[k]![1] <= start) k += 1;
    const inside: (readonly [number, number])[] = [];
    for (let a = k; a < addresses.length && addresses[a]![0] < end; a += 1) inside.push(addresses[a]!);
    if (inside.length === 0) continue;
    // Addresses are ASCII; the number's other digits may be of any script.
    let digits = digitCount(text.slice(start, end));
    for (const [from, to] of inside) digits -= digitCount(text.slice(from, to));
    if (digits > 0) for (const [from] of inside) found.add(from);
  }
  return found;
}

const digitCount = (s: string) => s.match(/\p{Nd}/gu)?.length ?? 0;

/** Where a number the digit rules take lies in the text, and whether it is a card number. */
type NumberSpan = [start: number, end: number, card: boolean];

/**
 * Where the numbers the digit rules take (`digitRuns`) lie in `text`, in order. An address's group may be
 * a card's first or last ("::4111,1111,1111,1111", "4111⏎1111⏎1111⏎1111::") or any number's last
 * ("555-123-4567::"), and the number goes whole: the address rules leave those places to it.
 */
function numberSpans(text: string): NumberSpan[] {
  const { text: view, at } = asDigitsAndJoints(text);
  const spans: NumberSpan[] = [];
  for (const run of digitRuns(view)) spans.push([at(run.start), at(run.end), run.kind === 'card']);
  return spans;
}

/** numberSpans of `text`, read when an address first asks: most texts hold none. */
function numbersOf(text: string): () => NumberSpan[] {
  let spans: NumberSpan[] | undefined;
  return () => (spans ??= numberSpans(text));
}

/**
 * The part of the match [at, at + length) that lies in no number that starts before it, nor in a card
 * number (ordered `spans`): [from, to). A number that starts inside it is the address's
 * ("::ffff:192.168.100.200"), unless a card or one that goes on past its end (a zone id's digits and a
 * phone: "::%x10000 0000").
 */
function outsideNumbers(spans: readonly NumberSpan[], at: number, length: number): [number, number] {
  let from = at;
  let to = at + length;
  for (const [start, end, card] of spans) {
    if (end <= from || start >= to) continue;
    if (start < at || (card && start <= from)) from = Math.min(end, to);
    else if (card || end > at + length) to = start;
  }
  return [from, Math.max(from, to)];
}

// A version may be numbered as an address is; it says so by a word before it ("version 1.2.3.4") or a
// pre-release tag after it ("1.2.3.4-beta"). Anything else with four numbers is taken for an address.
const versionBefore = /\b(?:versions?|ver|v|release|build|revision|rev|patch)\.?:? {0,3}$/i;
const versionAfter = /^-(?:alpha|beta|rc|pre|preview|dev|snapshot|nightly|canary)(?![a-z])/i;

function isVersion(text: string, at: number, length: number): boolean {
  return (
    versionBefore.test(text.slice(Math.max(0, at - 16), at)) ||
    versionAfter.test(text.slice(at + length, at + length + 12))
  );
}

// An IPv6 address written with "::" (`::1`, `fe80::1%eth0`, `::ffff:192.0.2.1`), checked by Node's
// parser; at the start of a token, so that "std::map" or "Foo::Bar" is not one.
const shortIpv6 = /(?<![\p{L}\p{N}_:.])[0-9a-f:]*::[0-9a-f:.]*(?:%[\p{L}\p{N}_.-]+)?/giu;

function replaceShortIpv6(text: string): string {
  const numbers = numbersOf(text);
  return text.replace(shortIpv6, (found: string, at: number, whole: string) => {
    const alone = !isWordChar(whole[at + found.length]);
    if (!alone) return found;
    // What is left without a number's groups may still be an address ("fe80::4111,1111,...").
    const [from, to] = outsideNumbers(numbers(), at, found.length);
    // A sentence's full stop or colon after the address is not part of it.
    let address = whole.slice(from, to);
    while (address.endsWith('.')) address = address.slice(0, -1);
    if (!isIPv6(address) && address.endsWith(':')) address = address.slice(0, -1);
    if (!/[0-9a-f]/i.test(address) || !isIPv6(address)) return found;
    return `${whole.slice(at, from)}[ip]${whole.slice(from + address.length, at + found.length)}`;
  });
}

// Four numbers and no more: "06.12.34.56.78" is a phone written with dots, not an address and a tail.
const ipv4 = /(?<!\d\.)\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b(?!\.\d)/g;
const ipv6 = /\b(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}\b/gi;
const ipv6Alone = /^(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}$/i;
// From the start of a word only, and each part no longer than an address's may be (a local part of 64
// characters, a label of 63): tried at each "." or "-" inside a long word, or at each "at" of one, an
// unbounded part would run to the word's end and back from every one of them.
const spelledAddress =
  /(?<![\p{L}\p{N}._-])[\p{L}\p{N}._-]{1,64} ?[([]?at[)\]]? ?[\p{L}\p{N}-]{1,63} ?[([]?dot[)\]]? ?(?:com|org|net|[a-z]{2})\b/iu;
// What may stand between two digits of one number: one or two separators ("(555) 123-4567"), a dash,
// dot or slash with a space on each side ("4111 - 1111 - 1111 - 1111"), or up to four spaces.
const joint = /(?: [-./] | {3,4}|[ ()/.-]{1,2})(?=\d)/y;
// A date, year first ("2024-05-01", "2024/05/01", "2024. 5. 1") or last ("01.05.2024", "5/1/24",
// "01-05-2024"), one separator throughout and a year of two or four digits. It is a date only when the
// number stops there, or goes on only as a date does (`standingDate`): a group after a dash, dot or
// slash ("4111-1111-1111-1111", "06 . 12 . 34 . 56 . 78") makes it a longer number.
const fullDate =
  /^(?:\d{4}(?:-\d{1,2}-| ?([/.]) ?\d{1,2} ?\1 ?)\d{1,2}|\d{1,2}(?:-\d{1,2}-| ?([/.]) ?\d{1,2} ?\2 ?)(?:\d{4}|\d{2}))(?!\d|[-./]\d| [-./] ?\d)/;
const fourDigitSpan = /^(\d{4})\s?-\s?(\d{4})(?!\d|[-./]\d| [-./] ?\d)/;
const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';
// What may stand between two groups of a card number but also between two numbers of a list, a table
// or a name: a line break (after spaces or a dash a wrap may leave, before spaces or an e-mail's quote
// marks), an underscore or a comma with no space. Runs apart by these are one number only as a card.
const weakJoint = /(?:[ -]{0,4}(\r\n|[\n\v\f\r\u0085\u2028\u2029]) {0,4}(?:> ?){0,4}|_|,)(?=\d)/y;

/**
 * Runs of seven digits or more (groups apart by separators, see `joint`): card numbers (13 to 19 digits
 * passing Luhn's check), phone numbers (up to 15), other long numbers. Dates and year spans are left as
 * they are, unless the run is a card number. A card number may also go on across a line break, an
 * underscore or a comma (see `cardAcross`).
 */
function replaceDigitRuns(original: string): string {
  const { text, at } = asDigitsAndJoints(original);
  let out = '';
  let from = 0;
  for (const run of digitRuns(text)) {
    out += `${original.slice(at(from), at(run.start))}[${run.kind}]`;
    from = run.end;
  }
  return out + original.slice(at(from));
}

/** A number the digit rules take out of a text, by its place in the digit view. */
interface DigitRun {
  start: number;
  end: number;
  kind: 'card' | 'phone' | 'number';
}

/** The numbers of the digit view `text` that replaceDigitRuns replaces, in order. */
function* digitRuns(text: string): Generator<DigitRun> {
  let i = 0;
  while (i < text.length) {
    if (!startsRun(text, i)) {
      i += 1;
      continue;
    }
    const minutes = timeTail(text, i);
    if (minutes > 0) {
      i += minutes;
      continue;
    }
    const end = productEnd(text, i, runEnd(text, i));
    // Dates and versions are read without the "(" that may start a run; after a "+" (one after a word
    // too: "v+33…") a number is neither.
    const lead = isDigit(text[i]) ? 0 : 1;
    const plus = text[i] === '+' || text[i - 1] === '+';
    // Before cards: no card is printed with both dots and dashes, and a release may pass Luhn's check.
    if (!plus && isKernelRelease(text, i + lead, end)) {
      i = end;
      continue;
    }
    const card = cardEnd(text, i, end);
    if (card > 0) {
      yield { start: i, end: card, kind: 'card' };
      i = card;
      continue;
    }
    if (!plus && onlyDates(text.slice(i + lead, end))) {
      i = end;
      continue;
    }
    const date = plus ? 0 : standingDate(text, i + lead, end);
    if (date > 0) {
      i += lead + date;
      continue;
    }
    const only = text.slice(i, end).replace(/\D/g, '');
    if (only.length >= 7 && (plus || !isVersionRun(text, i + lead, end))) {
      // Written onto a word ("X12345678", "id_1234567") a number names something (a passport, an
      // account) more often than it is a phone.
      const glued = isWordChar(text[i - 1]) || isWordChar(text[end]);
      yield { start: i, end, kind: glued || only.length > 15 ? 'number' : 'phone' };
    }
    i = Math.max(end, i + 1);
  }
}

/**
 * Where the card number ends that starts with the run [start, end) of the digit view, or -1: the run
 * itself, or the run going on across line breaks, underscores or commas (`cardAcross`). A card number
 * is one wherever it is, also onto a word; a run that is dates only is not one.
 */
function cardEnd(text: string, start: number, end: number): number {
  const across = cardAcross(text, start, end);
  if (across > 0) return across;
  if (!isCard(text.slice(start, end).replace(/\D/g, ''))) return -1;
  const lead = isDigit(text[start]) ? 0 : 1;
  return onlyDates(text.slice(start + lead, end)) || standingDate(text, start + lead, end) > 0 ? -1 : end;
}

// The minutes or seconds of a time ("12:30", "9h30", "12:30:45.123456"): two digits right after an hour
// and its ":" or "h" (or minutes and theirs), with a fraction after seconds. They are the time's, not the
// start of a number that goes on after them ("12:30 06.12.2024").
const minutesOrSeconds = /[0-5]\d(?!\d)(?:\.\d{1,9}(?!\d))?/y;

/** The length of a time's minutes or seconds (and fraction) at `i`, or 0. */
function timeTail(text: string, i: number): number {
  if (!(text[i - 1] === ':' || text[i - 1] === 'h') || !isDigit(text[i - 2])) return 0;
  minutesOrSeconds.lastIndex = i;
  return minutesOrSeconds.test(text) ? minutesOrSeconds.lastIndex - i : 0;
}

/**
 * Where the run [start, end) ends when it is the number of a product and then a release of it, apart by
 * spaces ("Windows 10 10.0.19045.4894", "Ubuntu 24.04 6.8.0-45-generic"): after the product's number,
 * four digits at most, so that the release is read on its own. Else `end`. No phone ends with a
 * version's shape: its groups after the first have one digit only for an area code after a country code,
 * which `isDottedVersion` reads as a phone's.
 */
function productEnd(text: string, start: number, end: number): number {
  // No product's number starts with 0 ("0055 1.9.…" is a country code and a phone).
  if (!isDigit(text[start]) || text[start] === '0') return end;
  const product = wordEnd(text, start, end);
  let release = product;
  while (release < end && text[release] === ' ') release += 1;
  if (release === product || release >= end || !isDigit(text[release])) return end;
  if (wordEnd(text, release, end) !== end || text.slice(start, product).replace(/\D/g, '').length > 4)
    return end;
  return isVersionRun(text, release, end) ? product : end;
}

/** Where the numbers from `start` joined by a dash, dot or slash alone (a word of them) end. */
function wordEnd(text: string, start: number, end: number): number {
  let j = start + 1;
  while (j < end && (isDigit(text[j]) || ('-./'.includes(text[j]!) && isDigit(text[j + 1])))) j += 1;
  return j;
}

/** Decimal digits of any script in the Basic Multilingual Plane (one UTF-16 unit each). */
const otherDigits = /[\u0080-\uffff]/g;
/** Decimal digits outside it (Mathematical Alphanumeric, Adlam, Osmanya ...): two UTF-16 units each. */
const astralDigits = /(?![\0-\uffff])\p{Nd}/gu;
/** Spaces and dashes a number's groups may be written apart with besides ASCII's. */
const otherSpaces = /[\p{Zs}\t\u200b\u2060\ufeff]/gu;
const otherDashes = /[\p{Pd}\u00ad\u2212]/gu;

interface DigitView {
  text: string;
  /** Where the view's unit `k` (or its end, `text.length`) lies in the text as written. */
  at: (k: number) => number;
}

/**
 * The text as the digit rules read it: a digit of another script is its ASCII digit, and a space of any
 * width, a tab, a zero-width space, a soft hyphen or a dash of any length between groups is a space or
 * a hyphen. A card number in full-width digits or with no-break spaces is still one. Each character is
 * read as one of the same length, so that what the rules find lies at the same place in the text as
 * written, except a digit outside the Basic Multilingual Plane: its two UTF-16 units are read as one
 * digit, and `at` takes a place in the view back to the text.
 */
function asDigitsAndJoints(text: string): DigitView {
  const same = (k: number) => k;
  if (!/[^\x20-\x7e]/.test(text)) return { text, at: same };
  const bmp = text
    .replace(otherDigits, (ch) => {
      const c = ch.charCodeAt(0);
      return decimal.test(ch) ? String(digitValue(c)) : ch;
    })
    .replace(otherSpaces, ' ')
    .replace(otherDashes, '-');
  // The places in the view right after each astral digit, in order: a unit after k of them lies k
  // units further on in the text.
  const after: number[] = [];
  const view = bmp.replace(astralDigits, (ch: string, offset: number) => {
    after.push(offset - after.length + 1);
    return String(digitValue(ch.codePointAt(0)!));
  });
  if (after.length === 0) return { text: bmp, at: same };
  return { text: view, at: (k) => k + countUpTo(after, k) };
}

/** How many of the ascending `places` are `k` or less. */
function countUpTo(places: readonly number[], k: number): number {
  let lo = 0;
  let hi = places.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (places[mid]! <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A digit starts a run wherever it is; a "+" or "(" before a digit does, unless it follows a word. */
const startsRun = (text: string, i: number) =>
  isDigit(text[i]) ||
  ((text[i] === '+' || text[i] === '(') && isDigit(text[i + 1]) && !isWordChar(text[i - 1]));

/**
 * Where the run of digits and separators starting at `start` ends: after its last digit; -1 once it has
 * more than `most` digits. Brackets in it are a phone's, around one number: open at the run's start and
 * closing right after its first number ("(555) 123-4567", "(+351) 912 345 678"; one that does not close
 * there is the sentence's), or opened after that first number, a country or trunk code, and closing
 * before more digits ("+33 (0)6 12 34 56 78"). Any other bracket ends the run: at itself
 * ("128.0.3 (64-bit)", "(128.0.3) 2024", "(v2.14.1) 123"), or before it when it opened after the first
 * number and does not close so ("Windows 10 (10.0.19045.4894)", "build 19045 (22H2)").
 */
function runEnd(text: string, start: number, most = Infinity): number {
  let digits = isDigit(text[start]) ? 1 : 0;
  let numbers = digits;
  // The numbers read in the bracket open, or -1; and where the run ends should one opened after its
  // first number fail (-1 for one open from its start: nothing is read before it).
  let inBracket = text[start] === '(' || text[start - 1] === '(' ? digits : -1;
  let before = -1;
  let end = start + 1;
  let j = start + 1;
  const stop = () => (inBracket >= 0 && before >= 0 ? before : end);
  while (j < text.length && digits <= most) {
    if (isDigit(text[j])) {
      if (!isDigit(text[j - 1])) {
        numbers += 1;
        if (inBracket >= 0) inBracket += 1;
        if (inBracket > 1 && before >= 0) return before;
      }
      digits += 1;
      j += 1;
      end = j;
      continue;
    }
    joint.lastIndex = j;
    if (!joint.test(text)) break;
    // One open before the run that does not close after its first number is the sentence's ("(call
    // +33 (0)6 …").
    if (before < 0 && inBracket === 1 && !text.slice(j, joint.lastIndex).includes(')')) inBracket = -1;
    for (let k = j; k < joint.lastIndex; k += 1) {
      if (text[k] === '(') {
        if (inBracket >= 0 || numbers !== 1) return stop();
        inBracket = 0;
        before = end;
      } else if (text[k] === ')') {
        if (inBracket !== 1) return stop();
        inBracket = -1;
        before = -1;
      }
    }
    j = joint.lastIndex;
  }
  if (digits > most) return -1;
  return stop();
}

/**
 * Where a card number ends that starts with the run [start, end) and goes on across a line break, an
 * underscore or a comma (`weakJoint`), or -1 when there is none. Across those the groups are one number
 * only when they make a card number as cards are printed: 13 to 19 digits passing Luhn's check, each
 * such joint after a multiple of four digits (4-4-4-4) or, in a number of 14 or 15, after the 4th or
 * 10th (4-6-4, 4-6-5). Runs that are all dates or spans stay dates (`onlyDates`), as they do on one
 * line. Across more than one line break (a group a line) the number must also start as a payment
 * card's does (`issuedAsCard`): a tenth of lists of four numbers of four digits, one a line, pass
 * Luhn's check, and the years of a list ("2019⏎2020⏎2021⏎2020") start otherwise.
 */
function cardAcross(text: string, start: number, end: number): number {
  let digits = text.slice(start, end).replace(/\D/g, '');
  const runs = [text.slice(isDigit(text[start]) ? start : start + 1, end)];
  const joints: number[] = [];
  let lineBreaks = 0;
  let found = -1;
  for (let last = end; digits.length < 19;) {
    weakJoint.lastIndex = last;
    const apart = weakJoint.exec(text);
    if (!apart) break;
    if (apart[1] !== undefined) lineBreaks += 1;
    const next = weakJoint.lastIndex;
    // Read no further than a card may go: a long run after a short one costs no more than a short one.
    const nextEnd = runEnd(text, next, 19 - digits.length);
    if (nextEnd < 0) break;
    joints.push(digits.length);
    // A joint where no printed card has one stays one whatever follows: "1⏎2⏎3⏎…" is read no further.
    if (!inFours(joints) && !inFourSixes(joints)) break;
    digits += text.slice(next, nextEnd).replace(/\D/g, '');
    runs.push(text.slice(next, nextEnd));
    if (
      isCard(digits) &&
      printedAsCard(joints, digits.length) &&
      (lineBreaks <= 1 || issuedAsCard(digits)) &&
      !runs.every(onlyDates)
    )
      found = nextEnd;
    last = nextEnd;
  }
  return found;
}

const inFours = (joints: number[]) => joints.every((at) => at % 4 === 0);
const inFourSixes = (joints: number[]) => joints.every((at) => at === 4 || at === 10);
const printedAsCard = (joints: number[], length: number) =>
  inFours(joints) || ((length === 14 || length === 15) && inFourSixes(joints));

/**
 * Whether a number starts as the payment cards' numbers do: American Express, Diners Club and JCB with
 * 3, Visa with 4, Mastercard with 5 or 2221 to 2720, Discover, UnionPay and Maestro with 6, Mir with 2200
 * to 2204, RuPay with 81 or 82 (besides its 6s and 508), Troy with 9792. UATP's 1 is left out: lists of
 * years start so, and its cards are an airline's accounts that people seldom type.
 */
const issuedAsCard = (digits: string) => {
  const head = digits.slice(0, 4);
  return (
    /^(?:[3-6]|8[12]|9792)/.test(digits) ||
    (head >= '2200' && head <= '2204') ||
    (head >= '2221' && head <= '2720')
  );
};

/** The length of the date, or span of years or times, that `s` starts with, or 0. */
function dateLength(s: string): number {
  const date = fullDate.exec(s);
  if (date) return isDay(date[0]) ? date[0].length : 0;
  const span = fourDigitSpan.exec(s);
  if (!span) return 0;
  // Years in order ("2019-2021") or times of day ("0900-1700"): "5500-0000" (a phone in some
  // countries) or "4111-1111" is neither.
  const [from, to] = [span[1]!, span[2]!];
  const years = isYear(from) && isYear(to) && from <= to;
  return years || (isTime(from) && isTime(to)) ? span[0].length : 0;
}

// A version numbered with dots ("10.0.19045.1", "6.1.7601.17514"): three or four numbers, the first not
// starting with 0 as a phone's trunk prefix does, and a later one of one digit, which a phone's groups
// after the first seldom are ("06.12.34.56.78", "1.555.123.4567", "0470.12.34.56"). Five numbers or more
// may be a phone with its country code ("33.6.12.34.56.78"). But one digit right after two or three is
// an area code after a country code ("61.2.9876.5432", "31.6.12345678"), unless it is 0, which no area
// code dialled from abroad is; no country code has one digit but 1's and 7's, whose area codes have three.
const dottedVersion = /^[1-9]\d*(?:\.\d+){2,3}$/;
function isDottedVersion(run: string): boolean {
  if (!dottedVersion.test(run)) return false;
  const [first, ...later] = run.split('.');
  const countryCode = first!.length === 2 || first!.length === 3;
  return later.some((n, k) => n.length === 1 && (k > 0 || n === '0' || !countryCode));
}

// A Linux kernel's release ("6.5.0-1025-azure", "4.18.0-513.el8.x86_64"): a dotted version of three
// numbers as above, a dash, the distribution's build number (four digits, then its updates' numbers) and
// the flavour, a word after a dash or a dot; without a flavour it is read as any other run. A flavour
// that names Fedora (".fc40") or Red Hat and its rebuilds (".el9_4"), or SUSE's build of six digits
// ("-150500.55.49-default"), makes it a release also when its later numbers have two digits
// ("6.10.12-200.fc40", "5.14.21-150500…"); a phone's last groups are not followed by those.
const kernelRelease = /^([1-9]\d?\.\d{1,2}\.\d{1,3})-(\d{1,4}|1[2-9]0\d00)(?:\.\d{1,3}){0,2}$/;
const flavour = /^[-.][a-z]/i;
const distribution = /^\.(?:el|fc)\d/i;
// A Windows (or Office) build and its revision ("build 22621.2428", "Build 17029.20140"): two numbers a
// phone may be written as too, so kept only right after the word "build" and with a build from 10000 to
// 29999, which an Indian mobile's first five digits (from 6) are not, or one of Windows' builds of four
// digits: XP's, Server 2003's, Vista's, 7's, 8's and 8.1's ("build 7601.24214", "build 9600.21503").
const windowsBuild = /^(?:[12]\d{4}|2600|3790|600[0-3]|760[01]|9200|9600)(?:\.\d{1,5})?$/;
const buildBefore = /\bbuild:? {0,3}$/i;

/** Whether the run [start, end) of the digit view is a version: dotted, a kernel's release or a build. */
function isVersionRun(text: string, start: number, end: number): boolean {
  const run = text.slice(start, end);
  if (isDottedVersion(run) || isKernelRelease(text, start, end)) return true;
  return windowsBuild.test(run) && buildBefore.test(text.slice(Math.max(0, start - 12), start));
}

/** Whether the run [start, end) of the digit view is a kernel's release, by its flavour after it. */
function isKernelRelease(text: string, start: number, end: number): boolean {
  // No release is longer ("3.10.0-1160.118.1", "5.14.21-150500.55.49"): a long run is not read again.
  if (end - start > 24) return false;
  const kernel = kernelRelease.exec(text.slice(start, end));
  const after = text.slice(end, end + 4);
  if (!kernel || !flavour.test(after)) return false;
  const [, version, build] = kernel;
  if (isDottedVersion(version!)) return true;
  return /^[2-9]\./.test(version!) && (distribution.test(after) || build!.length === 6);
}

const isYear = (s: string) => s >= '1000' && s <= '2999';
const isTime = (s: string) => s.slice(0, 2) <= '23' && s.slice(2) <= '59';

/**
 * Whether the numbers of a date's shape name a day: a year first, then a month and a day; or a day and a
 * month (either first: "31/12", "12/31") and a year of two digits or four. "43.1.123" (Vienna's number
 * after its country code) or "0470-12-34" (a Belgian mobile) is none.
 */
function isDay(found: string): boolean {
  const [a, b, c] = found.match(/\d+/g)!;
  const within = (n: string, most: number) => Number(n) >= 1 && Number(n) <= most;
  if (a!.length === 4) return isYear(a!) && within(b!, 12) && within(c!, 31);
  return (
    within(a!, 31) && within(b!, 31) && (within(a!, 12) || within(b!, 12)) && (c!.length === 2 || isYear(c!))
  );
}

// What may follow a date in its number and leave it a date: a time of day, read up to its ":" or "h"
// ("2024-05-01 12:30", "06.12.34 9h30") or, after a year of four digits, written with dots
// ("01.05.2024 12.30"); or a count of one digit, which no phone ends with ("Born 1990-05-01. 3 kids").
const hourAfterDate = /^ {1,4}(?:[01]?\d|2[0-3])$/;
const minutesAfterHour = /^(?::[0-5]\d|h(?:[0-5]\d)?(?![\p{L}\p{N}]))/u;
const dottedTimeAfterDate = /^ {1,4}(?:[01]?\d|2[0-3])\.[0-5]\d(?:\.[0-5]\d)?$/;
const countAfterDate = /^(?:\. | {1,4})\d$/;

/**
 * The length of the date or span the run [start, end) starts with, when the number is that date: it
 * stops there, or goes on only with a time of day or a count (see `hourAfterDate`). Else 0: a date's
 * shape that goes on with other groups is the start of a longer number, whatever its separators
 * ("06.12.34 56 78" is a French mobile, "12.04.24 78" a Danish number; "2024-05-01 12 people" goes too).
 */
function standingDate(text: string, start: number, end: number): number {
  const date = dateLength(text.slice(start, start + 24));
  const after = start + date;
  if (date === 0 || after === end) return date;
  if (end - after > 12) return 0;
  const rest = text.slice(after, end);
  if (countAfterDate.test(rest)) return date;
  if (hourAfterDate.test(rest) && minutesAfterHour.test(text.slice(end, end + 4))) return date;
  return /\d{4}/.test(text.slice(start, after)) && dottedTimeAfterDate.test(rest) ? date : 0;
}

/**
 * Whether a run is dates and spans only, apart by spaces or by " - " (a range: "2024-05-01 - 2024-05-31",
 * "01 / 05 / 2024 - 03 / 05 / 2024"): kept whole, even when its digits happen to pass Luhn's check.
 */
function onlyDates(run: string): boolean {
  const parts = run.replace(/ ?([./]) ?/g, '$1').split(/ (?:- )?/);
  return parts.every((part) => part !== '' && dateLength(part) === part.length);
}

const isCard = (digits: string) => digits.length >= 13 && digits.length <= 19 && luhn(digits);

function luhn(digits: string): boolean {
  let sum = 0;
  for (let k = 0; k < digits.length; k += 1) {
    let d = Number(digits[digits.length - 1 - k]);
    if (k % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
