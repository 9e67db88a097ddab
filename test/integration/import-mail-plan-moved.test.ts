import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { migratedPglite } from '../../engine/adapters/postgres/testing/fixtures.ts';
import type { Memory } from '../../engine/contract/index.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { parseMbox } from '../../server/import/formats/mbox.ts';
import { runImport, waitForDerivation } from '../../server/import/run-import.ts';
import { collect } from '../../server/import/test-support.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';
import { tenant } from './local-helpers.ts';

// The airline's booking mails, imported from an mbox as `mnemo import`
// does, then the person's own word in a chat that the flight moved.
const mbox = `From booking@flytap.example Mon Mar  2 09:00:00 2026
From: TAP Air Portugal <booking@flytap.example>
To: Ana Horvat <ana@example.com>
Subject: Booking confirmation TP 1234
Date: Mon, 2 Mar 2026 09:00:00 +0000
Message-ID: <tp1234@flytap.example>

Dear Ana Horvat,

Your flight TP 1234 Zagreb – Lisbon on Thursday 12 March 10:15 is confirmed.

From booking@flytap.example Mon Mar  2 09:01:00 2026
From: TAP Air Portugal <booking@flytap.example>
To: Ana Horvat <ana@example.com>
Subject: Booking confirmation TP 1235
Date: Mon, 2 Mar 2026 09:01:00 +0000
Message-ID: <tp1235@flytap.example>

Dear Ana Horvat,

Your flight TP 1235 Lisbon – Zagreb on Sunday 15 March 18:00 is confirmed.
`;

const outbound = 'Your flight TP 1234 Zagreb – Lisbon on Thursday 12 March 10:15 is confirmed.';
const back = 'Your flight TP 1235 Lisbon – Zagreb on Sunday 15 March 18:00 is confirmed.';

for (const said of [
  'My flight to Lisbon moved to Friday.',
  'The airline moved my Lisbon flight to Friday 9:40.',
])
  describe(`a booking mailed, then "${said}"`, () => {
    let root: string;
    let server: RunningServer;
    let client: MnemoClient;
    let moved: string;

    before(async () => {
      root = mkdtempSync(join(tmpdir(), 'mnemo-mail-plan-'));
      writeFileSync(join(root, 'mail.mbox'), mbox);
      const served = await serveLocal(root, { timeZone: 'UTC' });
      server = served.server;
      client = createMnemoClient({ baseUrl: server.url, apiKey: served.key });
      await client.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Ana Horvat' } });
      const summary = await runImport({
        client,
        brainId: 'me',
        path: join(root, 'mail.mbox'),
        format: 'mbox',
      });
      assert.equal(summary.imported, 2);
      await waitForDerivation(client, 'me');
      moved = (
        await client.rememberRecord('me', {
          content: { kind: 'message', speaker: 'Ana Horvat', text: said },
          occurred_at: '2026-03-05T08:00:00Z',
        })
      ).record.id;
      await waitForDerivation(client, 'me');
    });
    after(async () => {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    });

    const memories = async (): Promise<Memory[]> =>
      (await client.listMemories('me', { limit: 100, status: 'all' })).data;
    const statusOf = async (statement: string) =>
      (await memories()).filter((m) => m.statement === statement).map((m) => m.status);

    it("supersedes the airline's booking of the flight to Lisbon from when she said so, not the flight back", async () => {
      assert.deepEqual(await statusOf(outbound), ['superseded']);
      assert.deepEqual(await statusOf(back), ['active']);
      const booking = (await memories()).find((m) => m.statement === outbound)!;
      assert.equal(booking.valid_to, '2026-03-05T08:00:00Z');
      // Its next version is her move, hers.
      const next = (await memories()).filter(
        (m) => m.status === 'active' && m.citations.some((c) => c.record_id === moved),
      );
      assert.deepEqual(
        next.map((m) => [m.statement, m.version, m.owner.state]),
        [[said, 2, 'self']],
      );
    });

    it('"When is my flight to Lisbon?" and "flight to Lisbon" lead with the move, the booking after it', async () => {
      const booked = (await client.listRecords('me')).data.find(
        (r) => r.content.kind === 'message' && r.content.text.includes('TP 1234'),
      )!;
      for (const query of ['When is my flight to Lisbon?', 'flight to Lisbon']) {
        const { context } = await client.createContext('me', { query });
        const order = context.citations.map((c) => c.record_id);
        assert.equal(order[0], moved, `${query}: ${JSON.stringify(context.citations)}`);
        assert.ok(!order.includes(booked.id) || order.indexOf(booked.id) > 0, query);
      }
    });

    it('forgetting the move restores the booking', async () => {
      assert.deepEqual(await statusOf(outbound), ['superseded']);
      await client.forgetRecord('me', moved);
      await waitForDerivation(client, 'me');
      assert.deepEqual(await statusOf(outbound), ['active']);
    });
  });

// The same over PostgreSQL (PGlite), whose adapter reads the mailed booking its own way: the mail as the
// importer parses it, written to the engine.
describe('on PostgreSQL (PGlite): a booking mailed, then "My flight to Lisbon moved to Friday."', () => {
  it('supersedes the booking of the flight to Lisbon, not the flight back', async () => {
    const pg = await migratedPglite();
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-mail-plan-pg-'));
    const { engine } = await openPostgresEngine(
      { open: () => postgresStorageOver({ ...pg, close: async () => {} }) },
      { deployment: 'local' },
    );
    try {
      writeFileSync(join(dir, 'mail.mbox'), mbox);
      const { records } = await collect(parseMbox(join(dir, 'mail.mbox'), { selfName: 'Ana Horvat' }));
      await engine.createBrain(tenant, { id: 'me', self: { type: 'person', name: 'Ana Horvat' } });
      for (const r of records) await engine.rememberRecord(tenant, 'me', r.body, {});
      await engine.idle();
      await engine.rememberRecord(
        tenant,
        'me',
        {
          content: { kind: 'message', speaker: 'Ana Horvat', text: 'My flight to Lisbon moved to Friday.' },
          occurred_at: '2026-03-05T08:00:00Z',
        },
        {},
      );
      await engine.idle();
      const all = (await engine.listMemories(tenant, 'me', { limit: 100, status: 'all' })).data;
      const statusOf = (statement: string) =>
        all.filter((m) => m.statement === statement).map((m) => m.status);
      assert.deepEqual(statusOf(outbound), ['superseded']);
      assert.deepEqual(statusOf(back), ['active']);
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
