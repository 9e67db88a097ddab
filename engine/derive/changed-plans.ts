import type { Claim } from '../core/derive/deriver.ts';
import {
  answersPlan,
  bookedApart,
  eventTimes,
  isBookingChanged,
  isPlanChanged,
  namesOtherMonth,
  namesOtherPlace,
  nextOf,
  planDate,
  type PlanDate,
  planSearchWords,
  planWords,
  sameDate,
  saysMoreOfPlan,
  saysTrip,
} from '../core/derive/plan-changed.ts';
import { agentSpeakerNames, spellings } from '../core/derive/agent-words.ts';
import type { MemoryRepository, MemoryVersionRow, RecordRepository, RecordRow } from '../ports/index.ts';
import type { NextOf } from './next-statement.ts';
import { ownersReached } from './owners-reached.ts';
import { sameRecordStatements } from './same-record-statements.ts';

/** How many of the owner's statements saying the plan's noun are read: the latest begun. */
const reach = 50;

/**
 * What changedPlanOf reads of the Records, where its caller has them: the thread a booking said apart
 * from its plan was said in (bookedApartOf).
 */
export type PlanRecords = Pick<RecordRepository, 'getMany' | 'threadBefore' | 'list'>;

/** The sources of mail, whose senders' bookings a plan the person moves changes too. */
const mailSources = ['mbox'];

/**
 * The plan a claim changes (`changesPlan`: "The dentist moved my appointment to Friday instead of
 * Thursday.", "I cancelled my dentist appointment."), said before `beforeMs`, or null (the claim is then
 * a statement of its own): the owner's latest current statement of no slot (ownersReached) that says
 * the plan (plan-changed.ts `isPlanChanged`: "I booked a dentist appointment for Thursday at 3pm.").
 * admit-claims.ts admits the claim as its next version from the Record's world time, closing the plan
 * there (next-statement.ts `admitAsNextOf`): the plan was so until it changed. Forgetting the Record
 * removes the version and the plan holds again; moved twice, the second move supersedes the first. A
 * plan its person calls off ("Inês can't make it") is that person's latest (`of`), whoever says so;
 * one changed by someone named ("Inês cancelled the trip") may be theirs where the speaker has none,
 * and the version that changes it stays theirs, in the speaker's words. The same plan written unowned
 * after the speaker's own (an agent's or a calendar's event, "Dentist (Dr. Horvat); when:
 * 2026-12-08T09:00:00Z", beside her "I booked the dentist for Tuesday"), and her own calendar's event
 * of it still to come beside her plan said before it, are `also` changed: the change
 * is that lineage's next version too, so the event is superseded, its history saying by what, and a
 * forgotten change restores it as it does the plan. An imported event begins where it is held (its
 * Record's world time is its start): one still to come when the change is said began after it, and is
 * looked for there, the nearest first, where none begun before is the plan; one already begun then is
 * past, no plan the change names. So is a booking of it mailed to the person (an
 * airline's "Your flight TP 1234 Zagreb – Lisbon on Thursday 12 March 10:15 is confirmed.", the
 * sender's statement): her own change of a plan that names its place ("My flight to Lisbon moved to
 * Friday.") is its next version too, and where she said no plan of her own, the booking is the plan
 * it changes (plan-changed.ts `isBookingChanged`).
 */
export async function changedPlanOf(
  memories: MemoryRepository,
  claim: Claim,
  beforeMs: number,
  records?: PlanRecords,
): Promise<NextOf | null> {
  const change = claim.changesPlan;
  if (change === undefined) return null;
  const of = change.of;
  const { owners, isNamed } = ownersOf(claim, change);
  // The owner's plan said before the change, and the calendar's event of it still to come: where both
  // are found they are one plan written twice ("Booked the trip to Lisbon with Marko for December 12 to
  // 15." and her calendar's "Flight to Lisbon with Marko"), and the change is the next version of each.
  // The event alone was read only where no plan said before was found: it stayed current, 12–15 Dec.
  // The date a call-off names its plan by ("We cancelled the March trip"), if any; a move's is the new one.
  const named = change.how === 'cancelled' ? planDate(claim.statement) : null;
  const statementsOf = async (owner: Owner) => {
    const plans = await plansBefore(memories, owner, change, beforeMs);
    // The plan she said, where the latest found is the event itself (an agent's or an app's, dated
    // before the change): "Petra and I are planning a weekend in Vienna, …" stayed current beside it.
    // Of two plans of it, the one the change dates, else the one that comes first (nearestPlan).
    const said =
      nearestPlan(
        plans.filter((m) => eventTimes(m.statement) === null),
        named,
        beforeMs,
      ) ?? plans[0];
    const when = said === undefined ? null : planDate(said.statement);
    // Her calendar's event, written before the change (as an agent or an app dates it) or after it
    // (as an import dates it, by its start): of the same days as the plan said, where it says them.
    const ofIt = (m: { statement: string } | undefined) => {
      const at = m === undefined ? null : planDate(m.statement);
      return m !== undefined && (when === null || at === null || sameDate(when, at));
    };
    const before = plans.find((m) => eventTimes(m.statement) !== null && ofIt(m));
    const ahead = before === undefined ? await eventAhead(memories, owner, change, beforeMs) : undefined;
    const event = before ?? (ofIt(ahead) ? ahead : undefined);
    return [said, event].filter(
      (m, i, all): m is NonNullable<typeof m> =>
        m !== undefined && all.findIndex((o) => o?.lineage === m.lineage) === i,
    );
  };
  const booked = claim.owner.state === 'self' ? await bookingsOf(memories, change, beforeMs) : [];
  for (const [i, owner] of owners.entries()) {
    const [plan, ...twice] = await statementsOf(owner);
    if (plan === undefined) continue;
    // The unowned (a calendar's event) the owners after it reach: the same plan, written again.
    const also: string[] = twice.map((m) => m.lineage);
    // What the plan's Record said more of it, and an agent's word of her plan: gone with it.
    const more = [
      ...(await moreOfPlan(memories, plan, owner, change, beforeMs)),
      ...(await bookedApartOf(memories, records, plan, owner, change, beforeMs)),
      ...(owner.owner_state === 'self'
        ? await agentsWordOfPlan(memories, change, beforeMs, planDate(plan.statement))
        : []),
    ];
    for (const lineage of more) if (lineage !== plan.lineage && !also.includes(lineage)) also.push(lineage);
    for (const rest of owners.slice(i + 1)) {
      if (rest.owner_state !== 'unresolved') continue;
      for (const same of await statementsOf(rest))
        if (same.lineage !== plan.lineage && !also.includes(same.lineage)) also.push(same.lineage);
    }
    for (const lineage of booked) if (lineage !== plan.lineage && !also.includes(lineage)) also.push(lineage);
    return {
      lineage: plan.lineage,
      statement: claim.statement,
      owner: of !== undefined && isNamed(owner) ? of : claim.owner,
      also,
    };
  }
  const [first, ...rest] = booked;
  return first === undefined
    ? null
    : { lineage: first, statement: claim.statement, owner: claim.owner, also: rest };
}

/**
 * The lineages of the calendar's events still to come that a claim's change names: what changedPlanOf
 * gives `also` now, which a change placed before rules-v84 (an unowned event) or rules-v85 (the owner's
 * own event, beside her plan said before it) read such events had left current (upgrade-derivation.ts
 * `joinChangedPlans`, which leaves out the lineage the change was placed in): an event dated before the
 * change (as an agent or an app writes it) or by its start after it (as an import dates it).
 */
export async function eventsAheadOf(
  memories: MemoryRepository,
  claim: Claim,
  beforeMs: number,
): Promise<string[]> {
  const change = claim.changesPlan;
  if (change === undefined) return [];
  const found: string[] = [];
  for (const owner of ownersOf(claim, change).owners) {
    const event =
      (await plansBefore(memories, owner, change, beforeMs)).find((m) => eventTimes(m.statement) !== null) ??
      (await eventAhead(memories, owner, change, beforeMs));
    if (event !== undefined && !found.includes(event.lineage)) found.push(event.lineage);
  }
  return found;
}

type Change = NonNullable<Claim['changesPlan']>;
type Owner = Pick<MemoryVersionRow, 'owner_state' | 'owner_entity'>;

/**
 * Whose statements a claim's change reaches, in order: the speaker's own and the unowned
 * (ownersReached), then the person it names; only theirs for their own plan called off ("Inês can't
 * make it").
 */
function ownersOf(claim: Claim, change: Change): { owners: Owner[]; isNamed: (o: Owner) => boolean } {
  const of = change.of;
  const named: Owner[] = of === undefined ? [] : [{ owner_state: of.state, owner_entity: of.entity ?? null }];
  const isNamed = (o: Owner) =>
    named.some((n) => n.owner_state === o.owner_state && n.owner_entity === o.owner_entity);
  const owners =
    change.person !== undefined
      ? named
      : [...ownersReached(claim.owner).filter((o) => !isNamed(o)), ...named];
  return { owners, isNamed };
}

/** The owner's current statements of the plan's words begun before `beforeMs` or, `ahead`, from it on. */
const plansSaid = (
  memories: MemoryRepository,
  owner: Owner,
  change: Change,
  beforeMs: number,
  ahead: boolean,
) =>
  memories.statementsSaying({
    ...owner,
    words: planSearchWords(change),
    beforeMs,
    limit: reach,
    ...(ahead ? { ahead: true } : {}),
  });

/** The owner's current statements begun before `beforeMs` that are the plan, latest first, past events aside. */
async function plansBefore(memories: MemoryRepository, owner: Owner, change: Change, beforeMs: number) {
  const said = await plansSaid(memories, owner, change, beforeMs, false);
  return said.filter((m) => !begunBefore(m.statement, beforeMs) && isPlanChanged(m.statement, change));
}

/**
 * The owner's nearest calendar's event still to come at `beforeMs` that is the plan: an imported event
 * begins where it is held, after the change said before its day.
 */
async function eventAhead(memories: MemoryRepository, owner: Owner, change: Change, beforeMs: number) {
  const ahead = await plansSaid(memories, owner, change, beforeMs, true);
  return ahead.find((m) => eventTimes(m.statement) !== null && isPlanChanged(m.statement, change));
}

/**
 * The lineages of the owner's other current statements of no slot said in the Records that said the
 * plan, that say more of it (plan-changed.ts `saysMoreOfPlan`: "We booked the Hotel Motto." beside
 * "Petra and I are planning a weekend in Vienna, December 12 to 14."), or are the plan said again:
 * left, the hotel stayed booked after "We cancelled Vienna.".
 */
async function moreOfPlan(
  memories: MemoryRepository,
  plan: Pick<MemoryVersionRow, 'id' | 'lineage' | 'statement'>,
  owner: Owner,
  change: Change,
  beforeMs: number,
): Promise<string[]> {
  return (await sameRecordStatements(memories, [plan], owner, beforeMs))
    .filter((m) => saysMoreOfPlan(m.statement, change, plan.statement) || isPlanChanged(m.statement, change))
    .map((m) => m.lineage);
}

/** The words a booking says one of (plan-changed.ts `bookedWords`), as statementsSaying reads them. */
const bookingSearchWords = ['booked', 'reserved', 'ticket', 'rented'];
/** How many messages of the thread may stand between a plan and a booking said right after it. */
const nearReach = 4;
/**
 * How many messages of the thread are read between a plan and a booking naming its place: more than
 * these between, it is not told whether another trip was said, and the booking stays.
 */
const namedReach = 24;

/**
 * The lineages of the owner's current bookings of a stay called off, each said in a Record of its own
 * in the plan's thread, after the plan was first said and before the change (plan-changed.ts
 * `bookedApart`): one naming the stay's place ("We booked a hotel in Vienna."), or one of its bed or
 * travel naming none ("We booked the Hotel Motto.") said right after the plan (saidWithPlan).
 * moreOfPlan reads the plan's Record only: said apart, as a chat says it, the hotel stayed booked after
 * "We cancelled Vienna.". Where the plan was moved before, it is read as first said, and by all it was
 * said as: a booking said between the plan and the move is the plan's too.
 */
async function bookedApartOf(
  memories: MemoryRepository,
  records: PlanRecords | undefined,
  plan: Pick<MemoryVersionRow, 'id' | 'lineage' | 'statement'>,
  owner: Owner,
  change: Change,
  beforeMs: number,
): Promise<string[]> {
  if (change.how !== 'cancelled' || records === undefined) return [];
  const versions = await memories.lineage(plan.lineage, { shareableOnly: false });
  const first = versions[0];
  if (first === undefined) return [];
  const planSaid = [...new Set([plan.statement, ...versions.map((v) => v.statement)])].join(' ');
  const found: string[] = [];
  const bookings = await memories.statementsSaying({
    ...owner,
    words: bookingSearchWords,
    beforeMs,
    limit: reach,
  });
  for (const m of bookings) {
    if (m.lineage === plan.lineage || found.includes(m.lineage)) continue;
    const how = bookedApart(m.statement, change, planSaid);
    if (how === null) continue;
    const booking = await memories.get(m.id);
    // Said before the plan, it may be another trip's: "We booked a hotel in Vienna." of a year ago.
    if (booking === null || booking.valid_from_ms < first.valid_from_ms) continue;
    if (await saidWithPlan(memories, records, first, booking, change, planSaid, how)) found.push(m.lineage);
  }
  return found;
}

/** A message's thread, "" where it was written in none. */
const threadOf = (row: RecordRow): string | null => {
  if (row.kind !== 'message') return null;
  const thread = (JSON.parse(row.content) as { thread?: string }).thread;
  return thread ?? '';
};
const before = (a: RecordRow, b: RecordRow) =>
  a.occurred_ms < b.occurred_ms || (a.occurred_ms === b.occurred_ms && a.n < b.n);

/**
 * Whether a booking was said in the plan's thread (the Brain's messages written in no thread are
 * one), after the plan's message, of no other trip: neither it nor a message between names a month
 * the plan does not (plan-changed.ts `namesOtherMonth`: "Luka and I are planning a trip to Vienna in
 * March." said between may be the trip it was for). One naming the stay's place (`named`) may come any
 * way on (up to `namedReach` messages between, read); one naming none (`near`) only right after the
 * plan: at most `nearReach` messages between, none naming another place (plan-changed.ts
 * `namesOtherPlace`: "Also got a table at Dubravkin put." may be what the booking was for). In
 * another thread it may be another trip's: "We booked a hotel in Vienna." in "work", of the March one.
 */
async function saidWithPlan(
  memories: MemoryRepository,
  records: PlanRecords,
  plan: Pick<MemoryVersionRow, 'id' | 'statement'>,
  booking: Pick<MemoryVersionRow, 'id' | 'statement'>,
  change: Change,
  planSaid: string,
  how: 'named' | 'near',
): Promise<boolean> {
  const reachOf = how === 'near' ? nearReach : namedReach;
  const cited = await memories.citations([plan.id, booking.id], { shareableOnly: false });
  const rows = await records.getMany([...new Set(cited.map((c) => c.record_id))]);
  const recordsOf = (id: string) =>
    rows.filter((r) => cited.some((c) => c.memory_id === id && c.record_id === r.id));
  // A month said between counts only of a trip: "My dentist appointment is on March 3." is not one.
  const otherTrip = (r: RecordRow, whenSaid: string) =>
    (namesOtherMonth(r.text, whenSaid) && saysTrip(r.text, change, planSaid)) ||
    (how === 'near' && namesOtherPlace(r.text, change, planSaid, booking.statement));
  for (const b of recordsOf(booking.id))
    for (const p of recordsOf(plan.id)) {
      const thread = threadOf(b);
      if (thread === null || threadOf(p) !== thread || !before(p, b)) continue;
      const between =
        thread !== ''
          ? await records.threadBefore(thread, b, { sinceMs: p.occurred_ms, limit: reachOf + 1 })
          : await unthreadedBetween(records, p, b, reachOf);
      if (between === null) continue;
      const at = between.findIndex((r) => r.id === p.id);
      if (at === -1) continue;
      // "In December." after a plan naming no month says when it is, not another trip.
      const answers = between.slice(0, at).filter((r) => answersPlan(r.text, change, planSaid));
      const whenSaid = [planSaid, ...answers.map((r) => r.text)].join(' ');
      if (namesOtherMonth(b.text, whenSaid)) continue;
      if (!between.slice(0, at).some((r) => otherTrip(r, whenSaid))) return true;
    }
  return false;
}

/**
 * The Brain's messages of no thread from the plan's to the booking's, the booking's aside, latest
 * first (as threadBefore answers a thread's): null where more than `reachOf` stand between.
 */
async function unthreadedBetween(
  records: PlanRecords,
  p: RecordRow,
  b: RecordRow,
  reachOf: number,
): Promise<RecordRow[] | null> {
  const page = await records.list({
    limit: 4 * (reachOf + 2),
    kind: 'message',
    sinceMs: p.occurred_ms,
    untilMs: b.occurred_ms,
    hideLocalOnly: false,
  });
  // Too many messages in the span to read them all: not told what stands between.
  if (page.next !== null) return null;
  const between = page.rows
    .filter((r) => threadOf(r) === '' && r.id !== b.id && !before(r, p) && before(r, b))
    .sort((x, y) => (before(x, y) ? 1 : -1));
  return between.length > reachOf + 1 ? null : between;
}

/**
 * The plan a change names among several of it (latest first): the one of the date the change says
 * ("We cancelled the March trip"), else the one that comes first from the change on (planDate, nextOf:
 * "We cancelled Vienna." said in November is the December weekend, not the March conference said
 * since), else, where a plan's date is not read (a weekday, "next week"), the latest.
 */
function nearestPlan<M extends { statement: string }>(
  plans: readonly M[],
  named: PlanDate | null,
  beforeMs: number,
): M | undefined {
  const dated = plans.flatMap((m) => {
    const date = planDate(m.statement);
    return date === null ? [] : [{ m, date, next: nextOf(date, beforeMs) }];
  });
  const ofNamed = named === null ? [] : dated.filter((d) => sameDate(d.date, named));
  // A plan of a weekday or "next week" may well be nearer than any dated one: the latest, as before.
  const among = ofNamed.length > 0 ? ofNamed : dated.length === plans.length ? dated : [];
  if (among.length === 0) return plans[0];
  return among.reduce((a, b) => (b.next < a.next ? b : a)).m;
}

/**
 * How an agent's statements are owned: by its speaker's name as written, each name the rules take for
 * an agent (agent-words.ts `agentSpeaker`: "assistant" as docs/agents.md tells it to write, "AI",
 * "Bot", …) as an agent writes it, and ChatGPT's in its chat export. Not "Claude", a person's name in
 * any other chat.
 */
const agentOwners = [...new Set([...agentSpeakerNames.flatMap(spellings), 'ChatGPT'])];

/**
 * The lineages of an agent's current statements of the person's plan, said before `beforeMs` ("Great,
 * I've noted your Vienna trip with Petra from December 12 to 14 at Hotel Motto."): its own words of
 * her plan, which stayed current, and were quoted for "What do I have next week?", after she called
 * it off. Where the plan says its date (`date`), only a note of that date or of none: "Noted: your
 * Vienna conference trip is in March." is another trip's than the December weekend.
 */
async function agentsWordOfPlan(
  memories: MemoryRepository,
  change: Change,
  beforeMs: number,
  date: PlanDate | null,
) {
  const found: string[] = [];
  for (const owner_entity of agentOwners) {
    const said = await plansSaid(memories, { owner_state: 'other', owner_entity }, change, beforeMs, false);
    for (const m of said) {
      const at = date === null ? null : planDate(m.statement);
      if (
        !begunBefore(m.statement, beforeMs) &&
        isPlanChanged(m.statement, change) &&
        (at === null || sameDate(date!, at)) &&
        !found.includes(m.lineage)
      )
        found.push(m.lineage);
    }
  }
  return found;
}

/** Whether a statement is a calendar's event that had begun by `ms`: past, no plan to change then. */
function begunBefore(statement: string, ms: number): boolean {
  const times = eventTimes(statement);
  return times !== null && times.startMs < ms;
}

/**
 * The lineages of the latest booking mailed to the person that her change names (isBookingChanged),
 * one per mail source: a booking and its reminder are two statements, the latest being the plan.
 */
async function bookingsOf(memories: MemoryRepository, change: Change, beforeMs: number): Promise<string[]> {
  if (change.place === undefined || change.person !== undefined) return [];
  const found: string[] = [];
  for (const source_key of mailSources) {
    const said = await memories.statementsToldFrom({
      source_key,
      words: planWords(change),
      beforeMs,
      limit: reach,
    });
    const booking = said.find((m) => isBookingChanged(m.statement, change));
    if (booking !== undefined) found.push(booking.lineage);
  }
  return found;
}
