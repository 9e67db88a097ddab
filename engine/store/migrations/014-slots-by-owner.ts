import { slotKey } from '../../derive/admit-claims.ts';
import { settleLineage } from '../../derive/settle-lineage.ts';
import { newId } from '../../ids.ts';
import type { Db } from '../open-database.ts';
import type { SqlParam } from '../store.ts';

interface SlotRow {
  n: number;
  brain_uid: string;
  lineage: string;
  slot: string;
  subject: string;
  predicate: string;
  owner_state: string;
  owner_entity: string | null;
}

/**
 * Slots keyed by who and what, not by how it was written (admit-claims.ts `slotKey`): until now a fact
 * about "me" and one about the Brain's own name, or `lives_in` and the "lives in" of a message, held
 * different slots, so one person could have two current phone numbers or three homes, with no
 * conflict shown. Every slot is keyed again, and a lineage is made to be exactly the versions of one
 * slot: slots that are now one join (a lineage of several old ones), and an old lineage whose versions
 * now belong to different slots ("me" resolved to the self, "Me." written by someone else) splits. Each
 * lineage that changed is numbered again in the order its versions were written and settled as a new
 * version would settle it, at a new step of the Brain's sequence so delta reads see what changed.
 */
export const slotsByOwner = {
  version: 14,
  name: 'slots-by-owner',
  sql: '',
  after(db: Db): void {
    const rows = db
      .prepare(
        `SELECT n, brain_uid, lineage, slot, subject, predicate, owner_state, owner_entity
         FROM memories WHERE slot IS NOT NULL ORDER BY n`,
      )
      .all() as SlotRow[];
    const setSlot = db.prepare('UPDATE memories SET slot = ? WHERE n = ?');
    const slots = new Map<string, { brainUid: string; rows: SlotRow[] }>();
    const perLineage = new Map<string, number>();
    for (const r of rows) {
      const slot = slotKey(r.subject, r.predicate, { state: r.owner_state, entity: r.owner_entity });
      if (slot !== r.slot) setSlot.run(slot, r.n);
      const key = `${r.brain_uid}\u0000${slot}`;
      const group = slots.get(key) ?? { brainUid: r.brain_uid, rows: [] };
      group.rows.push(r);
      slots.set(key, group);
      perLineage.set(r.lineage, (perLineage.get(r.lineage) ?? 0) + 1);
    }
    const store = {
      all: <T>(sql: string, ...p: SqlParam[]) => db.prepare(sql).all(...p) as T[],
      run: (sql: string, ...p: SqlParam[]) => db.prepare(sql).run(...p),
    };
    const seqOf = new Map<string, number>();
    const claimed = new Set<string>();
    const nextSeq = db.prepare('UPDATE brains SET seq = seq + 1 WHERE uid = ? RETURNING seq');
    // (lineage, version) is unique: each version is moved out of the way first, then numbered in order.
    const move = db.prepare('UPDATE memories SET lineage = ?, version = 1000000000 + n, seq = ? WHERE n = ?');
    const number = db.prepare('UPDATE memories SET version = ? WHERE n = ?');
    // Groups in the order of their first version (rows are read by n), so the oldest keeps its lineage id.
    for (const { brainUid, rows: members } of slots.values()) {
      const first = members[0]!.lineage;
      const id = claimed.has(first) ? newId('lin') : first;
      claimed.add(id);
      const unchanged =
        id === first && members.every((m) => m.lineage === first) && perLineage.get(first) === members.length;
      if (unchanged) continue;
      let seq = seqOf.get(brainUid);
      if (seq === undefined) {
        seq = (nextSeq.get(brainUid) as { seq: number }).seq;
        seqOf.set(brainUid, seq);
      }
      for (const m of members) move.run(id, seq, m.n);
      members.forEach((m, i) => number.run(i + 1, m.n));
      settleLineage(store, id, seq);
    }
  },
};
