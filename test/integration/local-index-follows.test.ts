import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3-multiple-ciphers';
import { storeFileName } from '../../engine/adapters/sqlite/store.ts';
import { open, tempDir, tenant } from './local-helpers.ts';

describe('local engine: index work starts with the write that queues it, with no polling', () => {
  it("re-indexes a forgotten message's neighbours right after the forget", async () => {
    const dir = tempDir();
    // Unencrypted so a second, read-only connection can watch the queue.
    const engine = await open(dir, { dbKey: null });
    try {
      await engine.createBrain(tenant, { id: 'b' });
      const ids: string[] = [];
      for (const [i, text] of [
        'Where shall we sail?',
        'To Porto, on Friday.',
        'Lovely, see you there.',
      ].entries()) {
        const w = await engine.rememberRecord(
          tenant,
          'b',
          {
            content: { kind: 'message', text, speaker: i % 2 ? 'Ben' : 'Ana', thread: 't' },
            occurred_at: `2024-05-0${i + 1}T10:00:00Z`,
          },
          {},
        );
        ids.push(w.record.id);
      }
      await engine.idle();
      const db = new Database(join(dir, storeFileName), { readonly: true });
      try {
        const queued = () => (db.prepare('SELECT count(*) AS n FROM index_queue').get() as { n: number }).n;
        assert.equal(queued(), 0);
        await engine.forgetRecord(tenant, 'b', ids[1]!);
        // Its neighbours' full-text rows held its words: they are dropped and queued again by trigger.
        const deadline = Date.now() + 5_000;
        while (queued() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        assert.equal(queued(), 0, 'the neighbours were re-indexed without another write or a Context');
        const rows = db.prepare('SELECT count(*) AS n FROM turn_fts').get() as { n: number };
        assert.equal(rows.n, 2);
      } finally {
        db.close();
      }
    } finally {
      await engine.close();
    }
  });
});
