import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createMnemoClient } from '../../server/client/index.ts';
import { runImport, waitForDerivation } from '../../server/import/run-import.ts';
import { writeTree } from '../../server/import/test-support.ts';
import { serveLocal } from './serve-local.ts';

// A calendar's to-dos (VTODO) are imported as documents "To-do: …" (server/import/formats/ics.ts) and
// derive the task a checklist's box does (rules-v67): asked over /v1 what is still to do, a server finds
// the open one, not the one ticked off, though neither shares a word with the question.
const files = writeTree({
  'tasks.ics': [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'BEGIN:VEVENT',
    'UID:dentist',
    'DTSTART:20261208T093000Z',
    'SUMMARY:Dentist',
    'END:VEVENT',
    'BEGIN:VTODO',
    'UID:send-doc',
    'DTSTAMP:20261201T080000Z',
    'SUMMARY:Send Priya the onboarding doc',
    'DUE;VALUE=DATE:20261210',
    'STATUS:NEEDS-ACTION',
    'END:VTODO',
    'BEGIN:VTODO',
    'UID:passport',
    'DTSTAMP:20261120T080000Z',
    'SUMMARY:Renew passport',
    'STATUS:COMPLETED',
    'COMPLETED:20261203T120000Z',
    'END:VTODO',
    'END:VCALENDAR',
    '',
  ].join('\r\n'),
});
after(files.remove);

test("a calendar's open to-do, imported over /v1, answers what is on the to-do list; the done one does not", async () => {
  const dir = join(files.root, 'server');
  mkdirSync(dir);
  const { server, key } = await serveLocal(dir);
  try {
    const client = createMnemoClient({ baseUrl: server.url, apiKey: key });
    // Her own Brain: a question of "my" list asks whose list it is.
    await client.createBrain({ id: 'me', self: { type: 'person', name: 'Maria Silva' } });
    const done = await runImport({ client, brainId: 'me', path: join(files.root, 'tasks.ics') });
    assert.deepEqual([done.imported, done.failed], [3, 0]);
    await waitForDerivation(client, 'me');
    const records = (await client.listRecords('me', { source: 'ics' })).data;
    const byId = (id: string) => records.find((r) => r.source.external_id === id)!;
    const [open, ticked] = [byId('ics:send-doc#vtodo'), byId('ics:passport#vtodo')];
    const ask = async (query: string) => {
      const { context } = await client.createContext('me', { query });
      assert.equal(context.status, 'ready');
      const trace = await client.getTrace('me', context.id);
      const tasks = trace.lanes.find((l) => l.name === 'tasks')?.candidates.map((c) => c.record_id);
      return { context, tasks };
    };
    const { context, tasks } = await ask("What's on my to-do list?");
    assert.deepEqual(tasks, [open.id]);
    const cited = context.citations[0]!;
    assert.equal(cited.record_id, open.id, JSON.stringify(context.citations));
    // Quoted from its Record, which says when it is due.
    assert.ok(open.content.kind === 'document' && open.content.text.includes(cited.quote));
    assert.match(open.content.text, /\nDue: 2026-12-10/u);
    assert.ok(!context.citations.some((c) => c.record_id === ticked.id), JSON.stringify(context.citations));
    // Asked what is done, the ticked one.
    assert.deepEqual((await ask('Which tasks are done?')).tasks, [ticked.id]);
  } finally {
    await server.close();
  }
});
