import { selfSpeakerNames } from '../contract/index.ts';
import { escapeRegExp } from '../core/shared/escape-reg-exp.ts';
import { foldText, foldWithOffsets } from '../core/shared/fold-text.ts';
import type { Lane, LaneCandidate, LaneInput } from './lane.ts';
import { nicknamesNamed, selfNames } from './self-names.ts';
import { searchQuery, sharedReason } from './turn-lexical-lane.ts';
import { matchesOf } from '../contract/matches-of.ts';

/** A folded query's words of the first person, or the user an agent asks about. */
const firstPerson =
  /(?<![\p{L}\p{N}'’.])(?:i|i['’](?:m|ve|d)|me|my|mine|myself|the user|user['’]s)(?![\p{L}\p{N}.])/u;

/**
 * Query words (and adjacent pairs, for full names) that name a speaker of this Brain, in bytewise
 * order, folded as the indexer folds speakers (normName); asked of the thread index once per request
 * (the memo). A query that names the Brain's own person (the full name, the first name alone, or a
 * nickname she said she goes by: self-names.ts) also
 * names the speakers that are that person ("self", "me", "user", ..., as resolveOwner reads them): an
 * agent writes the user's messages as "self", so "Is Ana vegetarian?" found no speaker, and what Ana
 * said counted for no more than a greeting that named her.
 */
export async function namedSpeakers(
  input: Pick<LaneInput, 'threads' | 'slots' | 'query' | 'eligibility' | 'memo'>,
): Promise<string[]> {
  return (await speakersNamed(input)).speakers;
}

/**
 * The words of the Brain's own person's name as the query names her ("lena" of "What should I not cook
 * for Lena?" in Lena Kovac's Brain; "lena", "kovac" for her whole name), folded; none where it does
 * not name her. In her own Brain her name says whom the question is about, as "I" and "my" do, not
 * what: as a search word it met every Record she wrote (the index holds each Record's speaker), and the
 * entity lane lifted them all, a vase and a dentist above her walnut allergy. retrieve() searches
 * without them; the entity lane still reads her Records first, as for a question in the first person.
 * None where the query names another speaker too: "What did Jonas tell Lena?" asks what names her.
 */
export async function selfNameWords(
  input: Pick<LaneInput, 'threads' | 'slots' | 'query' | 'eligibility' | 'memo'>,
): Promise<string[]> {
  const self = (await speakersNamed(input)).self;
  return self === null ? [] : self.split(' ');
}

interface SpeakersNamed {
  /** namedSpeakers. */
  speakers: string[];
  /** The self's name as the query says it, folded: her whole name, her first name or a nickname; else null. */
  self: string | null;
}

function speakersNamed(
  input: Pick<LaneInput, 'threads' | 'slots' | 'query' | 'eligibility' | 'memo'>,
): Promise<SpeakersNamed> {
  const memo = input.memo?.get('namedSpeakers') as Promise<SpeakersNamed> | undefined;
  if (memo) return memo;
  const words = foldText(input.query).match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu) ?? [];
  const tokens = words.map((w) => w.replace(/['’]s$/u, ''));
  const candidates = new Set<string>();
  tokens.forEach((t, i) => {
    if (t.length > 1) candidates.add(t);
    if (i + 1 < tokens.length) candidates.add(`${t} ${tokens[i + 1]}`);
  });
  const found = (async (): Promise<SpeakersNamed> => {
    const brainUid = input.eligibility.brainUid;
    const whole = await input.threads.speakers(brainUid, [...candidates]);
    const { name: self, nicknames } = await selfNames(input);
    const full = self === null ? '' : foldText(self).trim().replace(/\s+/gu, ' ');
    const first = full.split(' ')[0] ?? '';
    // Each with the first name as the query says it, so the query's embedding is made without it too.
    const named = [...new Set([...whole, ...(await calledBy(input, tokens, whole, first)).flat()])].sort(
      (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    );
    // "Where does Tom live?" of Tomislav, who said most people call her Tom: her name as much ("Where
    // will Luka work?" of William, called Will, not: nicknamesNamed).
    const nickname = nicknamesNamed(input.query, nicknames)[0] ?? null;
    const asSelf = candidates.has(full) ? full : first.length > 1 && candidates.has(first) ? first : nickname;
    // "Am I vegan?", "what's my job?", "is the user vegan?": asked in the first person, or as an agent
    // names the person, it is about the Brain's own person as much as by name (what Leo said of being
    // vegan came first).
    // Not beside another speaker it names: "what did Tom tell me?" is about what Tom said.
    const inFirstPerson = self !== null && named.length === 0 && firstPerson.test(foldText(input.query));
    if (asSelf === null && !inFirstPerson) return { speakers: named, self: null };
    const aliases = await input.threads.speakers(brainUid, [...selfSpeakerNames, full, ...nicknames]);
    // The name as the query says it too, so the query's embedding is made without it, as for others.
    const speakers = [...new Set([...named, ...aliases, ...(asSelf === null ? [] : [asSelf])])].sort(
      (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    );
    // Beside another speaker ("What did Jonas tell Lena?") her name in his words is what is asked.
    const onlyHers = named.every(
      (n) => n === full || n === first || nicknames.includes(n) || selfSpeakerNames.has(n),
    );
    return { speakers, self: onlyHers ? asSelf : null };
  })();
  input.memo?.set('namedSpeakers', found);
  return found;
}

/**
 * The speakers the query names by the first name they are called by alone: "Did Petra have her baby?"
 * of a chat export's "Petra Kos" (use9 H1), where she is the only speaker of that first name. A chat
 * export names its people in full and a question as people call them; without this "petra" named
 * nobody, and as a search word it met every message she sent (the index holds each Record's speaker),
 * her shortest first. Not the self's first name (speakersNamed reads it), nor a word of a name the
 * query says whole ("Petra Kos"), nor a first name two speakers share ("Marko" of Marko Babić and
 * Marko Horvat: either). A name that is an everyday word too ("Will", "May") only written as a name,
 * as a nickname is (nicknamesNamed).
 */
async function calledBy(
  input: Pick<LaneInput, 'threads' | 'query' | 'eligibility'>,
  tokens: readonly string[],
  whole: readonly string[],
  selfFirst: string,
): Promise<Array<[speaker: string, first: string]>> {
  const inWhole = new Set(whole.flatMap((n) => n.split(' ')));
  const firsts = tokens.filter((t) => t.length > 1 && t !== selfFirst && !inWhole.has(t));
  if (firsts.length === 0) return [];
  const found = await input.threads.speakersFirstNamed(input.eligibility.brainUid, firsts);
  return found.flatMap(({ first, speakers }) =>
    speakers.length === 1 && speakers[0] !== first && nicknamesNamed(input.query, [first]).length > 0
      ? [[speakers[0]!, first] as [string, string]]
      : [],
  );
}

/**
 * The query without the names of the Brain's speakers it mentions (and their possessive 's), for the
 * query embedding: a rare name weighs as much as any word in a sentence vector, so "What does Melanie
 * paint?" would find whatever Melanie said before what was painted. Who said it is the entity lane's
 * job. A query that is nothing but names is kept whole.
 */
export function withoutSpeakers(query: string, names: readonly string[]): string {
  if (names.length === 0) return query;
  // The names are folded (normName): they are found in the folded query, and cut from the query as
  // written ("José" goes for "jose").
  const { folded, origin } = foldWithOffsets(query);
  const cuts: Array<[number, number]> = [];
  for (const name of names) {
    const pattern = name.split(/\s+/).map(escapeRegExp).join('\\s+');
    const found = new RegExp(`(?<![\\p{L}\\p{N}])${pattern}(?:['’]s)?(?![\\p{L}\\p{N}])`, 'gu');
    for (const m of matchesOf(found, folded)) cuts.push([origin[m.index]!, origin[m.index + m[0].length]!]);
  }
  cuts.sort((a, b) => a[0] - b[0]);
  let out = '';
  let from = 0;
  for (const [start, end] of cuts) {
    if (start < from) continue;
    out += `${query.slice(from, start)} `;
    from = end;
  }
  out += query.slice(from);
  return /[\p{L}\p{N}]/u.test(out) ? out.replace(/\s+/g, ' ').trim() : query;
}

/**
 * Entity lane: when the query names someone who speaks in this Brain, that person's own Records among
 * the query's lexical matches, in BM25 order (fused, it lifts them above other people's). On the
 * LoCoMo dev half 96% of the evidence for a question naming one speaker was said by that speaker.
 */
export function createEntityLane(): Lane {
  return {
    name: 'entity',
    async search(input: LaneInput): Promise<LaneCandidate[]> {
      const names = await namedSpeakers(input);
      if (names.length === 0) return [];
      const out = (await searchQuery(input))
        .filter((r) => r.speakerNorm !== null && names.includes(r.speakerNorm))
        .slice(0, input.limit)
        .map((r) => ({
          recordId: r.recordId,
          score: r.score,
          reason: `said by ${r.speakerNorm}; ${sharedReason(r.text, input.terms)}`,
          // The name its speaker goes by is a word of the question it says, though in no text of theirs.
          words: input.terms.filter((t) => r.speakerNorm!.split(/\s+/u).includes(t)),
        }));
      input.ledger.charge('processing', out.length / 1000);
      return out;
    },
  };
}
