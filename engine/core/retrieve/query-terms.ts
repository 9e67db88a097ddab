import { foldText } from '../shared/fold-text.ts';
import { foreignLanguagesOf, wordsForLanguage } from './languages.ts';
import { hasUnspaced, segmentWords } from './segment-words.ts';
import { otherForms } from './other-forms.ts';
import { meansTheCare } from './practice-words.ts';

// The tails of "Ana's", "don't", "I'm", "we'll", "they're", "I've", "I'd": the tokenizer splits at the
// apostrophe, and as terms they match nearly every Record (a possessive question found Records by "s").
// So do the particles of Japanese and the commonest function characters of Chinese once their text is
// cut into words (segment-words.ts). "user" is how an agent names the person it asks about ("is the
// user vegan?"), as "I" is: as a term it matched every turn written with the speaker "user". "am" is
// "is" said of oneself ("What am I doing on the 19th?" met every "I am allergic to …").
const stopwords = new Set(
  `a am an and are as at be been but by can could did do does for from had has have he her hers him his how i user
   if in into is it its me my mine of on or our ours she so than that the their them then there these they
   this those to us was we were what when where which who whom whose why will with would should shall might
   you your yours
   about any all also just not no yes tell know s t m d ll re ve
   の に は を が で と も へ や か ね よ 的 了 是`.split(/\s+/),
);

/**
 * Words that frame a question about a thing rather than name it: "What should I remember about Marko?",
 * "Do you recall where I parked?". "remember" is a word of the thing in "What does Joanna do to remember
 * happy memories?", so only these framings drop it: before "about", "of" or "regarding", or asked of
 * the listener.
 */
const framedBefore = /(?<![\p{L}\p{N}])(?:remember|recall)(?=\s(?:about|of|regarding)(?![\p{L}\p{N}]))/giu;
const askedOfListener =
  /^(\s*(?:do|can|could|would|did) you (?:still )?)(?:remember|recall)(?![\p{L}\p{N}])/iu;

/** A text's words in order, folded as the lexical index folds them and cut as it cuts unspaced scripts. */
export function foldedWords(text: string): string[] {
  return foldText(segmentWords(text)).match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu) ?? [];
}

/**
 * The query's content words: folded as the lexical index folds its text (fold-text.ts), de-duplicated,
 * stopwords dropped (unless nothing else is left). Folded, not lower-cased, so the words a lane found a
 * Record by ("strasse" for "Straße") are also the ones its quote and reasons look for. A query written
 * in Portuguese, Spanish, French, German or Italian (languages.ts) drops that language's function words
 * too: "que", "o", "de" matched nearly every Record of a Portuguese Brain. Only then: "die" and "war"
 * are words of an English question.
 */
export function queryTerms(query: string): string[] {
  const asked = query.replace(framedBefore, ' ').replace(askedOfListener, '$1 ');
  const words = [...new Set(foldedWords(asked))];
  const foreign = foreignLanguagesOf(wordsForLanguage(asked));
  const content = words.filter((w) => !stopwords.has(w) && !foreign.some((l) => l.functionWords.has(w)));
  return content.length > 0 ? content : words;
}

// Words that point at something said before the question, which the question itself does not name.
const pointers = new Set(
  'it that this those these them there then he she they him her his hers their its'.split(' '),
);
// Words that ask for more of something, or for it again, and name nothing themselves.
const askingMore = new Set(
  `more else again please exactly mean meant said say saying explain elaborate detail details happened
   happen continue remind remember recall thing things stuff one talk talked talking discuss discussed`.split(
    /\s+/,
  ),
);

/**
 * Whether a question names nothing but something said before it ("What was it about?", "Tell me more
 * about that", "Who is she?"): every word a stopword or a request for more, and one of them pointing
 * back. A Context request carries no conversation, so what "it" is lies with the asker; its words alone
 * ("about", "that") match most Records. Only English is read so: a question in another language is
 * searched as ever.
 */
export function pointsOnlyBack(query: string): boolean {
  const words = foldedWords(query);
  if (words.length === 0 || foreignLanguagesOf(wordsForLanguage(query)).length > 0) return false;
  return words.some((w) => pointers.has(w)) && words.every((w) => stopwords.has(w) || askingMore.has(w));
}

/** A crude stem (suffix-stripped prefix) for matching query words in text outside FTS5. */
export function stemPrefix(term: string): string {
  const stripped = term.replace(/(ing|edly|ed|es|s|ly|ies)$/u, '');
  return stripped.length >= 3 ? stripped : term;
}

const wordChar = /[\p{L}\p{M}\p{N}]/u;

/**
 * Where a term is looked for: its stem prefix at a word start (anywhere, for a script written without
 * spaces), or, for a form of a verb the stemmers leave apart from its past (verb-forms.ts), any of the
 * verb's forms as a whole word, and for a word of kin any word for the same kin (kin-words.ts). The
 * forms are one term: "running" is met by "I ran", "mom" by "my mother", and a question whose every
 * word must be met ("running" and "fast") still asks for two, not three.
 */
interface TermProbe {
  prefix: string;
  anywhere: boolean;
  forms: readonly string[];
}

// One Context asks matchedTerms about the same few terms for hundreds of texts (every lane's reasons,
// the reranker's features, each passage): their probes are made once, not once per text. A bounded
// memo of a pure function of the term, so no engine's state lives here.
const probes = new Map<string, TermProbe>();

function probeOf(term: string): TermProbe {
  let probe = probes.get(term);
  if (probe) return probe;
  const prefix = stemPrefix(term);
  const forms = otherForms(term).filter((f) => !f.startsWith(prefix));
  probe = { prefix, anywhere: hasUnspaced(prefix[0] ?? ''), forms };
  if (probes.size >= 4096) probes.clear();
  probes.set(term, probe);
  return probe;
}

/** The first offset at or after `from` where `word` starts a word of lower (any offset if anywhere). */
function startOf(lower: string, word: string, from: number, anywhere: boolean, whole: boolean): number {
  for (let i = lower.indexOf(word, from); i !== -1; i = lower.indexOf(word, i + 1))
    if (
      (anywhere || i === 0 || !wordChar.test(lower[i - 1]!)) &&
      (!whole || !wordChar.test(lower[i + word.length] ?? ''))
    )
      return i;
  return -1;
}

/** The first offset at or after `from` where the probe meets a word of lower; -1 if none. */
function nextStart(lower: string, { prefix, anywhere, forms }: TermProbe, from: number): number {
  let first = startOf(lower, prefix, from, anywhere, false);
  for (const form of forms) {
    let at = startOf(lower, form, from, false, true);
    while (at !== -1 && !meansTheCare(lower, form, at)) at = startOf(lower, form, at + 1, false, true);
    if (at !== -1 && (first === -1 || at < first)) first = at;
  }
  return first;
}

/**
 * Where a term occurs in folded text (foldText): each offset of its stem prefix at a word start, or of a
 * form of its verb (TermProbe). A word of a script written without spaces (京都) starts wherever it
 * occurs: its neighbours are letters too.
 */
export function* termStarts(lower: string, term: string): Generator<number> {
  const probe = probeOf(term);
  for (let i = nextStart(lower, probe, 0); i !== -1; i = nextStart(lower, probe, i + 1)) yield i;
}

/** Which of the (folded) terms occur in text, folded (by stem prefix at a word start, or verb form). */
export function matchedTerms(text: string, terms: string[]): string[] {
  const lower = foldText(text);
  return terms.filter((t) => nextStart(lower, probeOf(t), 0) !== -1);
}
