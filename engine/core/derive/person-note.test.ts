import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstNameTitled, personNoteSlot } from './person-note.ts';

test("a people note's key lines hold the person's slots, as a fact of that key would", () => {
  const read = (line: string) => {
    const a = personNoteSlot(line, 'Priya Shah', true);
    return a && [a.predicate, a.value];
  };
  assert.deepEqual(read('Birthday: 14 March'), ['birthday', '14 March']);
  assert.deepEqual(read('birthday: 1990-03-14'), ['birthday', '1990-03-14']);
  assert.deepEqual(read('Partner: Dev'), ['partner', 'Dev']);
  assert.deepEqual(read('company: [[Acme Corp]]'), ['works at', 'Acme Corp']);
  assert.deepEqual(read('City: Bristol'), ['lives in', 'Bristol']);
  assert.deepEqual(read('Role: data analyst'), ['occupation', 'data analyst']);
  assert.deepEqual(read('Phone: +44 7700 900123'), ['phone number', '+44 7700 900123']);
  assert.deepEqual(read('Email: priya@example.com'), ['email address', 'priya@example.com']);
  // Her home by its street address, in its city where the line names it (a postal code aside).
  assert.deepEqual(read('Address: 12 Park Lane'), ['lives in', '12 Park Lane']);
  assert.deepEqual(read('address: Vlaška 17, 10000 Zagreb'), ['lives in', 'Vlaška 17, Zagreb']);
  assert.deepEqual(read('Home address: Vlaška 17, Zagreb, 2nd floor'), ['lives in', 'Vlaška 17, Zagreb']);
  for (const line of [
    'Status: active',
    'Notes: call her back',
    'Email: send invites',
    'Birthday: party at the lake',
    'Phone: ask Tom',
    'Address: see her email',
    'Address: Phase 2',
    'Job: ?',
    'Loves hiking: yes and no, she says, and more words than any value has in a line like this one',
    'Met at the climbing gym',
  ])
    assert.equal(read(line), null, line);
});

test('a note titled with one word is a person only where a line gives what only a person has', () => {
  assert.equal(firstNameTitled('Priya', ['Birthday: 14 March', 'Loves hiking.'], false), 'Priya');
  assert.equal(firstNameTitled('Priya', ['Loves hiking.'], false), null);
  assert.equal(firstNameTitled('Budget', ['Rent: 900', 'Food: 300'], false), null);
  assert.equal(firstNameTitled('Ideas', ['Birthday: party at the lake', 'Email: send invites'], false), null);
  assert.equal(firstNameTitled('trip', ['Birthday: 14 March'], false), null);
});
