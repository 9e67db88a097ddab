import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MnemoClient } from '../client/index.ts';
import { runImport, waitForDerivation } from './run-import.ts';

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

export interface ImportBenchResult {
  benchmark: 'import';
  scope: 'whatsapp';
  messages: number;
  imported: number;
  import_s: number;
  derive_s: number;
  total_s: number;
  records_per_s: number;
}

/**
 * The importer's throughput benchmark (for `mnemo bench`): a synthetic chat export of `messages`
 * messages imported through a running server's /v1 API, timed until derivation is done.
 */
export async function benchImport(o: {
  client: MnemoClient;
  brainId?: string;
  messages?: number;
  concurrency?: number;
}): Promise<ImportBenchResult> {
  const n = o.messages ?? 10_000;
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-bench-import-'));
  try {
    const file = join(dir, 'WhatsApp Chat with Family.txt');
    writeFileSync(file, syntheticWhatsappChat(n));
    const brainId = o.brainId ?? `bench-import-${Date.now().toString(36)}`;
    const started = performance.now();
    const summary = await runImport({
      client: o.client,
      brainId,
      path: file,
      format: 'whatsapp',
      timeZone: 'UTC',
      concurrency: o.concurrency ?? 8,
    });
    const imported = performance.now();
    await waitForDerivation(o.client, brainId, 600_000);
    const done = performance.now();
    const total = (done - started) / 1000;
    return {
      benchmark: 'import',
      scope: 'whatsapp',
      messages: n,
      imported: summary.imported,
      import_s: +((imported - started) / 1000).toFixed(2),
      derive_s: +((done - imported) / 1000).toFixed(2),
      total_s: +total.toFixed(2),
      records_per_s: +(summary.imported / total).toFixed(1),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
