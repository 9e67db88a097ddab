import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore } from '../store/store.ts';
import { createDeriveWorker } from './derive-worker.ts';

function store() {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-derive-worker-'));
  const s = openStore({ dataDir: dir, key: null });
  after(() => {
    s.db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  s.run(
    "INSERT INTO brains (uid, project, env, id, created_at) VALUES ('u1', 'p', 'test', 'b', '2024-01-01T00:00:00Z')",
  );
  s.run('CREATE TABLE marks (n INTEGER)');
  return s;
}

const enqueue = (s: ReturnType<typeof store>, count: number) => {
  for (let i = 0; i < count; i++)
    s.run("INSERT INTO derive_queue (brain_uid, job, record_seq) VALUES ('u1', 'rederive', ?)", i);
};

describe('derive worker', () => {
  it('tells onCommitted once a batch that ran jobs has committed, and only then', async () => {
    const s = store();
    const ran: number[] = [];
    const seen: Array<{ inTransaction: boolean; marks: number }> = [];
    const worker = createDeriveWorker({
      store: s,
      now: () => Date.now(),
      // Each job writes something the indexer would need to see.
      run: (job) => {
        ran.push(job.n);
        s.run('INSERT INTO marks (n) VALUES (?)', job.n);
        s.run('DELETE FROM derive_queue WHERE n = ?', job.n);
      },
      onError: (_job, e) => assert.fail(String(e)),
      onCommitted: () =>
        seen.push({
          inTransaction: s.db.inTransaction,
          marks: s.get<{ n: number }>('SELECT count(*) AS n FROM marks')!.n,
        }),
    });
    after(() => worker.stop());

    worker.kick();
    await new Promise((r) => setImmediate(r));
    assert.equal(seen.length, 0, 'an empty queue commits nothing to announce');

    enqueue(s, 3);
    worker.kick();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(ran.length, 3);
    assert.ok(seen.length >= 1, 'the batch was announced');
    for (const x of seen) assert.equal(x.inTransaction, false, 'announced after the commit, not inside it');
    assert.equal(seen.at(-1)!.marks, 3, "every job's writes were there to read");
  });
});
