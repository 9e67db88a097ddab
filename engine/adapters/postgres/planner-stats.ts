import type { PgClient } from './client.ts';

/** Only one process analyses at a time; the others skip (their growth counts again from zero). */
const ANALYZE_LOCK = 0x6d6e_656d_6f02;

/** The tables a Context and a write read, which grow with a Brain's Records. */
const tables = ['records', 'turns', 'memories', 'citations'];

export interface PlannerStatsOptions {
  /** Records written by this process since its last ANALYZE before the next; default 2,000. */
  minRecords?: number;
  /** Or this share of the Records the last ANALYZE counted, when more; default 0.5. */
  growth?: number;
  /** Told when an ANALYZE could not run (it is tried again after the next growth). */
  onError?: (e: unknown) => void;
}

export interface PlannerStats {
  /** Records this process committed. */
  wrote(records: number): void;
  /** Resolves once an ANALYZE under way, if any, has ended. */
  idle(): Promise<void>;
  /** Starts no more; resolves once an ANALYZE under way, if any, has ended. */
  stop(): Promise<void>;
  /** The ANALYZEs this process ran. */
  readonly runs: number;
}

/**
 * Keeps the planner's statistics in step with a bulk of writes. PostgreSQL's autovacuum analyses a
 * table once about a tenth of it changed, looking every minute: a Brain that grows by thousands of
 * Records in a few seconds (an import, a sync) is planned for its old size meanwhile. Measured here
 * with `bench scale --records 10000`: fast Context p95 129 ms right after the ingest, 34 ms once the
 * tables were analysed. So each process counts the Records it commits and, once they pass
 * `minRecords` and half of what the last ANALYZE counted, analyses the Brain tables in the background,
 * one process at a time. ANALYZE reads a sample of each table and blocks no read or write (only another
 * VACUUM, ANALYZE or index build of the table waits for it).
 */
export function plannerStats(client: PgClient, o: PlannerStatsOptions = {}): PlannerStats {
  const minRecords = o.minRecords ?? 2_000;
  const growth = o.growth ?? 0.5;
  let since = 0;
  let counted = 0;
  let runs = 0;
  let running: Promise<void> | null = null;
  let stopped = false;

  const analyse = async () => {
    since = 0;
    const tuples = await client.transaction(async (tx) => {
      const got = await tx.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [
        ANALYZE_LOCK,
      ]);
      if (!got.rows[0]?.got) return null;
      const vectors = await tx.query<{ t: string | null }>("SELECT to_regclass('embeddings')::text AS t");
      await tx.exec(`ANALYZE ${[...tables, ...(vectors.rows[0]?.t ? ['embeddings'] : [])].join(', ')}`);
      runs++;
      const r = await tx.query<{ n: number }>(
        "SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = 'records'::regclass",
      );
      return r.rows[0]?.n ?? 0;
    });
    if (tuples !== null) counted = tuples;
  };

  return {
    wrote(records) {
      since += records;
      if (stopped || running || since < Math.max(minRecords, counted * growth)) return;
      running = analyse()
        .catch((e: unknown) => o.onError?.(e))
        .finally(() => {
          running = null;
        });
    },
    async idle() {
      await running;
    },
    async stop() {
      stopped = true;
      await running;
    },
    get runs() {
      return runs;
    },
  };
}
