import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { readText } from '../decode-text.ts';
import { skip, type ImportItem, type ParseOptions } from '../import-item.ts';
import { isTimeZone, wallTimeToDate } from '../zoned-time.ts';
import { errorMessage } from '../../../engine/shared/error-message.ts';

type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalEvent = InstanceType<typeof ICAL.Event>;
type IcalComponent = InstanceType<typeof ICAL.Component>;

const yearMs = 365.25 * 24 * 3600 * 1000;
/** Recurring events are expanded from two years before the import to one year after it, by default. */
export const defaultRecurrenceWindow = { yearsBack: 2, yearsAhead: 1 };
/** Upper bound of occurrences taken from one series, whatever the window (a daily rule over decades). */
export const maxOccurrencesPerSeries = 1000;

/**
 * An ICAL.Time as an instant. Times with a zone the file defines (VTIMEZONE) or UTC are exact; a TZID
 * the file does not define is read as an IANA name when it is one; floating times use `timeZone`
 * (default: this machine's zone). All-day dates start at midnight in that zone.
 */
function instant(t: IcalTime, tzid: string | undefined, o: ParseOptions): Date {
  const zone = t.zone?.tzid;
  if (!t.isDate && zone && zone !== 'floating') return t.toJSDate();
  const tz = tzid && isTimeZone(tzid) ? tzid : o.timeZone;
  return wallTimeToDate(
    { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second },
    tz,
  );
}

function participants(c: IcalComponent): string[] {
  const out = new Set<string>();
  for (const p of [...c.getAllProperties('organizer'), ...c.getAllProperties('attendee')]) {
    const cn = p.getParameter('cn');
    const value = String(p.getFirstValue() ?? '').replace(/^mailto:/i, '');
    const name = typeof cn === 'string' && cn.trim() ? cn.trim() : value;
    if (name) out.add(name.slice(0, 2000));
  }
  return [...out].slice(0, 500);
}

function toRecord(
  ev: IcalEvent,
  start: IcalTime,
  end: IcalTime | null,
  externalId: string,
  ref: string,
  o: ParseOptions,
): ImportItem {
  const c = ev.component;
  if (String(c.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED')
    return skip(ref, 'cancelled event');
  const startTz = c.getFirstProperty('dtstart')?.getParameter('tzid');
  const endTz = c.getFirstProperty('dtend')?.getParameter('tzid') ?? startTz;
  const startsAt = instant(start, typeof startTz === 'string' ? startTz : undefined, o);
  if (Number.isNaN(startsAt.getTime())) return skip(ref, 'unreadable DTSTART');
  const endsAt = end ? instant(end, typeof endTz === 'string' ? endTz : undefined, o) : null;
  const place = ev.location?.trim();
  const people = participants(c);
  return {
    type: 'record',
    ref,
    body: {
      content: {
        kind: 'event',
        title: (ev.summary?.trim() || '(no title)').slice(0, 2000),
        starts_at: startsAt.toISOString(),
        ...(endsAt && !Number.isNaN(endsAt.getTime()) ? { ends_at: endsAt.toISOString() } : {}),
        ...(people.length ? { participants: people } : {}),
        ...(place ? { place: place.slice(0, 2000) } : {}),
      },
      source: { name: 'ics', external_id: externalId.slice(0, 2000) },
      occurred_at: startsAt.toISOString(),
    },
  };
}

function uidOf(c: IcalComponent): string {
  const uid = c.getFirstPropertyValue('uid');
  if (typeof uid === 'string' && uid.trim()) return uid.trim();
  // No UID: the event's own fields identify it.
  const basis = `${c.getFirstPropertyValue('summary') ?? ''}|${c.getFirstProperty('dtstart')?.toICALString() ?? ''}`;
  return `sha256:${createHash('sha256').update(basis).digest('hex').slice(0, 32)}`;
}

/**
 * One `event` Record per VEVENT; a recurring series gives one Record per occurrence inside the
 * recurrence window (overridden occurrences, RECURRENCE-ID, replace the rule's instance).
 */
export async function* parseIcs(path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  let roots: unknown[];
  try {
    const parsed: unknown = ICAL.parse(await readText(path));
    roots = Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : (parsed as unknown[]);
  } catch (e) {
    yield skip(path, `not an iCalendar file: ${errorMessage(e)}`);
    return;
  }
  const now = (o.now ?? (() => new Date()))();
  const windowStart = o.windowStart ?? new Date(now.getTime() - defaultRecurrenceWindow.yearsBack * yearMs);
  const windowEnd = o.windowEnd ?? new Date(now.getTime() + defaultRecurrenceWindow.yearsAhead * yearMs);
  for (const root of roots) {
    const cal = new ICAL.Component(root as never);
    const vevents = cal.getAllSubcomponents('vevent');
    const masters = new Map<string, IcalEvent>();
    const exceptions: IcalComponent[] = [];
    for (const c of vevents) {
      if (c.hasProperty('recurrence-id')) exceptions.push(c);
      else if (!masters.has(uidOf(c))) masters.set(uidOf(c), new ICAL.Event(c));
    }
    for (const c of exceptions) {
      const master = masters.get(uidOf(c));
      if (master?.isRecurring()) master.relateException(c);
      else {
        // An override whose series is not in this file stands alone.
        const ev = new ICAL.Event(c);
        yield toRecord(
          ev,
          ev.startDate,
          ev.endDate,
          `ics:${uidOf(c)}@${ev.recurrenceId.toString()}`,
          uidOf(c),
          o,
        );
      }
    }
    for (const [uid, ev] of masters) {
      if (!ev.startDate) {
        yield skip(uid, 'event has no DTSTART');
        continue;
      }
      if (!ev.isRecurring()) {
        yield toRecord(ev, ev.startDate, ev.endDate, `ics:${uid}`, uid, o);
        continue;
      }
      const it = ev.iterator();
      const tzid = ev.component.getFirstProperty('dtstart')?.getParameter('tzid');
      let taken = 0;
      let steps = 0;
      // steps bounds the walk to the window too (a minutely rule begun decades ago).
      for (
        let next = it.next();
        next && taken < maxOccurrencesPerSeries && steps < 100_000;
        next = it.next(), steps++
      ) {
        const at = instant(next, typeof tzid === 'string' ? tzid : undefined, o);
        if (at >= windowEnd) break;
        if (at < windowStart) continue;
        const d = ev.getOccurrenceDetails(next);
        const rid = d.recurrenceId.toString();
        taken += 1;
        yield toRecord(d.item, d.startDate, d.endDate, `ics:${uid}@${rid}`, `${uid}@${rid}`, o);
      }
    }
  }
}
