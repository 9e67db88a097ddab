import { foldText } from '../shared/fold-text.ts';
import { languageScores, wordsForLanguage } from './languages.ts';
import { timeLanguages, type TimeLanguage } from './time-languages.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/** A time phrase of another language and the English it was read as. */
export interface ReadPhrase {
  said: string;
  en: string;
}

export interface InEnglishTime {
  /** The text with each time phrase of its language put in English; the rest as it was. */
  text: string;
  phrases: ReadPhrase[];
  /** Its language's future tense is in it: it speaks of what is to come (TimeLanguage's `future`). */
  ahead: boolean;
}

/** A pattern whose accented letters also match their bare ones (as foldText bares them): "amanhã" finds "amanha". */
function accentTolerant(pattern: string): string {
  let out = '';
  for (const c of pattern) {
    const bare = foldText(c);
    out += bare.length === 1 && bare !== c && c === c.toLowerCase() ? `[${c}${bare}]` : c;
  }
  return out;
}

// Letters, marks and digits on either side end a phrase, in any script ("\b" is ASCII's alone).
const edge = (p: string) => `(?<![\\p{L}\\p{M}\\p{N}])(?:${p})(?![\\p{L}\\p{M}\\p{N}])`;

interface Compiled {
  language: TimeLanguage;
  cues: ReadonlySet<string>;
  /** Compiled on the first text read in the language: see `compiledLanguages`. */
  rewrites?: { re: RegExp; en: TimeLanguage['rewrites'][number]['en'] }[];
  future?: RegExp;
}

/**
 * The languages' cues and their one pattern, made on the first text read, and each language's
 * rewrites on the first text in it: made when this module loaded, they cost every process that
 * imports the engine ~0.1 CPU s (167 Unicode patterns), most of which never read a foreign word.
 */
let compiledLanguages: { languages: Compiled[]; anyCue: RegExp } | undefined;
function compiled(): { languages: Compiled[]; anyCue: RegExp } {
  compiledLanguages ??= {
    languages: timeLanguages.map((language) => ({
      language,
      cues: new Set(language.cues.filter(Boolean).map((w) => foldText(w))),
    })),
    /** Any language's time word, looked for before a text's words are read (most texts hold none). */
    anyCue: new RegExp(
      edge(
        [...new Set(timeLanguages.flatMap((l) => l.cues.filter(Boolean)))]
          .sort((a, b) => b.length - a.length)
          .map(accentTolerant)
          .join('|'),
      ),
      'u',
    ),
  };
  return compiledLanguages;
}
function rewritesOf(c: Compiled): Required<Compiled> {
  c.rewrites ??= c.language.rewrites.map((r) => ({
    re: new RegExp(edge(accentTolerant(r.re)), 'gu'),
    en: r.en,
  }));
  c.future ??= new RegExp(edge(c.language.future), 'u');
  return c as Required<Compiled>;
}
/**
 * A text's language and phrases are read in its first this many characters: read whole, a 200 KB
 * journal in Portuguese cost ~100-300 ms a reading (its words folded and scored, every rule's scan),
 * where the English reader takes ~6.
 */
const readChars = 20_000;
const notAscii = /[^ -~\t\n\r]/u;

/**
 * Whether a language writes its time words in lower case within a sentence, so that a phrase starting
 * with a capital there is a name's ("Chris Hoy", "Bruno Mars 2016"): all but German, whose nouns and
 * months are capitalized ("vor zwei Tagen", "im Mai") and whose "Morgen" is often typed for "morgen".
 */
const namesCapitalized = (c: Compiled) => c.language.code !== 'de';

/** Characters that open a sentence before a word, past spaces and opening quotes. */
const sentenceMark = /[.!?¿¡:;\n…]/u;
const opening = /[\s"'“‘«([]/u;

/**
 * Which characters of CASED (the text as written) belong to a word capitalized within a sentence: a
 * name, in the languages that write their time words in lower case (namesCapitalized).
 */
function namedWords(cased: string): Uint8Array {
  const named = new Uint8Array(cased.length);
  for (const m of matchesOf(/(?<![\p{L}\p{M}\p{N}])\p{Lu}[\p{L}\p{M}]*/gu, cased)) {
    let i = m.index - 1;
    while (i >= 0 && cased[i] !== '\n' && opening.test(cased[i]!)) i--;
    if (i >= 0 && !sentenceMark.test(cased[i]!)) named.fill(1, m.index, m.index + m[0].length);
  }
  return named;
}

/**
 * The languages `words` (folded) are most likely in, when that is another than English: the most of
 * their function words and time words, more than English's, and at least one time word among them
 * (each with whether any of its function words is there). Read only for a text anyCue found a time
 * word of another language in, which is how most English text is left alone.
 */
function languagesOf(words: readonly string[]): { c: Compiled; spoken: boolean }[] {
  const { english, scores } = languageScores(words);
  let best = english + 1;
  let chosen: { c: Compiled; cued: boolean }[] = [];
  for (const c of compiled().languages) {
    let score = scores.get(c.language.code) ?? 0;
    let cued = false;
    for (const w of words)
      if (c.cues.has(w)) {
        score++;
        cued = true;
      }
    if (score < best) continue;
    if (score > best) chosen = [];
    best = score;
    chosen.push({ c, cued });
  }
  // A language as likely that says no time here ("Ich war hier": German as much as French) leaves it.
  return chosen.every((x) => x.cued)
    ? chosen.map((x) => ({ c: x.c, spoken: (scores.get(x.c.language.code) ?? 0) > 0 }))
    : [];
}

/**
 * The text with the time phrases of its language (Portuguese, Spanish, French, German or Italian:
 * time-languages.ts) written as time-expressions.ts reads them in English, and what each said.
 * English text, and text that says no time, comes back as it was. Each phrase is read once, by the
 * first rewrite that takes it, against the text as written (no rewrite reads another's English).
 */
export function inEnglishTime(text: string): InEnglishTime {
  const cased = notAscii.test(text) ? text.normalize('NFC') : text;
  const lower = cased.toLowerCase();
  // Its language and its phrases are read in its first characters (readChars); the rest stays as it is.
  const read = lower.length > readChars ? lower.slice(0, readChars) : lower;
  if (!compiled().anyCue.test(read)) return { text, phrases: [], ahead: false };
  const languages = languagesOf(wordsForLanguage(read));
  if (languages.length === 0) return { text, phrases: [], ahead: false };
  // In a text with none of the language's function words, a capitalized time word within a sentence
  // is a name ("Chris Hoy won gold" is no "today", "Bruno Mars 2016" no March); in one that has them, a
  // month written "Maio" is still May. Where lower case changed a length ("İ"), the places would not
  // line up, and nothing is taken for a name.
  // With none of them, a one-word phrase opening a sentence is as likely an English name or word ("Mars
  // 2020 landed!", "Domani, 8pm at the bar"); two of the language's words ("Mardi dernier") say it is
  // theirs, and so does a text that is the word alone: a query "Ontem?", capitalized as phones type it.
  const lined = lower.length === cased.length;
  const named = lined ? namedWords(cased.slice(0, read.length)) : new Uint8Array(read.length);
  // Counted only where a phrase is in question: a text of the language's own words never asks.
  let words: number | undefined;
  const moreThanOneWord = () => (words ??= read.match(/(?<![\p{L}\p{M}\p{N}])\p{L}/gu)?.length ?? 0) > 1;
  const oneWordCapital = (phrase: string, at: number) =>
    lined && cased[at] !== lower[at] && (phrase.match(/\p{L}+/gu) ?? []).length === 1 && moreThanOneWord();
  const spans: { from: number; to: number; en: string }[] = [];
  // Characters a phrase already took: a long note's hundreds of phrases are checked in their length.
  const taken = new Uint8Array(read.length);
  const free = (from: number, to: number) => !taken.subarray(from, to).includes(1);
  for (const { c, spoken } of languages)
    for (const r of rewritesOf(c).rewrites) {
      r.re.lastIndex = 0;
      for (const m of matchesOf(r.re, read)) {
        const from = m.index;
        const to = from + m[0].length;
        if (
          !free(from, to) ||
          (!spoken && namesCapitalized(c) && (named[from] === 1 || oneWordCapital(m[0], from)))
        )
          continue;
        const en =
          typeof r.en === 'string' ? r.en.replace(/\$(\d)/gu, (_, i: string) => m[Number(i)] ?? '') : r.en(m);
        spans.push({ from, to, en });
        taken.fill(1, from, to);
      }
    }
  if (spans.length === 0) return { text, phrases: [], ahead: false };
  spans.sort((a, b) => a.from - b.from);
  let out = '';
  let at = 0;
  const phrases: ReadPhrase[] = [];
  for (const s of spans) {
    out += lower.slice(at, s.from);
    const said = lower.slice(s.from, s.to);
    // A rewrite to nothing holds its words as they are ("guten Morgen" is no "tomorrow").
    out += s.en === '' ? said : s.en;
    if (s.en !== '') phrases.push({ said, en: s.en });
    at = s.to;
  }
  const ahead = languages.some(({ c }) => rewritesOf(c).future.test(read));
  return { text: out + lower.slice(at), phrases, ahead };
}
