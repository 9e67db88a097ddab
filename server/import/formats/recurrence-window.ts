import type { ParseOptions } from '../import-item.ts';

const yearMs = 365.25 * 24 * 3600 * 1000;
/** Recurring events are expanded from two years before the import to one year after it, by default. */
export const defaultRecurrenceWindow = { yearsBack: 2, yearsAhead: 1 };

export interface RecurrenceWindow {
  start: Date;
  end: Date;
  now: Date;
}

type Given = Pick<ParseOptions, 'windowStart' | 'windowEnd'>;

/** The window recurring events are expanded in: the ends given, each other end by default around `now`. */
export function recurrenceWindow(o: Given, now: Date): RecurrenceWindow {
  return {
    start: o.windowStart ?? new Date(now.getTime() - defaultRecurrenceWindow.yearsBack * yearMs),
    end: o.windowEnd ?? new Date(now.getTime() + defaultRecurrenceWindow.yearsAhead * yearMs),
    now,
  };
}

/**
 * Why the window holds no instant (its start at or after its end, either end perhaps by default),
 * naming the end that was given as the request or command line names it; null when it is a window.
 * Every series would otherwise be skipped as outside it.
 */
export function emptyWindowMessage(
  o: Given,
  now: Date,
  names: { since: string; until: string },
): string | null {
  const w = recurrenceWindow(o, now);
  if (w.start.getTime() < w.end.getTime()) return null;
  if (o.windowStart === undefined)
    return `${names.until}: must be later than two years ago, the default ${names.since}`;
  return `${names.since}: must be earlier than ${o.windowEnd === undefined ? `a year from now, the default ${names.until}` : names.until}`;
}
