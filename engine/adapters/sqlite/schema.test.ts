import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore } from './store.ts';

describe('store schema', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-schema-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const store = openStore({ dataDir: dir, key: 'k' });
  after(() => store.close());
  store.run(`INSERT INTO brains (uid, project, env, id, created_at) VALUES ('u', 'p', 'test', 'b', 'now')`);
  store.run(
    `INSERT INTO records (id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
     VALUES ('rec_1', 'u', 1, 'document', '{}', 't', 'medium', 'shareable', 'now', 0, 'now')`,
  );
  const insertMemory = (id: string) =>
    store.run(
      `INSERT INTO memories (id, brain_uid, lineage, version, statement, norm, subject, owner_state, source_key,
         valid_from, valid_from_ms, status, seq, learned_at, cause)
       VALUES (?, 'u', 'l', 1, 's', 's', 'x', 'unresolved', '', 'now', 0, 'active', 1, 'now', 'derived')`,
      id,
    );

  it('refuses a Memory without a citation (memory_without_lineage is structurally impossible)', () => {
    assert.throws(() => insertMemory('mem_1'), /memory_without_lineage/);
    assert.throws(
      () => store.tx(() => store.run(`INSERT INTO citations VALUES ('mem_ghost', 'rec_1', 'q')`)),
      /FOREIGN KEY/,
      'a citation of no Memory fails at commit',
    );
  });

  it('refuses to remove the last citation of a live Memory, even by deleting its Record', () => {
    store.tx(() => {
      store.run(`INSERT INTO citations VALUES ('mem_2', 'rec_1', 't')`);
      insertMemory('mem_2');
    });
    assert.throws(
      () => store.run(`DELETE FROM citations WHERE memory_id = 'mem_2'`),
      /memory_without_lineage/,
    );
    assert.throws(() => store.run(`DELETE FROM records WHERE id = 'rec_1'`), /memory_without_lineage/);
    store.run(`DELETE FROM memories WHERE id = 'mem_2'`);
    store.run(`DELETE FROM records WHERE id = 'rec_1'`);
    assert.equal(store.get<{ c: number }>('SELECT count(*) AS c FROM citations')!.c, 0);
  });
});
