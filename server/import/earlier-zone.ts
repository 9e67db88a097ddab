import type { RecordPage } from '../../engine/contract/index.ts';
import type { ImportItem, ParseOptions, Parser } from './import-item.ts';
import { whatsappItemId } from '../../engine/index.ts';
import { recordPages, type PageQuery } from './record-pages.ts';
import { wallTimeToDate } from './zoned-time.ts';

/** What an earlier import left in the Brain that says which zone it read a chat's times in. */
export interface EarlierRecord {
  externalId: string;
  text: string;
}

/** The Brain's WhatsApp Records whose occurred_at lies in [since, until] (ISO instants). */
export type EarlierRecords = (since: string, until: string) => AsyncIterable<EarlierRecord>;

/** The listRecords query an EarlierRecords reads with, page by page. */
export interface EarlierQuery extends PageQuery {
  source: 'whatsapp';
  since: string;
  until: string;
}

/**
 * EarlierRecords over a listRecords of the caller's (the API client, the engine): every page of the
 * Brain's WhatsApp messages in the range. A page read as null ends it (nothing that may be read).
 */
export function earlierRecords(listPage: (q: EarlierQuery) => Promise<RecordPage | null>): EarlierRecords {
  return async function* (since, until) {
    for await (const page of recordPages(listPage, { source: 'whatsapp' as const, since, until })) {
      for (const r of page?.data ?? [])
        if (r.source?.external_id && r.content.kind === 'message')
          yield { externalId: r.source.external_id, text: r.content.text };
    }
  };
}

const slack = 15 * 3_600_000; // every UTC offset in use lies within ±14 h
const mostPairs = 500;
/** The Brain's Records read at most: a chat imported for the first time beside many others pairs none. */
const mostScanned = 20_000;

/**
 * The export's messages read as if their wall times were UTC: each message's wall time (ms) by its
 * pairKey, and the earliest and latest of them.
 */
async function wallTimes(
  parse: Parser,
  path: string,
  o: ParseOptions,
): Promise<{ walls: Map<string, number[]>; first: number; last: number }> {
  const walls = new Map<string, number[]>();
  let first = Infinity;
  let last = -Infinity;
  for await (const item of parse(path, { ...o, timeZone: 'UTC' }) as AsyncIterable<ImportItem>) {
    if (item.type !== 'record' || !item.body.source?.external_id || !item.body.occurred_at) continue;
    const id = whatsappItemId(item.body.source.external_id);
    const c = item.body.content;
    const text = typeof c === 'object' && c.kind === 'message' ? c.text : null;
    if (!id || text === null) continue;
    const wall = Date.parse(id.instant);
    const key = pairKey(id.chat, id.sender, id.n, text);
    walls.set(key, [...(walls.get(key) ?? []), wall]);
    first = Math.min(first, wall);
    last = Math.max(last, wall);
  }
  return { walls, first, last };
}

/**
 * The date order an earlier import of the same chat read it in, when the chat's own dates cannot tell
 * (all on days 1 to 12). Its messages read day first and month first are paired, as for the zone,
 * with the Brain's Records of the same chat, sender, ordinal and text; only messages the two orders
 * put on different days count (months apart, far beyond any zone's offset). The order whose reading
 * alone has such Records was the earlier import's. `null`: the chat tells its order itself, nothing
 * was imported before, or both readings are stored (the chat imported both ways).
 */
export async function earlierImportOrder(
  parse: Parser,
  path: string,
  o: ParseOptions,
  earlier: EarlierRecords,
): Promise<'dmy' | 'mdy' | null> {
  const dmy = await wallTimes(parse, path, { ...o, dateOrder: 'dmy' });
  const mdy = await wallTimes(parse, path, { ...o, dateOrder: 'mdy' });
  const differing = new Map<string, { dmy: number[]; mdy: number[] }>();
  for (const [key, walls] of dmy.walls) {
    const other = mdy.walls.get(key) ?? [];
    if (walls.join() !== other.join()) differing.set(key, { dmy: walls, mdy: other });
  }
  if (differing.size === 0) return null;
  const since = new Date(Math.min(dmy.first, mdy.first) - slack).toISOString();
  const until = new Date(Math.max(dmy.last, mdy.last) + slack).toISOString();
  const near = (walls: number[], instant: number) => walls.some((w) => Math.abs(w - instant) <= slack);
  let [dmyHits, mdyHits, scanned] = [0, 0, 0];
  for await (const r of earlier(since, until)) {
    if (++scanned > mostScanned) break;
    const id = whatsappItemId(r.externalId);
    const pair = id ? differing.get(pairKey(id.chat, id.sender, id.n, r.text)) : undefined;
    if (!pair) continue;
    const instant = Date.parse(id!.instant);
    if (near(pair.dmy, instant)) dmyHits += 1;
    if (near(pair.mdy, instant)) mdyHits += 1;
    if (dmyHits + mdyHits >= mostPairs) break;
  }
  if (dmyHits > 0 && mdyHits === 0) return 'dmy';
  if (mdyHits > 0 && dmyHits === 0) return 'mdy';
  return null;
}

/**
 * WhatsApp exports carry no UTC offset and a message's instant is part of its identity, so reading an
 * export in another zone than an earlier import of the same chat did (a laptop that travelled, another
 * machine) would store every message again, hours off. This finds the zone that earlier import used:
 * the export is read as if its wall times were UTC, its messages are paired with the Brain's Records
 * of the same chat, sender, ordinal and text, and the zone that maps the most wall times onto those
 * Records' instants wins. `null`: nothing to follow (no earlier import of this chat, or `preferred`
 * already matches it). `ambiguous`: other zones fit the earlier import as well but read some of the
 * export's messages differently (an hour apart across daylight saving time).
 */
export async function earlierImportZone(
  parse: Parser,
  path: string,
  o: ParseOptions,
  earlier: EarlierRecords,
  preferred: string,
): Promise<{ zone: string; ambiguous: boolean } | null> {
  const { walls, first, last } = await wallTimes(parse, path, o);
  if (walls.size === 0) return null;

  const pairs: { wall: number; instant: number }[] = [];
  const since = new Date(first - slack).toISOString();
  const until = new Date(last + slack).toISOString();
  let scanned = 0;
  for await (const r of earlier(since, until)) {
    if (++scanned > mostScanned) break;
    const id = whatsappItemId(r.externalId);
    if (!id) continue;
    const instant = Date.parse(id.instant);
    for (const wall of walls.get(pairKey(id.chat, id.sender, id.n, r.text)) ?? [])
      if (Math.abs(wall - instant) <= slack) pairs.push({ wall, instant });
    if (pairs.length >= mostPairs) break;
  }
  if (pairs.length === 0) return null;

  const instantIn = (zone: string, wall: number) => {
    const w = new Date(wall);
    return wallTimeToDate(
      {
        year: w.getUTCFullYear(),
        month: w.getUTCMonth() + 1,
        day: w.getUTCDate(),
        hour: w.getUTCHours(),
        minute: w.getUTCMinutes(),
        second: w.getUTCSeconds(),
      },
      zone,
    ).getTime();
  };
  const fits = (zone: string, p: { wall: number; instant: number }) => instantIn(zone, p.wall) === p.instant;
  const score = (zone: string) => pairs.reduce((n, p) => n + (fits(zone, p) ? 1 : 0), 0);
  const preferredScore = score(preferred);
  if (preferredScore === pairs.length) return null;
  // Zones that place the first or last pair right, then those that place most.
  let best: string[] = [];
  let bestN = 0;
  for (const zone of ['UTC', ...Intl.supportedValuesOf('timeZone')]) {
    if (!fits(zone, pairs[0]!) && !fits(zone, pairs[pairs.length - 1]!)) continue;
    const n = score(zone);
    if (n > bestN) [best, bestN] = [[zone], n];
    else if (n === bestN) best.push(zone);
  }
  if (best.length === 0 || bestN <= preferredScore) return null;

  // Several zones fit when the earlier import held only winter (or only summer) messages: Lisbon,
  // London and UTC agree in January. They may read the export's other messages differently. The ones
  // that keep daylight saving time as the machine's own zone does are taken first (a guess, said in
  // the note), then the reading most of them share.
  const sample = spread([...walls.values()].flat(), 200);
  const reading = (zone: string) => sample.map((w) => instantIn(zone, w)).join(',');
  const readings = new Map<string, string[]>();
  for (const zone of best) readings.set(reading(zone), [...(readings.get(reading(zone)) ?? []), zone]);
  const keepsDst = (zone: string) => {
    const year = new Date(first).getUTCFullYear();
    return (
      instantIn(zone, Date.UTC(year, 0, 15, 12)) - Date.UTC(year, 0, 15, 12) !==
      instantIn(zone, Date.UTC(year, 6, 15, 12)) - Date.UTC(year, 6, 15, 12)
    );
  };
  const likeMachine = best.filter((z) => keepsDst(z) === keepsDst(preferred));
  const pool = likeMachine.length > 0 ? likeMachine : best;
  const chosen = [...readings.values()]
    .map((zones) => zones.filter((z) => pool.includes(z)))
    .sort((a, b) => b.length - a.length)[0]![0]!;
  return { zone: chosen, ambiguous: readings.size > 1 };
}

/** At most `n` of `xs`, evenly spread (all of them when there are fewer). */
function spread<T>(xs: T[], n: number): T[] {
  if (xs.length <= n) return xs;
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]!);
}

const pairKey = (chat: string, sender: string, n: string, text: string) =>
  `${chat}\u0000${sender}\u0000${n}\u0000${text}`;
