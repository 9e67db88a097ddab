import { textDays } from '../../contract/all-day.ts';

/**
 * The date an all-day Record names, as its 00:00 UTC in ms (engine/contract/all-day.ts): a query's days
 * hold it by its date in any zone. Read from the event's citable text, which a hit carries, so no column
 * is added; null for anything else (a timed event, a message at 00:00Z).
 */
export function allDayDate(r: { kind: string; text: string; occurredMs: number }): number | null {
  return r.kind === 'event' ? (textDays(r.text, r.occurredMs)?.first ?? null) : null;
}
