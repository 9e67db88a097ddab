import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSyncBench } from '../../server/bench/sync-bench.ts';

describe('bench sync', () => {
  it('syncs A -> H -> B and reports push, pull and answer lines, H on PostgreSQL (PGlite)', async () => {
    const lines: Record<string, unknown>[] = [];
    await runSyncBench({
      records: 30,
      concurrency: 4,
      engine: 'postgres',
      out: (l) => lines.push(l),
      progress: () => {},
    });
    assert.deepEqual(
      lines.map((l) => [l['scope'], l['pushed'], l['pulled'], l['hub_engine']]),
      [
        ['push', 30, 30, 'postgres'],
        ['pull', 30, 30, 'postgres'],
        ['a-to-b', 30, 30, 'postgres'],
      ],
    );
    assert.ok(Number(lines[2]!['answer_ms']) > 0);
  });
});
