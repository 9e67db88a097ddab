import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sqliteBrains } from '../adapters/sqlite/brain-repository.ts';
import { tempStore } from '../adapters/sqlite/testing.ts';
import { sqliteUnits } from '../adapters/sqlite/unit-of-work.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import type { Tenant } from '../types.ts';
import { brainUids } from './brain-uids.ts';

const tenant: Tenant = { project: 'p', env: 'test' };

/** Brains over a real store, their lookups counted, and a unit of work that checks its Brain as every one does. */
function setup(max?: number) {
  const store = tempStore('mnemo-brain-uids-');
  const brains = sqliteBrains(store);
  let finds = 0;
  const uids = brainUids(
    {
      find: (t, id) => {
        finds++;
        return brains.find(t, id);
      },
    },
    max,
  );
  const units = sqliteUnits(store);
  const append = (id: string) =>
    uids.withUid(tenant, id, (uid) => units.write(uid, async () => uid, { batch: true }));
  const create = (id: string, uid: string) =>
    brains.create({
      uid,
      project: tenant.project,
      env: tenant.env,
      id,
      name: null,
      self_type: null,
      self_name: null,
      created_at: '2026-01-01T00:00:00Z',
    });
  return { brains, append, create, finds: () => finds };
}

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof MnemoError ? e.code : String(e)),
  );

describe('brain uids', () => {
  it('looks a Brain up once for many appends', async () => {
    const s = setup();
    await s.create('b', 'brn_1');
    for (let i = 0; i < 5; i++) assert.equal(await s.append('b'), 'brn_1');
    assert.equal(s.finds(), 1);
  });

  it('answers brain_not_found for a Brain forgotten since, and appends to one made again under its id', async () => {
    const s = setup();
    await s.create('b', 'brn_1');
    assert.equal(await s.append('b'), 'brn_1');
    await s.brains.remove('brn_1');
    assert.equal(await code(s.append('b')), 'brain_not_found');
    await s.create('b', 'brn_2');
    assert.equal(await s.append('b'), 'brn_2');
    // Forgotten and made again between two appends: the remembered uid is refused by the unit, and
    // the append goes to the Brain that now has the id.
    await s.brains.remove('brn_2');
    await s.create('b', 'brn_3');
    assert.equal(await s.append('b'), 'brn_3');
    assert.equal(await code(s.append('none')), 'brain_not_found');
  });

  it('remembers at most `max` Brains, the oldest let go first', async () => {
    const s = setup(2);
    for (const id of ['a', 'b', 'c']) await s.create(id, `brn_${id}`);
    for (const id of ['a', 'b', 'c']) await s.append(id);
    assert.equal(s.finds(), 3);
    await s.append('c');
    await s.append('b');
    assert.equal(s.finds(), 3, 'b and c are remembered');
    await s.append('a');
    assert.equal(s.finds(), 4, 'a was let go');
  });
});
