import { slotKey } from '../../derive/admit-claims.ts';
import { settleLineage } from '../../derive/settle-lineage.ts';
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
 * conflict shown. Every slot is keyed again; where that joins slots, their versions become one lineage
 * (numbered again in the order they were written) and its lifecycle is settled as a new version would
 * settle it, at a new step of the Brain's sequence so delta reads see what changed.
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
    const lineagesOf = new Map<string, string[]>();
    const brainOf = new Map<string, string>();
    for (const r of rows) {
      const slot = slotKey(r.subject, r.predicate, { state: r.owner_state, entity: r.owner_entity });
      if (slot !== r.slot) setSlot.run(slot, r.n);
      const key = `${r.brain_uid}\u0000${slot}`;
      const lineages = lineagesOf.get(key) ?? [];
      if (!lineages.includes(r.lineage)) lineages.push(r.lineage);
      lineagesOf.set(key, lineages);
      brainOf.set(key, r.brain_uid);
    }
    const store = {
      all: <T>(sql: string, ...p: SqlParam[]) => db.prepare(sql).all(...p) as T[],
      run: (sql: string, ...p: SqlParam[]) => db.prepare(sql).run(...p),
    };
    for (const [key, lineages] of lineagesOf) {
      if (lineages.length < 2) continue;
      const [first, ...others] = lineages as [string, ...string[]];
      const seq = (
        db.prepare('UPDATE brains SET seq = seq + 1 WHERE uid = ? RETURNING seq').get(brainOf.get(key)) as {
          seq: number;
        }
      ).seq;
      const marks = others.map(() => '?').join(', ');
      // (lineage, version) is unique: out of the way first, then numbered in the order written.
      db.prepare(
        `UPDATE memories SET lineage = ?, version = 1000000000 + n, seq = ? WHERE lineage IN (?, ${marks})`,
      ).run(first, seq, first, ...others);
      const ns = db.prepare('SELECT n FROM memories WHERE lineage = ? ORDER BY n').all(first) as {
        n: number;
      }[];
      const number = db.prepare('UPDATE memories SET version = ? WHERE n = ?');
      ns.forEach((r, i) => number.run(i + 1, r.n));
      settleLineage(store, first, seq);
    }
  },
};
