import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { statementKey, statementKeysVersion } from './statement-key.ts';

const same = (a: string, b: string) => assert.equal(statementKey(a), statementKey(b), `${a} | ${b}`);
const differ = (a: string, b: string) => assert.notEqual(statementKey(a), statementKey(b), `${a} | ${b}`);

describe('statementKey: one key for one thing said in other words', () => {
  it('leaves out stress, punctuation and an agreeing opener', () => {
    same('I love hiking.', 'I really love hiking!');
    same('I love hiking', 'Yeah, I REALLY love hiking!!');
    same('Oh wow, I truly love hiking 🥾', 'I love hiking');
    same('My dentist is Dr. Silva.', 'My dentist is Dr Silva');
    same("I don't eat meat", 'I do not eat meat.');
    same("I'm vegetarian", 'I am vegetarian');
    same('I’m vegetarian', "I'm vegetarian");
  });

  it('after a verb of liking, "to hike" is "hiking"', () => {
    same('I love to hike.', 'I love hiking.');
    same('I like to swim', 'I like swimming');
    same('I enjoy dancing', 'I enjoy to dance');
    same('I loved to hike', 'I loved hiking');
  });

  it('keeps what changes the meaning: a negation, another object, another tense, a number', () => {
    differ('I love hiking', "I don't love hiking");
    differ('I love hiking', 'I never hike');
    differ('I love hiking', 'I love skiing');
    differ('I love hiking', 'I loved hiking');
    differ('I love hiking', "I'd love to hike");
    differ('I love hiking', 'I would love to hike');
    differ('I hike', 'I was hiking');
    differ('I ran 1.5 km', 'I ran 15 km');
    differ('I love my sister', 'I love my sisters');
    differ('I love hiking', 'I do love hiking');
    differ('No, I love hiking', 'I love hiking');
    differ('I just moved', 'I moved');
  });
});

describe('statementKey: the keys stores hold', () => {
  it('are those of statementKeysVersion: a change to them raises it', () => {
    // Every stored Memory's norm is its key, and a claim looks a statement up by its key alone. A store
    // keys its Memories again when it opens only if the version it holds is not statementKeysVersion
    // (each adapter's statement-keys.ts): keys that change without it leave stored norms behind.
    // Raise statementKeysVersion, then update what is pinned here.
    const said = [
      'I love hiking.',
      'Yeah, I REALLY love to hike!!',
      "I don't eat meat",
      'I’m vegetarian',
      'My dentist is Dr. Silva.',
      'I ran 1.5 km',
      "'Tis the season",
      'Wow, Caroline!',
      'You seriously rock.',
      'I preferred swimming',
      'Café au lait, ﬁne',
    ];
    assert.equal(statementKeysVersion, 1);
    assert.deepEqual(said.map(statementKey), [
      'i love hik',
      'i love hik',
      'i do not eat meat',
      'i am vegetarian',
      'my dentist is dr silva',
      'i ran 1.5 km',
      'tis the season',
      'wow, caroline',
      'you seriously rock',
      'i preferred swim',
      'café au lait fine',
    ]);
  });
});
