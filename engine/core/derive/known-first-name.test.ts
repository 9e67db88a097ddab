import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Claim } from './deriver.ts';
import {
  firstAndWhole,
  firstNameWords,
  oneKnownPerson,
  wholeNameFirsts,
  withKnownFirstNames,
} from './known-first-name.ts';

describe('firstNameWords', () => {
  it('gives the capitalised words, normalized as a slot key is, once each', () => {
    assert.deepEqual(firstNameWords("Marko's birthday is July 3, Marko said."), ['marko', 'july']);
  });
  it('leaves out a word inside another ("O’Neil"), a one-letter word and lower case', () => {
    assert.deepEqual(firstNameWords("I met o'Brien and marko"), []);
  });
  it('stops at the cap', () => {
    assert.equal(firstNameWords('Ana Bo Cy Di Ed Fa', 3).length, 3);
  });
});

describe('oneKnownPerson', () => {
  it('is the whole name where one person holds slots by that first name', () => {
    assert.equal(oneKnownPerson('marko', ['Marko Babić', 'marko babić'], []), 'Marko Babić');
  });
  it('is nobody with two people of that first name', () => {
    assert.equal(oneKnownPerson('marko', ['Marko Babić', 'Marko Horvat'], []), null);
  });
  it('is nobody where a speaker of another whole name has it', () => {
    assert.equal(oneKnownPerson('marko', ['Marko Babić'], ['marko', 'marko kos']), null);
    // The speaker who is he, folded, or "Marko" alone, says no other person.
    assert.equal(oneKnownPerson('marko', ['Marko Babić'], ['marko', 'marko babic']), 'Marko Babić');
  });
  it("is nobody where no slot has the whole name, or it is no person's name", () => {
    assert.equal(oneKnownPerson('marko', [], ['marko babic']), null);
    assert.equal(oneKnownPerson('garden', ['garden app roadmap items'], []), null);
  });
});

describe('withKnownFirstNames', () => {
  const known = new Map([['marko', 'Marko Babić']]);
  const claim = (subject: string, statement: string, quote = statement): Claim => ({
    statement,
    subject,
    predicate: 'birthday',
    owner: { state: 'other', entity: subject },
    quote,
  });
  it('reads a claim of "Marko" as Marko Babić\'s, the engine\'s own words naming him whole', () => {
    const [c] = withKnownFirstNames(
      [claim('Marko', "Marko's birthday is July 3", "Marko's birthday is actually July 3.")],
      known,
      ['Ivo Marić'],
    );
    assert.deepEqual(
      [c!.subject, c!.owner, c!.statement],
      ['Marko Babić', { state: 'other', entity: 'Marko Babić' }, "Marko Babić's birthday is July 3"],
    );
  });
  it('keeps a sentence quoted as said', () => {
    const s = "Marko's birthday is July 3, I think.";
    const [c] = withKnownFirstNames([claim('Marko', s)], known, []);
    assert.deepEqual([c!.subject, c!.statement], ['Marko Babić', s]);
  });
  it('leaves the Record\'s own speaker "Marko", another first name and the self as they are', () => {
    const mine = claim('Marko', 'Marko lives in Split');
    assert.deepEqual(withKnownFirstNames([mine], known, ['Marko']), [mine]);
    const ana = claim('Ana', 'Ana lives in Split');
    assert.deepEqual(withKnownFirstNames([ana], known, []), [ana]);
    const self: Claim = { ...mine, owner: { state: 'self', entity: 'Ivo Marić' } };
    assert.deepEqual(withKnownFirstNames([self], known, []), [self]);
  });
});

describe('firstAndWhole', () => {
  it('is a first name alone and a whole name it begins, either way round, folded', () => {
    assert.ok(firstAndWhole('Marko', 'Marko Babić'));
    assert.ok(firstAndWhole('marko babic', 'MARKO'));
  });
  it('is not two whole names, one name twice, or a name that only begins alike', () => {
    assert.ok(!firstAndWhole('Marko Horvat', 'Marko Babić'));
    assert.ok(!firstAndWhole('Marko', 'Marko'));
    assert.ok(!firstAndWhole('Mark', 'Marko Babić'));
  });
});

describe('wholeNameFirsts', () => {
  const slot = (
    subject: string,
    state: 'other' | 'self' = 'other',
    predicate: string | null = 'birthday',
  ): Claim => ({
    statement: `${subject}'s birthday is July 2`,
    subject,
    predicate,
    owner: { state, entity: subject },
    quote: '',
  });
  it("gives the first word of another person's whole name that holds a slot", () => {
    assert.deepEqual(wholeNameFirsts([slot('Marko Babić'), slot('Ana Kovač'), slot('Marko Babić')]), [
      'marko',
      'ana',
    ]);
  });
  it('leaves out a first name alone, the self, a statement of no slot and what is no name', () => {
    assert.deepEqual(
      wholeNameFirsts([
        slot('Marko'),
        slot('Ivo Marić', 'self'),
        slot('Ana Kovač', 'other', null),
        slot('my old boss'),
      ]),
      [],
    );
  });
});
