import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dayFromFormat } from './vault-settings.ts';

test("a daily note's day is read by the vault's moment.js format, only where the name is a day in it", () => {
  for (const [name, format, day] of [
    ['04-03-2024', 'DD-MM-YYYY', [2024, 3, 4]],
    ['2024/03/04 Monday', 'YYYY/MM/DD dddd', [2024, 3, 4]],
    ['Journal March 4th, 2024', '[Journal] MMMM Do, YYYY', [2024, 3, 4]],
    ['4.3.24', 'D.M.YY', [2024, 3, 4]],
    ['Mar 4 2024', 'MMM D YYYY', [2024, 3, 4]],
  ] as const)
    assert.deepEqual(dayFromFormat(name, format), { year: day[0], month: day[1], day: day[2] }, name);
  for (const [name, format] of [
    ['31-02-2024', 'DD-MM-YYYY'],
    ['04-03-2024 notes', 'DD-MM-YYYY'],
    ['Meeting notes', 'DD-MM-YYYY'],
    ['2024-W10', 'GGGG-[W]WW'],
    ['03-2024', 'MM-YYYY'],
  ] as const)
    assert.equal(dayFromFormat(name, format), null, name);
});
