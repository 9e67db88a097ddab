import type { SyncStatus } from '../../engine/contract/index.ts';
import { createMnemoClient } from '../client/index.ts';
import { mapLimit, startBenchServer, type BenchServer } from './bench-server.ts';
import { round } from './locomo-metrics.ts';
import { syntheticRecord } from './synthetic.ts';

export interface SyncBenchOptions {
  records: number;
  concurrency: number;
  /** The hosted H's engine; the devices are local. */
  engine?: 'local' | 'postgres';
  /** H's PostgreSQL database; without one, PGlite in this process. */
  databaseUrl?: string | undefined;
  out: (line: Record<string, unknown>) => void;
  progress: (line: string) => void;
}

/** Runs are started by hand here: the background loop would race the clock being read. */
const byHand = { debounceMs: 3_600_000, intervalMs: 3_600_000 };

/**
 * Sync throughput, device A -> hosted H -> device B, each a server of its own on 127.0.0.1 over its own
 * temp data dir: A holds `records` shareable Records; right after A's last write, A pushes, B pulls,
 * and B is asked a Context that only A's last write answers, until it does. Reports push and pull
 * records/s, and the time from A's last write until B's answer cites it.
 */
export async function runSyncBench(o: SyncBenchOptions): Promise<void> {
  const started: BenchServer[] = [];
  try {
    const a = await startBenchServer({ engine: 'local', sync: byHand });
    started.push(a);
    const h = await startBenchServer({
      engine: o.engine ?? 'local',
      databaseUrl: o.databaseUrl,
      deployment: 'hosted',
      sync: byHand,
    });
    started.push(h);
    const b = await startBenchServer({ engine: 'local', sync: byHand });
    started.push(b);
    const hostedKey = (await h.server.registry!.create({ env: 'test', project: 'bench', label: 'sync' })).key;
    for (const device of [a, b]) {
      await device.client.createBrain({ id: 'sync' });
      // Pairing takes an admin key of the Brain's project (the bench's), as the desktop UI's is.
      const admin = await device.server.registry!.create({
        env: 'test',
        project: 'bench',
        label: 'sync bench pairing',
        admin: true,
      });
      const person = createMnemoClient({ baseUrl: device.server.url, apiKey: admin.key, retry: false });
      await person.pairSync('sync', { remote: h.server.url, remote_key: hostedKey });
    }
    // Pairing starts a first run at once: let it end before the clock starts.
    await Promise.all([a, b].map((d) => d.client.runSync('sync')));
    o.progress(`writing ${o.records} Records on A`);
    const ids = Array.from({ length: o.records - 1 }, (_, i) => i);
    await mapLimit(ids, o.concurrency, (i) => a.client.rememberRecord('sync', syntheticRecord(i, 5)));
    const last = await a.client.rememberRecord('sync', {
      content: {
        kind: 'message',
        speaker: 'Ana',
        text: 'The lighthouse keeper on Berlenga is called Tomasz.',
      },
    });
    const lastAt = performance.now();
    const pushed = await expectClean(a.client.runSync('sync'));
    const pushS = (performance.now() - lastAt) / 1000;
    const pullStart = performance.now();
    const pulled = await expectClean(b.client.runSync('sync'));
    const pullS = (performance.now() - pullStart) / 1000;
    o.progress(`pushed ${pushed.pushed}, pulled ${pulled.pulled}; waiting for B to answer`);
    let polls = 0;
    for (;;) {
      polls += 1;
      const { context } = await b.client.createContext('sync', {
        query: 'Who is the lighthouse keeper on Berlenga?',
      });
      if (context.citations.some((c) => c.record_id === last.record.id)) break;
      if (performance.now() - lastAt > 600_000)
        throw new Error("B did not answer from A's last write within 10 minutes");
      await new Promise((r) => setTimeout(r, 100));
    }
    const answerMs = performance.now() - lastAt;
    const common = {
      records: o.records,
      pushed: pushed.pushed,
      pulled: pulled.pulled,
      embedder: b.embedder,
      hub_engine: o.engine ?? 'local',
    };
    o.out({
      benchmark: 'sync',
      scope: 'push',
      records_per_s: round(pushed.pushed / pushS, 1),
      seconds: round(pushS, 2),
      ...common,
    });
    o.out({
      benchmark: 'sync',
      scope: 'pull',
      records_per_s: round(pulled.pulled / pullS, 1),
      seconds: round(pullS, 2),
      ...common,
    });
    o.out({
      benchmark: 'sync',
      scope: 'a-to-b',
      records_per_s: round(o.records / (answerMs / 1000), 1),
      answer_ms: Math.round(answerMs),
      context_polls: polls,
      ...common,
    });
  } finally {
    for (const s of started.reverse()) await s.close().catch(() => {});
  }
}

async function expectClean(status: Promise<SyncStatus>): Promise<SyncStatus> {
  const s = await status;
  if (s.last_error) throw new Error(`sync failed: ${s.last_error}`);
  return s;
}
