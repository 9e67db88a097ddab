import assert from 'node:assert/strict';
import { readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  ImportProgress,
  ImportResult,
  type ImportRequest,
  type ImportResult as ImportResultType,
} from '../../engine/contract/index.ts';
import { parseEventStream, type StreamFrame } from '../../server/client/sse.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// importFiles as an event stream, and its cancel, through a real server on loopback with the local
// engine on an encrypted SQLite file.
const root = mkdtempSync(join(tmpdir(), 'mnemo-import-progress-'));
const dataDir = join(root, 'data');
const logged: string[] = [];
let server: RunningServer;
let auth: Record<string, string>;

before(async () => {
  ({ server, auth } = await serveLocal(root, { dataDir, log: (line) => logged.push(line) }));
});
after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const file = (name: string, text: string) => ({
  name,
  content_base64: Buffer.from(text, 'utf8').toString('base64'),
});
/** Notes without last_modified: each is the same item (same Idempotency-Key) however often it is sent. */
const notes = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    file(`Notes/n${String(i).padStart(4, '0')}.md`, `# Note ${i}\n\nNote ${i} of ${n} says hello.\n`),
  );

async function createBrain(id: string) {
  const res = await fetch(`${server.url}/brains`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ id }),
  });
  assert.equal(res.status, 201);
}
const post = (brain: string, body: unknown, accept: string, signal?: AbortSignal) =>
  fetch(`${server.url}/brains/${brain}/imports`, {
    method: 'POST',
    headers: { ...auth, accept },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
async function records(brain: string): Promise<number> {
  const res = await fetch(`${server.url}/brains/${brain}/census`, { headers: auth });
  return ((await res.json()) as { counts: { records: number } }).counts.records;
}
// A bound for a loaded machine: a passing run waits only as long as the event takes.
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
const uploads = () => readdirSync(join(dataDir, 'tmp')).filter((n) => n.startsWith('mnemo-import-'));
const comparable = (r: ImportResultType) => ({ ...r, brain_id: '', watermark: null });

describe('importFiles as an event stream', () => {
  test('progress frames, then one result frame equal to what the plain request answers', async () => {
    const body: ImportRequest = {
      time_zone: 'Europe/Lisbon',
      files: [
        ...notes(30),
        file(
          'WhatsApp Chat with Bo.txt',
          '12/01/2024, 09:15 - Bo: Lunch on Friday?\n12/01/2024, 09:16 - Ana: Yes\n',
        ),
        file('photo.bin', '\u0000\u0001 not an export'),
      ],
    };
    await createBrain('plain');
    await createBrain('streamed');
    const plainRes = await post('plain', body, 'application/json');
    assert.equal(plainRes.status, 200);
    assert.match(plainRes.headers.get('content-type') ?? '', /application\/json/);
    const plain = ImportResult.parse(await plainRes.json());

    const res = await post('streamed', body, 'text/event-stream');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const frames: StreamFrame[] = [];
    for await (const f of parseEventStream(res.body!)) frames.push(f);
    const last = frames.at(-1)!;
    assert.equal(last.event, 'result');
    assert.deepEqual(
      frames.slice(0, -1).map((f) => f.event),
      frames.slice(0, -1).map(() => 'progress'),
      'every frame before the result is progress',
    );
    const progress = frames.slice(0, -1).map((f) => ImportProgress.parse(f.data));
    assert.ok(progress.length >= 1, 'at least the frame sent when planning ends');
    // Planning ended: the parts are known before anything is read.
    assert.deepEqual(
      [progress[0]!.files, progress[0]!.parts_planned, progress[0]!.items_read, progress[0]!.imported],
      [32, plain.parts.length, 0, 0],
    );
    for (const [i, p] of progress.entries()) {
      const before = progress[i - 1];
      if (!before) continue;
      for (const k of ['parts_done', 'items_read', 'imported', 'unchanged', 'skipped', 'failed'] as const)
        assert.ok(p[k] >= before[k], `${k} never goes back`);
    }
    const result = ImportResult.parse(last.data);
    assert.equal(result.brain_id, 'streamed');
    assert.match(result.watermark ?? '', /^wm_/);
    assert.deepEqual(comparable(result), comparable(plain));
    assert.deepEqual([result.imported, result.skipped_count], [32, 1]);
    assert.equal(await records('streamed'), 32);
  });

  test('a request that fails before the stream opens gets the plain JSON error with its status', async () => {
    const cases: [string, unknown, number, string][] = [
      ['nobody', { files: notes(1) }, 404, 'brain_not_found'],
      ['plain', { files: notes(1), time_zone: 'Mars/Olympus' }, 400, 'invalid_request_body'],
      ['plain', { files: [file('../escape.md', 'x')] }, 400, 'invalid_request_body'],
      ['plain', { files: [] }, 400, 'invalid_request_body'],
    ];
    for (const [brain, body, status, code] of cases) {
      // Accept names only the stream: still the JSON error, never 406 for this operation.
      const res = await post(brain, body, 'text/event-stream');
      assert.equal(res.status, status, JSON.stringify(body));
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      const error = (await res.json()) as Record<string, unknown>;
      assert.equal(error.code, code);
      assert.deepEqual(Object.keys(error).sort().slice(0, 5), [
        'code',
        'docs_url',
        'message',
        'request_id',
        'type',
      ]);
    }
  });

  test('the client going away stops the import between items; a re-run completes it without duplicates', async () => {
    // Enough that the import is still running when the client goes (writes share commits: fast).
    const total = 1500;
    const body: ImportRequest = { files: notes(total) };
    await createBrain('cancelled');
    const controller = new AbortController();
    const res = await post('cancelled', body, 'text/event-stream', controller.signal);
    assert.equal(res.status, 200);
    const seen: ImportProgress[] = [];
    await assert.rejects(async () => {
      for await (const f of parseEventStream(res.body!)) {
        assert.equal(f.event, 'progress', 'the import was still running');
        const p = ImportProgress.parse(f.data);
        seen.push(p);
        if (p.imported >= 5) controller.abort();
      }
    }, /abort/i);
    await until(() => logged.some((l) => /cancelled, the client went away/.test(l)), 'the cancel in the log');
    const line = logged.find((l) => /cancelled, the client went away/.test(l))!;
    assert.match(line, /into Brain "cancelled"/);
    // The upload's temporary copy is gone with the import.
    assert.deepEqual(uploads(), []);
    const written = await records('cancelled');
    assert.ok(written >= seen.at(-1)!.imported, 'what was written stays');
    assert.ok(written < total, `stopped part way (${written} of ${total})`);
    assert.match(line, new RegExp(`after ${written} new and 0 unchanged items`));
    // Nothing more arrives after the cancel.
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await records('cancelled'), written);

    // The same files again: what was written is unchanged, the rest is written, nothing twice.
    const again = await post('cancelled', body, 'application/json');
    assert.equal(again.status, 200);
    const result = ImportResult.parse(await again.json());
    assert.deepEqual([result.imported, result.unchanged, result.failed], [total - written, written, 0]);
    assert.equal(await records('cancelled'), total);
  });

  test('a plain request whose client goes away stops too', async () => {
    // Enough that the import is still running when the client goes (writes share commits: fast).
    const total = 1500;
    await createBrain('plain-cancelled');
    const controller = new AbortController();
    const request = post('plain-cancelled', { files: notes(total) }, 'application/json', controller.signal);
    // The whole upload is copied and read before its first write: on a loaded machine, tens of seconds.
    await until(async () => (await records('plain-cancelled')) >= 3, 'the first Records', 120_000);
    controller.abort();
    await assert.rejects(request, /abort/i);
    await until(
      () => logged.some((l) => /Brain "plain-cancelled" cancelled, the client went away/.test(l)),
      'the cancel in the log',
    );
    assert.deepEqual(uploads(), []);
    const written = await records('plain-cancelled');
    assert.ok(written < total, `stopped part way (${written} of ${total})`);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await records('plain-cancelled'), written);
  });
});
