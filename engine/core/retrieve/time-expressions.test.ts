import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asksWhen, statesTime, timeIntent } from './time-expressions.ts';
import { timeZone } from './time-zone.ts';

const ref = Date.UTC(2023, 6, 15, 12); // 15 July 2023, noon
const iso = (ms: number | undefined) =>
  ms === undefined ? undefined : new Date(ms).toISOString().slice(0, 10);

describe('time expressions in queries', () => {
  it('says nothing for a query without time', () => {
    assert.equal(timeIntent('What does Melanie paint?', ref), null);
    // "When" asks for a date; it does not restrict one.
    assert.equal(timeIntent('When did Caroline go to the support group?', ref), null);
  });

  it('reads explicit dates, months and years', () => {
    const d = timeIntent('what happened on 8 May, 2023?', ref)!;
    assert.deepEqual([iso(d.fromMs), iso(d.toMs)], ['2023-05-08', '2023-05-09']);
    const d2 = timeIntent('notes from May 8th 2023', ref)!;
    assert.deepEqual([iso(d2.fromMs), iso(d2.toMs)], ['2023-05-08', '2023-05-09']);
    const m = timeIntent('trips in August 2022', ref)!;
    assert.deepEqual([iso(m.fromMs), iso(m.toMs)], ['2022-08-01', '2022-09-01']);
    assert.ok(m.timeWords.includes('august') && m.timeWords.includes('2022'));
    const y = timeIntent('books read in 2021', ref)!;
    assert.deepEqual([iso(y.fromMs), iso(y.toMs)], ['2021-01-01', '2022-01-01']);
    const iso8601 = timeIntent('meeting 2023-03-02', ref)!;
    assert.deepEqual([iso(iso8601.fromMs), iso(iso8601.toMs)], ['2023-03-02', '2023-03-03']);
  });

  it('reads a date in numbers where its parts say which is the day', () => {
    const day = (q: string) => {
      const i = timeIntent(q, ref);
      return i === null ? null : [iso(i.fromMs), iso(i.toMs)];
    };
    assert.deepEqual(day('what happened on 25/12/2022?'), ['2022-12-25', '2022-12-26']);
    assert.deepEqual(day('what happened on 12/25/2022?'), ['2022-12-25', '2022-12-26']);
    assert.deepEqual(day('Was war am 03.05.2022?'), ['2022-05-03', '2022-05-04']);
    assert.deepEqual(day('o que fiz em 25-12-2022'), ['2022-12-25', '2022-12-26']);
    assert.deepEqual(timeIntent('what happened on 25/12/2022?', ref)!.timeWords, ['25', '12', '2022']);
    // Either way round, or no day at all: not read.
    assert.equal(day('what happened on 03/05/2022?'), null);
    assert.equal(day('on 31/02/2022'), null);
    assert.equal(day('13/14/2022'), null);
    // A version or a longer run of numbers is no date.
    assert.equal(day('upgrade to 1.2.3.2022'), null);
    assert.equal(day('serial 12/25/2022/7'), null);
  });

  it('places a day named without its year in the year it was last, or next when said of what is to come', () => {
    const day = (q: string) => {
      const i = timeIntent(q, ref)!;
      return [iso(i.fromMs), iso(i.toMs)];
    };
    assert.deepEqual(day('what happened on Jul 3?'), ['2023-07-03', '2023-07-04']);
    assert.deepEqual(day('what did we do on 23 November'), ['2022-11-23', '2022-11-24']);
    assert.deepEqual(day("I'll see her on August 2"), ['2023-08-02', '2023-08-03']);
    assert.deepEqual(day('what will we do on July 1'), ['2024-07-01', '2024-07-02']);
    assert.deepEqual(day('what happened between Jul 3 and Jul 9?'), ['2023-07-03', '2023-07-10']);
    assert.deepEqual(day('between 3 and 9 July'), ['2023-07-03', '2023-07-10']);
    assert.deepEqual(day('between Dec 28 and Jan 3'), ['2022-12-28', '2023-01-04']);
    // A year, where one is written, is that year's.
    assert.deepEqual(day('on May 8, 2021'), ['2021-05-08', '2021-05-09']);
    // "may" before a number is a verb unless written as the month is.
    assert.equal(timeIntent('I may 2 things', ref), null);
    assert.deepEqual(day('we met on May 2'), ['2023-05-02', '2023-05-03']);
    // So is "march"; a day no month has is none; 29 February is the last one there was.
    assert.equal(timeIntent('did we march 10 km', ref), null);
    assert.equal(timeIntent('what happened on Feb 30', ref), null);
    assert.deepEqual(day('what happened on Feb 29?'), ['2020-02-29', '2020-03-01']);
    assert.deepEqual(day('on the 3rd of March'), ['2023-03-03', '2023-03-04']);
    assert.deepEqual(day('on the 3rd of March 2021'), ['2021-03-03', '2021-03-04']);
    // A plan put in place for a day, though said in the past tense: the day to come.
    assert.deepEqual(day('I booked the dentist for Tuesday August 8 at 9:00'), ['2023-08-08', '2023-08-09']);
    assert.deepEqual(day('My appointment moved from Monday to Thursday July 20'), [
      '2023-07-20',
      '2023-07-21',
    ]);
    assert.deepEqual(day('Booked the restaurant for the 4th of August'), ['2023-08-04', '2023-08-05']);
    // Not a move to a place, nor a booking that names no day of its own.
    assert.deepEqual(day('I moved to Porto on July 20'), ['2022-07-20', '2022-07-21']);
    assert.deepEqual(day('I booked it on July 20'), ['2022-07-20', '2022-07-21']);
  });

  it('places a bare month at its latest occurrence before the reference time', () => {
    assert.equal(iso(timeIntent('dinner plans in March', ref)!.fromMs), '2023-03-01');
    assert.equal(iso(timeIntent('what did we do in September', ref)!.fromMs), '2022-09-01');
    // "may" is a verb far more often than a month: it is one written as the month is, after a word
    // that leads to one.
    assert.equal(timeIntent('in may be late', ref), null);
    assert.equal(timeIntent('what might happen in may', ref), null);
    assert.equal(timeIntent('May I ask about the trip?', ref), null);
    assert.equal(iso(timeIntent('What did I do in May?', ref)!.fromMs), '2023-05-01');
    assert.equal(iso(timeIntent('Where was I in mid-May?', ref)!.fromMs), '2023-05-01');
  });

  it('reads a month said "for", "mid", "early" or "late", and one to come in its next year', () => {
    const dec5 = Date.UTC(2026, 11, 5, 14);
    const month = (q: string) => {
      const t = timeIntent(q, dec5)!;
      return [iso(t.fromMs), iso(t.toMs)];
    };
    assert.deepEqual(month('What are my plans for December?'), ['2026-12-01', '2027-01-01']);
    assert.deepEqual(month('Where did I live in mid October?'), ['2026-10-01', '2026-11-01']);
    assert.deepEqual(month('What did we do in mid-October?'), ['2026-10-01', '2026-11-01']);
    assert.deepEqual(month('What happened early November?'), ['2026-11-01', '2026-12-01']);
    // A month of what is to come is its next one, as a day of the year said so is ("on 3 May").
    assert.deepEqual(month('What am I doing in January?'), ['2027-01-01', '2027-02-01']);
    assert.deepEqual(month('What will I do for February?'), ['2027-02-01', '2027-03-01']);
    assert.deepEqual(month('What did I do in January?'), ['2026-01-01', '2026-02-01']);
    // Words of the time, which the lanes do not search the Records by.
    assert.deepEqual(timeIntent('Where did I live in mid-October?', dec5)!.timeWords, ['october', 'mid']);
  });

  it('counts relative times from the reference (as_of or now)', () => {
    const y = timeIntent('what did Bob say yesterday', ref)!;
    assert.deepEqual([iso(y.fromMs), iso(y.toMs)], ['2023-07-14', '2023-07-15']);
    const w = timeIntent('anything from last week?', ref)!;
    assert.ok(w.fromMs! <= Date.UTC(2023, 6, 8) && w.toMs! >= Date.UTC(2023, 6, 15));
    const ago = timeIntent('the trip two weeks ago', ref)!;
    assert.ok(ago.fromMs! <= Date.UTC(2023, 6, 1) && ago.toMs! >= Date.UTC(2023, 6, 8));
  });

  it('reads "since <weekday>" as that day up to the reference day', () => {
    // 15 July 2023 is a Saturday.
    const mon = timeIntent('What has changed since Monday?', ref)!;
    assert.deepEqual([iso(mon.fromMs), iso(mon.toMs)], ['2023-07-10', '2023-07-16']);
    assert.deepEqual(mon.timeWords, ['monday']);
    // Said on the day it names: the one a week before.
    const sat = timeIntent('anything new since Saturday?', ref)!;
    assert.deepEqual([iso(sat.fromMs), iso(sat.toMs)], ['2023-07-08', '2023-07-16']);
    const last = timeIntent('since last Friday', ref)!;
    assert.deepEqual([iso(last.fromMs), iso(last.toMs)], ['2023-07-14', '2023-07-16']);
  });

  it('recognises asking for the newest or the oldest', () => {
    assert.equal(timeIntent("What is Ana's latest hobby?", ref)!.order, 'newest');
    assert.equal(timeIntent('Where does he live currently?', ref)!.order, 'newest');
    assert.equal(timeIntent('When did they first meet, the first time?', ref)!.order, 'oldest');
  });

  it('tells a question asking when from one that only has a when-clause', () => {
    for (const q of [
      'When did Caroline go to the parade?',
      'how long has Jon danced',
      'Which year did he move?',
      'What date was the party?',
    ])
      assert.ok(asksWhen(q), q);
    for (const q of ['What does she do when she is stressed?', 'Where did Ana go?', 'What time-saving tips?'])
      assert.ok(!asksWhen(q), q);
  });

  it('finds where a text says when, and not the verb "may"', () => {
    assert.equal(statesTime('I went there last week with my sister'), 'last week');
    assert.equal(statesTime('Back in May it rained'), 'in May');
    assert.equal(statesTime('We moved in 2019.'), '2019');
    assert.equal(statesTime('for 3 years now'), '3 years');
    assert.equal(statesTime('I may go, it may rain'), null);
    assert.equal(statesTime('Lisbon is lovely'), null);
  });

  it('reads what a text tells of, counted from when it was said', () => {
    const said = Date.UTC(2023, 9, 4, 15); // Wednesday 4 October 2023
    const range = (t: string) => {
      const i = timeIntent(t, said)!;
      return [iso(i.fromMs), iso(i.toMs)];
    };
    assert.deepEqual(range('Yesterday I met artists in Boston'), ['2023-10-03', '2023-10-04']);
    assert.deepEqual(range('Last Friday I went to the car show'), ['2023-09-28', '2023-10-01']);
    assert.deepEqual(range('last weekend we hiked'), ['2023-09-29', '2023-10-02']);
    assert.deepEqual(range('last night was fun'), ['2023-10-03', '2023-10-05']);
    assert.deepEqual(range('I went there a few days ago'), ['2023-09-27', '2023-10-04']);
    assert.deepEqual(range('between August 11 and August 15 2023'), ['2023-08-11', '2023-08-16']);
    assert.deepEqual(range('from 28 December 2022 to 2 January 2023'), ['2022-12-28', '2023-01-03']);
    assert.deepEqual(range('between December 28 and January 3 2024'), ['2023-12-28', '2024-01-04']);
    assert.deepEqual(range('between 15 August and 11 August 2023'), ['2023-08-11', '2023-08-16']);
  });

  it('reads the day a text points forward to, counted from when it was said', () => {
    const said = Date.UTC(2024, 5, 13, 9); // Thursday 13 June 2024
    const range = (t: string) => {
      const i = timeIntent(t, said);
      return i && [iso(i.fromMs), iso(i.toMs)];
    };
    assert.deepEqual(range('I have a dentist appointment next Tuesday at 3pm.'), [
      '2024-06-18',
      '2024-06-19',
    ]);
    assert.deepEqual(range('Tomorrow I fly to Porto'), ['2024-06-14', '2024-06-15']);
    assert.deepEqual(range('the day after tomorrow'), ['2024-06-15', '2024-06-16']);
    assert.deepEqual(range('next weekend we hike'), ['2024-06-15', '2024-06-17']);
    // "next week/month/year": the calendar period after this one, not the days right after.
    assert.deepEqual(range('Glazing next week.'), ['2024-06-17', '2024-06-24']);
    assert.deepEqual(range('We move next month'), ['2024-07-01', '2024-08-01']);
    assert.deepEqual(range('next year, Japan'), ['2025-01-01', '2026-01-01']);
    // "next Thursday" said on a Thursday is a week on; "next Friday" on a Thursday is the next day.
    assert.deepEqual(range('next Thursday works'), ['2024-06-20', '2024-06-21']);
    assert.deepEqual(range('Next Friday then'), ['2024-06-14', '2024-06-15']);
    assert.deepEqual(range("I'll see her on Friday."), ['2024-06-14', '2024-06-15']);
    assert.deepEqual(range('The party is on Saturday!'), ['2024-06-15', '2024-06-16']);
    assert.deepEqual(range('My exam is in two weeks.'), ['2024-06-24', '2024-07-01']);
    assert.deepEqual(range("We're going to Lisbon in 3 days"), ['2024-06-16', '2024-06-17']);
    // "from now" points forward in any sentence.
    assert.deepEqual(range('We flew? No: two weeks from now.'), ['2024-06-24', '2024-07-01']);
    // Said of the past, or open-ended: no day.
    assert.equal(range('We met on Friday.'), null);
    assert.equal(range('We watched a film on Friday, it was great.'), null);
    assert.equal(range('I read the whole book in two days.'), null);
    assert.equal(range('I finished it in two days, it is so good'), null);
    assert.equal(range("I'll call you soon, or a bit later."), null);
    assert.equal(range('Boston is next on my list of cities.'), null);
  });

  it('reads a question about a coming day from the reference time', () => {
    const asked = Date.UTC(2024, 5, 14, 10); // Friday 14 June 2024
    const i = timeIntent("What's on next Tuesday?", asked)!;
    assert.deepEqual([iso(i.fromMs), iso(i.toMs)], ['2024-06-18', '2024-06-19']);
    assert.deepEqual(i.timeWords, ['tuesday']);
    assert.equal(timeIntent('What did I do on Friday?', asked), null);
  });

  describe('"this week" and its siblings mean the calendar period holding the reference time', () => {
    // Monday 7 December 2026, 09:00 ("When is yoga this week?" gave last Tuesday's class).
    const monday = Date.UTC(2026, 11, 7, 9);
    const wednesday = Date.UTC(2026, 11, 9, 15);
    const span = (q: string, at = monday, zone = 'UTC') => {
      const i = timeIntent(q, at, timeZone(zone))!;
      return [i.fromMs, i.toMs].map((ms) => new Date(ms!).toISOString().slice(0, 16));
    };
    const days = (q: string, at = monday) => {
      const i = timeIntent(q, at)!;
      return [iso(i.fromMs), iso(i.toMs)];
    };

    it('"this week" is Monday to Sunday, what is still to come in it too, whatever the tense', () => {
      assert.deepEqual(days('When is yoga this week?'), ['2026-12-07', '2026-12-14']);
      assert.deepEqual(days('What did I do this week?'), ['2026-12-07', '2026-12-14']);
      assert.deepEqual(days('What did I do this week?', wednesday), ['2026-12-07', '2026-12-14']);
      // Said on a Sunday, the week ending that day.
      assert.deepEqual(days('What is on this week?', Date.UTC(2026, 11, 13, 20)), [
        '2026-12-07',
        '2026-12-14',
      ]);
      assert.deepEqual(timeIntent('When is yoga this week?', monday)!.timeWords, ['week']);
    });

    it("is the week of the person's zone: Monday 00:30 in Vienna is still Sunday in UTC", () => {
      const sundayNightUtc = Date.UTC(2026, 11, 6, 23, 30);
      assert.deepEqual(span('When is yoga this week?', sundayNightUtc, 'Europe/Vienna'), [
        '2026-12-06T23:00',
        '2026-12-13T23:00',
      ]);
      const vienna = timeIntent('When is yoga this week?', sundayNightUtc, timeZone('Europe/Vienna'))!;
      assert.deepEqual([iso(vienna.fromDay), iso(vienna.toDay)], ['2026-12-07', '2026-12-14']);
      assert.deepEqual(days('When is yoga this week?', sundayNightUtc), ['2026-11-30', '2026-12-07']);
    });

    it('"this month" and "this year" are the calendar month and year, the rest of them included', () => {
      assert.deepEqual(days('What is coming up this month?'), ['2026-12-01', '2027-01-01']);
      assert.deepEqual(days('What did I read this month?'), ['2026-12-01', '2027-01-01']);
      assert.deepEqual(days('Where have I travelled this year?'), ['2026-01-01', '2027-01-01']);
    });

    it('"earlier this week" is only the part gone by, "later this week" only the rest', () => {
      assert.deepEqual(span('What did Ana say earlier this week?', wednesday), [
        '2026-12-07T00:00',
        '2026-12-09T15:00',
      ]);
      assert.deepEqual(span('What do I have later this week?', wednesday), [
        '2026-12-09T15:00',
        '2026-12-14T00:00',
      ]);
      assert.deepEqual(span('Any plans later this month?', wednesday), [
        '2026-12-09T15:00',
        '2027-01-01T00:00',
      ]);
      assert.deepEqual(timeIntent('What do I have later this week?', wednesday)!.label, 'later this week');
      // A whole day's all-day events count for the rest of it.
      const later = timeIntent('What do I have later this week?', wednesday)!;
      assert.deepEqual([iso(later.fromDay), iso(later.toDay)], ['2026-12-09', '2026-12-14']);
    });

    it('"this weekend" is the Saturday and Sunday of this week; said of the past on a Monday, the last one', () => {
      assert.deepEqual(days('What am I doing this weekend?', wednesday), ['2026-12-12', '2026-12-14']);
      assert.deepEqual(days("What's on this weekend?", Date.UTC(2026, 11, 13, 10)), [
        '2026-12-12',
        '2026-12-14',
      ]);
      assert.deepEqual(days('What did I do this weekend?'), ['2026-12-05', '2026-12-07']);
      assert.deepEqual(days('What did I do this weekend?', Date.UTC(2026, 11, 13, 20)), [
        '2026-12-12',
        '2026-12-14',
      ]);
    });

    it('"this Friday" is the Friday of this week; the next once gone by, the last when asked of the past', () => {
      assert.deepEqual(days('What is on this Friday?'), ['2026-12-11', '2026-12-12']);
      assert.deepEqual(days('When is yoga this Tuesday?'), ['2026-12-08', '2026-12-09']);
      // Said on the day, that day.
      assert.deepEqual(days('What is on this Monday?'), ['2026-12-07', '2026-12-08']);
      // Asked on a Saturday of what is to come: the next Friday; of the past, the one gone by.
      const saturday = Date.UTC(2026, 11, 12, 10);
      assert.deepEqual(days('What is on this Friday?', saturday), ['2026-12-18', '2026-12-19']);
      assert.deepEqual(days('What did I do this Friday?', saturday), ['2026-12-11', '2026-12-12']);
      assert.deepEqual(days('What did I do this Friday?', wednesday), ['2026-12-04', '2026-12-05']);
      // A text about the coming Friday without a verb: this week's.
      assert.deepEqual(days('dinner with Marco this Friday'), ['2026-12-11', '2026-12-12']);
      assert.deepEqual(timeIntent('What is on this Friday?', monday)!.timeWords, ['friday']);
    });

    it('"this morning", "this afternoon", "this evening" and "tonight" are that part of today', () => {
      assert.deepEqual(span('What did I eat this morning?'), ['2026-12-07T00:00', '2026-12-07T12:00']);
      assert.deepEqual(span('Who do I meet this afternoon?'), ['2026-12-07T12:00', '2026-12-07T18:00']);
      assert.deepEqual(span('What is on this evening?'), ['2026-12-07T17:00', '2026-12-08T00:00']);
      assert.deepEqual(span("What's on tonight?"), ['2026-12-07T17:00', '2026-12-08T04:00']);
      assert.deepEqual(span('What did I do today?'), ['2026-12-07T00:00', '2026-12-08T00:00']);
      // In the zone: tonight in Vienna, whose evening starts at 16:00 UTC in December.
      assert.deepEqual(span("What's on tonight?", monday, 'Europe/Vienna'), [
        '2026-12-07T16:00',
        '2026-12-08T03:00',
      ]);
      // Today's all-day events are tonight's too; tomorrow's are not.
      const tonight = timeIntent("What's on tonight?", monday)!;
      assert.deepEqual([iso(tonight.fromDay), iso(tonight.toDay)], ['2026-12-07', '2026-12-08']);
    });

    it('"tonight" said in the small hours is the night under way', () => {
      const halfPastMidnight = Date.UTC(2026, 11, 8, 0, 30);
      assert.deepEqual(span('Who is still out tonight?', halfPastMidnight), [
        '2026-12-07T17:00',
        '2026-12-08T04:00',
      ]);
      // From four, the night to come.
      assert.deepEqual(span("What's on tonight?", Date.UTC(2026, 11, 8, 4)), [
        '2026-12-08T17:00',
        '2026-12-09T04:00',
      ]);
    });

    it('a text saying "this week" tells of the calendar week it was said in', () => {
      // Said on Thursday 3 December: the week of 30 November, not the seven days before.
      const said = Date.UTC(2026, 11, 3, 18);
      assert.deepEqual(days('I went climbing twice this week', said), ['2026-11-30', '2026-12-07']);
      assert.deepEqual(span('Had a great run this morning', said), ['2026-12-03T00:00', '2026-12-03T12:00']);
    });
  });

  it('counts a coming day in the calendar of the zone the text was said in', () => {
    // 02:00 UTC on Friday 14 June is still Thursday 13 June in Los Angeles: "tomorrow" is the 14th there.
    const said = Date.UTC(2024, 5, 14, 2);
    const la = timeIntent('Tomorrow I fly to Porto', said, timeZone('America/Los_Angeles'))!;
    assert.deepEqual([la.fromDay, la.toDay].map(iso), ['2024-06-14', '2024-06-15']);
    assert.equal(new Date(la.fromMs!).toISOString(), '2024-06-14T07:00:00.000Z');
    assert.deepEqual([iso(timeIntent('Tomorrow I fly to Porto', said)!.fromMs)], ['2024-06-15']);
  });
});
