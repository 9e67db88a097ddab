import { passages, sentences, trimmedSpan, type Span } from '../core/derive/split-text.ts';
import { asks, placeholderNames } from '../core/derive/rule-deriver.ts';
import { slotValueAsSaid } from '../core/derive/slot-value.ts';
import { isUnsaid, mailHeader, quoteOpening, quotes, type Range } from '../core/derive/not-said.ts';
import type { Fused } from '../retrieve/fuse.ts';
import { matchedTerms, termStarts } from '../core/retrieve/query-terms.ts';
import { foldText, foldWithOffsets } from '../core/shared/fold-text.ts';
import type { Dropped, EvidencePassage } from '../core/context/evidence.ts';
import { keptOf, repeatReason, sameWordsKey, type Repeat } from '../core/context/same-words.ts';
import type { ContextReads, ContextReadTime, EvidenceRecord } from '../ports/index.ts';

const windowChars = 1500;

/**
 * From fused candidates to evidence: a Record none of whose Memories is served at the read time
 * (superseded, retracted, or scheduled to start later) is dropped, with the reason, so older or future
 * evidence is never presented as current; each kept Record is quoted
 * by bestPassage (its best passage, and a wider quote for when the budget has room). A message is quoted
 * by its own words or by one quote of someone else's in it, never both, and never by a mail's header
 * lines (the subject goes to the block header); by its own words where another Record here says what it
 * quotes (quotedFromWhoSaidIt).
 *
 * A Record dropped because what it said was superseded brings in, in its place, the Records of what
 * superseded it (the versions of the same lineage served at the read time, as this request may see
 * them: `at.scope`). The query matched the old value; the current one is the answer, though its
 * Record may share no word with the query: "where do I live?" matched "I live in Porto." and nothing
 * matched "I moved to Braga.", so the Context had said no_evidence of something the Brain knew.
 *
 * Such a Record that says more the query asks about than its superseded Memories' values (saysMore) is
 * kept too, after them and marked `superseded`, with no Memory served: "Who is Rui?" after "I live in
 * Lisbon with my husband Rui." and a move to Porto.
 *
 * An edited note imported again is a new Record, a newer revision of the same item; the passages both
 * versions share keep one Memory citing both, so the older one is dropped for the newest revision
 * the request may see (a revision after as_of, another source filtered out, does not replace it).
 *
 * A query that names a time (`asked`: "Where did I work in September?") asks what held then: a
 * Memory that held within that window is evidence though superseded since. The job said in September
 * was dropped as superseded, and the Context answered with the one taken in November. (Not one
 * retracted or corrected: a correction says it never held.)
 *
 * A Record of no Memory that is only an attachment's placeholder is dropped too, with the reason,
 * unless a name it gives holds a query word: the Record stays, it is what was sent.
 *
 * `lead` names Records kept whatever their Memories' state, each quoted by its own words (not the
 * query's): what a change question shows as a change (a value withdrawn, a version replaced since), its
 * passage where those words are. Kept though no Memory of theirs is served, they are marked superseded.
 */
export async function selectEvidence(
  reads: ContextReads,
  fused: Fused[],
  terms: string[],
  at: ContextReadTime,
  maxRecords: number,
  asked?: { fromMs: number; toMs: number },
  lead: ReadonlyMap<string, string[]> = new Map(),
): Promise<{ evidence: EvidencePassage[]; dropped: Dropped[] }> {
  // A slot's value only: a plan that was moved or called off ("I booked the dentist for Tuesday",
  // then "moved to Thursday") is no plan of the time asked about, though its Memory held in it.
  const heldThen = (m: MemState) =>
    asked !== undefined &&
    m.predicate !== null &&
    !m.served &&
    !m.pending &&
    !m.retracted &&
    !m.later &&
    m.validToMs !== null &&
    m.validToMs > m.validFromMs &&
    m.validFromMs < asked.toMs &&
    m.validToMs > asked.fromMs;
  const evidence: EvidencePassage[] = [];
  const dropped: Dropped[] = [];
  // Read in chunks of as many candidates as may be kept (one read a chunk, not one a candidate); a
  // further chunk only when drops left room.
  const records = new Map<string, EvidenceRecord>();
  const memsOf = new Map<string, MemState[]>();
  const newerOf = new Map<string, string>();
  const load = async (all: string[]) => {
    // Each Record once: its citing versions are listed by appending.
    const ids = all.filter((id) => !records.has(id));
    if (ids.length === 0) return;
    const got = await reads.evidence(ids, at);
    for (const r of got.records) records.set(r.id, r);
    for (const r of got.newer) newerOf.set(r.id, r.newer);
    for (const m of got.citing) {
      const list = memsOf.get(m.recordId) ?? [];
      list.push({
        id: m.memoryId,
        quote: m.quote,
        statement: m.statement,
        subject: m.subject,
        predicate: m.predicate,
        served: m.served,
        pending: m.pending,
        retracted: m.retracted,
        later: m.later,
        validFromMs: m.validFromMs,
        validToMs: m.validToMs,
      });
      memsOf.set(m.recordId, list);
    }
  };
  const queue = [...fused];
  // Records kept though every Memory of theirs is superseded (saysMore), queued again after what
  // superseded them.
  const pastKept = new Set<Fused>();
  // Kept Records that say something no longer so (superseded, withdrawn by a mend).
  const unsettled = new Set<string>();
  // What each message quoted from someone else was quoted with: the words no longer so and those that hold.
  const saidBy = new Map<string, Said>();
  // The Record quoted for each text so far (sameWordsKey) and its place; the Records left out as repeats.
  const chosen = new Map<string, { repeat: Repeat; at: number }>();
  const repeated: Array<{ repeat: Repeat; key: string }> = [];
  let loaded = 0;
  for (let i = 0; i < queue.length; i++) {
    if (evidence.length >= maxRecords) break;
    const f = queue[i]!;
    if (i >= loaded) {
      loaded = i + maxRecords;
      await load(queue.slice(i, loaded).map((x) => x.recordId));
    }
    if (!records.has(f.recordId)) await load([f.recordId]);
    const r = records.get(f.recordId);
    if (!r) continue;
    const mems = memsOf.get(r.id) ?? [];
    // An attachment's placeholder ("[attachment: omitted media]") is what was sent, not what was said:
    // found beside the answer in its thread, it was served as evidence of nothing. Kept where a name it
    // gives holds a query word ("the lease pdf").
    const names = mems.length === 0 ? placeholderNames(r.text) : null;
    if (names !== null && matchedTerms(names.join('\n'), terms).length === 0) {
      dropped.push({
        recordId: r.id,
        reason: "placeholder: it only stands for an attachment, and names none of the query's words",
      });
      continue;
    }
    // A message or note that told of a value to come ("I'm starting at Revolut on Monday") says so in its
    // own words: evidence before the day, where a fact's bare value ("works at: Revolut") would read as
    // current.
    const saidAt = Date.parse(r.occurred_at);
    const toldAhead = (m: MemState) => m.later && r.kind !== 'fact' && m.validFromMs > saidAt;
    const holdsHere = (m: MemState) => heldThen(m) || toldAhead(m);
    // In its place, right after it: ids already taken or dropped are left where they are, ids further
    // down are moved up.
    const bringIn = (ids: string[], lane: string) => {
      for (const id of ids) {
        const at = queue.findIndex((x) => x.recordId === id);
        if (at >= 0 && at <= i) continue;
        const moved = at > i ? queue.splice(at, 1)[0]! : null;
        const lanes = [...new Set([...(moved?.lanes ?? []), ...f.lanes, lane])];
        queue.splice(i + 1, 0, { ...(moved ?? f), recordId: id, lanes });
      }
    };
    const newer = newerOf.get(r.id);
    if (newer !== undefined) {
      dropped.push({ recordId: r.id, reason: `revised: ${newer} is a newer revision of the same item` });
      bringIn([newer], 'revision');
      continue;
    }
    const unserved = mems.length > 0 && !mems.some((m) => m.served || m.pending || holdsHere(m));
    const past = pastKept.has(f) || (unserved && lead.has(r.id));
    if (!past && unserved) {
      const successors = await successorRecords(reads, mems, at);
      bringIn(successors, 'successor');
      // One read for them all, which saysMore reads too and the queue reaches next: not one each.
      await load(successors);
      const next = {
        texts: successors.flatMap((id) => records.get(id)?.text ?? []),
        served: successors.flatMap((id) =>
          (memsOf.get(id) ?? []).filter((m) => m.served).map((m) => m.statement),
        ),
      };
      if (await saysMore(reads, r.text, terms, mems, next, at)) {
        // After what superseded it, marked: what it says of the superseded Memory is read as past.
        const after = Math.max(i, ...successors.map((id) => queue.findIndex((x) => x.recordId === id)));
        const again = { ...f };
        queue.splice(after + 1, 0, again);
        pastKept.add(again);
      } else dropped.push({ recordId: r.id, reason: dropReason(mems, at.readMs) });
      continue;
    }
    const content = JSON.parse(r.content) as { speaker?: string; title?: string; thread?: string };
    // Words a block already says take no second block: of Records of the same words one is quoted, in
    // the place of the first found (keptOf says which).
    const key = sameWordsKey(r.kind, content.speaker ?? null, r.text, lead.get(r.id) ?? terms, content.title);
    const repeat: Repeat = {
      recordId: r.id,
      lanes: f.lanes,
      occurredAt: r.occurred_at,
      superseded: past,
      lead: lead.has(r.id),
    };
    const prior = key === null ? undefined : chosen.get(key);
    if (key !== null && prior !== undefined) {
      const next = keptOf(prior.repeat, repeat).next;
      repeated.push({ repeat: next ? prior.repeat : repeat, key });
      if (!next) continue;
    }
    // Kept for what else it says, marked superseded: a plan's words are quoted too, where that else
    // stands ("…, Dr. Horvat."), as a slot's value alone is not.
    const said = saidOf(mems, past ? (m) => holdsHere(m) || m.predicate === null : holdsHere);
    if (past || said.gone.length > 0) unsettled.add(r.id);
    const message = r.kind === 'message' ? {} : undefined;
    const quote = bestPassage(r.text, lead.get(r.id) ?? terms, said, message);
    if (quote.quoted) saidBy.set(r.id, said);
    const header = message ? mailHeader(r.text.slice(0, headerScanChars)) : null;
    const subject = header?.subject ?? null;
    const place = prior?.at ?? evidence.length;
    if (key !== null) chosen.set(key, { repeat, at: place });
    evidence[place] = {
      recordId: r.id,
      passage: quote.core,
      wide: quote.wide,
      kind: r.kind,
      title: r.kind === 'document' ? (content.title ?? null) : null,
      speaker: content.speaker ?? null,
      thread: r.kind === 'message' ? (content.thread ?? null) : null,
      // Derivation keeps no Memory of a message that asks and states nothing (rule-deriver.ts).
      asksOnly: r.kind === 'message' && mems.length === 0 && sentences(r.text).some((s) => asks(s.value)),
      source: r.source_name,
      occurredAt: r.occurred_at,
      visibility: r.visibility,
      memoryIds: mems.filter((m) => m.served).map((m) => m.id),
      superseded: past,
      held: heldShown(mems, heldThen, asked),
      ...(subject ? { subject } : {}),
      ...(quote.quoted ? { quoted: true } : {}),
      ...(header?.bulk ? { bulk: true } : {}),
      lanes: f.lanes,
      score: f.score,
      rerankScore: f.rerankScore ?? null,
    };
  }
  // Each named with the one finally quoted for its words.
  for (const { repeat, key } of repeated) {
    const kept = chosen.get(key)!.repeat;
    dropped.push({
      recordId: repeat.recordId,
      reason: repeatReason(kept.recordId, keptOf(repeat, kept).for),
    });
  }
  const texts = new Map(evidence.map((e) => [e.recordId, records.get(e.recordId)!.text]));
  quotedFromWhoSaidIt(evidence, texts, terms, saidBy);
  return { evidence: withoutBystanders(evidence, texts, terms, dropped, unsettled), dropped };
}

/**
 * A message quoted by someone else's words (a mail's quoted reply) that another Record among the
 * evidence says as its own (the mail answered, which a thread usually holds) is quoted by its own
 * words instead: that Record quotes them under the one who said them. Ivo's reply quoting the
 * landlord's "we will raise the rent … to 720 EUR … from February" was block [1] for "How much is my
 * rent from February?", the old figure under Ivo's name, beside the landlord's mail itself. A message
 * with no words of its own, or whose quoted words no Record here says, keeps its quote, marked quoted.
 */
export function quotedFromWhoSaidIt(
  evidence: EvidencePassage[],
  texts: ReadonlyMap<string, string>,
  terms: string[],
  saidBy: ReadonlyMap<string, Said>,
): void {
  if (!evidence.some((e) => e.quoted)) return;
  const ownWords = new Map(
    [...texts].map(([id, text]) => {
      let own = '';
      let at = 0;
      for (const q of quotes(text)) {
        own += `${text.slice(at, q.start)}\n`;
        at = q.end;
      }
      return [id, spaced(own + text.slice(at))];
    }),
  );
  for (const e of evidence) {
    if (!e.quoted) continue;
    // Its lines without the one saying whose they are ("On … wrote:", an Outlook "From: …" block).
    const lines = e.passage
      .split('\n')
      .map((l) => l.replace(quoteMarks, '').trim())
      .filter((l) => !l.endsWith(':') && !labelLine.test(l));
    const said = sentences(lines.join('\n'))
      .map((x) => spaced(x.value))
      .filter((x) => matchedTerms(x, terms).length > 0);
    if (said.length === 0) continue;
    const elsewhere = (x: string) => [...ownWords].some(([id, own]) => id !== e.recordId && own.includes(x));
    if (!said.every(elsewhere)) continue;
    const own = bestPassage(texts.get(e.recordId)!, terms, saidBy.get(e.recordId), { ownOnly: true });
    if (own.quoted) continue;
    e.passage = own.core;
    e.wide = own.wide;
    delete e.quoted;
  }
}

/** A quoted line's marks ("> ", ">> "). */
const quoteMarks = /^[ \t]*(?:>[ \t]?)+/u;
/** Whitespace runs as one space: a client wraps quoted lines where the mail it quotes did not. */
const spaced = (text: string) => text.replace(/\s+/gu, ' ').trim();
/** An Outlook header line over a quoted mail ("From: Petar Horvat", "Sent: Tuesday"): not its words. */
const labelLine = /^[\p{L}]{2,12}: /u;

const wordPattern = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

/** Lanes that find a message by the messages around it or by who said it, not by what it says. */
const besideLanes = new Set(['lexical', 'entity', 'prompt', 'recency', 'when']);

/**
 * Evidence without the messages that only stood next to the answer, when a statement among the evidence
 * says every word of the query itself. A message is indexed with its neighbours' words (two before, one
 * after: a reply is found through the question it answers) and the prompt lane brings in the message
 * before each match; so "What is my favourite colour?" would also cite "I work as a nurse…", said two
 * messages after "My favourite colour is green", and the assistant's question before it. Once a
 * statement holds the query's words, a message holding none of them and found only that way
 * (besideLanes) answers nothing: dropped, with the reason. Where the words are in a question ("Where
 * did you go on holiday last summer?") the reply after it is the answer and stays, as does anything a
 * lane found by what it says or means (semantic, time, slot, topic, a successor).
 */
export function withoutBystanders(
  evidence: EvidencePassage[],
  texts: Map<string, string>,
  terms: string[],
  dropped: Dropped[],
  /**
   * Records saying something no longer so: no answer by themselves, since what replaced it may be a
   * message of none of the query's words ("My partner Priya's birthday is March 4." then "wait no,
   * it's March 14").
   */
  unsettled: ReadonlySet<string> = new Set(),
): EvidencePassage[] {
  // A query naming one of the speakers asks about that person, whose answers are spread over their own
  // messages in their own words, found through the entity lane and the neighbours ("What does Calvin do
  // to relax?": "Fixing cars really calms me down"); another's message naming them ("Cool, Calvin! … I
  // listen to vinyl to relax") is no statement of theirs. Such a query keeps its evidence whole.
  const speakerWords = new Set(evidence.flatMap((e) => foldText(e.speaker ?? '').match(wordPattern) ?? []));
  if (terms.some((t) => speakerWords.has(t))) return evidence;
  const answer = evidence.find((e) => {
    if (unsettled.has(e.recordId)) return false;
    const stated = sentences(texts.get(e.recordId) ?? '')
      .filter((s) => !asks(s.value))
      .map((s) => s.value)
      .join('\n');
    return matchedTerms(stated, terms).length === terms.length;
  });
  if (!answer) return evidence;
  return evidence.filter((e) => {
    const beside =
      e.kind === 'message' &&
      e.lanes.every((l) => besideLanes.has(l)) &&
      matchedTerms(texts.get(e.recordId) ?? '', terms).length === 0;
    if (beside)
      dropped.push({
        recordId: e.recordId,
        reason: `beside the answer: it says none of the query's words, only the messages around it do, and ${answer.recordId} says them all`,
      });
    return !beside;
  });
}

/** How many Records of what superseded a dropped one come in its place (the newest first). */
const successorsPerDrop = 2;

/**
 * The Records, newest first, that support the versions served at the read time of the lineages whose
 * superseded versions `mems` are: what the dropped Record said, as it now stands. Only Records this
 * request may see, never a correction that only retracts.
 */
async function successorRecords(
  reads: ContextReads,
  mems: MemState[],
  at: ContextReadTime,
): Promise<string[]> {
  const gone = mems.filter((m) => !m.served && !m.pending && !m.retracted && !m.later).map((m) => m.id);
  if (gone.length === 0) return [];
  return reads.successors(gone, at, successorsPerDrop);
}

/**
 * Whether a Record every Memory of which is superseded still answers the query beyond them: a query
 * word it holds that neither the values served now of those Memories' slots nor the Records of what
 * superseded them say. "I live in Lisbon with my husband Rui." became one "lives in" Memory; after "I
 * moved to Porto." superseded it, "Who is Rui?" lost the only Record naming Rui. "Where do I live?"
 * asks what the new value says ("Ana lives in Porto"), and is answered by it alone.
 */
async function saysMore(
  reads: ContextReads,
  text: string,
  terms: string[],
  mems: MemState[],
  next: { texts: string[]; served: string[] },
  at: ContextReadTime,
): Promise<boolean> {
  const own = matchedTerms(text, terms);
  if (own.length === 0) return false;
  // A correction says the old words never held: no other word of its Record is kept with them.
  const gone = mems.filter((m) => !m.retracted && !m.later && !m.pending).map((m) => m.id);
  if (gone.length === 0 || gone.length < mems.length) return false;
  // What the superseded versions said of their slots: the value (the rest of the sentence is the
  // Record's own), or all its words where no value is read. A version of no slot (a plan moved, a
  // task done) is said again by what superseded it, where it is: "Who is Dr. Horvat?" is answered by
  // the booking with him alone, after its move.
  const said = mems.flatMap((m) => (m.predicate === null ? [] : [slotValueAsSaid(m) ?? m.statement]));
  // What superseded them says (`next`): its Records' words, and the statements served of them (a plan's
  // next version after a mend, "sorry, 11am", says "The dentist moved my appointment to Friday at 11am").
  const now = [
    ...said,
    ...(await reads.slotValues(gone, at)).map((v) => v.statement),
    ...next.texts,
    ...next.served,
  ];
  const covered = new Set(now.flatMap((t) => matchedTerms(t, own)));
  return own.some((t) => !covered.has(t));
}

/**
 * When the slot value a Record states held, for a query naming a time (`asked`): a value that held
 * then and is no longer so, else one served now that began after the time's start (the value since,
 * beside the one of then). Other Records, and every Record of a query naming no time: none.
 */
function heldShown(
  mems: MemState[],
  heldThen: (m: MemState) => boolean,
  asked: { fromMs: number; toMs: number } | undefined,
): EvidencePassage['held'] {
  if (asked === undefined) return undefined;
  const then = mems.find((m) => m.predicate !== null && heldThen(m));
  if (then) return { fromMs: then.validFromMs, toMs: then.validToMs };
  const since = mems.find((m) => m.predicate !== null && m.served && m.validFromMs > asked.fromMs);
  return since ? { fromMs: since.validFromMs, toMs: since.validToMs } : undefined;
}

interface MemState {
  id: string;
  quote: string;
  statement: string;
  subject: string;
  predicate: string | null;
  served: boolean;
  pending: boolean;
  retracted: boolean;
  later: boolean;
  validFromMs: number;
  validToMs: number | null;
}

/**
 * What a kept Record says that is no longer so, and what still holds: the quotes of its Memories not
 * served at the read time (a corrected or superseded sentence of a Record whose other sentences still
 * hold), and of those served. "I live in Braga. My dentist is Carla Silva." with the dentist corrected
 * was quoted whole for "Who is my dentist?", the old dentist presented as current. What held in the
 * window the query asks about (`heldThen`) still holds for this request.
 */
function saidOf(mems: MemState[], heldThen: (m: MemState) => boolean): Said {
  const holds = (m: MemState) => m.served || m.pending || heldThen(m);
  const held = [...new Set(mems.filter(holds).map((m) => m.quote))];
  const gone = [...new Set(mems.filter((m) => !holds(m)).map((m) => m.quote))];
  return { gone: gone.filter((q) => !held.includes(q)), held };
}

/** Why a Record none of whose Memories is served at the read time is not evidence. */
function dropReason(mems: MemState[], asOfMs: number | undefined): string {
  const when = asOfMs === undefined ? 'now' : 'the read time (as_of, or the end of filter.until)';
  if (mems.every((m) => m.later)) return `scheduled: every Memory it supports starts later than ${when}`;
  if (mems.every((m) => m.retracted)) return 'retracted: every Memory it supports was retracted';
  if (mems.some((m) => m.later))
    return `not current: every Memory it supports is superseded, retracted or starts later than ${when}`;
  return 'superseded: every Memory it supports has a newer version';
}

/** Occurrences of one term looked at in a long text: enough for any real document, bounded for any input. */
const maxHitsPerTerm = 5_000;

/**
 * Where in a long text the query's words gather: the start of the windowChars-wide stretch holding the
 * most distinct query words (then the most occurrences), each found as matchedTerms finds them, at a
 * word start (an offset of the text as written: the search is in its folded form). Segmenting a whole
 * long text into sentences would cost more than the rest of the Context; the first hit alone is often a
 * title ("# Desktop app" for "How is the database key stored on the desktop?", whose answer sits pages
 * below). 0 when no word occurs.
 */
export function densestHits(text: string, terms: string[]): number {
  const { folded: lower, origin } = foldWithOffsets(text);
  const hits: Array<{ at: number; term: number }> = [];
  terms.forEach((t, term) => {
    let found = 0;
    for (const at of termStarts(lower, t)) {
      hits.push({ at, term });
      if (++found === maxHitsPerTerm) break;
    }
  });
  if (hits.length === 0) return 0;
  hits.sort((a, b) => a.at - b.at);
  const inWindow = new Array<number>(terms.length).fill(0);
  let distinct = 0;
  let best = { distinct: -1, count: -1, at: 0 };
  let lo = 0;
  for (let hi = 0; hi < hits.length; hi++) {
    if (inWindow[hits[hi]!.term]!++ === 0) distinct += 1;
    while (hits[hi]!.at - hits[lo]!.at >= windowChars) {
      if (--inWindow[hits[lo]!.term]! === 0) distinct -= 1;
      lo += 1;
    }
    const count = hi - lo + 1;
    if (distinct > best.distinct || (distinct === best.distinct && count > best.count))
      best = { distinct, count, at: hits[lo]!.at };
  }
  return origin[best.at]!;
}

/** A quote is at most about this long: a short Record is quoted whole, a long one by a window of it. */
export const quoteChars = 800;

/** A span made only of markdown headings: it says what follows, not what it says. */
const isHeading = (s: Span) => s.value.split('\n').every((line) => /^#{1,6}\s/u.test(line.trim()));

/** A Record's quote two ways: the narrow one every cited Record gets, and the wider one room allows. */
export interface Quote {
  /**
   * The passage whose query words weigh most, each weighed by how few of the Record's passages hold it
   * (rarity; a mail's greeting or sign-off only where no other passage holds one; a heading-only
   * passage gives way to the passage under it,
   * with the heading when both fit in quoteChars; an outline of headings longer than that keeps the
   * matching one).
   */
  core: string;
  /**
   * Contains core: the whole text when it is at most quoteChars (a note of a few lines reads best
   * whole); else core widened by the passages next to it that share query words it lacks and by the
   * heading just above it, within quoteChars.
   */
  wide: string;
  /**
   * A message's quotes only (bestPassage's `message`): the core is someone else's words the message
   * quotes (a mail's quoted reply, a forwarded mail), opened where it fits by the line saying whose.
   */
  quoted?: boolean;
}

/** How a message is quoted (bestPassage). */
export interface MessageQuote {
  /**
   * Its own words only, never someone else's it quotes: those are quoted from the Record that said
   * them. A message with no words of its own is quoted as without this.
   */
  ownOnly?: boolean;
}

/** How far into a message its mail header block is looked for: header lines, however many recipients. */
const headerScanChars = 20_000;

/** Quotes of a Record's Memories: those no longer so at the read time, and those that still hold. */
export interface Said {
  gone: readonly string[];
  held: readonly string[];
}

/**
 * The quote from a Record's text; both forms are exact substrings of it. Split at its blank lines, a
 * note's "# Japan trip" alone was quoted for "When is my flight to Japan?" while the flights were in the
 * next paragraph. Very long texts are only segmented around where the query's words gather (densestHits).
 * `said.gone`: words of the text no longer so (saidOf); neither quote contains them, except where they
 * are part of words that still hold (`said.held`: "My boss says \"I work at Acme.\"" keeps its words
 * when the employer it quotes was corrected).
 */
export function bestPassage(
  text: string,
  terms: string[],
  said: Said = { gone: [], held: [] },
  message?: MessageQuote,
): Quote {
  let base = 0;
  let scope = text;
  if (text.length > windowChars * 4) {
    const at = densestHits(text, terms);
    base = Math.max(0, at - windowChars / 2);
    scope = text.slice(base, Math.min(text.length, at + windowChars * 1.5));
  }
  const gone = goneRanges(text, said);
  const quoted = quotes(scope).map((q) => ({ start: base + q.start, end: base + q.end }));
  // A message's parts apart: its mail header lines and each quote of someone else's words. Passages
  // are cut at their edges (a client writes "On … wrote:" right under the reply, no blank line between).
  const header = message ? mailHeader(text.slice(0, headerScanChars)) : null;
  const apart = message ? [...(header ? [header.range] : []), ...quoted] : [];
  const segmented = cutAt(
    text,
    passages(scope).map((p) => ({ start: base + p.start, end: base + p.end, value: p.value })),
    apart,
  );
  const left = leavingOut(text, segmented, gone);
  const { spans, cut } = message ? messageSpans(left, header?.range ?? null, quoted, message) : left;
  // Nothing but words no longer so where the query's words gather: the words of a Memory it still
  // serves (the reason it is kept), else the first passage.
  if (spans.length === 0) {
    const held = said.held.find((q) => text.includes(q));
    return held ? { core: held, wide: held } : firstPassage(text);
  }
  // A quote never reaches across words that are no longer so.
  const fits = (from: number, to: number) =>
    spans[to]!.end - spans[from]!.start <= quoteChars && !cut.slice(from + 1, to + 1).includes(true);
  const matched = spans.map((s) => matchedTerms(s.value, terms));
  const weight = rarity(matched, terms);
  // Someone else's words (a mail's quoted reply) sit under this Record's speaker: on a tie, the
  // speaker's own passage is the quote.
  const quoteAt = (i: number) => quoted.find((q) => q.start <= spans[i]!.start && spans[i]!.start < q.end);
  // In a mail, a passage that only greets or signs off ("Hi Petar,", "Team,", "Sehr geehrte Frau
  // Lindqvist,"), or a mailing's footer, is never the quote while another passage holds a query word,
  // and gives way on a tie: quoted alone, a mail moving a deadline read "Team,".
  const courtesy = spans.map(
    (s) => message !== undefined && sentences(s.value).every((x) => isUnsaid(x.value)),
  );
  const saysAny = matched.some((m, i) => m.length > 0 && !courtesy[i]);
  const score = matched.map((m, i) =>
    courtesy[i] && saysAny ? -1 : m.reduce((sum, t) => sum + weight.get(t)!, 0),
  );
  let best = 0;
  for (let i = 1; i < spans.length; i++) {
    const more = score[i]! - score[best]!;
    const own = (j: number) => !quoteAt(j);
    const ownWins = own(i) && !own(best);
    const saysWins = own(i) === own(best) && courtesy[best]! && !courtesy[i]!;
    if (more > tied || (Math.abs(more) <= tied && (ownWins || saysWins))) best = i;
  }
  // No query word anywhere, and words cut that are no longer so (a checklist's tasks done since):
  // the passage that says most of what still holds, not what is left of the first.
  if (gone.length > 0 && matched.every((m) => m.length === 0)) best = mostHeld(spans, said.held);
  // Headings take the first passage under them that is not one: with it when both fit, else it alone.
  // A run of headings longer than a quote is an outline; the matching heading stays the quote.
  let lo = best;
  let hi = best;
  let body = best;
  while (isHeading(spans[body]!) && body + 1 < spans.length && fits(best, body)) body += 1;
  if (!isHeading(spans[body]!) && body > best && fits(best, body - 1)) {
    hi = body;
    if (!fits(lo, hi)) lo = hi;
  }
  const opened = openedQuote(text, quoteAt(lo), spans[lo]!.start, spans[hi]!.end, gone);
  const core = text.slice(opened ?? spans[lo]!.start, spans[hi]!.end);
  const isQuoted = message ? { quoted: quoteAt(lo) !== undefined } : {};
  const whole = text.trim();
  if (whole.length <= quoteChars && gone.length === 0 && apart.length === 0)
    return { core, wide: whole, ...isQuoted };
  // A message quotes its own words, or one quote of someone else's, whole when that fits; each widens
  // only within itself (cut marks their edges).
  if (apart.length > 0) {
    let a = lo;
    let b = hi;
    while (a > 0 && !cut[a]) a -= 1;
    while (b + 1 < spans.length && !cut[b + 1]) b += 1;
    const from = Math.min(opened ?? Infinity, spans[a]!.start);
    if (spans[b]!.end - from <= quoteChars)
      return { core, wide: text.slice(from, spans[b]!.end), ...isQuoted };
  }
  const covered = new Set(matched.slice(lo, hi + 1).flat());
  const adds = (i: number) => matched[i]!.filter((t) => !covered.has(t)).length;
  for (;;) {
    const before = lo > 0 && fits(lo - 1, hi) ? adds(lo - 1) : 0;
    const after = hi + 1 < spans.length && fits(lo, hi + 1) ? adds(hi + 1) : 0;
    let added: number;
    if (after > 0 && after >= before) added = ++hi;
    else if (before > 0) added = --lo;
    else break;
    for (const t of matched[added]!) covered.add(t);
  }
  while (lo > 0 && isHeading(spans[lo - 1]!) && fits(lo - 1, hi)) lo -= 1;
  const from = Math.min(opened ?? Infinity, spans[lo]!.start);
  // The opening line can take the wide quote past a quote's size: then it is the core alone.
  return {
    core,
    wide: spans[hi]!.end - from <= quoteChars ? text.slice(from, spans[hi]!.end) : core,
    ...isQuoted,
  };
}

/** Scores closer than this are equal: sums of the same logarithms in another order. */
const tied = 1e-9;

/**
 * How much a query word says of where the answer is, by how few of the Record's passages hold it: 1 for
 * a word in every passage, more the rarer it is (1 + ln(passages / passages holding it)). Counted flat,
 * "atlas" in the Atlas plan's title tied with "deadline" in its deadline line, and the first passage,
 * the title, was the quote for "What's the current Atlas deadline?". A passage holding every word
 * another holds, and more, still scores higher.
 */
function rarity(matched: readonly string[][], terms: readonly string[]): Map<string, number> {
  const n = matched.length;
  return new Map(
    terms.map((t) => {
      const holding = matched.filter((m) => m.includes(t)).length;
      return [t, holding === 0 ? 0 : 1 + Math.log(n / holding)];
    }),
  );
}

/** Spans cut at the edges of these ranges, each piece trimmed; the spans as they are when there are none. */
function cutAt(text: string, spans: Span[], ranges: readonly Range[]): Span[] {
  if (ranges.length === 0) return spans;
  const edges = [...new Set(ranges.flatMap((r) => [r.start, r.end]))].sort((a, b) => a - b);
  const out: Span[] = [];
  for (const s of spans) {
    let from = s.start;
    for (const e of edges) {
      if (e <= from || e >= s.end) continue;
      pushTrimmed(text, out, from, e);
      from = e;
    }
    pushTrimmed(text, out, from, s.end);
  }
  return out;
}

/**
 * A message's spans as a quote may take them: without its mail header lines (the block's header line
 * shows the subject and the speaker; a quote of them is a quarter of a short mail), and without
 * someone else's words when `ownOnly`; either kept when nothing else is left. `cut[i]` now also marks
 * where span i is of another part than span i - 1 (its own words, or which quote), so no quote joins
 * the speaker's words to someone else's, and where spans were left out between them.
 */
function messageSpans(
  left: { spans: Span[]; cut: boolean[] },
  header: Range | null,
  quoted: readonly Range[],
  message: MessageQuote,
): { spans: Span[]; cut: boolean[] } {
  const partOf = (s: Span) =>
    header && s.start >= header.start && s.start < header.end
      ? -2
      : quoted.findIndex((q) => q.start <= s.start && s.start < q.end);
  const parts = left.spans.map(partOf);
  const keep = (drop: (part: number) => boolean) =>
    left.spans.map((_, i) => i).filter((i) => !drop(parts[i]!));
  let kept = keep((p) => p === -2 || (message.ownOnly === true && p >= 0));
  if (kept.length === 0) kept = keep((p) => p === -2);
  if (kept.length === 0) return left;
  const cut = kept.map((j, k) => {
    if (k === 0) return false;
    const prev = kept[k - 1]!;
    return j > prev + 1 || parts[j] !== parts[prev] || left.cut.slice(prev + 1, j + 1).includes(true);
  });
  return { spans: kept.map((j) => left.spans[j]!), cut };
}

/** The first of the spans that holds the most of these quotes whole. */
function mostHeld(spans: readonly Span[], held: readonly string[]): number {
  const count = (s: Span) => held.filter((q) => s.value.includes(q)).length;
  let best = 0;
  for (let i = 1; i < spans.length; i++) if (count(spans[i]!) > count(spans[best]!)) best = i;
  return best;
}

/**
 * Where a quote of someone else's words starts so that it says whose they are: at the line that
 * introduces them ("On Mon, Carol Diaz <carol@x> wrote:", an Outlook "From:" block) when that fits a
 * quote, else at the start of the passage's own line (a quoted line's "> " then opens it; an Outlook
 * block has none). Null for the speaker's own words, when neither fits, or across words no longer so.
 */
function openedQuote(
  text: string,
  quote: Range | undefined,
  start: number,
  end: number,
  gone: ReadonlyArray<[number, number]>,
): number | null {
  if (!quote) return null;
  const line = text.lastIndexOf('\n', start - 1) + 1;
  const at = [quoteOpening(text, quote, start), line].find((x) => end - x <= quoteChars);
  if (at === undefined || at >= start) return null;
  return gone.some(([a, b]) => a < start && b > at) ? null : at;
}

/** Every occurrence (a bounded number each) of some words in text, as [start, end), ordered. */
function occurrences(text: string, words: readonly string[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const q of words) {
    for (let at = text.indexOf(q), n = 0; at !== -1 && n < 100; at = text.indexOf(q, at + q.length), n++)
      found.push([at, at + q.length]);
  }
  return found.sort((a, b) => a[0] - b[0]);
}

/** Where the words no longer so occur in text, outside any words that still hold; merged and ordered. */
function goneRanges(text: string, said: Said): Array<[number, number]> {
  if (said.gone.length === 0) return [];
  const held = occurrences(text, said.held);
  const merged: Array<[number, number]> = [];
  const gone = occurrences(text, said.gone).flatMap((r) => withoutHeld(r, held));
  for (const r of gone.sort((x, y) => x[0] - y[0])) {
    const last = merged.at(-1);
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  return merged;
}

/**
 * A range no longer so without the words that still hold: none where they hold around it ("My boss says
 * \"I work at Acme.\""), the rest where they hold within it ("I'm a nurse" of "I'm a nurse at Santa
 * Maria." once she works elsewhere, so the old employer is not quoted as hers with it).
 */
function withoutHeld(r: [number, number], held: Array<[number, number]>): Array<[number, number]> {
  let pieces: Array<[number, number]> = [r];
  for (const [a, b] of held) {
    if (a <= r[0] && r[1] <= b) return [];
    pieces = pieces.flatMap(([x, y]): Array<[number, number]> => {
      if (b <= x || a >= y) return [[x, y]];
      return [...(a > x ? [[x, a] as [number, number]] : []), ...(b < y ? [[b, y] as [number, number]] : [])];
    });
  }
  return pieces;
}

/**
 * Spans (offsets in text) with the ranges no longer so taken out of them, each piece trimmed;
 * `cut[i]`: such a range lies between span i - 1 and span i, so no quote may join them.
 */
function leavingOut(
  text: string,
  spans: Span[],
  gone: Array<[number, number]>,
): { spans: Span[]; cut: boolean[] } {
  if (gone.length === 0) return { spans, cut: spans.map(() => false) };
  const pieces: Span[] = [];
  for (const s of spans) {
    let from = s.start;
    for (const [a, b] of gone) {
      if (b <= from || a >= s.end) continue;
      pushTrimmed(text, pieces, from, a);
      from = Math.max(from, b);
      // The word that joined what is no longer so to what follows joins nothing now: "I live in Porto
      // and my dentist is ..." quotes "my dentist is ...", not "and my dentist is ...".
      from += joiner.exec(text.slice(from, s.end))![0].length;
    }
    pushTrimmed(text, pieces, from, s.end);
  }
  const cut = pieces.map((p, i) => i > 0 && gone.some(([a, b]) => a < p.start && b > pieces[i - 1]!.end));
  return { spans: pieces, cut };
}

const joiner = /^[\s,;]*(?:(?:and|but)(?![\p{L}\p{N}]))?/iu;

function pushTrimmed(text: string, into: Span[], start: number, end: number) {
  const piece = trimmedSpan(text, start, end);
  // A piece of punctuation left between two such sentences says nothing.
  if (piece && /[\p{L}\p{N}]/u.test(piece.value)) into.push(piece);
}

/** The first passage of a text whose window around the query's words holds only whitespace. */
function firstPassage(text: string): Quote {
  const from = text.length - text.trimStart().length;
  const first = passages(text.slice(from, from + windowChars * 2))[0];
  const q = first ? text.slice(from + first.start, from + first.end) : text;
  return { core: q, wide: q };
}
