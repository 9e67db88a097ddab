import { slotPrefix } from '../core/derive/slot-key.ts';
import { servedSql } from '../adapters/sqlite/memory-view.ts';
import type { SqlParam } from '../adapters/sqlite/store.ts';
import { eligibilitySql, readTimeMs, type Lane, type LaneCandidate, type LaneInput } from './lane.ts';
import { readSlotQuestion } from '../core/retrieve/slot-question.ts';

/**
 * The predicate part of a slot key (slot-key.ts `slotKey`: subject, U+001F, predicate), written as
 * migration 016's index is, which SQLite uses only for the same expression.
 */
const predicateOf = (slot: string) => `substr(${slot}, instr(${slot}, char(31)) + 1)`;

interface SlotRow {
  record_id: string;
  memory_id: string;
  statement: string;
}

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
 */
export function createSlotLane(now: () => Date): Lane {
  return {
    name: 'slot',
    search(input: LaneInput): LaneCandidate[] {
      const question = readSlotQuestion(input.query, input.terms);
      const predicates = question.predicates;
      if (predicates.length === 0) return [];
      const e = input.eligibility;
      const nowMs = now().getTime();
      // Read as the Context reads Memories.
      const served = servedSql(readTimeMs(e, nowMs), nowMs, 'm');
      const eligible = eligibilitySql(e, 'r');
      const eligibleHolder = eligibilitySql(e, 'er');
      /**
       * The Records behind the holders that `where` picks out, served at the read time, the Brain's own
       * person first, then the newest. The holders are ranked before their Records are read.
       */
      const held = (index: string, where: string, params: SqlParam[]) =>
        input.store.all<SlotRow>(
          `WITH held AS (
             SELECT m.id, m.statement, m.valid_from_ms, m.owner_state = 'self' AS self
               FROM memories m INDEXED BY ${index}
              WHERE m.brain_uid = ? AND m.slot IS NOT NULL AND ${where} AND ${served.sql}
                -- Only holders with a Record this request may see, before the limit: 50 newer holders
                -- from chat would otherwise hide the one from mail that filter.sources asks for.
                AND EXISTS (SELECT 1 FROM citations ec CROSS JOIN records er ON er.id = ec.record_id
                            WHERE ec.memory_id = m.id AND ${eligibleHolder.sql})
              ORDER BY self DESC, m.valid_from_ms DESC
              LIMIT ?)
           SELECT r.id AS record_id, h.id AS memory_id, h.statement
             FROM held h
             CROSS JOIN citations c ON c.memory_id = h.id
             CROSS JOIN records r ON r.id = c.record_id
            WHERE ${eligible.sql}
            ORDER BY h.self DESC, h.valid_from_ms DESC, r.id`,
          e.brainUid,
          ...params,
          ...served.params,
          ...eligibleHolder.params,
          input.limit,
          ...eligible.params,
        );
      const bySlot = (keys: string[]) =>
        held('memories_brain_slot', 'm.slot IN (SELECT value FROM json_each(?))', [JSON.stringify(keys)]);
      const keysOf = (subjects: string[]) =>
        subjects.flatMap((s) => predicates.map((p) => slotPrefix(s) + p));

      // A subject the query names ("Ana", "Ana Sousa", "Marta's"), found by the slot keys it would have,
      // or by a first name alone ("Carol" of "Carol Diaz", as mail and chats name people); one that holds
      // the slot at some time is the one asked about, whether or not it holds it now.
      const named = new Set(
        input.store
          .all<{ slot: string }>(
            `SELECT DISTINCT slot FROM memories INDEXED BY memories_brain_slot
              WHERE brain_uid = ? AND slot IN (SELECT value FROM json_each(?))`,
            e.brainUid,
            JSON.stringify(keysOf(wordRuns(input.query))),
          )
          .map((r) => r.slot),
      );
      for (const first of question.names) {
        const from = slotPrefix(first).slice(0, -1);
        for (const r of input.store.all<{ slot: string }>(
          `SELECT DISTINCT slot FROM memories INDEXED BY memories_brain_slot
            WHERE brain_uid = ? AND slot >= ? AND slot < ?
              AND ${predicateOf('slot')} IN (SELECT value FROM json_each(?))
            LIMIT 20`,
          e.brainUid,
          `${from} `,
          `${from}!`,
          JSON.stringify(predicates),
        ))
          named.add(r.slot);
      }
      let rows: SlotRow[];
      if (named.size > 0) rows = bySlot([...named]);
      else if (question.namesSubject) rows = [];
      else if (question.aboutSelf) {
        const self = input.store.get<{ name: string | null }>(
          'SELECT self_name AS name FROM brains WHERE uid = ?',
          e.brainUid,
        );
        rows = self?.name ? bySlot(keysOf([self.name])) : [];
      } else if (question.aboutOther) rows = [];
      else if (question.aboutAnyone)
        rows = held(
          'memories_slot_predicate',
          `${predicateOf('m.slot')} IN (SELECT value FROM json_each(?))`,
          [JSON.stringify(predicates)],
        );
      else rows = [];
      const seen = new Set<string>();
      const out: LaneCandidate[] = [];
      for (const r of rows) {
        if (seen.has(r.record_id) || out.length >= input.limit) continue;
        seen.add(r.record_id);
        out.push({
          recordId: r.record_id,
          score: rows.length - out.length,
          reason: `holds the slot: ${r.statement} (Memory ${r.memory_id})`,
        });
      }
      input.ledger.charge('processing', out.length / 1000);
      return out;
    },
  };
}
