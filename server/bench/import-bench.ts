import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runImport } from '../import/run-import.ts';
import { engineChoice, withBenchServer, type BenchEngineChoice } from './bench-server.ts';
import { round } from './locomo-metrics.ts';

export interface ImportOptions extends BenchEngineChoice {
  messages: number;
  concurrency: number;
  out: (line: Record<string, unknown>) => void;
  progress: (line: string) => void;
}

const people = ['Ana', 'Sam', 'Rui', 'Marta'];
const lines = [
  'Are we still on for dinner on Friday?',
  'I booked the table at Tasca do Chico for 8pm',
  'Can you pick up the kids from school tomorrow?',
  'My flight lands at 10:40, terminal 1',
  'Mum says the flat in Lisbon is free in May',
  'Remember to renew the car insurance before the 15th',
  'The plumber comes on Tuesday between 9 and 12',
  'I moved the dentist appointment to next Thursday',
];

/** A WhatsApp (Android) export of `n` messages, one a minute, a few of them multi-line. */
export function syntheticWhatsappChat(n: number, start = Date.UTC(2023, 0, 1, 8, 0)): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const d = new Date(start + i * 60_000);
    const p = (x: number) => String(x).padStart(2, '0');
    const head = `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}, ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
    const text = `${lines[i % lines.length]} (#${i})`;
    out.push(`${head} - ${people[i % people.length]}: ${text}${i % 10 === 0 ? '\nand one more line' : ''}`);
  }
  return out.join('\n');
}

/**
 * Import throughput: a synthetic WhatsApp export of N messages imported through /v1 by the same code as
 * `mnemo import`, timed until the engine reports every Record derived.
 */
export async function runImportBench(o: ImportOptions): Promise<void> {
  await withBenchServer(engineChoice(o), async (bench) => {
    o.progress(`importing ${o.messages} chat messages`);
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-bench-import-'));
    try {
      const file = join(dir, 'WhatsApp Chat with Family.txt');
      writeFileSync(file, syntheticWhatsappChat(o.messages));
      const started = performance.now();
      const summary = await runImport({
        client: bench.client,
        brainId: 'bench-import',
        path: file,
        format: 'whatsapp',
        timeZone: 'UTC',
        concurrency: o.concurrency,
      });
      const imported = performance.now();
      await bench.server.engine.idle();
      const done = performance.now();
      const total = (done - started) / 1000;
      o.out({
        benchmark: 'import',
        scope: 'whatsapp',
        messages: o.messages,
        imported: summary.imported,
        import_s: round((imported - started) / 1000, 2),
        derive_s: round((done - imported) / 1000, 2),
        total_s: round(total, 2),
        records_per_s: round(summary.imported / total, 1),
        engine: o.engine,
        embedder: bench.embedder,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
