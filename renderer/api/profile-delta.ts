/**
 * A Memories delta (a `since_watermark` read) applied to the loaded Profile, so a change in a large
 * Brain does not read every Profile page again. Pure, so it is tested under Node.
 *
 * The Profile lists the self's current Memories by group (health, those holding a slot, the rest:
 * profileGroupOf, which the server groups them by too), each group newest (valid_from) first, then by
 * write order. A loaded line says its group and a new one's is worked out from its Memory, so a new
 * line's place among the loaded ones is known unless a loaded line of its group has its date (write
 * order, which a line does not carry, decides between them): that line is found by reading again from
 * the top until it has been seen and the read meets what is loaded (`spliceFresh`).
 */
import type { Memory, Profile } from '../../engine/contract/index.ts';
import { profileGroupOf, profileGroups, type ProfileGroup } from '../../engine/contract/profile-group.ts';
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
  group: profileGroupOf(m),
});

/**
 * Whether LINE says again what one of THOSE says, as the server's Profile leaves such a line out
 * (MemoryRepository.currentOfSelf): the same statement in its group from a Record both cite (one
 * "We cancelled Vienna." closing several plans), or, for a line of the rest, the words a health or
 * slot line quotes from one of its Records (a break-up's sentence beside its slot line).
 */
function saysAgain(line: Line, those: readonly Line[]): boolean {
  const records = new Set(line.citations.map((c) => c.record_id));
  return those.some(
    (o) =>
      (o.group === line.group &&
        o.statement === line.statement &&
        o.citations.some((c) => records.has(c.record_id))) ||
      (line.group === 'other' &&
        o.group !== 'other' &&
        o.citations.some((c) => records.has(c.record_id) && c.quote === line.statement)),
  );
}

const rank = (g: ProfileGroup) => profileGroups.indexOf(g);

/** The Profile's order of two lines, a negative number when `a` comes first; 0 when write order decides. */
const order = (a: { group: ProfileGroup; at: number }, b: { group: ProfileGroup; at: number }) =>
  rank(a.group) - rank(b.group) || b.at - a.at;

/**
 * The loaded Profile with the delta applied where it can be: lines gone or no longer the self's
 * current ones dropped, lines changed in place replaced (one whose date or group changed goes and
 * comes again as a new line), new lines put where they go when that is known: before the first loaded
 * line they come before, or, past every loaded line, at the end of a Profile read to its end, and
 * with "Show more" otherwise. `unplaced`: the new lines whose place is not known here (the caller
 * reads for them): those dated as a loaded line of their group, and any when no line is left loaded
 * of a Profile not read to its end.
 */
export function applyDeltaToProfile(
  data: ProfileData,
  delta: Delta,
  nowMs: number,
): { data: ProfileData; unplaced: Memory[] } {
  const changed = new Map(delta.changed.map((m) => [m.id, m]));
  const placed = new Set<string>();
  const pages = data.pages.map((p) => ({
    ...p,
    lines: p.lines.flatMap((l) => {
      if (delta.removed.has(l.memory_id)) return [];
      const c = changed.get(l.memory_id);
      if (!c) return [l];
      const line = lineOf(c);
      if (!isProfileLine(c, nowMs) || c.valid_from !== l.valid_from || line.group !== l.group) return [];
      placed.add(c.id);
      return [line];
    }),
  }));
  const key = (l: Line) => ({ group: l.group, at: Date.parse(l.valid_from) });
  const loaded = pages.flatMap((p) => p.lines);
  // In the Profile's order; of one group and date, the last written (the later id) first. A new line
  // that says again what a loaded or an earlier new line says is left out, as the server leaves it.
  const fresh: Line[] = [];
  for (const line of delta.changed
    .filter((m) => !placed.has(m.id) && isProfileLine(m, nowMs))
    .map(lineOf)
    .sort((a, b) => order(key(a), key(b)) || (a.memory_id < b.memory_id ? 1 : -1)))
    if (!saysAgain(line, [...loaded, ...fresh])) fresh.push(line);
  if (fresh.length === 0) return { data: { ...data, pages }, unplaced: [] };
  const complete = pages.at(-1)?.has_more === false;
  const unplaced = new Set<string>();
  const unplacedOf = () => delta.changed.filter((m) => unplaced.has(m.id));
  // Nothing loaded of a Profile read on: where the first lines it has not read go is not known here.
  if (loaded.length === 0 && !complete) {
    for (const f of fresh) unplaced.add(f.memory_id);
    return { data: { ...data, pages }, unplaced: unplacedOf() };
  }
  const atEnd: Line[] = [];
  for (const f of fresh) {
    const k = key(f);
    // Of one group and date, write order decides, which a line does not carry.
    if (loaded.some((l) => order(key(l), k) === 0)) {
      unplaced.add(f.memory_id);
      continue;
    }
    const page = pages.find((p) => p.lines.some((l) => order(k, key(l)) < 0));
    if (page) {
      page.lines = [...page.lines];
      page.lines.splice(
        page.lines.findIndex((l) => order(k, key(l)) < 0),
        0,
        f,
      );
    } else if (complete) atEnd.push(f);
    // Else it comes after every loaded line: with "Show more".
  }
  if (atEnd.length > 0) {
    const last = pages.at(-1)!;
    last.lines = [...last.lines, ...atEnd];
  }
  return { data: { ...data, pages }, unplaced: unplacedOf() };
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
