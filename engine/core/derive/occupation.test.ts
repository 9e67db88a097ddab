import assert from 'node:assert/strict';
import { test } from 'node:test';
import { occupationSaid } from './occupation.ts';

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
