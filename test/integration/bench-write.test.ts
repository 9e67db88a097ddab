import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runWrite } from '../../server/bench/write-bench.ts';

describe('bench write', () => {
  it('prints the http and derive lines, the client in a process of its own (local engine, over HTTP)', async () => {
    const lines: Record<string, unknown>[] = [];
    await runWrite({
      records: 40,
      concurrency: 4,
      engine: 'local',
      out: (l) => lines.push(l),
      progress: () => {},
    });
    assert.deepEqual(
      lines.map((l) => [l['benchmark'], l['scope']]),
      [
        ['write', 'http'],
        ['write', 'derive'],
      ],
    );
    const [http, derive] = lines as [Record<string, unknown>, Record<string, unknown>];
    for (const k of ['records_per_s', 'p50_ms', 'p95_ms', 'peak_rss_mb', 'client_rss_mb', 'server_cpu_s'])
      assert.equal(typeof http[k], 'number', k);
    assert.equal(http['records'], 40);
    assert.equal(http['concurrency'], 4);
    // The client ran in a process of its own: its peak is not this one's.
    assert.match(String(http['rss_measured']), /^server process/);
    assert.ok((http['client_rss_mb'] as number) > 0);
    // Derivation is timed from the same start, so it can only be slower than the acknowledgements.
    assert.ok((derive['records_per_s'] as number) <= (http['records_per_s'] as number));
  });
});
