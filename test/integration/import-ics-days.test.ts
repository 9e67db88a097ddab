import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createMnemoClient } from '../../server/client/index.ts';
import { runImport, waitForDerivation } from '../../server/import/run-import.ts';
import { icsOf, writeTree } from '../../server/import/test-support.ts';
import { serveLocal } from './serve-local.ts';

// An all-day event is stored at 00:00 UTC of its date whatever the zone (server/import/formats/ics.ts);
// a server asked about that date must find it in its own calendar, west of UTC too.
const files = writeTree({
  'holidays.ics': icsOf([
    'UID:picnic-2024',
    'DTSTART;VALUE=DATE:20240704',
    'DTEND;VALUE=DATE:20240705',
    'SUMMARY:Independence Day picnic',
  ]),
});
after(files.remove);
const root = files.root;
const calendar = join(root, 'holidays.ics');

describe('an imported all-day event, asked about by its date', () => {
  for (const zone of ['America/Los_Angeles', 'Asia/Tokyo', 'UTC']) {
    test(`is on its date for a server in ${zone}, not on the day before`, async () => {
      const dir = join(root, zone.replace('/', '-'));
      mkdirSync(dir);
      const { server, key } = await serveLocal(dir, { timeZone: zone });
      try {
        const client = createMnemoClient({ baseUrl: server.url, apiKey: key });
        const done = await runImport({ client, brainId: 'me', path: calendar, timeZone: zone });
        assert.deepEqual([done.imported, done.failed], [1, 0]);
        await waitForDerivation(client, 'me');
        const [picnic] = (await client.listRecords('me', { source: 'ics' })).data;
        assert.equal(picnic!.occurred_at, '2024-07-04T00:00:00.000Z', 'stored as 00:00Z of its date');
        const timeLane = async (query: string) => {
          const { context } = await client.createContext('me', { query });
          assert.equal(context.status, 'ready');
          const trace = await client.getTrace('me', context.id);
          return trace.lanes.find((l) => l.name === 'time')?.candidates ?? [];
        };
        const on4 = await timeLane('What did I do on 4 July 2024?');
        assert.deepEqual(
          on4.map((c) => c.record_id),
          [picnic!.id],
        );
        assert.match(on4[0]!.reason, /\(2024-07-04\)|on 2024-07-04\)/, 'the Trace names its date');
        assert.deepEqual(await timeLane('What did I do on 3 July 2024?'), []);
      } finally {
        await server.close();
      }
    });
  }
});
