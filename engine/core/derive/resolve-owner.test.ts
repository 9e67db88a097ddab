import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveOwner } from './resolve-owner.ts';

const ana = { type: 'person' as const, name: 'Ana Silva' };

test("a redacted copy's [self] is the Brain's own person: unresolved in a Brain without one", () => {
  // A hub's Brain is made with its id only: a placeholder is nobody to attribute a fact to.
  assert.deepEqual(resolveOwner('[self]', null), { state: 'unresolved' });
  assert.deepEqual(resolveOwner('[SELF]', ana), { state: 'self', entity: 'Ana Silva' });
  // Another person's placeholder is another person, as their name was.
  assert.deepEqual(resolveOwner('[person-3f2a]', ana), { state: 'other', entity: '[person-3f2a]' });
});

test('the words for oneself and the self name resolve to self only in a Brain that has one', () => {
  for (const name of ['me', ' User ', 'ana  silva']) {
    assert.deepEqual(resolveOwner(name, ana), { state: 'self', entity: 'Ana Silva' }, name);
    assert.deepEqual(
      resolveOwner(name, null),
      name.trim() === 'ana  silva' ? { state: 'other', entity: 'ana  silva' } : { state: 'unresolved' },
      name,
    );
  }
  assert.deepEqual(resolveOwner('Rui', ana), { state: 'other', entity: 'Rui' });
  assert.deepEqual(resolveOwner('  ', ana), { state: 'unresolved' });
});
