import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runScale } from '../../server/bench/scale-bench.ts';
import { syntheticRecord } from '../../server/bench/synthetic.ts';

describe('bench scale', () => {
  it('threads the synthetic messages only when asked, every thread-size consecutive ones together', () => {
    const flat = syntheticRecord(5).content as { thread?: string };
    assert.equal(flat.thread, undefined);
    const thread = (i: number) => (syntheticRecord(i, 1, 40).content as { thread?: string }).thread;
    assert.equal(thread(0), 'chat 0');
    assert.equal(thread(39), 'chat 0');
    assert.equal(thread(40), 'chat 1');
    // The thread changes nothing else: the same corpus, threaded.
    const { thread: _t, ...rest } = syntheticRecord(7, 1, 40).content as Record<string, unknown>;
    assert.deepEqual(rest, syntheticRecord(7).content);
  });

  it('prints the fixed fields, the client in a process of its own; threaded, every Context is reranked through stage 2 (local engine, over HTTP)', async () => {
    const lines: Record<string, unknown>[] = [];
    await runScale({
      records: 60,
      queries: 3,
      threadSize: 20,
      engine: 'local',
      out: (l) => lines.push(l),
      progress: () => {},
    });
    assert.equal(lines.length, 1);
    const l = lines[0]!;
    assert.equal(l['benchmark'], 'scale');
    assert.equal(l['records'], 60);
    assert.equal(l['thread_size'], 20);
    for (const k of [
      'p50_ms',
      'p95_ms',
      'p99_ms',
      'rss_mb',
      'peak_rss_mb',
      'client_rss_mb',
      'server_cpu_ms_per_query',
    ])
      assert.equal(typeof l[k], 'number', k);
    // The client ran in a process of its own: its peak is not this one's.
    assert.match(String(l['rss_measured']), /^server process/);
    assert.ok((l['client_rss_mb'] as number) > 0);
    // The server's CPU over the querying, each Context's share: a Context costs milliseconds.
    assert.ok((l['server_cpu_ms_per_query'] as number) > 0.1, String(l['server_cpu_ms_per_query']));
    // Sampled through the run: every stage has its peak, none above the run's.
    const byStage = l['rss_mb_by_stage'] as Record<string, number>;
    assert.deepEqual(Object.keys(byStage), ['start', 'write', 'derive_and_index', 'queries']);
    for (const v of Object.values(byStage)) assert.ok(v > 0 && v <= (l['peak_rss_mb'] as number));
    // The lexical searches ran from the in-memory copy of the index, loaded before the timed queries.
    // Its size is in MB to one decimal: 60 Records' copy holds ~50 KB, printed as 0 or 0.1.
    assert.equal(typeof l['lexical_copy_mb'], 'number');
    assert.ok(
      (l['lexical_copy_answers'] as number) >= 3,
      `lexical_copy_answers ${String(l['lexical_copy_answers'])}`,
    );
    // Stage 2 runs only where every candidate is in a thread: the Records were written threaded.
    const orderedBy = Object.entries(l['ordered_by'] as Record<string, number>);
    assert.deepEqual(
      orderedBy.map(([, n]) => n),
      [3],
      JSON.stringify(orderedBy),
    );
    assert.match(orderedBy[0]![0], /stage 1, then stage 2/);
  });
});
