import type { MemoryChanges, SettlingVersion } from '../../ports/index.ts';
import { endedValue, sameSlotValue, slotValue } from './slot-value.ts';
import { saidBy } from './slot-statement.ts';

/** What settling reads of a version. */
type VersionRow = Pick<
  SettlingVersion,
  | 'n'
  | 'id'
  | 'version'
  | 'valid_from'
  | 'valid_from_ms'
  | 'valid_to'
  | 'status'
  | 'corrects'
  | 'cause'
  | 'retracted_by'
  | 'source_key'
  | 'revised_at'
  | 'revised_ms'
  | 'statement'
  | 'subject'
  | 'predicate'
>;

interface Target {
  status: 'active' | 'superseded' | 'retracted';
  validTo: string | null;
  validToMs: number | null;
}

/**
 * The lifecycle (status, valid_to) of every version in one lineage, recomputed from what supports it,
 * for the versions whose lifecycle changed (by write order; derive/settle-lineage.ts writes them):
 * - a version retracted by a surviving correction Record is `retracted`, closed at its own start;
 * - a version named by a surviving correction version is `superseded`, closed where its successor starts,
 *   or at its own start when the successor starts later (a correction dated to hold from then: what it
 *   corrected never held, and the slot's earlier value holds until then, closed by it on the timeline);
 * - a version whose only support was replaced by a newer revision of the same external item is
 *   `superseded`, closed when the revision occurred;
 * - a statement of no slot that a later version (a plan's change, admitted in its place) begins before
 *   is `superseded`, closed at its own start: a calendar's event, which begins where it is held, moved or
 *   called off before that day never held (replacedBeforeItBegan);
 * - the rest form a timeline by world time (valid_from): each is closed by the next later start;
 *   at the latest start, one value per source stays active (the last written correction, else the
 *   last written), and values from different sources that neither supersedes all stay active: that is
 *   a conflict, until a person's correction there settles it (only corrections then stay
 *   active). An ending there ("Ana no longer works at Acme") that ends no value given at that start
 *   contradicts none of them: a value given there holds, and the ending is closed at its own start
 *   (idleEndings);
 * - a value someone else said of the person ("Rui says Ana lives in Porto", slot-statement.ts
 *   `saidBy`) is no step of that timeline: it closes none of her own values, so beside the one in force
 *   it stays active, a conflict; the next later start of any version closes it, and her own value of
 *   the same words leaves it closed at its start (it agreed).
 * Forgetting a correction or a newer fact therefore re-opens what it had closed.
 *
 * The result does not depend on the clock: a value that starts in the future closes its predecessor
 * at that start, and the stored status is the lifecycle once every known version has begun. Readers
 * take what holds at an instant from the interval (engine/adapters/sqlite/memory-view.ts: a predecessor closed
 * at a future start is still in force and current until then; the scheduled value is not current
 * yet), so nothing has to be rewritten when the clock passes a start.
 * `rows`: the lineage's versions by write order.
 */
export function settlement(
  rows: readonly VersionRow[],
): { id: string; lifecycle: Required<Pick<MemoryChanges, 'status' | 'valid_to' | 'valid_to_ms'>> }[] {
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
      targets.set(
        r.id,
        // At its own start when the correction holds from later (its valid_from): it was never right,
        // and the slot's value before it holds until then; else where the correction starts.
        successor.valid_from_ms > r.valid_from_ms
          ? { status: 'superseded', validTo: r.valid_from, validToMs: r.valid_from_ms }
          : { status: 'superseded', validTo: successor.valid_from, validToMs: successor.valid_from_ms },
      );
    else if (r.revised_at !== null && r.revised_ms !== null)
      targets.set(r.id, {
        status: 'superseded',
        validTo: r.revised_at,
        validToMs: Math.max(r.revised_ms, r.valid_from_ms),
      });
    else if (replacedBeforeItBegan(r, rows))
      targets.set(r.id, { status: 'superseded', validTo: r.valid_from, validToMs: r.valid_from_ms });
    else timeline.push(r);
  }
  timeline.sort((a, b) => a.valid_from_ms - b.valid_from_ms || a.n - b.n);
  // What someone else says of the person ("Rui says Ana lives in Porto") contests her own word and
  // never closes it: it is closed by whatever the slot is given after it, and the rest settle without it.
  const own = timeline.filter((r) => saidBy(r) === null);
  settleOwn(own, targets);
  // Where her own value is the same (hers said after, or imported late), it only agrees: no conflict
  // of one value with itself.
  const agreed = (r: VersionRow) =>
    own.some((x) => targets.get(x.id)?.status === 'active' && endedValue(x) === null && sameSlotValue(x, r));
  const heard = timeline.filter((r) => saidBy(r) !== null);
  for (const r of heard) {
    const next = timeline.find((x) => x.valid_from_ms > r.valid_from_ms);
    const last = heard
      .filter((x) => x.valid_from_ms === r.valid_from_ms && x.source_key === r.source_key)
      .at(-1);
    if (next !== undefined)
      targets.set(r.id, { status: 'superseded', validTo: next.valid_from, validToMs: next.valid_from_ms });
    else if (last === r && !agreed(r))
      targets.set(r.id, { status: 'active', validTo: null, validToMs: null });
    else targets.set(r.id, { status: 'superseded', validTo: r.valid_from, validToMs: r.valid_from_ms });
  }
  const changed: ReturnType<typeof settlement> = [];
  for (const r of rows) {
    const t = targets.get(r.id)!;
    if (t.status === r.status && t.validTo === r.valid_to) continue;
    changed.push({
      id: r.id,
      lifecycle: { status: t.status, valid_to: t.validTo, valid_to_ms: t.validToMs },
    });
  }
  return changed;
}

/**
 * Whether a version of no slot has a later version (one admitted in its place: a plan moved or called
 * off, derive/next-statement.ts) that begins before it: an event still to come, changed before its day.
 * By world time alone it would be the latest, holding on after its change.
 */
function replacedBeforeItBegan(r: VersionRow, rows: readonly VersionRow[]): boolean {
  return r.predicate === null && rows.some((x) => x.version > r.version && x.valid_from_ms < r.valid_from_ms);
}

/**
 * The timeline of a slot's values by world time, someone else's word of the person aside (settlement):
 * each closed by the next later start, and at the latest, one value per source active.
 */
function settleOwn(timeline: readonly VersionRow[], targets: Map<string, Target>): void {
  const latest = timeline.length > 0 ? timeline[timeline.length - 1]!.valid_from_ms : 0;
  const idle = idleEndings(timeline.filter((r) => r.valid_from_ms === latest));
  const winners = new Map<string, VersionRow>();
  // A person's correction holds the world time of the value it replaced, and outlives it: once that
  // value's Records are removed, the correction is alone there. The same statement derived again (the
  // import brought back) starts at the same time; last-written would let it silently undo the
  // correction, so at one start a correction wins over what was derived (a later start still ends it).
  // A person's correction there settles the slot: the values other sources gave at that start, which
  // were in conflict with the one it corrected, are closed too (two corrections still disagree).
  const corrected = timeline.some(
    (r) => r.valid_from_ms === latest && !idle.has(r) && r.cause === 'correction',
  );
  for (const r of timeline) {
    if (r.valid_from_ms !== latest || idle.has(r)) continue;
    if (corrected && r.cause !== 'correction') continue;
    const held = winners.get(r.source_key);
    if (!held || r.cause === 'correction' || held.cause !== 'correction') winners.set(r.source_key, r);
  }
  for (const r of timeline) {
    if (r.valid_from_ms < latest) {
      const next = timeline.find((x) => x.valid_from_ms > r.valid_from_ms)!;
      targets.set(r.id, { status: 'superseded', validTo: next.valid_from, validToMs: next.valid_from_ms });
    } else if (idle.has(r)) {
      targets.set(r.id, { status: 'superseded', validTo: r.valid_from, validToMs: r.valid_from_ms });
    } else if (winners.get(r.source_key) === r) {
      targets.set(r.id, { status: 'active', validTo: null, validToMs: null });
    } else {
      // Closed where the value that won starts: its source's, else the correction's (the same start).
      targets.set(r.id, { status: 'superseded', validTo: r.valid_from, validToMs: r.valid_from_ms });
    }
  }
}

/**
 * The endings among versions that start at one instant which no value given there contradicts: "Ana no
 * longer works at Acme" from one source beside "Ana works at Sonae" from another (or said after it in
 * one message) is no conflict, since one does not deny the other; Sonae holds from then on. An ending
 * of the very value given there ("… works at Acme" beside "… no longer works at Acme") still is one.
 * None where no value is given there: the ending alone holds the slot (no value current).
 */
function idleEndings(starting: readonly VersionRow[]): Set<VersionRow> {
  const values = starting.filter((r) => endedValue(r) === null).map((r) => slotValue(r));
  if (values.length === 0) return new Set();
  return new Set(
    starting.filter((r) => {
      const ends = endedValue(r);
      return ends !== null && !values.includes(ends);
    }),
  );
}
