import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { MnemoClient } from '../client/index.ts';
import type { ImportProgress } from './run-import.ts';
import { runImport } from './run-import.ts';

test('Records are sent while the export is still being read, never more than a queue ahead', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-run-import-'));
  try {
    const n = 3000;
    const lines = Array.from(
      { length: n },
      (_, i) => `0${1 + (i % 9)}/02/2024, 10:${String(i % 60).padStart(2, '0')} - Ana: message number ${i}`,
    );
    const file = join(dir, 'WhatsApp Chat with Ana.txt');
    writeFileSync(file, lines.join('\n'));
    let held = 0;
    let mostHeld = 0;
    const sentAt: ImportProgress[] = [];
    let last: ImportProgress | undefined;
    const client = {
      getBrain: () => Promise.resolve({}),
      rememberRecord: async () => {
        await new Promise((r) => setImmediate(r));
        return { record: {}, replayed: false };
      },
    } as unknown as MnemoClient;
    const summary = await runImport({
      client,
      brainId: 'b',
      path: file,
      timeZone: 'UTC',
      onProgress: (p) => {
        last = p;
        if (p.imported === 1 && sentAt.length === 0) sentAt.push(p);
        held = p.total - p.done;
        mostHeld = Math.max(mostHeld, held);
      },
    });
    assert.equal(summary.imported, n);
    assert.equal(summary.total, n);
    assert.ok(sentAt[0]!.total < n, `the first Record went out after reading ${sentAt[0]!.total} of ${n}`);
    assert.ok(mostHeld <= 256 + 8 + 1, `at most a queue and the requests in flight ahead: ${mostHeld}`);
    assert.equal(last!.done, n, 'the last report counts every Record');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a failure outside the per-item handling ends the run with that error instead of leaving it waiting', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-run-import-'));
  try {
    const file = join(dir, 'WhatsApp Chat with Ana.txt');
    writeFileSync(
      file,
      Array.from({ length: 1000 }, (_, i) => `01/02/2024, 10:00 - Ana: message ${i}`).join('\n'),
    );
    const client = {
      getBrain: () => Promise.resolve({}),
      rememberRecord: () => Promise.resolve({ record: {}, replayed: false }),
    } as unknown as MnemoClient;
    let calls = 0;
    await assert.rejects(
      runImport({
        client,
        brainId: 'b',
        path: file,
        timeZone: 'UTC',
        onProgress: (p) => {
          if (p.imported > 0 && ++calls > 3) throw new Error('the display broke');
        },
      }),
      /the display broke/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
