import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Memory } from '../../engine/contract/index.ts';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { runImport, waitForDerivation } from '../../server/import/run-import.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// A folder of notes with front matter, imported as `mnemo import` does,
// derived by the local engine. How a note is filed ("status: active") is no Memory of the person's.
describe('notes imported with front matter', () => {
  let root: string;
  let server: RunningServer;
  let client: MnemoClient;
  let memories: Memory[];

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'mnemo-note-properties-'));
    const notes = join(root, 'notes');
    mkdirSync(join(notes, 'People'), { recursive: true });
    writeFileSync(
      join(notes, 'Website relaunch.md'),
      [
        '---',
        'status: active',
        'tags: [work]',
        'created: 2026-10-01',
        'aliases: [Relaunch, Site v2]',
        'type: project',
        'id: 20261001-relaunch',
        'draft: false',
        'cssclass: wide',
        'layout: post',
        'categories: [projects]',
        'permalink: /relaunch/',
        'weight: 10',
        'slug: relaunch',
        '---',
        '# Website relaunch',
        '',
        'We move the site to Astro before November.',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(notes, 'People', 'Priya Shah.md'),
      '---\nbirthday: March 12\nemployer: Infobip\ntype: person\naliases: [Priya]\n---\nMet her at the Zagreb meetup.\n',
    );
    writeFileSync(join(notes, 'Career.md'), '---\nemployer: Infobip\nstatus: draft\n---\n');
    // Where a person lives, by a city and a street address in the front matter, or an Address line.
    writeFileSync(
      join(notes, 'People', 'Marko Babić.md'),
      '---\ncity: Zagreb\naddress: Vlaška 17\ntype: person\n---\nMy neighbour from the old flat.\n',
    );
    writeFileSync(
      join(notes, 'People', 'Ivana Kos.md'),
      'Address: Marmontova 3, 21000 Split\n\nLoves sailing.\n',
    );
    const served = await serveLocal(root, { timeZone: 'UTC' });
    server = served.server;
    client = createMnemoClient({ baseUrl: server.url, apiKey: served.key });
    await client.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Ana Horvat' } });
    const summary = await runImport({ client, brainId: 'me', path: notes, format: 'markdown' });
    assert.equal(summary.imported, 5);
    await waitForDerivation(client, 'me');
    memories = (await client.listMemories('me', { limit: 100 })).data;
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('holds no Memory of how a note is filed: status, type, aliases, id, draft, layout, permalink, …', () => {
    const filing = memories.filter((m) =>
      /^(?:status|type|aliases|id|draft|cssclass|layout|categories|permalink|weight|slug):/mu.test(
        m.statement,
      ),
    );
    assert.deepEqual(
      filing.map((m) => m.statement),
      [],
    );
    const relaunch = memories.filter((m) => m.statement.includes('Astro'));
    assert.deepEqual(
      relaunch.map((m) => m.statement),
      ['We move the site to Astro before November.'],
    );
    // The note is still dated by its front matter.
    assert.equal(relaunch[0]!.valid_from, '2026-10-01T00:00:00.000Z');
  });

  it('leaves the properties in the Record, and no Memory cites them', async () => {
    const records = (await client.listRecords('me')).data;
    const note = records.find((r) => r.content.kind === 'document' && r.content.title === 'Website relaunch');
    assert.ok(note?.content.kind === 'document');
    assert.match(note.content.text, /^status: active\naliases: Relaunch, Site v2\n/u);
    const cites = memories.filter((m) => m.citations.some((c) => c.record_id === note.id));
    assert.deepEqual(
      cites.map((m) => m.citations.map((c) => c.quote)),
      [['We move the site to Astro before November.']],
    );
  });

  it("keeps what a property says of a person or a thing: Priya's birthday and employer, an employer line", () => {
    const said = memories.map((m) => m.statement);
    assert.ok(said.includes("Priya Shah's birthday is March 12"), JSON.stringify(said));
    assert.ok(said.includes('Priya Shah works at Infobip'), JSON.stringify(said));
    assert.ok(said.includes('employer: Infobip'), JSON.stringify(said));
  });

  it("fills a person's home from the note's city and address, one home in its city", () => {
    const homes = memories.filter((m) => m.predicate === 'lives in').map((m) => [m.statement, m.status]);
    assert.deepEqual(homes.sort(), [
      ['Ivana Kos lives at Marmontova 3, Split', 'active'],
      ['Marko Babić lives at Vlaška 17, Zagreb', 'active'],
    ]);
  });
});
