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
 * it, so that "password reset" and "the PIN is stuck"'s words that follow no verb stay prose. A word of
 * prose after the verb ("the password is on the fridge", "the code for the gate is the same") is no
 * secret and stays (`notASecret`). A "code" alone is none of these: "the code review", "a dress code",
 * "error code 500", "postal code 10000" (a postcode: an address's part, and a number of three digits or
 * more, which the number and address rules take).
 */

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
const gap = String.raw`(?:${space}+${gapStart}(?:${space}+${gapWord}){0,6}?)?`;
// What says the secret follows: a verb, with "now", "still", "literally" ... after it, or ":", "=",
// an arrow or a dash between spaces.
const verb = String.raw`(?:will${space}+be|would${space}+be|shall${space}+be|should${space}+be|is${space}+going${space}+to${space}+be|has${space}+been|have${space}+been|had${space}+been|is|was|are|were|becomes|became|será|je|bio|bila|bit${space}+će|glasi|é|era|ist|war|wird|lautet|es)`;
const adverb = String.raw`(?:now|still|just|also|currently|again|literally|actually|simply|always|probably|basically|really|officially|apparently|supposedly|usually|finally|sada|sad|još|opet|zapravo|doslovno|uvijek|agora|ainda|realmente|sempre|jetzt|noch|immer|eigentlich|wirklich|einfach|immer noch)`;
const said = String.raw`(?:${space}*(?:->|=>|→|⇒|[:=])${space}*|${space}+[—–-]${space}+|${space}*—${space}*|${space}+${verb}(?:${space}+${adverb}){0,2}(?![\p{L}\p{N}])(?:${space}*[:=])?${space}*)`;
// A verb of changing or setting and "to" ("was reset to", "has been changed to", "je promijenjena u"):
// what follows is the new secret.
const changed = String.raw`${space}+(?:${verb}${space}+)?(?:${adverb}${space}+)?(?:re-?set|set|changed|updated|switched|promijenjen[aoi]?|postavljen[aoi]?|alterad[ao]|mudad[ao]|trocad[ao]|geändert|gesetzt)${space}+(?:to|into|u|na|para|auf)${space}+`;
// "to" alone ("I changed my password to hunter2"): a secret only after a verb of changing before the
// word (`changeBefore`); "I need a password to log in" is prose.
const toAlone = String.raw`${space}+(?:to|into|u|na|para|auf|zu)${space}+`;
// "'s" for "is" ("my password's hunter2"): a secret only when it has a digit or a sign, or ends the
// clause; "my password's strength is weak" is a possessive.
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
// After the secret, what closes its clause: the text's or a line's end, or a word that opens another.
const clauseAfter = new RegExp(String.raw`^[ \u00a0]*(?:$|\n|${clauseWord}(?![\p{L}\p{N}]))`, 'iu');
// A number said of a secret's length ("6 digits", "12 characters long"), not the secret.
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
 * Words of prose after "is" or ":", which no one picks for a secret: articles, prepositions, pronouns,
 * and what is said of a password or a PIN ("wrong", "expired", "the same", "ready", "strict").
 */
const notASecret = new Set(
  `a an the my your his her our their its this that these those it same different new old wrong right
   correct incorrect invalid valid expired changed reset saved stored written shared hidden known unknown
   lost forgotten missing required needed mandatory optional empty blank none nothing something default
   temporary simple easy hard complicated long short weak strong secure safe secret private too very so
   not no yes still now also just in on at under behind inside with without from for to of by there here
   somewhere below above attached set ok okay fine good bad great what where which who how why when case
   sensitive and or but if then than as stuck broken working done updated sent ready loose strict due
   unique random personal obvious available active inactive locked unlocked mine yours hers ours theirs
   insecure useless annoying impossible important see same expire
   u na iz ispod iza ista isti isto kriva krivi
   pogrešna pogrešan nova novi stara stari ovdje tamo i ili ali da ne je sam mi ti no na em o a os as
   blokiran blokirana blokirano istekla istekao istekao
   uma um mesma mesmo errada errado nova novo velha antiga aqui ali e ou mas sim não der die das ein eine
   bloqueado bloqueada expirado expirada
   im auf unter hinter gleich falsch richtig neu alt hier dort und oder aber ja nein nicht gesperrt abgelaufen`.split(
    /\s+/u,
  ),
);
/**
 * What a verb says of a secret rather than the secret, in English: a participle or a progressive in
 * lower case ("was blocked", "was compromised", "is expiring"), and a word of lower-case words joined
 * by a hyphen ("is case-sensitive", "is auto-generated").
 */
const saidOfIt = /^(?:\p{Ll}{3,}(?:ed|ing)|\p{Ll}+(?:-\p{Ll}+)+)$/u;
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
      if (closed !== undefined) return `${cue}${between}${closed[0]}[secret]${closed.at(-1)}`;
      if (open !== undefined) return `${cue}${between}${open[0]}[secret]`;
      const value = digits ?? bareWord!;
      // A word's opening quote stays, and what ends the sentence after it stays the sentence's.
      const quote = /^["“„'‘«]/u.test(value) ? value[0]! : '';
      const end = trailingOf(value.slice(quote.length));
      const secret = value.slice(quote.length, value.length - end.length);
      // A role word is what a redaction left: a copy redacted again (as a pull does) stays as it is.
      if (!/[\p{L}\p{N}]/u.test(secret) || roleWordAt.test(value.slice(quote.length))) return found;
      if (notASecret.has(secret.toLowerCase()) || path.test(secret)) return found;
      const rest = whole.slice(at + found.length);
      if (/^\p{Nd}/u.test(secret) && lengthAfter.test(rest)) return found;
      const kind = isSaid.test(between)
        ? 'said'
        : isTo.test(between)
          ? 'to'
          : isApostropheS.test(between)
            ? 's'
            : 'bare';
      if (kind === 'said') {
        // After ":" or "=" anything goes; after a verb, not what the verb says of it ("was blocked").
        if (!/(?:[:=>→⇒—–]|[ \u00a0]-)[ \u00a0]*$/u.test(between) && saidOfIt.test(secret)) return found;
      } else if (kind === 'to') {
        if (!changeBefore.test(whole.slice(Math.max(0, at - 64), at))) return found;
      } else if (kind === 's') {
        if (!codeLike(secret) && end === '' && !clauseAfter.test(rest)) return found;
      } else if (!codeLike(secret) || (/^[\p{Nd} \u00a0./-]+$/u.test(secret) && digitCount(secret) < 3)) {
        // Straight after the cue only a code with a digit or a sign in it, and of digits alone three or
        // more: "password reset", "PIN protected", "pin 3 photos" and "password (the new one)" stay.
        return found;
      }
      return `${cue}${between}${quote}[secret]${end}`;
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

/**
 * Of a value whose predicate names a secret only with another word (isCodePredicate), each word with a
 * digit or a sign in it as `[secret]`, as a code standing straight after a secret's word goes: "lea /
 * hunter2" → "lea / [secret]", "48" → "[secret]"; "yes" and "HomeNet" stay.
 */
export const replaceCodes = (value: string): string =>
  value.replace(/[^\s]+/gu, (token) => {
    const end = trailingOf(token);
    const code = token.slice(0, token.length - end.length);
    return code !== '' && !roleWordAt.test(code) && codeLike(code) ? `[secret]${end}` : token;
  });
