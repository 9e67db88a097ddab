import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bookedApart,
  eventTimes,
  isBookingChanged,
  isPlanChanged,
  namesOtherMonth,
  namesOtherPlace,
  planChanged,
  saysMoreOfPlan,
  type PlanChange,
} from './plan-changed.ts';

test('a plan said moved to a time is read with its noun, the words that name it and the time it had', () => {
  for (const [s, moved] of [
    [
      'The dentist moved my appointment to Friday at 10am instead of Thursday.',
      { how: 'moved', plan: 'appointment', naming: ['dentist'], from: 'Thursday' },
    ],
    [
      'We changed the Kyoto trip: we are going in May instead of March.',
      { how: 'moved', plan: 'trip', naming: ['kyoto'], place: 'kyoto', from: 'March' },
    ],
    ['My haircut got pushed to next Tuesday.', { how: 'moved', plan: 'haircut', naming: [] }],
    [
      'My boss moved our weekly sync meeting to Monday.',
      { how: 'moved', plan: 'meeting', naming: ['sync', 'boss'] },
    ],
    ['ugh, the flight got delayed until 9pm', { how: 'moved', plan: 'flight', naming: [] }],
    [
      'I rescheduled the vet appointment for next Wednesday.',
      { how: 'moved', plan: 'appointment', naming: ['vet'] },
    ],
    ['the team dinner was postponed to December 12', { how: 'moved', plan: 'dinner', naming: ['team'] }],
    ['I changed my flight to Tuesday.', { how: 'moved', plan: 'flight', naming: [] }],
    ['Moved my dentist appointment to Friday.', { how: 'moved', plan: 'appointment', naming: ['dentist'] }],
    ['Dentist appointment moved to Friday 9am.', { how: 'moved', plan: 'appointment', naming: ['dentist'] }],
    ['I pushed the meeting with Sarah to next week.', { how: 'moved', plan: 'meeting', naming: ['sarah'] }],
    ['Lunch with Sam moved to Thursday.', { how: 'moved', plan: 'lunch', naming: ['sam'] }],
    ["The meeting's been moved up to 2pm.", { how: 'moved', plan: 'meeting', naming: [] }],
    ['I rebooked my flight for Sunday.', { how: 'moved', plan: 'flight', naming: [] }],
    ['The standup is moved to 10am from now on.', { how: 'moved', plan: 'standup', naming: [] }],
    ['The offsite got pushed to March 19.', { how: 'moved', plan: 'offsite', naming: [] }],
    // No verb of moving: the new time said with "now".
    ['The dinner with Sam is now on Saturday.', { how: 'moved', plan: 'dinner', naming: ['sam'] }],
    ['The party is on Saturday now.', { how: 'moved', plan: 'party', naming: [] }],
    [
      'My haircut is tomorrow now instead of Friday.',
      { how: 'moved', plan: 'haircut', naming: [], from: 'Friday' },
    ],
  ] as const)
    assert.deepEqual(planChanged(s), moved as PlanChange, s);
});

test('a plan said called off is read with its noun and the words that name it', () => {
  for (const [s, plan, naming] of [
    ['I cancelled my dentist appointment.', 'appointment', ['dentist']],
    ['Sam called off dinner.', 'dinner', ['sam']],
    ['ugh, we scrapped the Kyoto trip', 'trip', ['kyoto']],
    ['The Kyoto trip is off.', 'trip', ['kyoto']],
    ["The May trip's off, sadly.", 'trip', ['may']],
    ['Dinner with Sam got cancelled because of the storm.', 'dinner', ['sam']],
    ["Tomorrow's meeting is cancelled", 'meeting', []],
  ] as const)
    assert.deepEqual(
      planChanged(s),
      {
        how: 'cancelled',
        plan,
        naming,
        ...(/ Kyoto/u.test(s) ? { place: 'kyoto' } : {}),
        ...(s.startsWith('Sam') ? { by: 'Sam' } : {}),
      },
      s,
    );
  // Who changed it, where a name says so: their own plans may be the one.
  assert.equal(planChanged('Inês cancelled the trip.')?.by, 'Inês');
  assert.equal(planChanged('The dentist moved my appointment to Friday.')?.by, undefined);
  assert.equal(planChanged('She cancelled the trip.')?.by, undefined);
  assert.equal(planChanged('Dinner with Sam got cancelled because of the storm.')?.plan, 'dinner');
});

test('a plan named by one word is read where its new time follows at once, or its call-off ends there', () => {
  assert.deepEqual(planChanged('I moved the dentist to Friday.'), {
    how: 'moved',
    plan: 'dentist',
    naming: [],
  });
  assert.deepEqual(planChanged('Rescheduled my physio for next Monday'), {
    how: 'moved',
    plan: 'physio',
    naming: [],
  });
  assert.deepEqual(planChanged('Cancelled my physio, feeling better.'), {
    how: 'cancelled',
    plan: 'physio',
    naming: [],
  });
  for (const s of ['I moved my car to the garage on Friday.', 'I cancelled my Netflix subscription.'])
    assert.equal(planChanged(s), null, s);
});

test('a plan said again on another time, with "not" the time it had or after a slip owned, is moved', () => {
  for (const [s, moved] of [
    [
      'Actually my dentist appointment is on Tuesday, not Monday.',
      { how: 'moved', plan: 'appointment', naming: ['dentist'], from: 'Monday' },
    ],
    ['The standup is at 10, not 9:30.', { how: 'moved', plan: 'standup', naming: [], from: '9:30' }],
    [
      'My exam is on Friday rather than Thursday.',
      { how: 'moved', plan: 'exam', naming: [], from: 'Thursday' },
    ],
    ['Sorry, I got that wrong: the standup is on Tuesday.', { how: 'moved', plan: 'standup', naming: [] }],
    ['The party is at 8pm, not 7pm.', { how: 'moved', plan: 'party', naming: [], from: '7pm' }],
    ['The standup moved to Tuesdays.', { how: 'moved', plan: 'standup', naming: [] }],
  ] as const)
    assert.deepEqual(planChanged(s), moved, s);
  // Said for the first time, denied, asked, or "not" of anything but a time: no move.
  for (const s of [
    'My dentist appointment is on Monday at 14:00.',
    'The meeting is not on Monday.',
    'Wait, the party is on Saturday?',
    "I'm not sure the party is on Saturday.",
    'Actually the party was great.',
    // A slip word alone leads news as often as a mend: only with "not" the time it had.
    'Actually, my dentist appointment is on Tuesday.',
    "Oops, my flight is at 6am tomorrow and I haven't packed!",
    'Actually my dentist appointment is on Monday, as planned.',
    'My exam is on Friday, not the hardest one though.',
    'I moved the plants to the kitchen.',
  ])
    assert.equal(planChanged(s), null, s);
});

test('a move wished, asked, denied, without a time, or of no plan is not read', () => {
  for (const s of [
    'I moved the meeting notes to Drive.',
    'I need to move my appointment to Friday.',
    'Can we push the call to Friday?',
    "They haven't moved my appointment to Friday.",
    'I might have rescheduled the dentist appointment to Monday.',
    'My game tournament got pushed back, so I tried out some cooking.',
    'Incorporating strength training really changed the game for me last year.',
    'We moved to Porto in May.',
    'I need to cancel my dentist appointment.',
    "I haven't cancelled the trip.",
    'Is the trip off?',
    'The meeting is off to a good start.',
    'The trip is off, I think.',
    'I cancelled my Netflix subscription.',
    'If the trip is off we stay home.',
    'The meeting is now over.',
    'The meeting is now in room 4.',
    "The party is now at Sam's place.",
    'Dinner is now ready.',
  ])
    assert.equal(planChanged(s), null, s);
});

test('the plan moved says its noun and a time, a naming word where any, and the time it had where said', () => {
  const dentist = planChanged('The dentist moved my appointment to Friday at 10am instead of Thursday.')!;
  assert.equal(isPlanChanged('I booked a dentist appointment for Thursday at 3pm.', dentist), true);
  assert.equal(isPlanChanged('Dentist appointments on Thursday, 3pm.', dentist), true);
  // Another day than the one it had, another appointment, or no day at all.
  assert.equal(isPlanChanged('I booked a dentist appointment for Monday.', dentist), false);
  assert.equal(isPlanChanged('I have a vet appointment on Thursday.', dentist), false);
  assert.equal(isPlanChanged('The dentist appointment went fine.', dentist), false);
  const haircut = planChanged('My haircut got pushed to next Tuesday.')!;
  assert.equal(isPlanChanged('Haircut with Rita on Saturday at 11.', haircut), true);
  assert.equal(isPlanChanged('I need a haircut.', haircut), false);
  const trip = planChanged('We changed the Kyoto trip: we are going in May instead of March.')!;
  assert.equal(isPlanChanged("I'm planning a trip to Kyoto next March.", trip), true);
  assert.equal(isPlanChanged('A trip to Lisbon next March.', trip), false);
});

test("a person's own plan called off by them is read with their name, its noun where said", () => {
  for (const [s, plan] of [
    ['Inês has to cancel, she will come in January instead.', ''],
    ['Sorry, Inês just told me she has to cancel.', ''],
    ["Inês isn't coming next weekend anymore.", 'visit'],
    ["Inês won't be visiting after all.", 'visit'],
    ["Sam can't make it.", ''],
    ['Sam bailed on us again.', ''],
    ["Tom can't make it to dinner on Friday.", 'dinner'],
    ['Inês told me she cancelled her trip.', 'trip'],
    ["My sister Inês can't come over this weekend, she's sick.", 'visit'],
  ] as const)
    assert.deepEqual(
      planChanged(s),
      { how: 'cancelled', plan, naming: [], person: /Sam|Tom/u.exec(s)?.[0] ?? 'Inês' },
      s,
    );
});

test('not coming to something else, doubted, past or by no one named calls off no plan', () => {
  for (const s of [
    "Inês can't come to the phone right now.",
    "Inês isn't coming to work today.",
    "Inês can't come up with a name.",
    "Inês can't visit Porto in May.",
    "Inês couldn't come last time.",
    "Maybe Inês can't come.",
    'If Inês cancels we stay home.',
    "Inês isn't coming, I think.",
    "I can't make it.",
    'She cancelled.',
    'Nobody is coming.',
    "The plumber isn't coming today.",
  ])
    assert.equal(planChanged(s), null, s);
});

test("a person's plan called off is one they said with a time, not one that has been", () => {
  const off = planChanged("Inês isn't coming next weekend anymore.")!;
  assert.equal(
    isPlanChanged('My sister Inês is visiting next weekend, her flight lands at 18:40.', off),
    true,
  );
  assert.equal(isPlanChanged('Inês is coming on Saturday.', off), true);
  assert.equal(isPlanChanged('Inês was visiting us last weekend.', off), false);
  assert.equal(isPlanChanged('Inês is visiting.', off), false);
  assert.equal(isPlanChanged('Inês has a job interview on Monday.', off), false);
  const any = planChanged('Inês has to cancel.')!;
  assert.equal(isPlanChanged('Inês has a job interview on Monday.', any), true);
  assert.equal(isPlanChanged('Inês works at Acme since March.', any), false);
});

test('news passed on by whom it came from is read, the caller kept as who the appointment is with', () => {
  for (const [s, change] of [
    [
      'The dentist called: my appointment moved from Tuesday to Thursday December 10 at 14:30.',
      { how: 'moved', plan: 'appointment', naming: [], from: 'Tuesday', caller: 'dentist' },
    ],
    [
      'The dentist called, my appointment is now Thursday at 14:30.',
      { how: 'moved', plan: 'appointment', naming: [], caller: 'dentist' },
    ],
    [
      'Just heard from the clinic: the appointment is moved to Friday.',
      { how: 'moved', plan: 'appointment', naming: [], caller: 'clinic' },
    ],
    [
      'The dentist called to say my appointment is cancelled.',
      { how: 'cancelled', plan: 'appointment', naming: [], caller: 'dentist' },
    ],
    [
      "Dr. Horvat's office emailed to say that my appointment is moved to Friday.",
      { how: 'moved', plan: 'appointment', naming: [], caller: 'horvat' },
    ],
    [
      'The dentist called and said my appointment moved to Friday.',
      { how: 'moved', plan: 'appointment', naming: [], caller: 'dentist' },
    ],
    ['Sam called: dinner moved to Saturday.', { how: 'moved', plan: 'dinner', naming: [], caller: 'sam' }],
    ['Heads up, the standup moved to 10am.', { how: 'moved', plan: 'standup', naming: [] }],
    ['Heads up: the team meeting moved to 3pm.', { how: 'moved', plan: 'meeting', naming: ['team'] }],
    ['My appointment was moved to Thursday.', { how: 'moved', plan: 'appointment', naming: [] }],
    ['The meeting has been pushed to Monday.', { how: 'moved', plan: 'meeting', naming: [] }],
    ['We moved dinner to Saturday.', { how: 'moved', plan: 'dinner', naming: [] }],
    ['The dentist moved me to Thursday at 14:30.', { how: 'moved', plan: 'dentist', naming: [] }],
    ['Dentist moved to Thursday.', { how: 'moved', plan: 'dentist', naming: [] }],
    [
      'The Lisbon trip is not happening.',
      { how: 'cancelled', plan: 'trip', naming: ['lisbon'], place: 'lisbon' },
    ],
    ['The Kyoto trip fell through.', { how: 'cancelled', plan: 'trip', naming: ['kyoto'], place: 'kyoto' }],
  ] as const)
    assert.deepEqual(planChanged(s), change as PlanChange, s);
  for (const s of [
    'We moved to the 3rd floor.',
    'Mum called, she moved to Graz on Friday.',
    'It moved to Friday.',
    'The dentist called to ask if we can move my appointment to Friday.',
  ])
    assert.equal(planChanged(s), null, s);
});

test('an appointment is the plan said by whom it is with, on the day it had, a calendar date read as its day', () => {
  const moved = planChanged(
    'The dentist called: my appointment moved from Tuesday to Thursday December 10 at 14:30.',
  )!;
  assert.equal(
    isPlanChanged('I booked the dentist for Tuesday December 8 at 9:00, Dr. Horvat.', moved),
    true,
  );
  // 2026-12-08 is a Tuesday; 2026-12-09 a Wednesday.
  const event = (day: string) => `Dentist (Dr. Horvat); when: ${day}T09:00:00Z to ${day}T10:00:00Z`;
  assert.equal(isPlanChanged(event('2026-12-08'), moved), true);
  assert.equal(isPlanChanged(event('2026-12-09'), moved), false);
  // Another plan with the caller in it is not the appointment.
  const sam = planChanged('Sam called: my appointment moved to Friday.')!;
  assert.equal(isPlanChanged('Dinner with Sam on Thursday at 19:00.', sam), false);
  assert.equal(isPlanChanged('I have a vet appointment with Sam on Thursday at 9.', sam), true);
});

test('a plan said with where it goes names that place: "my flight to Lisbon", "my Lisbon flight"', () => {
  for (const [s, how, place] of [
    ['My flight to Lisbon moved to Friday.', 'moved', 'lisbon'],
    ['My flight to Lisbon got moved to Friday 9:40.', 'moved', 'lisbon'],
    ['The airline moved my flight to Lisbon to Friday.', 'moved', 'lisbon'],
    ['The airline moved my Lisbon flight to Friday 9:40.', 'moved', 'lisbon'],
    ['Our trip to New York is postponed until June 3.', 'moved', 'new york'],
    ['I cancelled my trip to Porto because of the rain.', 'cancelled', 'porto'],
  ] as const) {
    const change = planChanged(s);
    assert.equal(change?.how, how, s);
    assert.equal(change?.place, place, s);
    assert.ok(change?.naming.includes(place), s);
  }
  // A time after "to" is where it moved, no place.
  for (const s of ['I changed my flight to Tuesday.', 'The airline moved my flight to next Friday.']) {
    const change = planChanged(s);
    assert.equal(change?.how, 'moved', s);
    assert.equal(change?.place, undefined, s);
  }
  // Moved to a place, not a time, moves no plan.
  assert.equal(planChanged('I moved my flight to Lisbon.'), null);
});

test('a booking mailed to the person is the plan her change names where it is of the same thing and place', () => {
  const booking = 'Your flight TP 1234 Zagreb – Lisbon on Thursday 12 March 10:15 is confirmed.';
  const change = planChanged('My flight to Lisbon moved to Friday.')!;
  assert.ok(isBookingChanged(booking, change));
  assert.ok(isBookingChanged(booking, planChanged('The airline moved my Lisbon flight to Friday 9:40.')!));
  assert.ok(isBookingChanged(booking, planChanged('I cancelled my flight to Lisbon.')!));
  for (const other of [
    // The flight back leaves from Lisbon.
    'Your flight TP 1235 Lisbon – Zagreb on Sunday 15 March 18:00 is confirmed.',
    'Your flight from Lisbon on Sunday 15 March is confirmed.',
    // Another place, another kind of plan, no time, or no booking at all.
    'Your flight TP 1240 Zagreb – Porto on Thursday 12 March 10:15 is confirmed.',
    'Your hotel in Lisbon from Thursday 12 March is confirmed.',
    'Your flight to Lisbon is confirmed.',
    'Cheap flights to Lisbon on Thursday from 39 EUR!',
  ])
    assert.ok(!isBookingChanged(other, change), other);
  // A change that names no place, or someone else's plan, reaches no mailed booking.
  assert.ok(!isBookingChanged(booking, planChanged('My flight got moved to Friday.')!));
  assert.ok(!isBookingChanged(booking, { ...change, person: 'Inês' }));
});

test("a calendar's event of days is the trip a change names by its place, though its title says no trip", () => {
  const off = planChanged('Bad news: the Christmas trip to Zagreb is off, Mama is coming to Porto instead')!;
  assert.deepEqual(off, { how: 'cancelled', plan: 'trip', naming: ['christmas', 'zagreb'], place: 'zagreb' });
  assert.ok(isPlanChanged('Christmas in Zagreb with Mama; when: 2026-12-23 to 2026-12-27', off));
  assert.ok(isPlanChanged('Zagreb; when: 2026-12-23T08:00:00Z to 2026-12-26T20:00:00Z', off));
  for (const other of [
    // An evening there is no trip; nor is a trip elsewhere, one that only leaves from it, or a line
    // that is no calendar's event.
    'Dinner in Zagreb; when: 2026-12-23T19:00:00Z to 2026-12-23T22:00:00Z',
    'Christmas in Split with Mama; when: 2026-12-23 to 2026-12-27',
    'Zagreb – Split; when: 2026-12-20 to 2026-12-21',
    'Christmas in Zagreb with Mama, 23 to 27 December.',
  ])
    assert.ok(!isPlanChanged(other, off), other);
  // A plan of hours is said by its noun or whom it is with, as before: not by a place.
  const dinner = { ...off, plan: 'dinner' };
  assert.ok(!isPlanChanged('Christmas in Zagreb with Mama; when: 2026-12-23 to 2026-12-27', dinner));
});

test('a trip called off by its place alone is the stay said there in words, and what was booked for it', () => {
  const off = planChanged('We cancelled Vienna.')!;
  assert.deepEqual(off, { how: 'cancelled', plan: 'trip', naming: ['vienna'], place: 'vienna' });
  assert.deepEqual(planChanged('Petra called off New York, too expensive.'), {
    how: 'cancelled',
    plan: 'trip',
    naming: ['new york'],
    place: 'new york',
    by: 'Petra',
  });
  // No place: a thing in lower case, a time, a possessive's plan, or more after the name.
  for (const s of [
    'i cancelled netflix',
    'We cancelled Friday.',
    "I cancelled Marko's party.",
    'We cancelled everything.',
  ])
    assert.notEqual(planChanged(s)?.plan, 'trip', s);
  assert.equal(planChanged('I cancelled Netflix for a month.'), null);
  assert.ok(isPlanChanged('Petra and I are planning a weekend in Vienna, December 12 to 14.', off));
  assert.ok(
    isPlanChanged(
      "Great, I've noted your Vienna trip with Petra from December 12 to 14 at Hotel Motto.",
      off,
    ),
  );
  // Past, or no stay there.
  for (const other of [
    'We had a great weekend in Vienna last year.',
    'Dinner with Petra on December 12, she grew up in Vienna.',
  ])
    assert.ok(!isPlanChanged(other, off), other);
  // The Record's other sentences that say what was booked for it, or name it, go with it.
  assert.ok(saysMoreOfPlan('We booked the Hotel Motto.', off));
  assert.ok(saysMoreOfPlan('We also booked the Hotel Motto.', off));
  assert.ok(saysMoreOfPlan('We booked the Hotel Motto too.', off));
  assert.ok(saysMoreOfPlan('Vienna will be cold.', off));
  assert.ok(!saysMoreOfPlan("Petra's sister is coming too.", off));
  assert.ok(!saysMoreOfPlan('We booked the Hotel Motto.', { ...off, how: 'moved' }));
  // Another booking said in the same Record is its own plan, not the trip's.
  for (const own of [
    'I also booked the dentist for Monday.',
    'I booked the dentist.',
    'We booked a haircut for Petra.',
    'I booked a table at Dubravkin put for Friday at 8pm.',
    'I reserved the meeting room as well.',
    'I also booked a haircut.',
    'I booked another hotel in Graz separately.',
  ])
    assert.ok(!saysMoreOfPlan(own, off), own);
  assert.ok(saysMoreOfPlan('We booked the flights and a hotel near the Naschmarkt.', off));
  // A booking for the trip's own time, as the trip's Record says it, is the trip's.
  const trip = 'Petra and I are planning a weekend in Vienna, December 12 to 14.';
  for (const ofTrip of [
    'We booked the Hotel Motto for the weekend.',
    'We booked the Hotel Motto for December 12 to 14.',
  ])
    assert.ok(saysMoreOfPlan(ofTrip, off, trip), ofTrip);
  for (const own of ['I also booked the dentist for Monday.', 'We booked the Hotel Motto for Monday.'])
    assert.ok(!saysMoreOfPlan(own, off, trip), own);
  // Booked "also" or "too" beside the trip: its own bed or travel, in no other place, is the trip's;
  // anything else is a booking of its own (review9a H2).
  for (const ofTrip of [
    'We also booked the Hotel Motto.',
    'We also booked the flights.',
    'We also booked the train to Vienna.',
    'I booked the hotel as well.',
  ])
    assert.ok(saysMoreOfPlan(ofTrip, off, trip), ofTrip);
  for (const own of [
    'I also booked the plumber.',
    'I booked the plumber too.',
    'I also booked a table at Dubravkin put.',
    'I also booked a restaurant table too.',
    'I also booked my flu shot.',
    'I also booked a babysitter.',
    'I also booked the car service.',
    'I also booked a cleaner for the flat.',
    'I also booked a spa day for Mama.',
    'I also reserved a court for squash.',
    'I also booked the kids into summer camp.',
    'Luka also booked his hotel in Graz.',
    'I also booked a flight to Paris.',
  ])
    assert.ok(!saysMoreOfPlan(own, off, trip), own);
});

test('a trip called off in a later clause, moved by its place alone, and booked for its place', () => {
  const lisbon = { how: 'cancelled', plan: 'trip', naming: ['lisbon'], place: 'lisbon' } as const;
  assert.deepEqual(
    planChanged("Ok let's do it: the Lisbon trip is off, we're going to Porto 24-28 October instead."),
    lisbon,
  );
  // Not after a condition, a doubt or someone else's word; not taken back.
  for (const s of [
    'If it rains, the Lisbon trip is off.',
    'Marko says, the Lisbon trip is off.',
    'Great: the Lisbon trip is off, jk',
  ])
    assert.equal(planChanged(s), null, s);
  const moved = planChanged('Lisbon is now 10-17 October.');
  assert.deepEqual(moved, { ...lisbon, how: 'moved' });
  // A name "now" something that is no day of a calendar moves nothing.
  for (const s of ['Marko is now 30.', 'Zagreb is now 5 degrees.']) assert.equal(planChanged(s), null, s);
  // A booking said for the place is the trip; the trip moved by its place alone is still the trip.
  for (const plan of ['I booked the flights for Lisbon, 12-19 September.', 'Lisbon is now 10-17 October.']) {
    assert.ok(isPlanChanged(plan, lisbon), plan);
    assert.ok(isPlanChanged(plan, moved!), plan);
  }
  assert.ok(!isPlanChanged('I bought a guidebook for Lisbon, 12 September.', lisbon));
  assert.ok(!isPlanChanged('Porto is now 10-17 October.', lisbon));
});

test("a calendar's event says when it begins and whether it lasts days", () => {
  assert.deepEqual(eventTimes('Christmas in Zagreb with Mama; when: 2026-12-23 to 2026-12-27'), {
    startMs: Date.parse('2026-12-23T00:00:00Z'),
    days: true,
  });
  assert.deepEqual(
    eventTimes(
      'Dentist – Dr. Ferreira; when: 2026-12-10T09:30:00+00:00 to 2026-12-10T10:30:00+00:00; where: Clínica Dentária da Boavista, Porto',
    ),
    { startMs: Date.parse('2026-12-10T09:30:00Z'), days: false },
  );
  assert.equal(eventTimes('Dentist on Thursday 10 December at 9:30, Dr. Ferreira.'), null);
});

test("a booking said apart from its trip is the trip's by its place, or near it by its bed or travel", () => {
  const off = planChanged('We cancelled Vienna.')!;
  const plan = 'Petra and I are planning a weekend in Vienna, December 12 to 14.';
  const read = (statements: string[], change: PlanChange = off) =>
    Object.fromEntries(statements.map((s) => [s, bookedApart(s, change, plan)]));
  assert.deepEqual(
    read([
      'We booked a hotel in Vienna.',
      'Petra booked the opera tickets in Vienna.',
      'We booked the Hotel Motto.',
      'Flights booked!',
      'We also booked the train.',
      // Not the stay's bed or travel, named by no place: said anywhere, of anything.
      'We booked the plumber.',
      'We booked the table.',
      'We booked a hotel in Graz.',
      'Luka booked a table in Vienna.',
      'We booked the dentist in Vienna.',
      'We booked the Hotel Motto for Monday.',
      'I booked another hotel.',
      'I also booked the plumber.',
    ]),
    {
      'We booked a hotel in Vienna.': 'named',
      'Petra booked the opera tickets in Vienna.': 'named',
      'We booked the Hotel Motto.': 'near',
      'Flights booked!': 'near',
      'We also booked the train.': 'near',
      'We booked the plumber.': null,
      'We booked the table.': null,
      'We booked a hotel in Graz.': null,
      'Luka booked a table in Vienna.': null,
      'We booked the dentist in Vienna.': null,
      'We booked the Hotel Motto for Monday.': null,
      'I booked another hotel.': null,
      'I also booked the plumber.': null,
    },
  );
  // Someone else's, by their relation to her, unless the plan names them.
  for (const s of [
    'My sister booked a hotel in Vienna.',
    'My big sister just booked the train to Vienna.',
    'My friend Luka booked a table in Vienna.',
    'Our neighbours booked the opera tickets in Vienna.',
    'My sister-in-law booked a room in Vienna.',
  ])
    assert.equal(bookedApart(s, off, plan), null, s);
  const withSister = 'My sister and I are planning a weekend in Vienna, December 12 to 14.';
  assert.equal(bookedApart('My sister booked a hotel in Vienna.', off, withSister), 'named');
  assert.equal(bookedApart('My sister Petra booked a hotel in Vienna.', off, plan), 'named');
  assert.equal(bookedApart('My husband and I booked a hotel in Vienna.', off, plan), 'named');
  // A month the plan does not name is another trip's; one it names, or a day of it, is not.
  assert.ok(namesOtherMonth('Luka and I are planning a trip to Vienna in March.', plan));
  assert.ok(namesOtherMonth('We might go in may 3 instead.', plan));
  for (const s of ['Vienna is beautiful in December!', 'We arrive December 14.', 'Maybe we can go.'])
    assert.ok(!namesOtherMonth(s, plan), s);
  // A trip moved keeps its hotel, maybe; an appointment called off has no stay's booking.
  const moved = planChanged('We moved the Vienna trip to January.')!;
  assert.equal(bookedApart('We booked the Hotel Motto.', moved, plan), null);
  const dentist = planChanged('I cancelled my dentist appointment.')!;
  assert.equal(bookedApart('We booked the Hotel Motto.', dentist, plan), null);
  // What is said between them: another place may be what the booking is for.
  assert.ok(namesOtherPlace('Also Luka wants dinner at Dubravkin put.', off, plan, 'We booked the room.'));
  for (const between of [
    'Sounds lovely, Vienna is beautiful in December!',
    "Great, I've noted your Vienna trip at Hotel Motto.",
  ])
    assert.ok(!namesOtherPlace(between, off, plan, 'We booked the Hotel Motto.'), between);
});
