import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPlanMoved, planMoved } from './plan-moved.ts';

test('a plan said moved to a time is read with its noun, the words that name it and the time it had', () => {
  for (const [s, moved] of [
    [
      'The dentist moved my appointment to Friday at 10am instead of Thursday.',
      { plan: 'appointment', naming: ['dentist'], from: 'Thursday' },
    ],
    [
      'We changed the Kyoto trip: we are going in May instead of March.',
      { plan: 'trip', naming: ['kyoto'], from: 'March' },
    ],
    ['My haircut got pushed to next Tuesday.', { plan: 'haircut', naming: [] }],
    ['My boss moved our weekly sync meeting to Monday.', { plan: 'meeting', naming: ['sync', 'boss'] }],
    ['ugh, the flight got delayed until 9pm', { plan: 'flight', naming: [] }],
    ['I rescheduled the vet appointment for next Wednesday.', { plan: 'appointment', naming: ['vet'] }],
    ['the team dinner was postponed to December 12', { plan: 'dinner', naming: ['team'] }],
    ['I changed my flight to Tuesday.', { plan: 'flight', naming: [] }],
    ['Moved my dentist appointment to Friday.', { plan: 'appointment', naming: ['dentist'] }],
    ['Dentist appointment moved to Friday 9am.', { plan: 'appointment', naming: ['dentist'] }],
    ['I pushed the meeting with Sarah to next week.', { plan: 'meeting', naming: ['sarah'] }],
  ] as const)
    assert.deepEqual(planMoved(s), moved, s);
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
  ])
    assert.equal(planMoved(s), null, s);
});

test('the plan moved says its noun and a time, a naming word where any, and the time it had where said', () => {
  const dentist = planMoved('The dentist moved my appointment to Friday at 10am instead of Thursday.')!;
  assert.equal(isPlanMoved('I booked a dentist appointment for Thursday at 3pm.', dentist), true);
  assert.equal(isPlanMoved('Dentist appointments on Thursday, 3pm.', dentist), true);
  // Another day than the one it had, another appointment, or no day at all.
  assert.equal(isPlanMoved('I booked a dentist appointment for Monday.', dentist), false);
  assert.equal(isPlanMoved('I have a vet appointment on Thursday.', dentist), false);
  assert.equal(isPlanMoved('The dentist appointment went fine.', dentist), false);
  const haircut = planMoved('My haircut got pushed to next Tuesday.')!;
  assert.equal(isPlanMoved('Haircut with Rita on Saturday at 11.', haircut), true);
  assert.equal(isPlanMoved('I need a haircut.', haircut), false);
  const trip = planMoved('We changed the Kyoto trip: we are going in May instead of March.')!;
  assert.equal(isPlanMoved("I'm planning a trip to Kyoto next March.", trip), true);
  assert.equal(isPlanMoved('A trip to Lisbon next March.', trip), false);
});
