import { slotPrefix } from '../core/derive/slot-key.ts';
import type { SlotHolding } from '../ports/index.ts';
import { readTimeMs, type Lane, type LaneCandidate, type LaneInput } from './lane.ts';
import { readSlotQuestion } from '../core/retrieve/slot-question.ts';
import { heldSpan } from '../core/retrieve/held-span.ts';
import type { TimeZone } from '../core/retrieve/time-zone.ts';
import { queryTimeIntent } from './time-lane.ts';
import { nicknamesNamed, selfNames } from './self-names.ts';

/** How far ahead a value said to come is read: a year. */
const comingReach = 366 * 86_400_000;

/** Every run of one to four of the query's words, without a possessive 's: the subjects it may name. */
function wordRuns(query: string): string[] {
  const words =
    query
      .toLowerCase()
      .replace(/['’]s(?![\p{L}\p{N}])/gu, '')
      .match(/[\p{L}\p{N}][\p{L}\p{N}'’.&-]*/gu) ?? [];
  const runs = words.flatMap((_, i) => [1, 2, 3, 4].map((n) => words.slice(i, i + n).join(' ')));
  return [...new Set(runs)];
}

/**
 * Slot lane: a question about where someone lives or works, answered by the Records behind the Memory
 * that holds that slot at the read time, whatever words they used. "Where do I live?" shares no word
 * with "I moved to Braga.", and a sentence vector of a word table does not bridge them either, but the
 * deriver read it as "Ana lives in Braga". Whose slot (slot-question.ts reads the query):
 * - the subject the query names, found by the slot keys its words would make, or by a first name alone;
 *   someone named as the subject who never held the slot is answered with nobody's;
 * - else, a question in the first or second person asks about the Brain's own person;
 * - else, one about someone it does not name ("my sister", "she") is answered with nobody's;
 * - else, a question asking where or who about people in general gets every holder of the slot, the
 *   Brain's own person first.
 * Held when: at the read time, or, when the query names a time in the past (`zone` given: the time
 * lane's reading, core/retrieve/held-span.ts says which), at any instant of it: every value in force
 * then, the one that held the longest part of it first. Not the holder at the window's end alone: the
 * end of October in New York comes hours after a move dated 1 November (UTC), and a loose window ("two
 * months ago") reaches past a move too, so the value of then would be left out. Nothing after the read
 * time (`as_of`, which still wins) is read. Asked of now, the values said to come within a year follow
 * the current ones ("…, starting January 1").
 */
export function createSlotLane(now: () => Date, zone?: TimeZone): Lane {
  return {
    name: 'slot',
    async search(input: LaneInput): Promise<LaneCandidate[]> {
      const question = readSlotQuestion(input.query, input.terms);
      const predicates = question.predicates;
      if (predicates.length === 0) return [];
      const e = input.eligibility;
      const { slots } = input;
      const nowMs = now().getTime();
      const readMs = readTimeMs(e, nowMs);
      const during = zone ? heldSpan(input.query, queryTimeIntent(input, now, zone), readMs ?? nowMs) : null;
      /**
       * The Records behind the holders `by` picks out, read as the Context reads Memories (served at
       * the read time, or during the span asked about), the Brain's own person first.
       */
      const held = (by: { slots: readonly string[] } | { predicates: readonly string[] }) =>
        slots.holdings({
          scope: e,
          nowMs,
          readTimeMs: readMs,
          during: during ?? undefined,
          by,
          limit: input.limit,
        });
      const keysOf = (subjects: string[]) =>
        subjects.flatMap((s) => predicates.map((p) => slotPrefix(s) + p));

      // A subject the query names ("Ana", "Ana Sousa", "Marta's"), found by the slot keys it would have,
      // or by a first name alone ("Carol" of "Carol Diaz", as mail and chats name people); one that holds
      // the slot at some time is the one asked about, whether or not it holds it now.
      const named = new Set(await slots.known(e.brainUid, keysOf(wordRuns(input.query))));
      for (const first of question.names)
        for (const slot of await slots.ofFirstName(
          e.brainUid,
          slotPrefix(first).slice(0, -1),
          predicates,
          20,
        ))
          named.add(slot);
      // A name the Brain's own person said people call her by ("Where does Tom live?" of Tomislav, who
      // said "most people call me Tom"): her slots, as her own name's would be.
      // One that is an everyday word ("Will") only where the query writes it as a name (nicknamesNamed).
      const self = await selfNames(input);
      if (self.name !== null && nicknamesNamed(input.query, self.nicknames).length > 0)
        for (const key of keysOf([self.name])) named.add(key);
      let by: { slots: readonly string[] } | { predicates: readonly string[] } | null = null;
      if (named.size > 0) by = { slots: [...named] };
      else if (question.namesSubject) by = null;
      else if (question.aboutSelf) by = self.name ? { slots: keysOf([self.name]) } : null;
      else if (question.aboutOther) by = null;
      else if (question.aboutAnyone) by = { predicates };
      if (by === null) return [];
      const rows = await held(by);
      const out = holdingCandidates(rows, input.limit, (r) => `holds the slot: ${r.statement}`);
      // Asked of now: the values said to come after it, behind what holds now ("I'm a nurse at Santa
      // Maria, starting January 1" beside the job held until then). Not at an `as_of` or of a time
      // asked about, which read what held then.
      if (readMs === undefined && during === null) {
        const now = new Set(rows.map((r) => r.memoryId));
        const later = await slots.holdings({
          scope: e,
          nowMs,
          readTimeMs: undefined,
          during: { fromMs: nowMs, toMs: nowMs + comingReach },
          by,
          limit: input.limit,
        });
        const seen = new Set(out.map((c) => c.recordId));
        const coming = holdingCandidates(
          later.filter((r) => !now.has(r.memoryId) && !seen.has(r.recordId)),
          input.limit - out.length,
          (r) => `holds the slot from a day to come: ${r.statement}`,
        );
        out.push(...coming.map((c) => ({ ...c, score: c.score / (coming.length + 1) })));
      }
      input.ledger.charge('processing', out.length / 1000);
      // Whom the query named, for the Context's rule on private Records naming only them (names-only.ts).
      const subjects = [...new Set([...named].map((key) => key.slice(0, key.indexOf('\u001f'))))];
      return subjects.length > 0 ? out.map((c) => ({ ...c, subjects })) : out;
    },
  };
}

/**
 * The Records behind Memories read in rank order, each once (a Record may be behind several), up to
 * `limit`, scored by that order; `says` tells what its Memory is, and the reason names the Memory.
 */
export function holdingCandidates<T extends SlotHolding>(
  rows: readonly T[],
  limit: number,
  says: (r: T) => string,
): LaneCandidate[] {
  const seen = new Set<string>();
  const out: LaneCandidate[] = [];
  for (const r of rows) {
    if (seen.has(r.recordId) || out.length >= limit) continue;
    seen.add(r.recordId);
    out.push({
      recordId: r.recordId,
      score: rows.length - out.length,
      reason: `${says(r)} (Memory ${r.memoryId})`,
    });
  }
  return out;
}
