import { benchImport } from '../import/bench-import.ts';
import { withBenchServer, type BenchEngine } from './bench-server.ts';

export interface ImportOptions {
  messages: number;
  concurrency: number;
  engine: BenchEngine;
  embeddingModel?: string | undefined;
  out: (line: Record<string, unknown>) => void;
  progress: (line: string) => void;
}

/** Import throughput: a synthetic WhatsApp export of N messages through /v1, timed until derived. */
export async function runImportBench(o: ImportOptions): Promise<void> {
  await withBenchServer({ engine: o.engine, embeddingModel: o.embeddingModel }, async (bench) => {
    o.progress(`importing ${o.messages} chat messages`);
    const result = await benchImport({
      client: bench.client,
      messages: o.messages,
      concurrency: o.concurrency,
    });
    o.out({ ...result, engine: o.engine, embedder: bench.embedder });
  });
}
