import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchedTerms, termStarts } from './query-terms.ts';
import { withOtherForms } from './other-forms.ts';
import { searchedForms } from './verb-forms.ts';

describe('verb forms the stemmers leave apart', () => {
  it('a form of a verb is searched with the forms no stemmer brings to it, and only those', () => {
    // "run" itself would meet what "running" already meets (both stem to run): only "ran" is added.
    assert.deepEqual(searchedForms('running'), ['ran']);
    assert.deepEqual(searchedForms('ran'), ['run']);
    assert.deepEqual(searchedForms('went'), ['go', 'gone']);
    assert.deepEqual(searchedForms('buys'), ['bought']);
    assert.deepEqual(searchedForms('flying'), ['flew', 'flown']);
    // Another word, a verb left out (its past is half of any chat) or a noun in -ing: searched alone.
    for (const w of ['dentist', 'book', 'say', 'said', 'meeting']) assert.deepEqual(searchedForms(w), [], w);
    assert.deepEqual(withOtherForms(['running', 'fast', 'ran']), ['running', 'ran', 'fast', 'run']);
  });

  it('a term is met by any form of its verb, as one term, and only as a whole word', () => {
    const said = 'I ran 10 km this morning in 52 minutes.';
    // Both words of the question met, each once: the every-word rules still count two.
    assert.deepEqual(matchedTerms(said, ['running', 'minutes']), ['running', 'minutes']);
    assert.deepEqual(matchedTerms('We went to Porto.', ['go']), ['go']);
    assert.deepEqual(matchedTerms('She bought a bike.', ['buying']), ['buying']);
    // "ran" is no prefix of the ranch, nor "go" of a goal (which "go" as its own stem prefix meets).
    assert.deepEqual(matchedTerms('The ranch by the river.', ['running']), []);
    assert.deepEqual(matchedTerms('The gone-wild garden', ['went']), ['went']);
    assert.deepEqual([...termStarts('we went home, then we go out', 'going')], [3, 22]);
  });
});
