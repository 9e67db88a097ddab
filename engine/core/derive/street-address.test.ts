import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cityAfterAddress, homeBeside, homeParts, homeValue } from './street-address.ts';

test("a home's value is its city, its street address, or the address in its city", () => {
  const cases: ReadonlyArray<[string, string | null, string | null]> = [
    ['Zagreb', null, 'Zagreb'],
    ['the Bay Area', null, 'the Bay Area'],
    ['Vlaška 17', 'Vlaška 17', null],
    ['Vlaška 17, Zagreb', 'Vlaška 17', 'Zagreb'],
    ['221B Baker Street, London', '221B Baker Street', 'London'],
    ['Rua de Santa Catarina 120, Vila Nova de Gaia', 'Rua de Santa Catarina 120', 'Vila Nova de Gaia'],
  ];
  for (const [value, street, city] of cases) {
    assert.deepEqual(homeParts(value), { street, city }, value);
    assert.equal(homeValue({ street, city }), value, value);
  }
});

test('the city after an address: "in Zagreb", ", 10000 Zagreb"; not a flat, a floor or a month', () => {
  const cases: ReadonlyArray<[string, string | null]> = [
    [' in Zagreb, third floor.', 'Zagreb'],
    [', Zagreb', 'Zagreb'],
    [', 10000 Zagreb.', 'Zagreb'],
    [', London NW1 6XE', 'London'],
    [' in Vila Nova de Gaia', 'Vila Nova de Gaia'],
    [', Apt 3', null],
    [', Third Floor', null],
    [' in March', null],
    [' in the morning', null],
    [', third floor', null],
  ];
  for (const [after, city] of cases) assert.equal(cityAfterAddress(after)?.city ?? null, city, after);
});

test('a home said beside the one held: an address alone is in its city, the city said again is the home', () => {
  const cases: ReadonlyArray<[said: string, held: string, home: string | null]> = [
    // An address alone refines the city held, or moves within it.
    ['Vlaška 17', 'Zagreb', 'Vlaška 17, Zagreb'],
    ['Ilica 5', 'Vlaška 17, Zagreb', 'Ilica 5, Zagreb'],
    // Said again, in part, it is the home held.
    ['Zagreb', 'Vlaška 17, Zagreb', 'Vlaška 17, Zagreb'],
    ['zagreb', 'Vlaška 17, Zagreb', 'Vlaška 17, Zagreb'],
    ['Vlaška 17', 'Vlaška 17, Zagreb', 'Vlaška 17, Zagreb'],
    // A city of its own, an address in a city of its own, or nothing to refine: as said.
    ['Split', 'Vlaška 17, Zagreb', null],
    ['Marmontova 3, Split', 'Vlaška 17, Zagreb', null],
    ['Vlaška 17, Zagreb', 'Zagreb', null],
    ['Ilica 5', 'Vlaška 17', null],
    ['Zagreb', 'Vlaška 17', null],
    ['Split', 'Zagreb', null],
  ];
  for (const [said, held, home] of cases) assert.equal(homeBeside(said, held), home, `${said} | ${held}`);
});
