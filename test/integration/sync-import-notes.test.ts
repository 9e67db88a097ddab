import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runImport } from '../../server/import/run-import.ts';
import { allRecords, hubAndTwoDevices, syncOk, type HubAndDevices, type Node } from './sync-helpers.ts';

// The same notes folder on two paired devices, at another path on each (another user name, another
// OS), imported on both: one set of items, synced both ways. Two real servers and a hosted hub.
process.env.MNEMO_EMBEDDER = 'none';

const notes: Record<string, string> = {
  'Groceries.md': '# Groceries\nOat milk, rye bread, capers\n',
  'Trips/Lisbon.md': '---\ndate: 2026-11-02\n---\nThe Lisbon offsite moved to 14 January.\n',
  'Ideas.md': '# Ideas\nA bike shed by the fence [[Groceries]]\n',
};

const calendar = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'BEGIN:VEVENT',
  'UID:dentist@example.com',
  'DTSTART:20261210T090000Z',
  'SUMMARY:Dentist',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

/** The notes folder (and a calendar in it) written at FOLDER: the same files on every device. */
function notesFolder(folder: string): string {
  for (const [name, text] of Object.entries(notes)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
  writeFileSync(join(folder, 'Calendar.ics'), calendar);
  return folder;
}

describe('a notes folder at another path on each of two paired devices', () => {
  let nodes: HubAndDevices;
  let a: Node;
  let b: Node;
  let onA: string;
  let onB: string;
  const sync = (n: Node) => syncOk(n, 'ana');
  const importOn = (n: Node, path: string, device: string) =>
    runImport({
      client: n.client,
      brainId: 'ana',
      path,
      device,
      timeZone: 'UTC',
      windowStart: new Date('2026-01-01'),
    });
  /** Each item's external id, and how many Records (revisions) the Brain holds on N. */
  const held = async (n: Node) => {
    const records = await allRecords(n.client, 'ana');
    return {
      ids: [...new Set(records.map((r) => `${r.source.name}:${r.source.external_id}`))].sort(),
      records: records.length,
    };
  };

  before(async () => {
    nodes = await hubAndTwoDevices();
    ({ a, b } = nodes);
    for (const n of [a, b]) {
      await n.client.createBrain({ id: 'ana' });
      await n.client.pairSync('ana', { remote: nodes.proxy.url, remote_key: nodes.h.key });
    }
    onA = notesFolder(join(nodes.root, 'files-a', 'home', 'lena', 'Notes'));
    onB = notesFolder(join(nodes.root, 'files-b', 'Users', 'lena', 'Documents', 'Notes'));
  });
  after(() => nodes.stop());

  it('is one set of items on both after sync: the second device finds every note unchanged', async () => {
    const first = await importOn(a, onA, 'device-a');
    assert.deepEqual([first.imported, first.unchanged], [4, 0]);
    await sync(a);
    await sync(b);
    const second = await importOn(b, onB, 'device-b');
    assert.deepEqual([second.imported, second.replaced, second.unchanged], [0, 0, 4], 'nothing new on B');
    await sync(b);
    await sync(a);
    const expected = {
      ids: [
        'ics:ics:dentist@example.com',
        'markdown:Notes/Groceries.md',
        'markdown:Notes/Ideas.md',
        'markdown:Notes/Trips/Lisbon.md',
      ],
      records: 4,
    };
    assert.deepEqual(await held(a), expected);
    assert.deepEqual(await held(b), expected);
    // A's folder again: still the same items.
    assert.deepEqual((await importOn(a, onA, 'device-a')).unchanged, 4);
  });

  it("lists no place on either disk in either device's importer Objects", async () => {
    for (const n of [a, b]) {
      const objects = (await n.client.listObjects('ana', { type: 'mnemo-import-file', limit: 500 })).data;
      assert.ok(objects.length > 0);
      const said = JSON.stringify(objects);
      for (const place of [nodes.root, 'home/lena', 'Users/lena', 'Documents'])
        assert.ok(!said.includes(place), `${n.name} lists ${place}`);
    }
  });
});
