import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchCorrected, type CorrectionCandidate } from './correction-match.ts';

const home: CorrectionCandidate = {
  lineage: 'lin_home',
  statement: 'Ana Lima — lives in — Porto',
  subject: 'Ana Lima',
  predicate: 'lives_in',
};
const job: CorrectionCandidate = {
  lineage: 'lin_job',
  statement: 'Ana Lima works at the harbour',
  subject: 'Ana Lima',
  predicate: 'works at',
};
const ferry: CorrectionCandidate = {
  lineage: 'lin_ferry',
  statement: 'The ferry leaves at seven.',
  subject: 'Ana Lima',
  predicate: null,
};

/** Every order of `xs`. */
const orders = <T>(xs: readonly T[]): T[][] =>
  xs.length <= 1
    ? [[...xs]]
    : xs.flatMap((x, i) => orders([...xs.slice(0, i), ...xs.slice(i + 1)]).map((o) => [x, ...o]));

describe('matchCorrected: the Memory a correction worded elsewhere corrects here', () => {
  it('takes the one slot whose subject and predicate the corrected statement names', () => {
    for (const o of orders([home, job, ferry]))
      assert.deepEqual(matchCorrected('Ana Lima lives in: Porto', o), { by: 'slot', lineage: 'lin_home' });
  });

  it('takes the closest in words, whatever the order the Memories were read in', () => {
    for (const o of orders([home, job, ferry]))
      assert.deepEqual(matchCorrected('the ferry leaves at seven each day', o), {
        by: 'closest_statement',
        lineage: 'lin_ferry',
      });
  });

  it('takes none that says much more than what was corrected, nor one of two as close', () => {
    const long = { ...ferry, statement: 'The ferry leaves at seven, and the bus at nine from the square.' };
    assert.equal(matchCorrected('The ferry leaves at seven', [long]), null);
    const twin = { ...ferry, lineage: 'lin_twin', statement: 'The ferry leaves at seven!' };
    for (const o of orders([ferry, twin]))
      assert.equal(matchCorrected('the ferry leaves at seven daily', o), null);
  });

  it('reads two slots the statement names by their words, and takes neither when they tie', () => {
    const both = 'Ana Lima works at the harbour and lives in Porto';
    const said = { ...job, statement: both };
    for (const o of orders([home, said]))
      assert.deepEqual(matchCorrected(both, o), { by: 'closest_statement', lineage: 'lin_job' });
    const twice = { ...home, statement: both };
    for (const o of orders([twice, said])) assert.equal(matchCorrected(both, o), null);
  });

  it("takes the slot a statement in the speaker's own words holds, however the Memory words it", () => {
    // Rules that had not read these slots yet kept the message whole; these read its slot.
    const moved: CorrectionCandidate = {
      lineage: 'lin_moved',
      statement: 'Ana lives in Lisbon',
      subject: 'Ana',
      predicate: 'lives in',
    };
    const phone: CorrectionCandidate = {
      lineage: 'lin_phone',
      statement: "Ana's phone number is 555-0199",
      subject: 'Ana',
      predicate: 'phone number',
    };
    for (const o of orders([moved, phone, ferry])) {
      assert.deepEqual(matchCorrected('We moved to Lisbon.', o), { by: 'slot', lineage: 'lin_moved' });
      assert.deepEqual(matchCorrected('Sorry, my number is 555-0199, I had a typo', o), {
        by: 'slot',
        lineage: 'lin_phone',
      });
    }
  });
});
