import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baseSubject } from './base-subject.ts';

test('a subject loses the reply and forward leads of every language a mail client writes', () => {
  for (const subject of [
    'Re: Offsite',
    'Fwd: RE[2]: Offsite',
    'AW: WG: Offsite',
    'SV: VS: Offsite',
    'Antw: Offsite',
    'Odg: Offsite',
    'Odp: PD: Offsite',
    'TR: RV: Offsite',
    'Res: Enc: Offsite',
    'Rif: Offsite',
    'YNT: Offsite',
    '回复：Offsite',
    '转发: Offsite',
    're(3): Offsite',
  ])
    assert.equal(baseSubject(subject), 'Offsite', subject);
});

test("a subject's own words are kept where they only look like a lead", () => {
  assert.equal(baseSubject('Revenue: Q3'), 'Revenue: Q3');
  assert.equal(baseSubject('R: the language'), 'R: the language');
  assert.equal(baseSubject('Offsite: Re: agenda'), 'Offsite: Re: agenda');
  assert.equal(baseSubject('Trip: Lisbon'), 'Trip: Lisbon');
});
