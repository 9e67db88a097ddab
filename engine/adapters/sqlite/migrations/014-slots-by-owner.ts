import { newId } from '../../../ids.ts';
import type { Db } from '../open-database.ts';

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

// Frozen copies of derive/admit-claims.ts `slotKey` and derive/settle-lineage.ts `settleLineage` as
// they stood when this migration was frozen. A migration must do the same thing to a
// store whenever it meets one: importing the live rules would make a later change to them rewrite
// old stores differently, and tied store/ to derive/ in a cycle. A later change to the rules reaches
// old data through a derivation upgrade (015), never by editing this file.

function frozenNormalizeStatement(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(?<![\s.!;,:])[\s.!;,:]+$/u, '');
}

function frozenSlotKey(
  subject: string,
  predicate: string,
  owner: { state: string; entity: string | null },
): string {
  const who = owner.state === 'self' && owner.entity ? owner.entity : subject;
  return `${frozenNormalizeStatement(who)}\u001f${frozenNormalizeStatement(predicate.replaceAll('_', ' ').trim())}`;
}

interface VersionRow {
  n: number;
  id: string;
  valid_from: string;
  valid_from_ms: number;
  valid_to: string | null;
  status: string;
  corrects: string | null;
  cause: string;
  retracted_by: string | null;
  source_key: string;
  revised_by: string | null;
  revised_at: string | null;
  revised_ms: number | null;
}

interface Target {
  status: 'active' | 'superseded' | 'retracted';
  validTo: string | null;
  validToMs: number | null;
}

/** The lifecycle (status, valid_to) of every version of one lineage, from what supports it. */
function frozenSettleLineage(db: Db, lineage: string, seq: number): void {
  const rows = db
    .prepare(
      `SELECT m.n, m.id, m.valid_from, m.valid_from_ms, m.valid_to, m.status, m.corrects, m.cause, m.retracted_by,
            m.source_key, m.revised_by, rv.occurred_at AS revised_at, rv.occurred_ms AS revised_ms
     FROM memories m LEFT JOIN records rv ON rv.id = m.revised_by WHERE m.lineage = ? ORDER BY m.n`,
    )
    .all(lineage) as VersionRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const targets = new Map<string, Target>();
  const correctedBy = new Map<string, VersionRow>();
  for (const r of rows) if (r.corrects && byId.has(r.corrects)) correctedBy.set(r.corrects, r);

  const timeline: VersionRow[] = [];
  for (const r of rows) {
    const successor = correctedBy.get(r.id);
    if (r.retracted_by)
      targets.set(r.id, { status: 'retracted', validTo: r.valid_from, validToMs: r.valid_from_ms });
    else if (successor)
      targets.set(r.id, {
        status: 'superseded',
        validTo: successor.valid_from,
        validToMs: successor.valid_from_ms,
      });
    else if (r.revised_at !== null && r.revised_ms !== null)
      targets.set(r.id, {
        status: 'superseded',
        validTo: r.revised_at,
        validToMs: Math.max(r.revised_ms, r.valid_from_ms),
      });
    else timeline.push(r);
  }
  timeline.sort((a, b) => a.valid_from_ms - b.valid_from_ms || a.n - b.n);
  const latest = timeline.length > 0 ? timeline[timeline.length - 1]!.valid_from_ms : 0;
  const winners = new Map<string, VersionRow>();
  for (const r of timeline) {
    if (r.valid_from_ms !== latest) continue;
    const held = winners.get(r.source_key);
    if (!held || r.cause === 'correction' || held.cause !== 'correction') winners.set(r.source_key, r);
  }
  for (const r of timeline) {
    if (r.valid_from_ms < latest) {
      const next = timeline.find((x) => x.valid_from_ms > r.valid_from_ms)!;
      targets.set(r.id, { status: 'superseded', validTo: next.valid_from, validToMs: next.valid_from_ms });
    } else if (winners.get(r.source_key) === r) {
      targets.set(r.id, { status: 'active', validTo: null, validToMs: null });
    } else {
      const w = winners.get(r.source_key)!;
      targets.set(r.id, { status: 'superseded', validTo: w.valid_from, validToMs: w.valid_from_ms });
    }
  }
  const update = db.prepare(
    'UPDATE memories SET status = ?, valid_to = ?, valid_to_ms = ?, seq = ? WHERE id = ?',
  );
  for (const r of rows) {
    const t = targets.get(r.id)!;
    if (t.status === r.status && t.validTo === r.valid_to) continue;
    update.run(t.status, t.validTo, t.validToMs, seq, r.id);
  }
}

/**
 * Slots keyed by who and what, not by how it was written (`frozenSlotKey`): until now a fact
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
      const slot = frozenSlotKey(r.subject, r.predicate, { state: r.owner_state, entity: r.owner_entity });
      if (slot !== r.slot) setSlot.run(slot, r.n);
      const key = `${r.brain_uid}\u0000${slot}`;
      const group = slots.get(key) ?? { brainUid: r.brain_uid, rows: [] };
      group.rows.push(r);
      slots.set(key, group);
      perLineage.set(r.lineage, (perLineage.get(r.lineage) ?? 0) + 1);
    }
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
      frozenSettleLineage(db, id, seq);
    }
  },
};
