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
const lockedThing = String.raw`(?:front[ -]?door|door|gate|alarm|safe|garage|wi-?fi|wlan|router|lock|bike[ -]?lock|padlock|locker|building|entrance|entry|intercom|buzzer|key[ -]?(?:box|safe)|vrata|ulaza|alarma|sefa|garaže|zgrade|interfona|lokota|porta|portão|alarme|cofre|garagem|prédio|cadeado|tür|haustür|tor|garagentor|tresor)`;
const codeWord = String.raw`(?:code|kod|kôd|código|codigo)`;
// The words that name a secret. A "code" only with what it opens: before it ("door code", "Türcode",
// "wifi code") or after it ("the code for the gate", "kod od vrata", "código do alarme").
const secretCue = [
  String.raw`passwords?|passcodes?|passphrases?|pass[ -]word|pwd|pw`,
  String.raw`pin(?:[ -]?(?:code|kod|kôd|código|number|broj|nummer))?|puk(?:[ -]?(?:code|kod|kôd|código))?`,
  String.raw`lozink[aeiou]|šifr[aeiou]|sifr[aeiou]|senhas?|palavra-passe|passwort|kennwort|geheimzahl|zugangscode|contraseña|mot de passe`,
  String.raw`(?:${lockedThing}|access|security|unlock|alarm)[ -]?${codeWord}|(?:tür|haustür|tor|alarm|tresor|wlan)code`,
  String.raw`${codeWord}${space}(?:for|of|to|od|za|do|da|de|für|der|des|vom|zur|zum)${space}(?:(?:the|my|our|your|a|o|die|das|den|dem)${space})?${lockedThing}`,
].join('|');

// Words that may stand between the cue and its verb: a phrase that says whose or of what ("for the
// router", "za wifi", "do wifi", "für das WLAN", "at work"), or a pronoun ("PIN kod mi je", "senha dele é").
const gapStart = String.raw`(?:for|of|to|at|on|in|za|od|do|na|u|kod|de|da|dos|das|no|für|von|vom|zum|zur|bei|im|am|mi|ti|mu|joj|nam|vam|dele|dela)`;
// Each word of the phrase ends with a letter or a digit, so that it never runs past a sentence's end
// ("for ana@example.com", not "for it."): the secret is said in the same sentence.
const gap = String.raw`(?:${space}+${gapStart}(?:${space}+[^\s]{0,63}[\p{L}\p{N}]){0,3}?)?`;
// What says the secret follows: a verb, with "now", "still" ... after it, or ":" or "=".
const verb = String.raw`(?:is|was|are|were|será|je|bio|bila|glasi|é|era|ist|war|lautet|es)`;
const adverb = String.raw`(?:now|still|just|also|currently|again|sada|još|opet|agora|ainda|jetzt|noch|immer|immer noch)`;
const said = String.raw`(?:${space}*[:=]${space}*|${space}+${verb}(?:${space}+${adverb}){0,2}(?![\p{L}\p{N}])(?:${space}*[:=])?${space}*)`;

/**
 * A code of digits, apart by single spaces, dashes, dots or slashes ("4821", "4 8 2 1", "48-21"); a
 * quoted secret ("correct horse battery staple", its quotes kept); or a word, with no space in it.
 */
const digitCode = String.raw`\p{Nd}+(?:[ \u00a0./-]\p{Nd}+){0,7}(?![\p{L}\p{N}])`;
const quoted = String.raw`["“„'‘«][^"“”„'‘’«»\n]{1,100}["”“'’»]`;
const word = String.raw`[^\s"“„«]+`;

const saidBetween = new RegExp(String.raw`^${gap}${said}$`, 'iu');
const secretAfter = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(${secretCue})(?![\p{L}\p{N}])(${gap}${said}|${space}+)(${digitCode}|${quoted}|${word})`,
  'giu',
);

// Punctuation that ends the sentence or a bracket after a word, not the word's own.
const closing = '.,;:!?)]}';
const trailingOf = (value: string): string => {
  let end = value.length;
  while (end > 0 && closing.includes(value[end - 1]!)) end -= 1;
  return value.slice(end);
};

/**
 * Words of prose after "is" or ":", which no one picks for a secret: articles, prepositions, pronouns,
 * and what is said of a password ("wrong", "expired", "the same").
 */
const notASecret = new Set(
  `a an the my your his her our their its this that these those it same different new old wrong right
   correct incorrect invalid valid expired changed reset saved stored written shared hidden known unknown
   lost forgotten missing required needed mandatory optional empty blank none nothing something default
   temporary simple easy hard complicated long short weak strong secure safe secret private too very so
   not no yes still now also just in on at under behind inside with without from for to of by there here
   somewhere below above attached set ok okay fine good bad great what where which who how why when case
   sensitive and or but if then than as stuck broken working done updated sent u na iz ispod iza ista isti isto kriva krivi
   pogrešna pogrešan nova novi stara stari ovdje tamo i ili ali da ne je sam mi ti no na em o a os as
   uma um mesma mesmo errada errado nova novo velha antiga aqui ali e ou mas sim não der die das ein eine
   im auf unter hinter gleich falsch richtig neu alt hier dort und oder aber ja nein nicht`.split(/\s+/u),
);

/** The secret after each word that names one, as `[secret]`: see the module's comment. */
export function replaceSecrets(text: string): string {
  return text.replace(secretAfter, (found: string, cue: string, between: string, value: string) => {
    // A quoted secret keeps its quotes; what ends the sentence after a word stays the sentence's.
    if (/^["“„'‘«]/u.test(value)) return `${cue}${between}${value[0]}[secret]${value.at(-1)}`;
    const end = trailingOf(value);
    const secret = value.slice(0, value.length - end.length);
    // A role word is what a redaction left: a copy redacted again (as a pull does) stays as it is.
    if (secret === '' || /^\[[a-z]+(?:-[0-9A-Z]{4})?\]/u.test(value)) return found;
    const bare = !/[:=]/u.test(between) && !saidBetween.test(between);
    // Straight after the cue only a code with a digit or a sign in it: "password reset", "PIN
    // protected" and "password (the new one)" stay.
    if (bare && !/\p{N}|.[@#$%&*!?^~+=|<>_]/u.test(secret)) return found;
    if (notASecret.has(secret.toLowerCase())) return found;
    return `${cue}${between}[secret]${end}`;
  });
}

// A predicate that names a secret: its value is one whatever its shape ("password", "wifi password",
// "door code", "PIN", "bike lock code", "lozinka", "Passwort"), and so is a "code" alone.
const secretPredicate = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${secretCue})(?![\p{L}\p{N}])|^(?:the${space}+)?${codeWord}$`,
  'iu',
);

/** Whether a fact's predicate names a secret, so that its whole value is one. */
export const isSecretPredicate = (predicate: string): boolean => secretPredicate.test(predicate.trim());
