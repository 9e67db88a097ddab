import ICAL from 'ical.js';

type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalEvent = InstanceType<typeof ICAL.Event>;
type Recur = InstanceType<typeof ICAL.Recur>;

/**
 * For one series, whether a day ical.js's iterator gave is one its rule cannot have: a date that does
 * not exist, rolled over into the next month (a yearly rule from 29 February gives 1 March in other
 * years; BYMONTH=2 with BYMONTHDAY=30 gives 1 or 2 March; kewisch/ical.js#91). RFC 5545 3.3.10 says
 * such instances are ignored, so a leap-day birthday is one in leap years, not an event on 1 March.
 * The start and RDATEs are instances of their own, whatever the rule says. ical.js counts the
 * rolled-over days towards COUNT (see countRealDaysOnly). The rule and RDATEs are read once per series,
 * not per occurrence.
 */
export function rolledOverDays(ev: IcalEvent): (t: IcalTime) => boolean {
  const rules = ev.component
    .getAllProperties('rrule')
    .map((p) => p.getFirstValue())
    .filter((r): r is Recur => r instanceof ICAL.Recur);
  if (rules.length === 0) return () => false;
  const start = ev.startDate;
  const rdates = ev.component
    .getAllProperties('rdate')
    .flatMap((p) => p.getValues())
    .map((v) => (v instanceof ICAL.Time ? v : (v as { start: IcalTime }).start));
  return (t) =>
    !sameDay(t, start) && !rdates.some((d) => sameDay(t, d)) && !rules.some((r) => dayFits(t, r, start));
}

const sameDay = (a: IcalTime, b: IcalTime) => a.year === b.year && a.month === b.month && a.day === b.day;

/**
 * Whether the day agrees with the rule's month days and months, given or taken from the start as RFC
 * 5545 takes what a rule leaves out (a rule that names weekdays, weeks or days of the year sets its
 * own days and is not judged here).
 */
function dayFits(t: IcalTime, rule: Recur, start: IcalTime): boolean {
  const parts = rule.parts as Record<string, number[] | undefined>;
  const own = (name: string) => (parts[name]?.length ?? 0) > 0;
  const setsOwnDays = own('BYDAY') || own('BYYEARDAY') || own('BYWEEKNO');
  const monthDays = parts['BYMONTHDAY'];
  if (monthDays?.length) {
    const length = ICAL.Time.daysInMonth(t.month, t.year);
    if (!monthDays.some((d) => (d > 0 ? d : length + d + 1) === t.day)) return false;
  } else if ((rule.freq === 'YEARLY' || rule.freq === 'MONTHLY') && !setsOwnDays && t.day !== start.day)
    return false;
  const months = parts['BYMONTH'];
  if (months?.length) return months.includes(t.month);
  if (rule.freq === 'YEARLY' && !setsOwnDays && !monthDays?.length) return t.month === start.month;
  return true;
}

/**
 * Makes each RRULE's COUNT count only days that exist. ical.js counts a rolled-over day towards COUNT,
 * so "the 31st, 6 times" ended after 6 months, of which only 3 have a 31st. A rule whose first COUNT
 * instances meet such a day is given the UNTIL of its COUNT-th real instance instead: the same
 * series, ended where RFC 5545 ends it. Walks at most `maxSteps` instances per rule.
 */
export function countRealDaysOnly(
  ev: IcalEvent,
  rolledOver: (t: IcalTime) => boolean,
  maxSteps: number,
): void {
  for (const p of ev.component.getAllProperties('rrule')) {
    const rule = p.getFirstValue();
    if (!(rule instanceof ICAL.Recur) || !rule.count) continue;
    // The rule's own iterator stops at its COUNT, rolled-over days included: walk it without one.
    const unbounded = rule.clone();
    unbounded.count = null;
    const it = unbounded.iterator(ev.startDate);
    let real = 0;
    let skipped = false;
    for (let steps = 0, t = it.next(); t && steps < maxSteps; t = it.next(), steps++) {
      if (rolledOver(t)) skipped = true;
      else if (++real === rule.count) {
        if (skipped) {
          rule.until = t.clone();
          rule.count = null;
        }
        break;
      }
    }
  }
}
