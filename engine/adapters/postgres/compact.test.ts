import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Trace } from '../../contract/index.ts';
import { failedTrace } from '../../context/trace-buffer.ts';
import { pgBrains } from './brain-repository.ts';
import { compactForgotten } from './compact.ts';
import { pgTraceStore } from './trace-store.ts';
import { addBrain, migratedDatabase, serverForTests } from './testing/fixtures.ts';
import { insertMemory, insertRecord } from './testing/records.ts';

// A cluster of its own: the test reads every file of the cluster, which other test files would be
// writing on a shared one.
const server = await serverForTests({ own: true });

/** Every file of the cluster's databases (base/) that holds `marker`, by path. */
function filesWith(dataDir: string, marker: string, under = 'base'): string[] {
  const needle = Buffer.from(marker);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.isFile() && readFileSync(path).includes(needle)) found.push(path.slice(dataDir.length + 1));
    }
  };
  walk(join(dataDir, under));
  return found;
}

function traceOf(id: string, query: string, recordId: string): Trace {
  const t = failedTrace(
    'life',
    {
      requestId: 'req_1',
      query,
      mode: 'fast',
      request: { query },
      error: { code: 'internal_error', message: 'x' },
    } as unknown as Parameters<typeof failedTrace>[1],
    '2026-01-01T00:00:00.000Z',
    id,
  );
  return { ...t, citations: [{ record_id: recordId } as Trace['citations'][number]] };
}

describe('compacting after a forget, on a PostgreSQL server', { skip: server.skip }, () => {
  it("leaves no byte of a forgotten Record or Brain in the database's files", async (t) => {
    const cluster = server.cluster();
    const [db] = await migratedDatabase(cluster, 1, 2);
    const client = db!;
    // Lower case letters and digits: the words index (tsv) keeps it as written too.
    const record = `zqxrecord${randomBytes(8).toString('hex')}`;
    const brain = `zqxbrain${randomBytes(8).toString('hex')}`;
    await addBrain(client, 'brn_keep');
    await addBrain(client, 'brn_gone');
    // Enough other Records that ANALYZE samples the forgotten one's text into its histogram.
    for (let i = 0; i < 60; i++) {
      await insertRecord(client, {
        brainUid: 'brn_keep',
        id: `rec_${i}`,
        text: `an ordinary note number ${i}`,
      });
    }
    // In a thread between two messages, whose turns hold its words until the forget rewrites them.
    const inThread = (id: string, text: string) =>
      insertRecord(client, {
        brainUid: 'brn_keep',
        id,
        text,
        content: { kind: 'message', text, thread: 'tk' },
      });
    await inThread('rec_before', 'what is the code?');
    await inThread('rec_secret', `the code is ${record} today`);
    await inThread('rec_after', 'thanks, noted');
    await insertMemory(client, 'brn_keep', 'mem_secret', 'rec_secret', `the code is ${record}`);
    const traces = pgTraceStore(client);
    await traces.add('brn_keep', traceOf('trc_secret', `what was ${record}`, 'rec_secret'));
    await insertRecord(client, { brainUid: 'brn_gone', id: 'rec_b', text: `a Brain that says ${brain}` });
    await client.query('ANALYZE');

    // The forget: its Traces, then the Memory and the Record in one transaction; a Brain with its all.
    await traces.forgetRecords('brn_keep', ['rec_secret']);
    await client.transaction(async (tx) => {
      await tx.query("DELETE FROM memories WHERE brain_uid = 'brn_keep' AND id = 'mem_secret'");
      await tx.query("DELETE FROM records WHERE brain_uid = 'brn_keep' AND id = 'rec_secret'");
    });
    await pgBrains(client).remove('brn_gone');
    const gone = await client.query("SELECT 1 FROM records WHERE text LIKE '%zqx%'");
    assert.equal(gone.rows.length, 0, 'never served again');

    await client.query('CHECKPOINT');
    const deleted = { record: filesWith(cluster.dataDir, record), brain: filesWith(cluster.dataDir, brain) };
    assert.ok(
      deleted.record.length > 0 && deleted.brain.length > 0,
      'a DELETE leaves the bytes in the files',
    );
    // What a plain VACUUM (autovacuum's) leaves: measured, for docs/hosted-postgres.md.
    await client.query('VACUUM');
    await client.query('CHECKPOINT');
    const vacuumed = { record: filesWith(cluster.dataDir, record), brain: filesWith(cluster.dataDir, brain) };
    // Which relations the files are.
    const named = async (files: { record: string[]; brain: string[] }) => {
      const name = async (f: string) =>
        (
          await client.query<{ r: string }>(
            'SELECT relname AS r FROM pg_class WHERE pg_relation_filenode(oid) = $1',
            [Number(f.split('/').pop())],
          )
        ).rows[0]?.r ?? f;
      return {
        record: await Promise.all(files.record.map(name)),
        brain: await Promise.all(files.brain.map(name)),
      };
    };
    t.diagnostic(`after DELETE: ${JSON.stringify(await named(deleted))}`);
    t.diagnostic(`after VACUUM: ${JSON.stringify(await named(vacuumed))}`);

    const report = await compactForgotten(client);
    await client.query('CHECKPOINT');
    t.diagnostic(`compacted: ${JSON.stringify(report)}`);
    // The vectors' table is there when the server offers pgvector (Debian 12 ships none).
    const vectors = (await client.query("SELECT to_regclass('embeddings') IS NOT NULL AS t")).rows[0] as {
      t: boolean;
    };
    assert.deepEqual(
      report.tables.map((x) => x.table),
      [
        'records',
        'turns',
        'memories',
        'citations',
        'traces',
        'derive_failures',
        ...(vectors.t ? ['embeddings'] : []),
        'thorough_contexts',
      ],
      'every table that can hold the bytes',
    );
    assert.deepEqual(report.statistics, { compacted: true });
    assert.deepEqual(filesWith(cluster.dataDir, record), []);
    assert.deepEqual(filesWith(cluster.dataDir, brain), []);
    // The write-ahead log keeps it until its segment is recycled (docs/hosted-postgres.md).
    assert.ok(filesWith(cluster.dataDir, record, 'pg_wal').length > 0);
    const kept = await client.query<{ c: number }>(
      "SELECT count(*)::int AS c FROM records WHERE brain_uid = 'brn_keep'",
    );
    assert.equal(kept.rows[0]!.c, 62, 'the rest is all there');
  });
});
