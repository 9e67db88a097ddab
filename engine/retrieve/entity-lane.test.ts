import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutSpeakers } from './entity-lane.ts';

describe('withoutSpeakers (the query as the semantic lane embeds it)', () => {
  it('drops the named speakers, possessives and full names included', () => {
    assert.equal(
      withoutSpeakers('What activities does Melanie partake in?', ['melanie']),
      'What activities does partake in?',
    );
    assert.equal(
      withoutSpeakers("Where is Melanie's pottery class?", ['melanie']),
      'Where is pottery class?',
    );
    assert.equal(withoutSpeakers('Did Ana  Lima meet Ben?', ['ana lima', 'ben']), 'Did meet ?');
  });

  it('leaves words that only contain a name, and a query that is nothing but names', () => {
    assert.equal(withoutSpeakers('Annabel and Banana', ['ana', 'ann']), 'Annabel and Banana');
    assert.equal(withoutSpeakers('Melanie', ['melanie']), 'Melanie');
    assert.equal(withoutSpeakers('What (about) C++?', ['c++']), 'What (about) ?');
  });

  it('finds the folded names however the query writes them, and cuts them as written', () => {
    assert.equal(withoutSpeakers('What did José paint?', ['jose']), 'What did paint?');
    assert.equal(withoutSpeakers("Where is ZOË's studio?", ['zoe']), 'Where is studio?');
    assert.equal(withoutSpeakers('Did Jürgen Groß call?', ['jurgen gross']), 'Did call?');
  });
});
