import assert from 'node:assert/strict';
import { test } from 'node:test';
import { occupationBeforeEmployer, occupationOfAnotherSaid, occupationSaid } from './occupation.ts';

test('what one does for a living, said alone, holds the occupation; "no longer" ends it', () => {
  for (const [s, value] of [
    ['I work as a nurse', 'nurse'],
    ["i'm a software engineer", 'software engineer'],
    ['I got promoted to senior engineer', 'senior engineer'],
    ['im a barista lol', 'barista'],
    ["I'm a data analyst by trade", 'data analyst'],
    ['I have been working as a paramedic for 5 years', 'paramedic'],
    ["I'm working as a barista now", 'barista'],
    ['I work as a driver', 'driver'],
    ['got promoted to senior staff engineer today 🎉🎉', 'senior staff engineer'],
    ['I got a new job as a data analyst', 'data analyst'],
    ["I'm the CTO", 'CTO'],
    ["I'm the new office manager", 'office manager'],
    // A job title in capitals needs no article.
    ["I'm now Lead Data Scientist", 'lead data scientist'],
    ["I'm CTO", 'CTO'],
  ] as const)
    assert.deepEqual(occupationSaid(s), { predicate: 'occupation', value }, s);
  for (const [s, value] of [
    ["I'm no longer a teacher", 'teacher'],
    ["I'm not a nurse anymore", 'nurse'],
  ] as const)
    assert.deepEqual(occupationSaid(s), { predicate: 'occupation', value, ends: true }, s);
});

test('how one does a thing, a role for tonight, a hope, a denial or a question is no occupation', () => {
  for (const s of [
    "I'm a terrible cook",
    "I'm an aspiring writer",
    "I'm a former teacher",
    "I'm the driver tonight",
    "I'm a cook",
    "I'm an AI assistant",
    "I'm an assistant",
    "I'm not a doctor",
    'if I were a teacher',
    "I'm a student",
    "I'm a big fan",
    "I'm a nurse?",
    'I wanted to be a nurse',
    'my sister is a nurse',
    "I'm the wife of a pilot",
    "I'm a mom and a nurse",
    "I'm a Pokemon trainer",
    "I'm a rocket scientist",
    "I'm a Vietnam vet",
  ])
    assert.equal(occupationSaid(s), null, s);
});

test("a named person's occupation, said in a sentence that opens with them, is theirs", () => {
  for (const [s, who, value, alone] of [
    ['Rui is a nurse.', 'Rui', 'nurse', true],
    ["Rui's a software engineer now", 'Rui', 'software engineer', true],
    ['My brother Rui works as an electrician', 'Rui', 'electrician', false],
    ['Btw Tom Reyes is a pilot', 'Tom Reyes', 'pilot', false],
    ['Rui got a new job as a paramedic', 'Rui', 'paramedic', true],
    ['My sister Ana just started her new role as a data analyst!', 'Ana', 'data analyst', false],
    // A month that is a given name: only a person has an occupation.
    ['May is a nurse.', 'May', 'nurse', true],
  ] as const)
    assert.deepEqual(occupationOfAnotherSaid(s), { predicate: 'occupation', value, who, alone }, s);
  for (const s of ['Rui is no longer a nurse', "Rui isn't a nurse anymore", 'Rui is not a nurse any longer'])
    assert.deepEqual(
      occupationOfAnotherSaid(s),
      { predicate: 'occupation', value: 'nurse', ends: true, who: 'Rui', alone: true },
      s,
    );
  for (const s of [
    'Today is a nurse',
    'Monday is a nurse',
    'May is a good time to visit',
    "Rui's a terrible cook",
    'Is Rui a nurse?',
    'If Rui is a nurse',
    'Rui is a nurse?',
    'rui is a nurse',
    'Rui is a cook',
    'Rui wants to be a nurse',
    "Rui isn't a nurse",
    "Rui isn't a nurse anymore?",
    'Rui got a new job as a terrible cook',
  ])
    assert.equal(occupationOfAnotherSaid(s), null, s);
});

test('the role said with an employer is the occupation, quoting the words that say it', () => {
  const read = (s: string, clause: [number, number], value: string, who?: string) => {
    const r = occupationBeforeEmployer(s, { clause, value }, who);
    return r && [r.job.value, s.slice(...r.quote)];
  };
  const s = "I'm a nurse at Santa Maria.";
  assert.deepEqual(read(s, [0, 26], 'Santa Maria'), ['nurse', "I'm a nurse"]);
  const z = 'I work at Zalando as a data engineer';
  assert.deepEqual(read(z, [0, z.length], 'Zalando'), ['data engineer', 'as a data engineer']);
  const r = 'Rui works as a nurse at Santa Maria';
  assert.deepEqual(read(r, [0, r.length], 'Santa Maria', 'Rui'), ['nurse', 'Rui works as a nurse']);
  assert.equal(read(r, [0, r.length], 'Santa Maria', 'Tom'), null);
  const t = "I'm a terrible cook at Nando's";
  assert.equal(read(t, [0, t.length], "Nando's"), null);
  // A part at an event, or "the only nurse", is no job.
  const wedding = "I'm the photographer at Marta's wedding";
  assert.equal(read(wedding, [0, 31], "Marta's"), null);
  const only = "I'm the only nurse at Santa Maria";
  assert.equal(read(only, [0, only.length], 'Santa Maria'), null);
  // A chat in lower case, and one who just started ("the new nurse").
  const lower = "i'm a nurse at santa maria";
  assert.deepEqual(read(lower, [0, lower.length], 'Santa Maria'), ['nurse', "i'm a nurse"]);
  const fresh = "I'm the new nurse at Santa Maria";
  assert.deepEqual(read(fresh, [0, fresh.length], 'Santa Maria'), ['nurse', "I'm the new nurse"]);
  const g = 'Rui got a new job as a nurse at Santa Maria';
  assert.deepEqual(read(g, [0, g.length], 'Santa Maria', 'Rui'), ['nurse', 'Rui got a new job as a nurse']);
  const w = 'I work at Globex';
  assert.equal(read(w, [0, w.length], 'Globex'), null);
  // The day it starts, said after the employer, is no part of the role.
  const starting = "I'm now Lead Data Scientist at Brightwave, starting January 1";
  assert.deepEqual(read(starting, [0, starting.length], 'Brightwave'), [
    'lead data scientist',
    "I'm now Lead Data Scientist",
  ]);
  // Nor is a day it is to start, said before the role or after it.
  const on = 'I start at Sonae on 11 January 2027 as a senior data engineer';
  assert.deepEqual(read(on, [0, on.length], 'Sonae'), ['senior data engineer', 'as a senior data engineer']);
  const before = "I'm starting at Sonae as a senior data engineer on January 11";
  assert.deepEqual(read(before, [0, before.length], 'Sonae'), [
    'senior data engineer',
    'as a senior data engineer',
  ]);
});
