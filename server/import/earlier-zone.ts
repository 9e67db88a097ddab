import type { RecordPage } from '../../engine/contract/index.ts';
import type { ImportItem, ParseOptions } from './import-item.ts';
import { whatsappItemId } from '../../engine/index.ts';
import { recordPages, type PageQuery } from './record-pages.ts';
import { wallTimeToDate } from './zoned-time.ts';

/** What an earlier import left in the Brain that says which zone it read a chat's times in. */
export interface EarlierRecord {
  externalId: string;
  text: string;
}

/** The Brain's WhatsApp Records whose occurred_at lies in [since, until] (ISO instants); no range: all. */
export type EarlierRecords = (since?: string, until?: string) => AsyncIterable<EarlierRecord>;

/** The listRecords query an EarlierRecords reads with, page by page. */
export interface EarlierQuery extends PageQuery {
  source: 'whatsapp';
  since?: string;
  until?: string;
}

/**
 * EarlierRecords over a listRecords of the caller's (the API client, the engine): every page of the
 * Brain's WhatsApp messages in the range. A page read as null ends it (nothing that may be read).
 */
export function earlierRecords(listPage: (q: EarlierQuery) => Promise<RecordPage | null>): EarlierRecords {
  return async function* (since, until) {
    const range = { ...(since !== undefined ? { since } : {}), ...(until !== undefined ? { until } : {}) };
    for await (const page of recordPages(listPage, { source: 'whatsapp' as const, ...range })) {
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
 * The export's messages held at once, and their keys' characters: they are paired with the Brain's
 * Records a batch at a time, so a chat of any length is looked at in bounded memory. Held whole, every
 * message's key and text (an earlier import's pairing reads the text) grew with the chat.
 */
const batchMessages = 50_000;
const batchChars = 16 * 2 ** 20;
/** Wall times kept to tell readings apart (chooseZone), evenly spread over the export. */
const mostSampled = 200;

/**
 * The export read once more (chatReadings), each message in every one of the readings asked for, side by
 * side: its items, one a reading, index for index.
 */
export type ReadSideBySide = (readings: readonly ParseOptions[]) => AsyncIterable<readonly ImportItem[]>;

/** What an earlier import of a chat says about how to read it now (earlierReading). */
export interface EarlierReading {
  /**
   * The date order that import read it in, when the chat's own dates cannot tell (all on days 1 to 12).
   * Its messages read day first and month first are paired with the Brain's Records of the same chat,
   * sender, ordinal and text; only messages the two orders put on different days count (months apart,
   * far beyond any zone's offset). The order whose reading alone has such Records was the earlier
   * import's. `null`: the chat tells its order itself, nothing was imported before, or both readings
   * are stored (the chat imported both ways).
   */
  order: 'dmy' | 'mdy' | null;
  /**
   * WhatsApp exports carry no UTC offset and a message's instant is part of its identity, so reading an
   * export in another zone than an earlier import of the same chat did (a laptop that travelled,
   * another machine) would store every message again, hours off. This is the zone that earlier import
   * used: the export is read as if its wall times were UTC (in `order`, else the order asked for), its
   * messages are paired with the Brain's Records as for the order, and the zone that maps the most wall
   * times onto those Records' instants wins. `null`: nothing to follow (no earlier import of this chat,
   * or `preferred` already matches it). `ambiguous`: other zones fit the earlier import as well but read
   * some of the export's messages differently (an hour apart across daylight saving time).
   */
  zone: { zone: string; ambiguous: boolean } | null;
}

/** One reading of the export (an order, in UTC) as it is paired with the Brain's Records. */
class Reading {
  /** The batch's messages: each one's wall time (ms) by its pairKey. */
  walls = new Map<string, number[]>();
  batchFirst = Infinity;
  batchLast = -Infinity;
  /** The earliest and latest wall time of the whole export. */
  first = Infinity;
  last = -Infinity;
  pairs: { wall: number; instant: number }[] = [];
  sample: number[] = [];
  #stride = 1;
  #seen = 0;

  constructor(readonly options: ParseOptions) {}

  add(key: string, wall: number): void {
    this.walls.set(key, [...(this.walls.get(key) ?? []), wall]);
    this.batchFirst = Math.min(this.batchFirst, wall);
    this.batchLast = Math.max(this.batchLast, wall);
    this.first = Math.min(this.first, wall);
    this.last = Math.max(this.last, wall);
    // Every stride-th wall time; when twice as many as wanted are kept, every other goes.
    if (this.#seen++ % this.#stride === 0) this.sample.push(wall);
    if (this.sample.length >= 2 * mostSampled) {
      this.sample = this.sample.filter((_, i) => i % 2 === 0);
      this.#stride *= 2;
    }
  }

  get full(): boolean {
    return this.pairs.length >= mostPairs;
  }

  pair(key: string, instant: number): void {
    for (const wall of this.walls.get(key) ?? [])
      if (Math.abs(wall - instant) <= slack) this.pairs.push({ wall, instant });
  }

  endBatch(): void {
    this.walls = new Map();
    this.batchFirst = Infinity;
    this.batchLast = -Infinity;
  }
}

/**
 * How an earlier import of the chat read it (EarlierReading): its date order, when the chat's dates read
 * both ways (`readsBothWays`), and its zone. The export is read once for both (`read`), in every
 * reading they need at once, and paired with the Brain's Records (`earlier`) a batch of messages at a
 * time (at most `batch`).
 */
export async function earlierReading(
  read: ReadSideBySide,
  o: ParseOptions,
  earlier: EarlierRecords,
  preferred: string,
  readsBothWays: boolean,
  batch = batchMessages,
): Promise<EarlierReading> {
  // A Brain without a WhatsApp message has no earlier import to follow: the chat is not read for one.
  const holdsAny = async () => {
    for await (const _ of earlier()) return true;
    return false;
  };
  if (!(await holdsAny())) return { order: null, zone: null };
  // Read as if the wall times were UTC, and said nothing of: the import's own read reports its progress.
  const { onRead: _onRead, onScan: _onScan, ...plain } = o;
  const utc = { ...plain, timeZone: 'UTC' };
  const readings = readsBothWays
    ? [new Reading({ ...utc, dateOrder: 'dmy' }), new Reading({ ...utc, dateOrder: 'mdy' })]
    : [new Reading(utc)];
  const [dmy, mdy] = readings;
  let [dmyHits, mdyHits, scanned, batched, chars] = [0, 0, 0, 0, 0];
  const orderFound = () => !readsBothWays || dmyHits + mdyHits >= mostPairs;
  const done = () => scanned > mostScanned || (orderFound() && readings.every((r) => r.full));

  const pairBatch = async () => {
    // Only messages the two orders put on different days tell the order.
    const differing = new Map<string, { dmy: number[]; mdy: number[] }>();
    if (!orderFound())
      for (const [key, walls] of dmy!.walls) {
        const other = mdy!.walls.get(key) ?? [];
        if (walls.join() !== other.join()) differing.set(key, { dmy: walls, mdy: other });
      }
    const from = Math.min(...readings.map((r) => r.batchFirst));
    const to = Math.max(...readings.map((r) => r.batchLast));
    const zoneWanted = readings.some((r) => !r.full);
    if (from > to || (differing.size === 0 && !zoneWanted)) return;
    const since = new Date(from - slack).toISOString();
    const until = new Date(to + slack).toISOString();
    const near = (walls: number[], instant: number) => walls.some((w) => Math.abs(w - instant) <= slack);
    for await (const r of earlier(since, until)) {
      if (++scanned > mostScanned) break;
      const id = whatsappItemId(r.externalId);
      if (!id) continue;
      const key = pairKey(id.chat, id.sender, id.n, r.text);
      const instant = Date.parse(id.instant);
      const pair = differing.get(key);
      if (pair && !orderFound()) {
        if (near(pair.dmy, instant)) dmyHits += 1;
        if (near(pair.mdy, instant)) mdyHits += 1;
      }
      for (const reading of readings) if (!reading.full) reading.pair(key, instant);
      if (done()) break;
    }
  };

  for await (const items of read(readings.map((r) => r.options))) {
    for (const [i, item] of items.entries()) {
      if (item.type !== 'record' || !item.body.source?.external_id || !item.body.occurred_at) continue;
      const id = whatsappItemId(item.body.source.external_id);
      const c = item.body.content;
      const text = typeof c === 'object' && c.kind === 'message' ? c.text : null;
      if (!id || text === null) continue;
      const key = pairKey(id.chat, id.sender, id.n, text);
      readings[i]!.add(key, Date.parse(id.instant));
      chars += key.length;
    }
    batched += 1;
    if (batched >= batch || chars >= batchChars) {
      // Once nothing more is to be paired, the rest is still read: the sample of wall times that tells
      // the zones apart (chooseZone) is the whole export's.
      if (!done()) await pairBatch();
      for (const r of readings) r.endBatch();
      [batched, chars] = [0, 0];
    }
  }
  if (!done()) await pairBatch();

  let order: 'dmy' | 'mdy' | null = null;
  if (dmyHits > 0 && mdyHits === 0) order = 'dmy';
  if (mdyHits > 0 && dmyHits === 0) order = 'mdy';
  const zoneReading = readsBothWays && (order ?? o.dateOrder) === 'mdy' ? mdy! : dmy!;
  return { order, zone: chooseZone(zoneReading, preferred) };
}

/**
 * The zone that reads the paired wall times of READING as the Brain's instants (EarlierReading's
 * `zone`), or null when there is none or `preferred` does.
 */
function chooseZone(reading: Reading, preferred: string): { zone: string; ambiguous: boolean } | null {
  const { pairs, first } = reading;
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
  const sample = spread(reading.sample, mostSampled);
  const readAs = (zone: string) => sample.map((w) => instantIn(zone, w)).join(',');
  const readings = new Map<string, string[]>();
  for (const zone of best) readings.set(readAs(zone), [...(readings.get(readAs(zone)) ?? []), zone]);
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
