import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AcceptedObject, ObjectAccept } from '../../engine/contract/index.ts';
import { folderNamesInObjects, nameFolder, type FolderNameStore } from './folder-names.ts';

/** A FolderNameStore over Objects kept in memory, as the Brain would hold them; `objects` shows them. */
function objectsStore(): { store: () => FolderNameStore; objects: Map<string, ObjectAccept> } {
  const objects = new Map<string, ObjectAccept>();
  const listed = (o: ObjectAccept): AcceptedObject => ({
    object: 'object',
    brain_id: 'b',
    type: o.type,
    key: o.key,
    version: 1,
    value: o.value,
    accepted_at: '2026-12-05T10:00:00.000Z',
  });
  // A store per import, as each import reads the Brain's Objects afresh.
  const store = () =>
    folderNamesInObjects(
      async () => ({
        object: 'list',
        data: [...objects.values()].map(listed),
        has_more: false,
        next_cursor: null,
      }),
      async (body) => {
        objects.set(body.key, body);
      },
    );
  return { store, objects };
}

test('a folder keeps its own name on every device; another folder of that name on one device goes by its parent too', async () => {
  const { store, objects } = objectsStore();
  assert.deepEqual(await nameFolder('/home/lena/Work/Notes', store(), 'laptop'), {
    namedFrom: '/home/lena/Work',
    takenBy: [],
  });
  // The same folder again, and a copy of it on another device at another path: "Notes" too.
  assert.equal((await nameFolder('/home/lena/Work/Notes', store(), 'laptop')).namedFrom, '/home/lena/Work');
  assert.equal(
    (await nameFolder('/Users/lena/Documents/Notes', store(), 'mac')).namedFrom,
    '/Users/lena/Documents',
  );
  // Another folder of that name on the laptop: "Home/Notes", and never a note under "Notes/".
  const home = await nameFolder('/home/lena/Home/Notes', store(), 'laptop');
  assert.deepEqual(home, { namedFrom: '/home/lena', takenBy: ['Notes/'] });
  assert.deepEqual(await nameFolder('/home/lena/Home/Notes', store(), 'laptop'), home);
  assert.equal((await nameFolder('/home/lena/Work/Notes', store(), 'laptop')).namedFrom, '/home/lena/Work');
  // What the Brain holds says no path, and no device by name.
  const said = JSON.stringify([...objects.values()]);
  for (const word of ['/home', 'lena', 'Work', 'laptop', 'Documents']) assert.ok(!said.includes(word), word);
});

test('a folder whose every name up to the root is taken on this device is named by its path', async () => {
  const { store } = objectsStore();
  assert.equal((await nameFolder('/b/Notes', store(), 'laptop')).namedFrom, '/b');
  assert.equal((await nameFolder('/b/a/Notes', store(), 'laptop')).namedFrom, '/b');
  assert.deepEqual(await nameFolder('/c/b/a/Notes', store(), 'laptop'), {
    namedFrom: '/c',
    takenBy: ['Notes/', 'a/Notes/'],
  });
  // "Notes" is /b/Notes's, "a/Notes" /b/a/Notes's: nothing is left to /a/Notes but its path.
  assert.deepEqual(await nameFolder('/a/Notes', store(), 'laptop'), {
    namedFrom: null,
    takenBy: ['Notes/', 'a/Notes/'],
  });
});

test('without a store every folder goes by its own name', async () => {
  assert.deepEqual(await nameFolder('/x/Notes', undefined, 'laptop'), { namedFrom: '/x', takenBy: [] });
});
