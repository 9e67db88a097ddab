import type { ImportItem, ParseOptions, Parser } from './import-item.ts';
import { wallTimeToDate } from './zoned-time.ts';

/** What an earlier import left in the Brain that says which zone it read a chat's times in. */
export interface EarlierRecord {
  externalId: string;
  text: string;
}

/** The Brain's WhatsApp Records whose occurred_at lies in [since, until] (ISO instants). */
export type EarlierRecords = (since: string, until: string) => AsyncIterable<EarlierRecord>;

// `whatsapp:<chat>:<instant>:<sender>:<n>`: the instant is ISO with milliseconds and Z, which the chat
// name and the sender (text before the first ': ' of a line) cannot hide.
const whatsappId = /^whatsapp:(.*):(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z):(.*):(\d+)$/;
const slack = 15 * 3_600_000; // every UTC offset in use lies within ±14 h
const mostPairs = 500;

/**
 * WhatsApp exports carry no UTC offset and a message's instant is part of its identity, so reading an
 * export in another zone than an earlier import of the same chat did (a laptop that travelled, another
 * machine) would store every message again, hours off. This finds the zone that earlier import used:
 * the export is read as if its wall times were UTC, its messages are paired with the Brain's Records
 * of the same chat, sender, ordinal and text, and the zone that maps the most wall times onto those
 * Records' instants wins. `null`: nothing to follow (no earlier import of this chat, or `preferred`
 * already matches it).
 */
export async function earlierImportZone(
  parse: Parser,
  path: string,
  o: ParseOptions,
  earlier: EarlierRecords,
  preferred: string,
): Promise<string | null> {
  const walls = new Map<string, number[]>();
  let first = Infinity;
  let last = -Infinity;
  for await (const item of parse(path, { ...o, timeZone: 'UTC' }) as AsyncIterable<ImportItem>) {
    if (item.type !== 'record' || !item.body.source?.external_id || !item.body.occurred_at) continue;
    const id = whatsappId.exec(item.body.source.external_id);
    const c = item.body.content;
    const text = typeof c === 'object' && c.kind === 'message' ? c.text : null;
    if (!id || text === null) continue;
    const wall = Date.parse(id[2]!);
    const key = pairKey(id[1]!, id[3]!, id[4]!, text);
    walls.set(key, [...(walls.get(key) ?? []), wall]);
    first = Math.min(first, wall);
    last = Math.max(last, wall);
  }
  if (walls.size === 0) return null;

  const pairs: { wall: number; instant: number }[] = [];
  const since = new Date(first - slack).toISOString();
  const until = new Date(last + slack).toISOString();
  for await (const r of earlier(since, until)) {
    const id = whatsappId.exec(r.externalId);
    if (!id) continue;
    const instant = Date.parse(id[2]!);
    for (const wall of walls.get(pairKey(id[1]!, id[3]!, id[4]!, r.text)) ?? [])
      if (Math.abs(wall - instant) <= slack) pairs.push({ wall, instant });
    if (pairs.length >= mostPairs) break;
  }
  if (pairs.length === 0) return null;

  const fits = (zone: string, p: { wall: number; instant: number }) => {
    const w = new Date(p.wall);
    const at = wallTimeToDate(
      {
        year: w.getUTCFullYear(),
        month: w.getUTCMonth() + 1,
        day: w.getUTCDate(),
        hour: w.getUTCHours(),
        minute: w.getUTCMinutes(),
        second: w.getUTCSeconds(),
      },
      zone,
    );
    return at.getTime() === p.instant;
  };
  const score = (zone: string) => pairs.reduce((n, p) => n + (fits(zone, p) ? 1 : 0), 0);
  const preferredScore = score(preferred);
  if (preferredScore === pairs.length) return null;
  // Zones that place the first pair right, then the one that places most (the first such in the list
  // on a tie: zones that agree on every instant here read this chat alike).
  let best: { zone: string; n: number } | null = null;
  for (const zone of ['UTC', ...Intl.supportedValuesOf('timeZone')]) {
    if (!fits(zone, pairs[0]!) && pairs.length > 1 && !fits(zone, pairs[pairs.length - 1]!)) continue;
    const n = score(zone);
    if (!best || n > best.n) best = { zone, n };
  }
  return best && best.n > preferredScore ? best.zone : null;
}

const pairKey = (chat: string, sender: string, n: string, text: string) =>
  `${chat}\u0000${sender}\u0000${n}\u0000${text}`;
