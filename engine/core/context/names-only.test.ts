import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryTerms } from '../retrieve/query-terms.ts';
import { holdsOnlyNames, namesAsked } from './names-only.ts';

describe('names a question asks of', () => {
  it('are the words it capitalises, or the words of the people it was found to ask of', () => {
    const written = "When is Marko's birthday?";
    assert.deepEqual([...namesAsked(written, queryTerms(written))].sort(), ['marko']);
    const typed = "when is marko's birthday";
    assert.deepEqual([...namesAsked(typed, queryTerms(typed))], []);
    assert.deepEqual([...namesAsked(typed, queryTerms(typed), ['marko horvat'])], ['marko']);
  });

  it('leave out a passage holding only them, and keep one holding what is asked', () => {
    const typed = "when is marko's birthday";
    const terms = queryTerms(typed);
    const names = namesAsked(typed, terms, ['marko']);
    assert.equal(holdsOnlyNames('I wonder whether Marko and I want the same future.', terms, names), true);
    assert.equal(holdsOnlyNames("Marko's birthday party is on Friday.", terms, names), false);
    // A question of nothing but the name asks of the person: nothing is left out.
    assert.equal(
      holdsOnlyNames('Marko called.', queryTerms('marko'), namesAsked('marko', ['marko'], ['marko'])),
      false,
    );
  });
});
