import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { calendarDescription } from './calendar-description.ts';
import { readFoldedText } from '../decode-text.ts';
import { icalValueError } from './ical-message.ts';
import { skip, type ImportItem, type ParseOptions } from '../import-item.ts';
import { findIana } from 'windows-iana';
import { atOffset, isTimeZone, offsetMs, wallTimeToDate } from '../zoned-time.ts';
import { recurrenceWindow, type RecurrenceWindow } from './recurrence-window.ts';
import { countRealDaysOnly, rolledOverDays } from './rolled-over.ts';
import { errorMessage, systemTimeZone } from '../../../engine/index.ts';

type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalEvent = InstanceType<typeof ICAL.Event>;
type IcalComponent = InstanceType<typeof ICAL.Component>;

/**
 * Upper bound of occurrences taken from one series, whatever the window (a daily rule over decades).
 * The ones nearest to the import's time are kept, and the summary says how many were left out.
 */
export const maxOccurrencesPerSeries = 1000;
/** Upper bound of a series' rule steps walked, inside the window or not (a minutely rule begun decades ago). */
export const maxRuleSteps = 100_000;

/** A time of day with no zone ical.js resolved (floating, or a TZID the file does not define). */
const wallTimeOnly = (t: IcalTime) => !t.isDate && (!t.zone?.tzid || t.zone.tzid === 'floating');

/**
 * A TZID as a zone this runtime knows: an IANA name, or the Windows name Outlook and Exchange write
 * without a VTIMEZONE ("Pacific Standard Time", "W. Europe Standard Time"), as CLDR's windowsZones maps
 * it (windows-iana). Such times were read in the import's zone, eight hours off for Pacific time.
 */
function knownZone(tzid: string | undefined): string | undefined {
  if (!tzid) return undefined;
  // Asked for every time of every event: a calendar names few zones, and each check makes a formatter.
  if (!knownZones.has(tzid)) {
    // Bounded: a file may name as many zones as it likes, and the server imports many files.
    if (knownZones.size >= 1_000) knownZones.clear();
    knownZones.set(tzid, isTimeZone(tzid) ? tzid : findIana(tzid).find(isTimeZone));
  }
  return knownZones.get(tzid);
}
const knownZones = new Map<string, string | undefined>();

/**
 * An ICAL.Time as an instant. An all-day date is 00:00 UTC of its day. Times with a zone the file
 * defines (VTIMEZONE) or UTC are exact; a TZID the file does not define is read as an IANA name or a
 * Windows one (knownZone) when it is one; floating times use `timeZone` (default: this machine's zone).
 */
function instant(t: IcalTime, tzid: string | undefined, o: ParseOptions): Date {
  if (t.isDate) {
    // A date names a day, not an instant. A zone here (the machine's, --time-zone, the app's browser
    // zone) would enter the Record and so its Idempotency-Key, which hashes the whole body: the same
    // file imported elsewhere would write every all-day event again. 00:00Z keeps the date readable.
    const d = new Date(0);
    d.setUTCFullYear(t.year, t.month - 1, t.day);
    return d;
  }
  if (!wallTimeOnly(t)) return t.toJSDate();
  const tz = knownZone(tzid) ?? o.timeZone;
  return wallTimeToDate(
    { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second },
    tz,
  );
}

/**
 * A TZID `instant` could not follow (the file defines no such VTIMEZONE and it is no IANA name): the
 * time was read in the import's zone instead, which the part's summary must say, not do silently.
 */
function unfollowedZone(t: IcalTime, tzid: string | undefined): string | null {
  return wallTimeOnly(t) && tzid && knownZone(tzid) === undefined ? tzid : null;
}

/**
 * The instant as RFC 3339 in the event's own zone: the wall time as the calendar wrote it, with its
 * offset ("2024-04-15T14:30:00+01:00" for 14:30 in Lisbon). Written in UTC, a 14:30 appointment read
 * "when: 2024-04-15T13:30:00.000Z", and an agent reading the text said 13:30. UTC times and all-day
 * dates keep the UTC form.
 */
function stamp(t: IcalTime, at: Date): string {
  if (t.isDate || t.zone?.tzid === 'UTC' || Number.isNaN(at.getTime())) return at.toISOString();
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return atOffset(at, Math.round((wall - at.getTime()) / 60_000));
}

/**
 * A series whose DTSTART names a zone the file defines no VTIMEZONE for (an IANA or Windows name read by
 * knownZone, or one it does not know, or none: read in the import's zone): ical.js expands its rule in floating wall time and compares a UTC UNTIL with those wall
 * times as if they were UTC, so east of UTC the last occurrence was dropped (09:30 Berlin on the UNTIL
 * day, 08:30Z) and west of it one past the end kept. The UNTIL is put in that zone's wall time first.
 */
function untilInStartZone(event: IcalComponent, o: ParseOptions): IcalComponent {
  if (!event.hasProperty('rrule')) return event;
  try {
    // Read and changed in a copy: the event itself is compared with its other versions as written
    // (olderVersionSkip), and reading a value changes how ical.js writes it.
    // toJSON is the event's own jCal, not a copy of it.
    const c = new ICAL.Component(structuredClone(event.toJSON()));
    const start = c.getFirstPropertyValue('dtstart');
    if (!(start instanceof ICAL.Time) || !wallTimeOnly(start)) return event;
    // The zone instant() reads its times in: the TZID's, else the import's, else this machine's.
    const zone = knownZone(tzidOf(c, 'dtstart')) ?? o.timeZone ?? systemTimeZone();
    for (const p of c.getAllProperties('rrule')) {
      const rule = p.getFirstValue();
      if (
        !(rule instanceof ICAL.Recur) ||
        !rule.until ||
        rule.until.isDate ||
        rule.until.zone?.tzid !== 'UTC'
      )
        continue;
      const utcMs = rule.until.toUnixTime() * 1000;
      const wall = new Date(utcMs + offsetMs(utcMs, zone));
      rule.until = ICAL.Time.fromData({
        year: wall.getUTCFullYear(),
        month: wall.getUTCMonth() + 1,
        day: wall.getUTCDate(),
        hour: wall.getUTCHours(),
        minute: wall.getUTCMinutes(),
        second: wall.getUTCSeconds(),
        isDate: false,
      });
      p.setValue(rule);
    }
    return c;
  } catch {
    // A rule ical.js cannot read is for the series' own reading to report.
    return event;
  }
}

/** An event's title as its Records carry it. */
const titleOf = (ev: IcalEvent) => (ev.summary?.trim() || '(no title)').slice(0, 2000);

/** ical.js decodes values lazily and throws on one it cannot read; this names the property. */
function read<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new Error(`${what}: ${icalValueError(e)}`);
  }
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

function tzidOf(c: IcalComponent, property: string): string | undefined {
  const tzid = c.getFirstProperty(property)?.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : undefined;
}

function toRecord(
  ev: IcalEvent,
  start: IcalTime,
  end: IcalTime | null,
  externalId: string,
  ref: string,
  uid: string,
  o: ParseOptions,
): ImportItem {
  const c = ev.component;
  if (String(c.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED')
    return skip(ref, 'cancelled event');
  const startTz = tzidOf(c, 'dtstart');
  const startsAt = instant(start, startTz, o);
  if (Number.isNaN(startsAt.getTime())) return skip(ref, 'unreadable DTSTART');
  const endsAt = end ? instant(end, tzidOf(c, 'dtend') ?? startTz, o) : null;
  const readEnd = end && endsAt && !Number.isNaN(endsAt.getTime()) ? endsAt : null;
  // An end before the start (a calendar that wrote them swapped, or in other zones) is no time the
  // event took: the event is kept, without the end an event Record may not have, and the report says so.
  const endsFirst = readEnd !== null && readEnd.getTime() < startsAt.getTime();
  const place = ev.location?.trim();
  const people = participants(c);
  const startsStamp = stamp(start, startsAt);
  const unknown =
    unfollowedZone(start, startTz) ?? (end ? unfollowedZone(end, tzidOf(c, 'dtend') ?? startTz) : null);
  const notes = [
    ...(unknown
      ? [
          `TZID ${JSON.stringify(unknown)} is neither defined in the file nor a time zone name: its times ` +
            `were read in ${o.timeZone ?? systemTimeZone()} (a time zone given for the import chooses another)`,
        ]
      : []),
    ...(endsFirst ? ['DTEND is before DTSTART: the event was kept without its end'] : []),
  ];
  return {
    type: 'record',
    ref,
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    body: {
      content: {
        kind: 'event',
        title: titleOf(ev),
        starts_at: startsStamp,
        ...(end && readEnd && !endsFirst ? { ends_at: stamp(end, readEnd) } : {}),
        ...(people.length ? { participants: people } : {}),
        ...(place ? { place: place.slice(0, 2000) } : {}),
      },
      source: { name: 'ics', external_id: externalId.slice(0, 2000) },
      occurred_at: startsStamp,
    },
    versionInKey: versionKey(c),
    item: eventItem(uid),
  };
}

/**
 * An event's DESCRIPTION as a `document` of its own, titled by the event (an event Record has no field
 * for it): "Bring the insurance card. Arrive 10 minutes early." was dropped, and "what should I bring
 * to the dentist?" found only the title. One per event, or per series (its occurrences share it).
 */
function descriptionItem(
  ev: IcalEvent,
  externalId: string,
  ref: string,
  occurredAt: string,
  item: string | undefined,
): ImportItem[] {
  const text = calendarDescription(textOf(ev.component, 'description'));
  if (!text) return [];
  const title = titleOf(ev);
  return [
    {
      type: 'record',
      ref: `${ref} (description)`,
      body: {
        content: { kind: 'document', title, text: `${title}: ${text}`.slice(0, 1_000_000) },
        source: { name: 'ics', external_id: `${externalId}#description`.slice(0, 2000) },
        occurred_at: occurredAt,
      },
      versionInKey: versionKey(ev.component),
      ...(item !== undefined ? { item } : {}),
    },
  ];
}

/** The event's Record, and its description's when it has one (not for a skipped event). */
function withDescription(ev: IcalEvent, item: ImportItem): ImportItem[] {
  if (item.type !== 'record') return [item];
  return [
    item,
    ...descriptionItem(ev, item.body.source.external_id, item.ref, item.body.occurred_at!, item.item),
  ];
}

/**
 * The whole event a Record is part of: its UID's, every occurrence and description of a series with it
 * (forget-missing.ts keeps all of them while the file holds the UID).
 */
const eventItem = (uid: string) => `ics:${uid}`;

function uidOf(c: IcalComponent): string {
  const uid = c.getFirstPropertyValue('uid');
  if (typeof uid === 'string' && uid.trim()) return uid.trim();
  // No UID: the event's own fields identify it.
  const basis = `${c.getFirstPropertyValue('summary') ?? ''}|${c.getFirstProperty('dtstart')?.toICALString() ?? ''}`;
  return `sha256:${createHash('sha256').update(basis).digest('hex').slice(0, 32)}`;
}

/** A text property of an event that may be broken elsewhere; '' when it cannot be read either. */
function textOf(c: IcalComponent, property: string): string {
  try {
    const v = c.getFirstPropertyValue(property);
    return typeof v === 'string' ? v.trim() : '';
  } catch {
    return '';
  }
}

const quoted = (title: string) => (title ? ` "${title.slice(0, 200)}"` : '');

/** An event's version: its SEQUENCE, then when it was last changed (LAST-MODIFIED, else DTSTAMP). */
function versionOf(c: IcalComponent): [number, number] {
  const sequence = Number(c.getFirstPropertyValue('sequence') ?? 0);
  const stamp = c.getFirstPropertyValue('last-modified') ?? c.getFirstPropertyValue('dtstamp');
  const at = stamp instanceof ICAL.Time ? stamp.toUnixTime() : -Infinity;
  return [Number.isFinite(sequence) ? sequence : 0, at];
}

/**
 * The event's version (versionOf), for the Idempotency-Key (ImportRecord.versionInKey): a calendar
 * that moves an event back bumps it, and so writes a version that is new to the Brain.
 */
const versionKey = (c: IcalComponent): string => versionOf(c).join('@');

/** Whether `a` is a later version than `b` (a tie keeps the one read first). */
function isNewer(a: IcalComponent, b: IcalComponent): boolean {
  const [sa, ta] = versionOf(a);
  const [sb, tb] = versionOf(b);
  return sa !== sb ? sa > sb : ta > tb;
}

/**
 * Per UID, the VEVENT (no RECURRENCE-ID) that is the event: the newest version of it anywhere in the
 * file, whose calendars may be one per invitation and update. One that cannot be read is left to be
 * skipped where it stands.
 */
function newestVersions(calendars: readonly IcalComponent[]): Map<string, IcalComponent> {
  const newest = new Map<string, IcalComponent>();
  for (const cal of calendars)
    for (const c of cal.getAllSubcomponents('vevent')) {
      try {
        if (c.hasProperty('recurrence-id')) continue;
        const uid = uidOf(c);
        const held = newest.get(uid);
        if (!held || isNewer(c, held)) newest.set(uid, c);
      } catch {
        // Read again, and skipped, by calendarItems.
      }
    }
  return newest;
}

/**
 * What the import says of an event a newer one with its UID replaced. An exact copy (a calendar
 * exported twice into one file, an invitation saved twice) is said too, as a copy of a contact card is:
 * dropped without a word, it was in neither the imported nor the skipped count.
 */
function olderVersionSkip(uid: string, other: IcalComponent, newer: IcalComponent): ImportItem {
  if (other.toString() === newer.toString())
    return skip(
      uid,
      `an exact copy of the event${quoted(textOf(newer, 'summary'))} in the file, which is imported`,
    );
  const [sequence, at] = versionOf(other);
  const [newerSequence, newerAt] = versionOf(newer);
  const title = quoted(textOf(other, 'summary'));
  return skip(
    uid,
    sequence === newerSequence && at === newerAt
      ? `event${title} has the UID of another event in the file,${quoted(textOf(newer, 'summary'))}, which is imported (a UID names one event)`
      : `event${title} (SEQUENCE ${sequence}) is an older version of an event in the file; the newer one is imported`,
  );
}

/** An event's items, or one skip naming it (UID, title) when a value of it cannot be read. */
function itemsOrSkip(c: IcalComponent, f: () => ImportItem[]): ImportItem[] {
  try {
    return f();
  } catch (e) {
    const title = textOf(c, 'summary');
    const ref = textOf(c, 'uid') || `event${quoted(title) || ' without UID or SUMMARY'}`;
    return [skip(ref, `event${quoted(title)} cannot be read: ${errorMessage(e)}`)];
  }
}

/** An overridden occurrence (RECURRENCE-ID): related to its series, or a Record of its own. */
function overrideItems(c: IcalComponent, masters: Map<string, IcalEvent>, o: ParseOptions): ImportItem[] {
  const uid = uidOf(c);
  const ev = new ICAL.Event(c);
  // Read now, so a broken override is skipped alone rather than failing its series when expanded.
  const rid = read('RECURRENCE-ID', () => ev.recurrenceId.toString());
  const start = read('DTSTART', () => ev.startDate);
  const end = read('DTEND or DURATION', () => ev.endDate);
  if (!start) return [skip(uid, `event${quoted(textOf(c, 'summary'))} has no DTSTART`)];
  const master = masters.get(uid);
  if (master?.isRecurring()) {
    master.relateException(ev);
    return [];
  }
  // An override whose series is not in this file stands alone.
  return withDescription(ev, toRecord(ev, start, end, `ics:${uid}@${rid}`, uid, uid, o));
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The occurrences of a series inside the window: at most maxOccurrencesPerSeries, those nearest to
 * `now` (the recent past and what is coming matter more than the window's far ends), plus a skip
 * saying what a cap left out. Built whole before anything is returned, so a series whose rule fails
 * part way is one skip, not a silently shortened series.
 */
function occurrenceItems(ev: IcalEvent, uid: string, w: RecurrenceWindow, o: ParseOptions): ImportItem[] {
  const cap = maxOccurrencesPerSeries;
  const tzid = tzidOf(ev.component, 'dtstart');
  const recurrence = 'RRULE, RDATE or EXDATE';
  const rolledOver = rolledOverDays(ev);
  read(recurrence, () => countRealDaysOnly(ev, rolledOver, maxRuleSteps));
  const it = read(recurrence, () => ev.iterator());
  const next = () => read(recurrence, () => it.next());
  // Walked in time order: of those before now only the last `cap` can be kept, of those after only the first.
  let before: { t: IcalTime; at: Date }[] = [];
  const after: { t: IcalTime; at: Date }[] = [];
  let inWindowBefore = 0;
  let inWindowAfter = 0;
  let steps = 0;
  let nonexistent = 0;
  let stoppedAt: Date | null = null;
  // Occurrences outside the window, for a series that has none inside it: the first and the last seen.
  const outside: { first: Date | null; last: Date | null; count: number } = {
    first: null,
    last: null,
    count: 0,
  };
  const seenOutside = (at: Date) => {
    outside.first ??= at;
    outside.last = at;
    outside.count += 1;
  };
  for (let t = next(); t; t = next()) {
    const at = instant(t, tzid, o);
    // A day the rule cannot have is not an instance, in the window or out of it; past the window's
    // end, nothing the rule gives later is in it either.
    const real = !rolledOver(t);
    if (at >= w.end) {
      if (real) seenOutside(at);
      break;
    }
    if (++steps > maxRuleSteps) {
      stoppedAt = at;
      break;
    }
    if (!real) {
      if (at >= w.start) nonexistent += 1;
      continue;
    }
    if (at < w.start) {
      seenOutside(at);
      continue;
    }
    if (at < w.now) {
      inWindowBefore += 1;
      before.push({ t: t.clone(), at });
      if (before.length >= 2 * cap) before = before.slice(-cap);
    } else {
      inWindowAfter += 1;
      if (after.length < cap) after.push({ t: t.clone(), at });
    }
  }
  before = before.slice(-cap);
  let i = before.length; // kept: before[i..], after[..j]
  let j = 0;
  while (before.length - i + j < cap && (i > 0 || j < after.length)) {
    const past = i > 0 ? w.now.getTime() - before[i - 1]!.at.getTime() : Infinity;
    const coming = j < after.length ? after[j]!.at.getTime() - w.now.getTime() : Infinity;
    if (past < coming) i -= 1;
    else j += 1;
  }
  const kept = [...before.slice(i), ...after.slice(0, j)];
  const earlier = inWindowBefore - (before.length - i);
  const later = inWindowAfter - j;
  const occurrences = kept.map(({ t }) => {
    const d = ev.getOccurrenceDetails(t);
    return { d, id: `ics:${uid}@${d.recurrenceId.toString()}` };
  });
  const series = seriesRead(
    uid,
    occurrences.map((x) => x.id),
    earlier + later > 0 || stoppedAt !== null ? null : w,
  );
  const items: ImportItem[] = occurrences.map(({ d, id }) => {
    const item = toRecord(d.item, d.startDate, d.endDate, id, id.slice('ics:'.length), uid, o);
    return item.type === 'record' && series ? { ...item, series } : item;
  });
  // Dated at the series' own start, which stays put: the first occurrence kept moves with the window,
  // and each import a week later would write the description again as a new revision.
  if (items.some((x) => x.type === 'record')) {
    const start = ev.startDate;
    items.push(
      ...descriptionItem(ev, `ics:${uid}`, uid, stamp(start, instant(start, tzid, o)), eventItem(uid)),
    );
  }
  const title = quoted(textOf(ev.component, 'summary'));
  if (kept.length === 0 && !stoppedAt && !outside.first && nonexistent > 0) {
    items.push(
      skip(
        uid,
        `series${title}: none of the days its rule gives in the import window exists (such as 30 February)`,
      ),
    );
  }
  if (kept.length === 0 && !stoppedAt && outside.first && outside.last) {
    // Said, not dropped without a word: "when is the team standup?" found nothing and nothing told why.
    const runs =
      outside.last < w.start
        ? `its ${outside.count} occurrence${outside.count === 1 ? '' : 's'} ran from ${day(outside.first)} to ${day(outside.last)}`
        : outside.first >= w.end
          ? `it begins on ${day(outside.first)}`
          : `its occurrences fall before and after it`;
    items.push(
      skip(
        uid,
        `series${title}: no occurrence in the import window (${day(w.start)} to ${day(w.end)}); ${runs}. ` +
          "Import it again with a window that holds them (mnemo import --since/--until, or the Import screen's dates)",
      ),
    );
  }
  if (earlier + later > 0) {
    items.push(
      skip(
        uid,
        `series${title}: ${inWindowBefore + inWindowAfter} occurrences in the import window, over the ` +
          `${cap} kept per series: kept those nearest to now (${day(kept[0]!.at)} to ` +
          `${day(kept.at(-1)!.at)}), left out ${earlier} earlier and ${later} later`,
      ),
    );
  }
  if (stoppedAt) {
    items.push(
      skip(
        uid,
        `series${title}: its rule was followed for ${maxRuleSteps} repetitions, up to ${day(stoppedAt)}; ` +
          `occurrences after that are left out`,
      ),
    );
  }
  return items;
}

/** The widest offset from UTC in use, for a wall time whose zone is not read here. */
const widestOffsetMs = 14 * 3_600_000;

/**
 * The occurrence ids of a series from the first read to the last (ImportRecord.series): a stored one
 * between them that was not read is no longer the series'. IDS are the occurrences read, in time order;
 * WHOLE, the window when every occurrence in it was read (no cap, no rule cut short): the span then
 * reaches its ends, written as the ids' RECURRENCE-IDs are (UTC with "Z"; a wall time or a date, whose
 * zone is not read here, narrowed by the widest offset so that the span never reaches past the window).
 */
function seriesRead(
  uid: string,
  ids: readonly string[],
  whole: RecurrenceWindow | null,
): { first: string; last: string } | null {
  if (ids.length === 0) return null;
  let first = ids[0]!;
  let last = ids.at(-1)!;
  if (whole !== null) {
    const rid = first.slice(`ics:${uid}@`.length);
    const utc = rid.endsWith('Z');
    const margin = utc ? 0 : rid.length === 10 ? widestOffsetMs + 86_400_000 : widestOffsetMs;
    const written = (d: Date) =>
      `ics:${uid}@${d.toISOString().slice(0, rid.length === 10 ? 10 : 19)}${utc ? 'Z' : ''}`;
    const from = written(new Date(whole.start.getTime() + margin));
    const to = written(new Date(whole.end.getTime() - margin - 1000));
    if (from.length === first.length && from < first) first = from;
    if (to.length === last.length && to > last) last = to;
  }
  return { first, last };
}

function masterItems(ev: IcalEvent, uid: string, w: RecurrenceWindow, o: ParseOptions): ImportItem[] {
  const start = read('DTSTART', () => ev.startDate);
  if (!start) return [skip(uid, `event${quoted(textOf(ev.component, 'summary'))} has no DTSTART`)];
  if (!ev.isRecurring()) {
    const end = read('DTEND or DURATION', () => ev.endDate);
    return withDescription(ev, toRecord(ev, start, end, `ics:${uid}`, uid, uid, o));
  }
  return occurrenceItems(ev, uid, w, o);
}

/**
 * One `event` Record per VEVENT of one VCALENDAR; a recurring series gives one Record per occurrence
 * inside the window (overridden occurrences, RECURRENCE-ID, replace the rule's instance). An event
 * with a value that cannot be read is one skip; the others are still read.
 */
function* calendarItems(
  cal: IcalComponent,
  newest: Map<string, IcalComponent>,
  w: RecurrenceWindow,
  o: ParseOptions,
): Generator<ImportItem> {
  const masters = new Map<string, IcalEvent>();
  const overrides: IcalComponent[] = [];
  const older: ImportItem[] = [];
  for (const c of cal.getAllSubcomponents('vevent')) {
    yield* itemsOrSkip(c, () => {
      if (c.hasProperty('recurrence-id')) {
        overrides.push(c);
        return [];
      }
      // `exceptions: []`: left alone, ical.js relates every override in the calendar to each series,
      // whatever its UID (another series' override at the same time replaced this one's occurrence),
      // and one override with a broken RECURRENCE-ID failed every series. overrideItems relates them.
      const uid = uidOf(c);
      // One UID twice: versions of one event. The newest is the event; another, an exact copy too, is
      // said, not dropped without a word.
      const event = newest.get(uid) ?? c;
      if (event !== c) {
        older.push(olderVersionSkip(uid, c, event));
        return [];
      }
      masters.set(uid, new ICAL.Event(untilInStartZone(c, o), { exceptions: [] }));
      return [];
    });
  }
  yield* older;
  for (const c of overrides) yield* itemsOrSkip(c, () => overrideItems(c, masters, o));
  let done = 0;
  for (const [uid, ev] of masters) {
    // A series' occurrences are most of a calendar's items: how far through is told by its events.
    o.onRead?.(done++ / masters.size);
    yield* itemsOrSkip(ev.component, () => masterItems(ev, uid, w, o));
  }
}

/** A date or date-time property of a to-do or a journal entry, as a Record writes it; null if none or unreadable. */
function whenOf(c: IcalComponent, property: string, o: ParseOptions): string | null {
  try {
    const t = c.getFirstPropertyValue(property);
    if (!(t instanceof ICAL.Time)) return null;
    const at = instant(t, tzidOf(c, property), o);
    return Number.isNaN(at.getTime()) ? null : stamp(t, at);
  } catch {
    return null;
  }
}

/**
 * When a to-do is due or was done, as its text says it: a DATE as that date ("Due: 2026-12-15"), which
 * as 00:00Z ("Due: 2026-12-15T00:00:00.000Z") read as an instant, another day west or east of UTC; a
 * date-time as whenOf writes it. To-dos imported before say the instant: held-items.ts reads the two as
 * one when the import meets them again.
 */
function dayOrWhenOf(c: IcalComponent, property: string, o: ParseOptions): string | null {
  try {
    const t = c.getFirstPropertyValue(property);
    if (t instanceof ICAL.Time && t.isDate) {
      const date = `${String(t.year).padStart(4, '0')}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
      if (/^\d{4}-\d\d-\d\d$/u.test(date)) return date;
    }
  } catch {
    // Unreadable: whenOf says null.
  }
  return whenOf(c, property, o);
}

/** Every DESCRIPTION of a component (a journal entry may hold several), joined. */
function descriptionsOf(c: IcalComponent): string {
  try {
    return c
      .getAllProperties('description')
      .map((p) => String(p.getFirstValue() ?? '').trim())
      .filter((x) => x !== '')
      .join('\n\n');
  } catch {
    return '';
  }
}

/**
 * A calendar's to-dos (VTODO) and journal entries (VJOURNAL), each a `document` of its own: a to-do
 * titled "To-do: …" with when it is due and whether it was done, an entry by its summary and dated by
 * its day. They were dropped without a word beside the events of the same file. A cancelled one is a
 * skip that says so.
 */
function* entryItems(cal: IcalComponent, o: ParseOptions): Generator<ImportItem> {
  for (const [name, what] of [
    ['vtodo', 'to-do'],
    ['vjournal', 'journal entry'],
  ] as const)
    for (const c of cal.getAllSubcomponents(name)) {
      const uid = uidOf(c);
      const summary = textOf(c, 'summary');
      const ref = `${what} ${uid}${quoted(summary)}`;
      if (textOf(c, 'status').toUpperCase() === 'CANCELLED') {
        yield skip(ref, `cancelled ${what}`);
        continue;
      }
      const text = descriptionsOf(c);
      if (!summary && !text) {
        yield skip(ref, `${what} without a summary or a description`);
        continue;
      }
      const written = whenOf(c, 'created', o) ?? whenOf(c, 'dtstamp', o);
      const title = name === 'vtodo' ? `To-do: ${summary || '(no title)'}` : summary || 'Journal entry';
      const due = name === 'vtodo' ? dayOrWhenOf(c, 'due', o) : null;
      const completed = name === 'vtodo' ? dayOrWhenOf(c, 'completed', o) : null;
      const done =
        completed !== null || (name === 'vtodo' && textOf(c, 'status').toUpperCase() === 'COMPLETED');
      const lines = [
        name === 'vtodo' ? title : summary,
        due === null ? '' : `Due: ${due}`,
        done ? `Done${completed === null ? '' : `: ${completed}`}` : '',
        text,
      ].filter((x) => x !== '');
      const occurredAt = (name === 'vjournal' ? whenOf(c, 'dtstart', o) : null) ?? written;
      yield {
        type: 'record',
        ref,
        body: {
          content: {
            kind: 'document',
            title: title.slice(0, 2000),
            text: lines.join('\n').slice(0, 1_000_000),
          },
          source: { name: 'ics', external_id: `ics:${uid}#${name}`.slice(0, 2000) },
          ...(occurredAt !== null ? { occurred_at: occurredAt } : {}),
        },
        item: eventItem(uid),
      };
    }
}

interface CalendarBlock {
  name: 'VEVENT' | 'VTIMEZONE' | 'VTODO' | 'VJOURNAL';
  /** 1-based line of its BEGIN. */
  line: number;
  lines: string[];
  /** False when the file ends, or another block begins, before its END. */
  complete: boolean;
}

/**
 * The VTIMEZONE, VEVENT, VTODO and VJOURNAL blocks of each VCALENDAR, found line by line without
 * parsing: for a file ical.js cannot read whole, so each block is read on its own. A calendar's own
 * properties are not used.
 */
function splitCalendars(text: string): CalendarBlock[][] {
  const calendars: CalendarBlock[][] = [];
  let calendar: CalendarBlock[] | null = null;
  let open: CalendarBlock | null = null;
  const close = (complete: boolean) => {
    if (!open) return;
    open.complete = complete;
    if (!calendar) calendars.push((calendar = []));
    calendar.push(open);
    open = null;
  };
  for (const [i, line] of text.split(/\r\n|\r|\n/).entries()) {
    const m = /^(BEGIN|END):(VCALENDAR|VEVENT|VTIMEZONE|VTODO|VJOURNAL)\s*$/i.exec(line);
    const verb = m?.[1]?.toUpperCase();
    const name = m?.[2]?.toUpperCase();
    if (name === 'VCALENDAR') {
      close(false);
      calendar = null;
      if (verb === 'BEGIN') calendars.push((calendar = []));
    } else if (verb === 'BEGIN') {
      // None of them nests, so a BEGIN inside one means the one before lost its END.
      close(false);
      open = { name: name as CalendarBlock['name'], line: i + 1, lines: [line], complete: false };
    } else if (open) {
      open.lines.push(line);
      if (verb === 'END' && name === open.name) close(true);
    }
  }
  close(false);
  return calendars;
}

/** A property's text as written in a block ical.js cannot read ('' when absent). */
function rawText(lines: string[], property: string): string {
  const unfolded = lines
    .join('\n')
    .replace(/\n[ \t]/g, '')
    .split('\n');
  const re = new RegExp(`^${property}(?:;(?:[^:"]|"[^"]*")*)?:(.*)$`, 'i');
  for (const line of unfolded) {
    const m = re.exec(line);
    if (m)
      return m[1]!
        .replace(/\\[nN]/g, ' ')
        .replace(/\\(.)/g, '$1')
        .trim();
  }
  return '';
}

/** How a block of a file ical.js cannot read whole is named in a skip. */
const blockNames: Record<CalendarBlock['name'], { id: string; what: string }> = {
  VEVENT: { id: 'UID', what: 'event' },
  VTODO: { id: 'UID', what: 'to-do' },
  VJOURNAL: { id: 'UID', what: 'journal entry' },
  VTIMEZONE: { id: 'TZID', what: 'time zone' },
};

/**
 * For a file ical.js cannot read whole (one malformed line, a download cut off): each VEVENT, VTODO
 * and VJOURNAL is read on its own with its calendar's VTIMEZONEs, and only the ones that cannot be
 * read are skipped, each named. A file without a single one of them is one skip, as before.
 */
function* recoveredItems(
  text: string,
  path: string,
  parseError: string,
  w: RecurrenceWindow,
  o: ParseOptions,
): Generator<ImportItem> {
  const calendars = splitCalendars(text);
  if (!calendars.some((blocks) => blocks.some((b) => b.name !== 'VTIMEZONE'))) {
    // What the parser tripped on in a file that is no calendar at all (a mail, "--format ics") is its
    // own internals ("Cannot read properties of undefined"), not a reason.
    const calendarLine = /^BEGIN:VCALENDAR\s*$/imu.test(text);
    yield skip(
      path,
      `not an iCalendar file: ${calendarLine ? parseError : 'it has no BEGIN:VCALENDAR line'}`,
    );
    return;
  }
  const read: IcalComponent[] = [];
  for (const blocks of calendars) {
    const components: unknown[] = [];
    for (const b of blocks) {
      const zone = b.name === 'VTIMEZONE';
      const named = blockNames[b.name];
      const id = rawText(b.lines, named.id);
      const ref = zone
        ? `VTIMEZONE ${id || `at line ${b.line}`}`
        : b.name === 'VEVENT'
          ? id || `event at line ${b.line}`
          : `${named.what} ${id || `at line ${b.line}`}`;
      const what = `${named.what}${quoted(zone ? id : rawText(b.lines, 'SUMMARY'))} at line ${b.line}`;
      const after = zone ? '; times in it are read as the IANA zone of that name, else as floating' : '';
      if (!b.complete) {
        yield skip(ref, `${what} is cut off: no END:${b.name} (is the file truncated?)${after}`);
        continue;
      }
      try {
        const parsed: unknown = ICAL.parse(b.lines.join('\r\n'));
        if (!Array.isArray(parsed) || parsed[0] !== b.name.toLowerCase())
          throw new Error(`not one ${b.name}`);
        components.push(parsed);
      } catch (e) {
        yield skip(ref, `${what} cannot be read: ${errorMessage(e)}${after}`);
      }
    }
    read.push(new ICAL.Component(['vcalendar', [], components] as never));
  }
  const newest = newestVersions(read);
  for (const cal of read) {
    yield* calendarItems(cal, newest, w, o);
    yield* entryItems(cal, o);
  }
}

/**
 * One `event` Record per VEVENT; a recurring series gives one Record per occurrence inside the
 * recurrence window (overridden occurrences, RECURRENCE-ID, replace the rule's instance).
 */
export async function* parseIcs(path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  const w = recurrenceWindow(o, (o.now ?? (() => new Date()))());
  let text: string;
  let roots: unknown[];
  try {
    text = await readFoldedText(path);
  } catch (e) {
    yield skip(path, `not an iCalendar file: ${errorMessage(e)}`);
    return;
  }
  o.onText?.(text);
  try {
    const parsed: unknown = ICAL.parse(text);
    roots = Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : (parsed as unknown[]);
  } catch (e) {
    yield* recoveredItems(text, path, errorMessage(e), w, o);
    return;
  }
  const calendars = roots.map((root) => new ICAL.Component(root as never));
  // An empty file, or a calendar of no events (only tasks, or none at all), is one skip that says so:
  // otherwise its part read as nothing at all, with no reason given, unlike every other format's.
  const holds = (c: IcalComponent) =>
    ['vevent', 'vtodo', 'vjournal'].some((n) => c.getFirstSubcomponent(n) !== null);
  if (!calendars.some(holds)) {
    yield skip(
      path,
      text.trim() === ''
        ? 'empty file'
        : calendars.some((c) => c.name === 'vcalendar')
          ? 'no events, to-dos or journal entries in this calendar'
          : 'not an iCalendar file: no BEGIN:VCALENDAR',
    );
    return;
  }
  const newest = newestVersions(calendars);
  for (const [i, cal] of calendars.entries()) {
    const onRead = o.onRead;
    const inFile = onRead && ((f: number) => onRead((i + f) / calendars.length));
    yield* calendarItems(cal, newest, w, inFile ? { ...o, onRead: inFile } : o);
    yield* entryItems(cal, o);
  }
}
