const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
/** A calendar date as stored in UTC (a day, not an instant), in the viewer's words. */
export const dateOnlyUtc = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** Up to `max` characters of a text on one line, cut at a space where one is near, with "…" where cut. */
export function oneLine(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const head = line.slice(0, max);
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** A page's breadcrumb names it in a few words: the heading under it has the rest. */
export const crumbWords = (text: string): string => oneLine(text, 60);

/** From one instant to another, as the viewer's locale says a span: "Nov 17, 2026, 6:00 – 7:30 PM". */
export const dateTimeRange = (from: number, to: number): string => dateTime.formatRange(from, to);

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

/** `inUtc`: the date of the calendar an all-day event's time names (all-day.ts), not the viewer's. */
export function formatDate(iso: string | null | undefined, inUtc = false): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : (inUtc ? dateOnlyUtc : dateOnly).format(d);
}

/**
 * When a Memory held, in the world: "since …", "from …" for one starting later (not true yet, so not
 * "since"), "… – …", "on …" within one day, or "never" for a version closed where it began (a
 * correction or withdrawal says it was never right). `inUtc` for a Memory of an all-day event, whose
 * start names a day (all-day.ts memoryDays).
 *
 * `status`, the engine's: a Memory dated later that the engine calls `active` is one that holds no
 * slot (an event, a message): current from when it is known, whatever date it is about
 * (engine/core/temporal/memory-time.ts statusAt). "from Mar 14, 2027" beside "Current" said both; it
 * reads "now (about Mar 14, 2027, still to come)". A slot's value dated later is `scheduled`: "from …".
 */
export function validitySpan(
  from: string,
  to: string | null,
  inUtc = false,
  status?: 'active' | 'scheduled' | 'superseded' | 'retracted',
): string {
  const later = Date.parse(from) > Date.now();
  if (status === 'active' && later) {
    const [a, b] = [formatDate(from, inUtc), to === null ? null : formatDate(to, inUtc)];
    return `now (about ${b === null || a === b ? a : `${a} – ${b}`}, still to come)`;
  }
  if (to === null) return `${later ? 'from' : 'since'} ${formatDate(from, inUtc)}`;
  if (heldNoTime({ valid_from: from, valid_to: to })) return 'never';
  const [a, b] = [formatDate(from, inUtc), formatDate(to, inUtc)];
  return a === b ? `on ${a}` : `${a} – ${b}`;
}

/** A version closed where it began: it held for no time at all (validitySpan's "never"). */
export const heldNoTime = (r: { valid_from: string; valid_to: string | null }): boolean =>
  r.valid_to !== null && Date.parse(r.valid_to) <= Date.parse(r.valid_from);

/** validitySpan as a phrase: "true since …", or "never true". */
export function truthPhrase(
  from: string,
  to: string | null,
  inUtc = false,
  status?: Parameters<typeof validitySpan>[3],
): string {
  const span = validitySpan(from, to, inUtc, status);
  return span === 'never' ? 'never true' : `true ${span}`;
}

export function ownerLabel(owner: { state: string; entity?: string | undefined }): string {
  if (owner.state === 'self') return owner.entity ? `${owner.entity} (you)` : 'you';
  if (owner.state === 'other') return owner.entity ?? 'someone else';
  return 'not sure whose';
}

/** An RFC 3339 time as a datetime-local input value in the person's own zone ('' when there is none). */
export function isoToLocalInput(iso: string | undefined): string {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A datetime-local input value (no zone) to RFC 3339 in the person's own zone. */
export function localInputToIso(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/**
 * A datetime-local value as RFC 3339 with this browser's offset ("2018-05-01T10:00:00-07:00"): the day
 * and hour as the person wrote them, which a Record's readers take its days from (a note dated in the
 * evening west of Greenwich is not the next day's).
 */
export function localInputToOffsetIso(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return undefined;
  const offset = -d.getTimezoneOffset();
  const two = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const wall = new Date(d.getTime() + offset * 60_000).toISOString().slice(0, 19);
  return `${wall}${offset < 0 ? '-' : '+'}${two(offset / 60)}:${two(offset % 60)}`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** A size of chosen files: bytes, KB or MB. */
export function formatBytes(n: number): string {
  if (n < 1024) return plural(n, 'byte');
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** What a Context cost, as the Ask and Trace screens say it ("1 embedding call", not "1 … calls"). */
export function costWords(cost: {
  generative_calls: number;
  embedding_calls: number;
  processing_units: number;
}): string {
  return `${plural(cost.generative_calls, 'generative call')}, ${plural(cost.embedding_calls, 'embedding call')}, ${cost.processing_units} processing units`;
}

/** A Memory's status as the app says it. */
export const statusLabels = {
  active: 'Current',
  scheduled: 'Starts later',
  superseded: 'Replaced',
  retracted: 'Withdrawn',
} as const;

/**
 * A statement as a page's heading: whole when it is a heading's length, else its start on one line (cut
 * at a space, with "…"), `cut` saying the whole is to be offered beside it.
 */
export function headingOf(whole: string, max = 160): { shown: string; whole: string; cut: boolean } {
  if (whole.length <= max) return { shown: whole, whole, cut: false };
  return { shown: oneLine(whole, max - 20), whole, cut: true };
}
