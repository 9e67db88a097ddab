/**
 * The regular case forms of a given name in Croatian and the South Slavic languages beside it, read
 * back to the name: "Goranu", "Goranom" are Goran; "Željke", "Željku", "Željkom" Željka; "Marka",
 * "Marku", "Markom" Marko (or Mark). The redactor gives the forms of one name one pseudonym, so the hub
 * sees one person where the text names one in several cases; a change question's topic ("Što se
 * promijenilo s Markom?") is read as the name the Records say (change-question.ts).
 *
 * By the name's last letter, each ending of its genitive, dative, accusative, locative and instrumental:
 * a consonant (Goran: -a, -u, -om; -em after a soft one: Matej, Matejem), -o (Marko: Marka, Marku,
 * Markom), -a (Željka: Željke, Željki, Željku, Željkom), -e (Ante: Anta, Anti, Antu,
 * Antom). Left out: the vocative, whose -o makes Željka Željko, a
 * name of its own, and the possessives ("Goranov", "Ivanin"), which are words of their own and
 * surnames too (Markov, Petrov).
 */

/**
 * The endings of a name's cases, by how the name ends: `last`, its last letter, which the ending takes
 * the place of ('' : none, the ending follows the name: Goran-om), and what the letter before the
 * ending must be.
 */
const paradigms: readonly { last: string; before: RegExp; endings: readonly string[] }[] = [
  { last: '', before: /[^aeiouy]$/iu, endings: ['a', 'u'] },
  { last: '', before: /[^aeiouyjcčćšžđ]$/iu, endings: ['om'] },
  // Soft consonants, after which the instrumental is -em ("Matejem", "Lukačem").
  { last: '', before: /[jcčćšžđ]$/iu, endings: ['em'] },
  // Before -o: of two such names, the one in -a is the commoner (Luka, Nina, Marina, Petra, Željka
  // beside Luko, Nino, Marino, Petro, Željko), and basesOf answers in this order.
  // Any letter before it: Lea, Lei, Leu, Leom.
  { last: 'a', before: /[\p{L}\p{M}]$/u, endings: ['e', 'i', 'u', 'om'] },
  // Not Ivo's "Ive", "Ivi": a few short names only, whose -e would make "Hugo" of "Huge".
  { last: 'o', before: /[^aeiouy]$/iu, endings: ['a', 'u', 'om'] },
  { last: 'e', before: /[^aeiouy]$/iu, endings: ['a', 'i', 'u', 'om'] },
];

/**
 * The names `word` may be a case of, as written (its stem as it stands, the name's last letter after
 * it), in the order a case of two names is read as the first (see paradigms): "Goranom" → Goran,
 * Gorana; "Marku" → Mark, Marka, Marko. Each has three letters or more; none is `word` itself. Which
 * are names at all is the caller's to know.
 */
export function basesOf(word: string): string[] {
  const bases: string[] = [];
  // Every ending ends so: most words are read no further (the redactor asks of each capitalised one).
  if (!/[aeimu]$/iu.test(word)) return bases;
  const lower = word.toLowerCase();
  for (const { last, before, endings } of paradigms)
    for (const ending of endings) {
      if (!lower.endsWith(ending) || lower.length - ending.length < 2) continue;
      const stem = word.slice(0, word.length - ending.length);
      if (!before.test(stem)) continue;
      const base = stem + last;
      if (base.length >= 3 && !bases.includes(base)) bases.push(base);
    }
  return bases;
}

/**
 * Prepositions of these languages, each of which governs a case other than the nominative: right
 * after one, a word that is a name of its own and a case of another ("kod Gorana", "za Ivana": Gorana,
 * Ivana) is that case, since the name of its own would stand in a case too ("kod Gorane", "za Ivanu").
 */
const prepositions = new Set(
  `s sa z k ka kod od do iz bez za na u o po pri uz oko kroz preko prema protiv zbog nakon prije poslije
   između među pod nad pred pored pokraj blizu umjesto osim radi mimo`.split(/\s+/u),
);

/** Whether the word right before `at` in `text` (one space apart) is such a preposition. */
export function afterPreposition(text: string, at: number): boolean {
  const before = /(?:^|[^\p{L}\p{M}])([\p{L}\p{M}]+)[ \u00a0]$/u.exec(text.slice(Math.max(0, at - 12), at));
  return before !== null && prepositions.has(before[1]!.toLowerCase());
}

/** Those prepositions, lower case, which open no name's run when capitalised ("Kod Gorana", "Sa Željkom"). */
export const casePrepositions: ReadonlySet<string> = prepositions;
