import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTaskDone, pastOf, taskDone } from './task-done.ts';

test("a past form is read back to the verbs it may be, regular or not; another word is none's", () => {
  assert.deepEqual(pastOf('renewed'), ['renew', 'renewe']);
  assert.ok(pastOf('scheduled').includes('schedule'));
  assert.ok(pastOf('submitted').includes('submit'));
  assert.ok(pastOf('replied').includes('reply'));
  assert.deepEqual(pastOf('sent'), ['send']);
  assert.deepEqual(pastOf('bought'), ['buy']);
  for (const w of ['send', 'sending', 'passport', 'red', 'bed']) assert.deepEqual(pastOf(w), [], w);
});

test('a deed said done is read with the words after its verb; one denied, wished or asked is not', () => {
  assert.deepEqual(taskDone('I renewed my passport today!'), {
    verbs: ['renew', 'renewe'],
    words: ['passport'],
  });
  assert.deepEqual(taskDone('Finally sent Priya the doc.')?.words, ['priya', 'doc']);
  assert.deepEqual(taskDone("ok I've booked the flights")?.verbs.includes('book'), true);
  // Said done first, then the deed.
  assert.deepEqual(taskDone('Done, I bought the birthday gift for João.'), {
    verbs: ['buy'],
    words: ['birthday', 'gift', 'joão'],
  });
  assert.deepEqual(taskDone('All done: I called the bank.')?.words, ['bank']);
  for (const s of [
    "I haven't renewed my passport.",
    'I never called the plumber.',
    'Did I renew my passport?',
    'I need to renew my passport.',
    'I forgot to call the plumber.',
    'I almost missed the train.',
    'Yesterday was long.',
    'Renewed.',
    "Done, I haven't called the bank.",
  ])
    assert.equal(taskDone(s), null, s);
});

test('an open task is done by a deed of its verb that says its words, all but one of three or more', () => {
  const renewed = taskDone('I renewed my passport today!')!;
  assert.equal(isTaskDone('renew passport', renewed), true);
  assert.equal(isTaskDone('renew the car insurance', renewed), false);
  assert.equal(isTaskDone('call passport office', renewed), false);
  const sent = taskDone('Finally sent Priya the doc.')!;
  assert.equal(isTaskDone('send Priya the onboarding doc', sent), true);
  assert.equal(isTaskDone('send Priya the invoice', sent), false);
  const watered = taskDone('I watered the tomatoes.')!;
  assert.equal(isTaskDone('water the tomatoes on the balcony', watered), true);
  assert.equal(isTaskDone('water the roses on the balcony', watered), false);
  const plumber = taskDone('Called the plumber, he comes Monday.')!;
  assert.equal(isTaskDone('call the plumber about the kitchen sink', plumber), true);
  // What was done first, then its past form; "done" and its kin do a task of any verb.
  assert.equal(isTaskDone('renew passport', taskDone('Passport renewed!')!), true);
  assert.equal(isTaskDone('file taxes', taskDone('Taxes done.')!), true);
  assert.equal(isTaskDone('file taxes', taskDone('Done with the taxes.')!), true);
  assert.equal(isTaskDone('file taxes', taskDone('Passport renewed!')!), false);
  const called = taskDone('I called my mum.')!;
  assert.equal(isTaskDone('call the plumber about the sink', called), false);
  assert.equal(isTaskDone('call mum', called), true);
});
