/**
 * English verbs whose past forms no stemmer brings back to them: both lexical indexes stem (FTS5's
 * porter, PostgreSQL's english snowball), and both make "running" and "runs" of "run", but "ran" stays
 * "ran", so "When did I go running?" never met "I ran 10 km". A table rather than a lemmatiser: no
 * dependency holds one (wink-nlp's needs a language model the app does not ship), and the verbs a
 * person writes of their days are few. Each line: the verb, then the forms a stemmer leaves apart.
 *
 * Left out on purpose: verbs whose forms are the verb itself (put, cut, read), the verbs the stopword
 * list already drops (be, have, do, tell, know), "say" (a question's "what did I say about" names the
 * telling, not what was told: "said" is in half of any chat), and verbs whose forms are common words of
 * their own ("bit", "fell", "lay", "rose", "ground", "bound", "lit", "born", "meant"). Nor "win": the
 * tokenizers cut "won't" into "won" and "t", so "won" is as often a refusal as a victory.
 */
const table = `
  arise arose arisen; awake awoke awoken; become became; begin began begun; bend bent; bleed bled;
  blow blew blown; break broke broken; breed bred; bring brought; build built; burn burnt; buy bought;
  catch caught; choose chose chosen; come came; creep crept; deal dealt; dig dug; draw drew drawn;
  dream dreamt; drink drank drunk; drive drove driven; eat ate eaten; feed fed; feel felt;
  fight fought; find found; flee fled; fly flew flown; forbid forbade forbidden; forget forgot
  forgotten; forgive forgave forgiven; freeze froze frozen; get got gotten; give gave given;
  go went gone; grow grew grown; hang hung; hear heard; hide hid hidden; hold held; keep kept;
  kneel knelt; lead led; learn learnt; leave left; lend lent; lose lost; make made; meet met;
  pay paid; ride rode ridden; ring rang rung; run ran; seek sought; sell sold; send sent;
  see saw seen; shake shook shaken; shine shone; shoot shot; show shown; shrink shrank shrunk;
  sing sang sung; sink sank sunk; sit sat; sleep slept; slide slid; speak spoke spoken; spend spent;
  spin spun; stand stood; steal stole stolen; stick stuck; sting stung; strike struck; swear swore
  sworn; sweep swept; swim swam swum; swing swung; take took taken; teach taught; tear tore torn;
  think thought; throw threw thrown; understand understood; wake woke woken; wear wore worn;
  weep wept; write wrote written`;

/** A verb's regular forms, which the stemmers already bring to it: -s/-es/-ies, -ing. */
function regularForms(verb: string): string[] {
  const third = /(?:[sxz]|[cs]h|o)$/u.test(verb)
    ? `${verb}es`
    : /[^aeiou]y$/u.test(verb)
      ? `${verb.slice(0, -1)}ies`
      : `${verb}s`;
  const ing = /[^e]e$/u.test(verb)
    ? `${verb.slice(0, -1)}ing`
    : /(?:^|[^aeiou])[aeiou][bdgmnpt]$/u.test(verb)
      ? `${verb}${verb.at(-1)}ing`
      : `${verb}ing`;
  return [verb, third, ing];
}

/** One verb: every form it is written in, and those a stemmer does not bring to the verb. */
interface Verb {
  verb: string;
  regular: readonly string[];
  irregular: readonly string[];
}

// Forms in -ing that are mostly nouns: "the meeting" is no question about whom one met.
const nouns = new Set(
  'meeting building feeling drawing writing beginning understanding hearing showing'.split(' '),
);

const verbOf = new Map<string, Verb>();
for (const line of table.split(';')) {
  const [verb, ...irregular] = line.trim().split(/\s+/u) as [string, ...string[]];
  const v: Verb = { verb, regular: regularForms(verb), irregular };
  for (const form of [...v.regular, ...irregular])
    if (!nouns.has(form) && !verbOf.has(form)) verbOf.set(form, v);
}

/**
 * The words a query term is searched by besides itself when it is a form of one of these verbs, none
 * that the stemmers already bring to it: for "running" the forms "ran"; for "went" the verb "go" (whose
 * stem meets "goes" and "going") and "gone". Empty for any other word.
 */
export function searchedForms(term: string): string[] {
  const v = verbOf.get(term);
  if (!v) return [];
  const regular = v.regular.includes(term);
  return [...(regular ? [] : [v.verb]), ...v.irregular.filter((f) => f !== term)];
}

/**
 * Every form of the verb a query term is a form of, as whole words (the term itself included); empty
 * for any other word. What a text must hold, one of them, for the term to count as met.
 */
export function verbForms(term: string): readonly string[] {
  const v = verbOf.get(term);
  return v ? [...v.regular, ...v.irregular] : [];
}
