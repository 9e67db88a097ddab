/**
 * The redactor's rule for secrets (redact.ts): what follows a word that names one — a password, a PIN or
 * PUK, a passcode, the code of a door, an alarm, a gate, a safe or a Wi-Fi network — becomes `[secret]`,
 * in the languages the product meets ("lozinka", "šifra", "PIN kod", "senha", "Passwort", "Kennwort").
 * A secret has no shape of its own to be found by ("hunter2", "4 8 2 1", "48-21"): only the word before
 * it tells, so this rule runs first, before any rule reads the secret as a number, an e-mail address or
 * a name.
 *
 * What counts as the secret: after ":", "=" or a verb ("is", "je", "é", "ist", "lautet" ...), with a
 * phrase such as "for the router" or "mi" between, the next word or code; straight after the word that
 * names it ("PIN 4821", "door code 4 8 2 1", "password hunter2") only a code with a digit or a sign in
 * it, so that "password reset" and "the PIN is stuck"'s words that follow no verb stay prose. After ":"
 * or "=" the value is always the secret. After a verb, "'s" or "to" the next word is, unless it opens a
 * phrase ("the password is on the fridge", "the code for the gate is the same": `phraseWords`) or is
 * one of a few words of a secret's state, in lower case ("was blocked", "is expiring": `stateWords`).
 * Where a rule cannot tell a secret from a word of prose, it takes it for a secret: a copy that hides a
 * harmless word is a small harm, a password sent in clear is the one this rule is for. A "code" alone
 * is none of these: "the code review", "a dress code",
 * "error code 500", "postal code 10000" (a postcode: an address's part, and a number of three digits or
 * more, which the number and address rules take).
 */

import { isCalendarWord } from './redact-places.ts';

const space = String.raw`[ \u00a0]`;

/** What a code is of: a door, a gate, an alarm, a safe, a network, in English, Croatian, Portuguese, German. */
// Not "building": a "building code" is most often a set of rules ("the building code is strict"); the
// code of a building's door is an "entrance", "entry" or "intercom" code.
const lockedThing = String.raw`(?:front[ -]?door|door|gate|alarm|safe|garage|wi-?fi|wlan|router|lock|bike[ -]?lock|padlock|locker|entrance|entry|intercom|buzzer|key[ -]?(?:box|safe)|vrata|ulaza|alarma|sefa|garaže|zgrade|interfona|lokota|porta|portão|alarme|cofre|garagem|prédio|cadeado|tür|haustür|tor|garagentor|tresor)`;
const codeWord = String.raw`(?:code|kod|kôd|código|codigo)`;
// The words that name a secret. A "code" only with what it opens: before it ("door code", "Türcode",
// "wifi code") or after it ("the code for the gate", "kod od vrata", "código do alarme"). A "pass" only
// with a network's word before it ("wifi pass"): alone it is a ticket, a bus's or a ski lift's.
const secretCue = [
  String.raw`passwords?|passcodes?|passphrases?|pass[ -]word|pwd|pw|(?:wi-?fi|wlan|router)[ -]?pass`,
  String.raw`pin(?:[ -]?(?:code|kod|kôd|código|number|broj|nummer))?|puk(?:[ -]?(?:code|kod|kôd|código))?`,
  String.raw`lozink[aeiou]|šifr[aeiou]|sifr[aeiou]|senhas?|palavra-passe|passwort|kennwort|geheimzahl|zugangscode|contraseña|mot de passe`,
  String.raw`(?:${lockedThing}|access|security|unlock|alarm)[ -]?${codeWord}|(?:tür|haustür|tor|alarm|tresor|wlan)code`,
  String.raw`${codeWord}${space}(?:for|of|to|od|za|do|da|de|für|der|des|vom|zur|zum)${space}(?:(?:the|my|our|your|a|o|die|das|den|dem)${space})?${lockedThing}`,
].join('|');

// Words that may stand between the cue and its verb: a phrase that says whose or of what ("for the
// router", "for my work email account", "to log in to my bank", "za wifi", "für das WLAN"), or a
// pronoun ("PIN kod mi je", "senha dele é").
const gapStart = String.raw`(?:for|of|to|at|on|in|za|od|do|na|u|kod|de|da|dos|das|no|für|von|vom|zum|zur|bei|im|am|mi|ti|mu|joj|nam|vam|dele|dela)`;
// A word that opens another clause ("… on Monday and the meeting is tomorrow"): the phrase ends before
// it, so that what the other clause says is not read as the secret.
const clauseWord = String.raw`(?:and|but|or|so|because|since|when|while|then|if|although|though|which|where|ali|pa|jer|kad|dok|ili|mas|porque|quando|und|aber|oder|weil|wenn|dann)`;
// Each word of the phrase ends with a letter or a digit, so that it never runs past a sentence's end
// ("for ana@example.com", not "for it."): the secret is said in the same sentence.
const gapWord = String.raw`(?!${clauseWord}(?![\p{L}\p{N}]))[^\s]{0,63}[\p{L}\p{N}]`;
// Up to twelve words, to the clause's end ("for my old work email account at the bank"), and a clause
// between commas that says more of it ("for my gmail, which I never change,").
const aside = String.raw`,${space}+(?:which|that|who|koju|koja|koji|que|die|den|das)(?:${space}+${gapWord}){1,8},`;
const gap = String.raw`(?:${space}+${gapStart}(?:${space}+${gapWord}){0,11}?(?:${aside})?)?`;
// What says the secret follows: a verb, with "now", "still", "literally" ... after it or inside it
// ("will now be", "is now going to be"), "which" or "that" before it ("for Gmail which is"), or ":",
// "=", an arrow or a dash between spaces.
const adverb = String.raw`(?:now|still|just|also|currently|again|literally|actually|simply|always|probably|basically|really|officially|apparently|supposedly|usually|finally|sada|sad|još|opet|zapravo|doslovno|uvijek|agora|ainda|realmente|sempre|jetzt|noch|immer|eigentlich|wirklich|einfach|immer noch)`;
const adverbs = String.raw`(?:${space}+${adverb}){0,2}`;
const verb = String.raw`(?:(?:will|would|shall|should|is${adverbs}${space}+going${space}+to|are${adverbs}${space}+going${space}+to|was${adverbs}${space}+going${space}+to)${adverbs}${space}+be|(?:has|have|had)${adverbs}${space}+been|is|was|are|were|becomes|became|será|je|bio|bila|bit${space}+će|glasi|é|era|ist|war|wird|lautet|es)`;
const relative = String.raw`(?:(?:which|that|što|koja|koji|que)${space}+)?`;
const said = String.raw`(?:${space}*(?:->|=>|→|⇒|[:=])${space}*|${space}+[—–-]${space}+|${space}*—${space}*|${space}+${relative}${verb}${adverbs}(?![\p{L}\p{N}])(?:${space}*[:=])?${space}*)`;
// A verb of changing or setting and "to" ("was reset to", "has been changed to", "je promijenjena u"):
// what follows is the new secret.
const changed = String.raw`${space}+(?:${verb}${space}+)?(?:${adverb}${space}+)?(?:re-?set|set|changed|updated|switched|promijenjen[aoi]?|postavljen[aoi]?|alterad[ao]|mudad[ao]|trocad[ao]|geändert|gesetzt)${space}+(?:to|into|u|na|para|auf)${space}+`;
// "to" alone ("I changed my password to hunter2", "I switched the wifi password over to hunter2"): a
// secret only after a verb of changing before the word (`changeBefore`); "I need a password to log
// in" is prose.
const toAlone = String.raw`${space}+(?:(?:over|back)${space}+)?(?:to|into|u|na|para|auf|zu)${space}+`;
// "'s" for "is" ("my password's hunter2", "my password's sunshine lol"); "my password's strength is
// weak", a noun before a verb, is a possessive (`verbAfter`).
const apostropheS = String.raw`['’]s${space}+`;

/**
 * A code of digits, apart by single spaces, dashes, dots or slashes ("4821", "4 8 2 1", "48-21"); a
 * quoted secret ("correct horse battery staple", its quotes kept); one whose quote is never closed on
 * its line, whole to the line's end ("'hunter2", "\"correct horse"); or a word, with no space in it.
 */
const digitCode = String.raw`\p{Nd}+(?:[ \u00a0./-]\p{Nd}+){0,7}(?![\p{L}\p{N}])`;
const quoteMarks = `"“”„'‘’«»`;
const openQuote = `["“„'‘«]`;
const quoted = String.raw`${openQuote}[^${quoteMarks}\n]{1,100}["”“'’»]`;
const unclosed = String.raw`${openQuote}[^${quoteMarks}\n]{1,100}(?=\n|$)`;
const word = String.raw`[^\s]+`;

const connector = `(${gap}${changed}|${gap}${said}|${toAlone}|${apostropheS}|${space}+)`;
const secretAfter = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(${secretCue})(?![\p{L}\p{N}])${connector}(?:(${digitCode})|(${quoted})|(${unclosed})|(${word}))`,
  'giu',
);
const isSaid = new RegExp(String.raw`^(?:${gap}${changed}|${gap}${said})$`, 'iu');
const isTo = new RegExp(String.raw`^${toAlone}$`, 'iu');
const isApostropheS = new RegExp(String.raw`^${apostropheS}$`, 'iu');
// A word of changing or setting before the cue, in its clause, with up to four words between ("I
// changed my", "set the", "promijenila sam", "I want to change the").
const changeBefore =
  /(?<![\p{L}\p{N}])(?:chang\p{L}*|set|sets|setting|reset\p{L}*|updat\p{L}*|switch\p{L}*|promijeni\p{L}*|mijenja\p{L}*|postavi\p{L}*|stavi\p{L}*|mud\p{L}*|alter\p{L}*|troc\p{L}*|änder\p{L}*|setz\p{L}*)(?:[ \u00a0]+[^\s.!?;:]+){0,4}[ \u00a0]+$/iu;
// A number of one or two digits said of a secret's length ("6 digits", "12 characters long"), not the
// secret; "4821 digits" is a slip, and the number a PIN.
const lengthAfter =
  /^[ \u00a0]+(?:digits?|characters?|chars|letters?|numbers?|symbols?|signs?|words?|places|long|znak\p{L}*|znamen\p{L}*|brojev\p{L}*|slova|caracteres|dígitos|letras|Zeichen|Stellen|Ziffern)(?![\p{L}\p{N}])/iu;

// Punctuation that ends the sentence, a bracket or a quote after a word, not the word's own.
const closing = `.,;:!?)]}"”’»'`;
const trailingOf = (value: string): string => {
  let end = value.length;
  while (end > 0 && closing.includes(value[end - 1]!)) end -= 1;
  return value.slice(end);
};

/**
 * Words that open a phrase, not a value, after "is", "'s" or "to": articles, determiners, pronouns,
 * prepositions, conjunctions, a negation, "be" ("the password is on the fridge", "is the same as
 * before", "my password's been changed", "is not working"). A closed class: no one's password is "the".
 */
const phraseWords = new Set(
  `a an the my your his her our their its this that these those it in on at under behind inside with
   without from for to of by there here not no too very so and or but if than as what where which who how
   why when be been being something anything nothing
   u na iz ispod iza i ili ali da ne je sam mi ti o a os as em no uma um e ou mas não
   der die das ein eine im auf unter hinter und oder aber nicht`.split(/\s+/u),
);
/**
 * What is said of a secret, not the secret, after "is", "'s" or "to", written in lower case: its
 * state. A short closed list, never a rule by a word's ending: "lightning", "pudding" and
 * "purple-monkey-dishwasher" are passwords as often as not, and after ":" or "=" nothing is prose.
 */
const stateWords = new Set(
  `blocked expired expiring compromised wrong incorrect invalid reset changed locked stolen leaked lost
   forgotten gone stuck broken weak strong ready loose same different new old case-sensitive required
   missing temporary
   pogrešna pogrešan kriva krivi blokiran blokirana blokirano istekla istekao ista isti isto nova novi
   stara stari errada errado bloqueado bloqueada expirado expirada mesma mesmo nova novo
   falsch gesperrt abgelaufen gleich neu alt`.split(/\s+/u),
);
// After "to" (and a verb of changing before it): a verb, not the secret, when an object follows it ("to
// protect the account", "to keep it safe") or it is one of these ("to be safe", "to expire monthly").
// After "to", a verb ("to protect the account", "to be safe", "to log in"), not the new secret: only
// these, since a password is as often a word followed by "this week" or "the other day".
const verbAfterTo = new Set(
  `be expire log sign get protect keep secure access unlock open make stop avoid prevent remember use enter
   share match meet include check see try change reset`.split(/\s+/u),
);
// After "'s", a noun of the possessive, not the secret, when a verb follows it ("my password's strength
// is weak").
const verbAfter =
  /^[ \u00a0]+(?:is|was|are|were|has|had|will|would|can|could|should|must|seems|looks|needs|gets)(?![\p{L}\p{N}])/iu;
/** A file's path ("/home/lea", "~/notes", "./bin"): what `pwd` prints, no secret. */
const path = /^(?:~|\.{1,2})?\/[^/\s]*\//u;
/** A code with a digit or a sign in it, and a letter or a digit: what stands alone as a secret. */
const codeLike = (secret: string) =>
  /\p{N}|.[@#$%&*!?^~+=|<>_]/u.test(secret) && /[\p{L}\p{N}]/u.test(secret);
const roleWordAt = /^\[[a-z]+(?:-[0-9A-Z]{4})?\]/u;

/** The secret after each word that names one, as `[secret]`: see the module's comment. */
export function replaceSecrets(text: string): string {
  return text.replace(
    secretAfter,
    (
      found: string,
      cue: string,
      between: string,
      digits: string | undefined,
      closed: string | undefined,
      open: string | undefined,
      bareWord: string | undefined,
      at: number,
      whole: string,
    ) => {
      // A quoted secret keeps its quotes; one whose quote never closes goes whole after it.
      if (closed !== undefined) return `${cue}${replaceSecrets(between)}${closed[0]}[secret]${closed.at(-1)}`;
      if (open !== undefined) return `${cue}${replaceSecrets(between)}${open[0]}[secret]`;
      const value = digits ?? bareWord!;
      // A word's opening quote stays, and what ends the sentence after it stays the sentence's.
      const quote = /^["“„'‘«]/u.test(value) ? value[0]! : '';
      const end = trailingOf(value.slice(quote.length));
      const secret = value.slice(quote.length, value.length - end.length);
      // A role word is what a redaction left: a copy redacted again (as a pull does) stays as it is.
      if (!/[\p{L}\p{N}]/u.test(secret) || roleWordAt.test(value.slice(quote.length))) return found;
      const rest = whole.slice(at + found.length);
      // Kept as written, what the phrase between held is read again: a second secret's word there
      // ("the code for the old house next to password hunter2 is on the fridge") names its own.
      const kept = () => cue + replaceSecrets(found.slice(cue.length));
      // After ":", "=", an arrow or a dash, whatever follows is the secret ("password: mine"); only
      // what `pwd` prints, a file's path, is none.
      if (/(?:[:=>→⇒—–]|[ \u00a0]-)[ \u00a0]*$/u.test(between)) {
        return /^pwd$/iu.test(cue) && path.test(secret)
          ? found
          : `${cue}${replaceSecrets(between)}${quote}[secret]${end}`;
      }
      const kind = isSaid.test(between)
        ? 'said'
        : isTo.test(between)
          ? 'to'
          : isApostropheS.test(between)
            ? 's'
            : 'bare';
      if (kind === 'bare') {
        // Straight after the cue only a code with a digit or a sign in it, and of digits alone three or
        // more: "password reset", "PIN protected", "pin 3 photos" and "password (the new one)" stay.
        if (!codeLike(secret) || (/^[\p{Nd} \u00a0./-]+$/u.test(secret) && digitCount(secret) < 3))
          return kept();
        return `${cue}${replaceSecrets(between)}${quote}[secret]${end}`;
      }
      // After a verb, "'s" or "to": the secret, unless a word that opens a phrase or says the secret's
      // state, as written in lower case ("is on the fridge", "was blocked"; "is Ready" is a secret), or a
      // length of one or two digits ("is 6 digits"; "is 4821 digits" is a secret's slip).
      if (quote === '' && (phraseWords.has(secret) || stateWords.has(secret))) return kept();
      if (/^\p{Nd}{1,2}$/u.test(secret) && lengthAfter.test(rest)) return kept();
      if (kind === 'to') {
        if (!changeBefore.test(whole.slice(Math.max(0, at - 64), at))) return kept();
        if (/^\p{Ll}+$/u.test(secret) && verbAfterTo.has(secret)) return kept();
      } else if (kind === 's') {
        if (end === '' && !codeLike(secret) && verbAfter.test(rest)) return kept();
      }
      return `${cue}${replaceSecrets(between)}${quote}[secret]${end}`;
    },
  );
}
const digitCount = (s: string) => s.match(/\p{Nd}/gu)?.length ?? 0;

// A predicate that names a secret: its value is one whatever its shape ("password", "wifi password",
// "door code", "PIN", "bike lock code", "lozinka", "Passwort").
const secretPredicate = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${secretCue})(?![\p{L}\p{N}])`, 'iu');

/** Whether a fact's predicate names a secret, so that its whole value is one. */
export const isSecretPredicate = (predicate: string): boolean => secretPredicate.test(predicate.trim());

// A predicate that names a secret only with another word: a "code" alone, "wifi", "login", "pass",
// "gate", "lock" ... Its value may be a code ("gate: 48", "wifi: Tr0ub4dor&3", "login: lea / hunter2")
// or no secret at all ("wifi: yes", "wifi: HomeNet", "login: lea.h", "code: review on Friday").
const codePredicate = new RegExp(
  String.raw`^(?:the${space}+)?(?:${codeWord}|wi-?fi|wlan|router|network|login|log-?in|pass|gate|lock|alarm|safe)$`,
  'iu',
);

/** Whether a fact's predicate names a secret only with another word, so that a code in its value is one. */
export const isCodePredicate = (predicate: string): boolean => codePredicate.test(predicate.trim());

// Words of such a value with a digit that say no code, only where that is clear: a time of day (`alarm:
// 7:30`), a count of days or the like joined by a hyphen (`pass: 3-day ski pass`), a network's
// generation (`network: 5G`), a day beside a month's name (`lock: broken since 2 May`), and a boarding
// gate's letter and number (`gate: B12`; `gate: 48` is a code).
const timeOfDay = /^(?:[01]?\p{Nd}|2[0-3])[:.h][0-5]\p{Nd}(?:am|pm)?$/iu;
const countOf =
  /^\p{Nd}{1,3}-(?:day|days|week|weeks|month|months|year|years|hour|hours|night|nights|trip|ride|zone)$/iu;
const generation = /^[2-6]G$/u;
const boardingGate = /^\p{Lu}\p{Nd}{1,2}$/u;
const dayOfMonth = /^\p{Nd}{1,2}(?:st|nd|rd|th|\.)?$/u;

/**
 * Of a value whose predicate names a secret only with another word (isCodePredicate), each word with a
 * digit or a sign in it as `[secret]`, as a code standing straight after a secret's word goes: "lea /
 * hunter2" → "lea / [secret]", "48" → "[secret]"; "yes" and "HomeNet" stay, and so do the words above
 * that say no code.
 */
export const replaceCodes = (value: string, predicate = ''): string => {
  const words = (value.match(/[^\s]+/gu) ?? []).map((w) => w.slice(0, w.length - trailingOf(w).length));
  let k = -1;
  return value.replace(/[^\s]+/gu, (token) => {
    k += 1;
    const end = trailingOf(token);
    const code = token.slice(0, token.length - end.length);
    if (code === '' || roleWordAt.test(code) || !codeLike(code)) return token;
    if (timeOfDay.test(code) || countOf.test(code) || generation.test(code)) return token;
    if (boardingGate.test(code) && /gate/iu.test(predicate)) return token;
    const beside = [words[k - 1], words[k + 1]].some((w) => w !== undefined && isCalendarWord(w));
    if (dayOfMonth.test(code) && beside) return token;
    return `[secret]${end}`;
  });
};
