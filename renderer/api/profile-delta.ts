/**
 * A Memories delta (a `since_watermark` read) applied to the loaded Profile, so a change in a large
 * Brain does not read every Profile page again. Pure, so it is tested under Node.
 *
 * The Profile lists the self's current Memories, those holding a slot first, each group newest
 * (valid_from) first, then by write order. A line carries no slot, so where a new line goes among the
 * loaded ones is known here only in some cases (`applyDeltaToProfile`); any other new line is found by
 * reading again from the top until it has been seen and the read meets what is loaded (`spliceFresh`).
 */
import type { Memory, Profile } from '../../engine/contract/index.ts';
import type { Delta } from './memory-delta.ts';

export interface ProfileData {
  pages: Profile[];
  pageParams: (string | null)[];
}

type Line = Profile['lines'][number];

/** Whether a Memory, as the delta gives it now, is a Profile line: the self's, current, begun. */
export function isProfileLine(m: Memory, nowMs: number): boolean {
  return m.owner.state === 'self' && m.status === 'active' && Date.parse(m.valid_from) <= nowMs;
}

const lineOf = (m: Memory): Line => ({
  memory_id: m.id,
  statement: m.statement,
  subject: m.subject,
  valid_from: m.valid_from,
  citations: m.citations,
});

const newerFirst = (a: Memory, b: Memory) =>
  Date.parse(b.valid_from) - Date.parse(a.valid_from) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The loaded Profile with the delta applied where it can be: lines gone or no longer the self's
 * current ones dropped, lines changed in place replaced, new lines put where they go when that is
 * known. `unplaced`: the new lines whose place is not known here (the caller reads for them).
 *
 * `lastSlotted`: whether the last loaded line holds a slot, when known (its Memory read). A line
 * holding one means every loaded line does (they come first), so a slot's new value goes among them by
 * its date, and a line older than the last one loaded, or holding no slot, comes after them ("Show
 * more" brings it). A last line holding none means a new line holding none and older than it comes
 * after it.
 */
export function applyDeltaToProfile(
  data: ProfileData,
  delta: Delta,
  nowMs: number,
  lastSlotted?: boolean,
): { data: ProfileData; unplaced: Memory[] } {
  const changed = new Map(delta.changed.map((m) => [m.id, m]));
  const placed = new Set<string>();
  const pages = data.pages.map((p) => ({
    ...p,
    lines: p.lines.flatMap((l) => {
      if (delta.removed.has(l.memory_id)) return [];
      const c = changed.get(l.memory_id);
      if (!c) return [l];
      if (!isProfileLine(c, nowMs) || c.valid_from !== l.valid_from) return [];
      placed.add(c.id);
      return [lineOf(c)];
    }),
  }));
  const fresh = delta.changed.filter((m) => !placed.has(m.id) && isProfileLine(m, nowMs)).sort(newerFirst);
  if (fresh.length === 0) return { data: { ...data, pages }, unplaced: [] };
  const loaded = pages.flatMap((p) => p.lines);
  const complete = pages.at(-1)?.has_more === false;
  // Nothing loaded and nothing more to read: the new lines are the whole Profile.
  if (loaded.length === 0 && complete) {
    const ordered = [...fresh.filter((m) => m.slot !== null), ...fresh.filter((m) => m.slot === null)];
    pages[0] = { ...pages[0]!, lines: ordered.map(lineOf) };
    return { data: { ...data, pages }, unplaced: [] };
  }
  const at = (l: Line) => Date.parse(l.valid_from);
  const top = loaded[0] ? at(loaded[0]) : NaN;
  const bottom = loaded.at(-1) ? at(loaded.at(-1)!) : NaN;
  // Lines of equal dates are in write order, which a line does not carry: a new line dated as a loaded
  // one is not placed here.
  const dates = new Set(loaded.map(at));
  const unplaced: Memory[] = [];
  const byDate: Memory[] = [];
  const atEnd: Memory[] = [];
  const slottedAtEnd: Memory[] = [];
  for (const m of fresh) {
    const v = Date.parse(m.valid_from);
    const slotted = m.slot !== null;
    if (slotted && v > top) byDate.push(m);
    else if (lastSlotted === true && !slotted) {
      if (complete) atEnd.push(m);
    } else if (lastSlotted === true && !complete && v < bottom) continue;
    else if (lastSlotted === true && !dates.has(v)) byDate.push(m);
    else if (lastSlotted === false && !slotted && !complete && v < bottom) continue;
    else unplaced.push(m);
  }
  // Among lines holding a slot (on top, or every loaded line holds one), by date.
  for (const m of byDate) {
    const v = Date.parse(m.valid_from);
    const page = pages.find((p) => p.lines.some((l) => at(l) < v));
    if (!page) {
      slottedAtEnd.push(m);
      continue;
    }
    page.lines = [...page.lines];
    page.lines.splice(
      page.lines.findIndex((l) => at(l) < v),
      0,
      lineOf(m),
    );
  }
  const last = pages.at(-1)!;
  // Only when the Profile is read to its end: the slots' oldest values, then lines holding none.
  const end = [...slottedAtEnd, ...atEnd];
  if (end.length > 0) last.lines = [...last.lines, ...end.map(lineOf)];
  return { data: { ...data, pages }, unplaced };
}

/**
 * Pages read again from the top (`fresh`, `freshParams`) joined to the loaded Profile: once every
 * unplaced line has been read and the read's last line is one loaded, the loaded lines after it are
 * kept as they are. null while the read must go on. A read that reached the Profile's end, or as
 * many lines as were loaded, is the Profile as far as it had been read.
 */
export function spliceFresh(
  loaded: ProfileData,
  fresh: Profile[],
  freshParams: (string | null)[],
  unplaced: readonly string[],
): ProfileData | null {
  const read = fresh.flatMap((p) => p.lines);
  const readIds = new Set(read.map((l) => l.memory_id));
  const last = fresh.at(-1);
  const loadedCount = loaded.pages.reduce((n, p) => n + p.lines.length, 0);
  if (!last || !last.has_more || read.length >= loadedCount) return { pages: fresh, pageParams: freshParams };
  if (!unplaced.every((id) => readIds.has(id))) return null;
  const end = read.at(-1)?.memory_id;
  const ids = loaded.pages.flatMap((p) => p.lines.map((l) => l.memory_id));
  const at = end === undefined ? -1 : ids.indexOf(end);
  if (at === -1) return null;
  const after = new Set(ids.slice(at + 1).filter((id) => !readIds.has(id)));
  // The loaded pages below the join keep their cursors: the last one's is where "Show more" goes on.
  const kept = loaded.pages
    .map((p, i) => ({ page: { ...p, lines: p.lines.filter((l) => after.has(l.memory_id)) }, param: i }))
    .filter(({ page }, i) => page.lines.length > 0 || i === loaded.pages.length - 1);
  return {
    pages: [...fresh, ...kept.map((k) => k.page)],
    pageParams: [...freshParams, ...kept.map((k) => loaded.pageParams[k.param] ?? null)],
  };
}

/** The loaded Profile marked current as of `watermark` (what the Brain's poll read). */
export const stampProfile = (data: ProfileData, watermark: string): ProfileData => ({
  ...data,
  pages: data.pages.map((p) => ({ ...p, watermark })),
});

/**
 * The self's Memories whose status the clock alone changes, with no write to move the watermark: a
 * slot's value dated later (`scheduled`, current from its `valid_from`) and a value in force until a
 * later one starts (`active` with a `valid_to`, which is that start). The Profile changes then, and only
 * a read would tell an open one.
 */
export const changesByClock = (m: Memory): boolean =>
  m.owner.state === 'self' && (m.status === 'scheduled' || (m.status === 'active' && m.valid_to !== null));

/** The instant a Memory of `changesByClock` changes status: its start, or the end of the one in force. */
const clockInstant = (m: Memory): number =>
  Date.parse(m.status === 'scheduled' ? m.valid_from : (m.valid_to ?? ''));

/** The earliest instant any of them changes, or null when none will. */
export function nextClockChange(upcoming: readonly Memory[]): number | null {
  let next: number | null = null;
  for (const m of upcoming) {
    const t = clockInstant(m);
    if (!Number.isNaN(t) && (next === null || t < next)) next = t;
  }
  return next;
}

/** Those whose instant has come by `nowMs`. */
export const dueByClock = (upcoming: readonly Memory[], nowMs: number): Memory[] =>
  upcoming.filter((m) => clockInstant(m) <= nowMs);

/** The upcoming set with a delta applied: what changed is as the delta gives it now, what left goes. */
export function applyDeltaToUpcoming(upcoming: readonly Memory[], delta: Delta): Memory[] {
  const changed = new Set(delta.changed.map((m) => m.id));
  return [
    ...upcoming.filter((m) => !changed.has(m.id) && !delta.removed.has(m.id)),
    ...delta.changed.filter(changesByClock),
  ];
}
