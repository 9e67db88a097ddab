import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ContextRequest, RecordCreate } from '../contract/index.ts';
import { createLocalEngine } from '../local/index.ts';
import type { Tenant } from '../types.ts';
import type { RerankCandidates } from './rerank-features.ts';
import type { Reranker } from './reranker.ts';

const tenant: Tenant = { project: 'acme', env: 'test' };

/** Three threads, two speakers each, a document, and a private source a filtered request hides. */
function history(): RecordCreate[] {
  const out: RecordCreate[] = [];
  const lines: Array<[string, string, string, ('diary' | undefined)?]> = [
    ['s1', 'Gina', 'Morning! Any plans for the weekend?'],
    ['s1', 'Jon', 'I finally opened my clothing store downtown yesterday!'],
    ['s1', 'Gina', 'Congrats! What made you pick that spot?', 'diary'],
    ['s1', 'Jon', 'Foot traffic, and the rent was fair.'],
    ['s1', 'Gina', 'Did you hire anyone for the store yet?'],
    ['s1', 'Jon', 'Two people, both from the dance studio.'],
    ['s2', 'Gina', 'My dance class ran late, the store can wait.'],
    ['s2', 'Mary Ann', 'Which dance? Salsa again?', 'diary'],
    ['s2', 'Gina', 'Tango this time, on Tuesday evenings.'],
    ['s2', 'Mary Ann', 'I love how tomatoes taste straight from the vine.'],
    ['s3', 'Jon', 'The store had its first sale weekend, we sold out of jackets.'],
    ['s3', 'Mary Ann', 'Jackets in May? Why would anyone buy those?'],
    ['s3', 'Jon', 'Tourists. The rent is paid for June already.'],
  ];
  lines.forEach(([thread, speaker, text, source], i) =>
    out.push({
      content: { kind: 'message', text, speaker, thread },
      occurred_at: new Date(Date.UTC(2023, 4, 1 + Math.floor(i / 3), 9, i)).toISOString(),
      source: { name: source ?? 'chat' },
    }),
  );
  out.push({
    content: { kind: 'document', text: 'Store lease: rent due on the first of each month, downtown spot.' },
    occurred_at: '2023-04-20T00:00:00Z',
  });
  return out;
}

const requests: ContextRequest[] = [
  { query: 'Why did Jon pick the spot for his store?' },
  { query: 'What does Mary Ann love about tomatoes?' },
  { query: 'Which dance does Gina take, and when?' },
  { query: 'Where is the store spot?', filter: { sources: ['chat'] } },
  { query: 'Who did Jon hire for the store?', filter: { until: '2023-05-02T12:00:00Z' } },
  { query: 'How is the rent paid?', mode: 'thorough' },
];

/**
 * Every feature the reranker got for these requests, its neighbours and threads, and each candidate by
 * the order its Record was written: one digest, so a change of any value by any bit shows.
 */
async function digest(): Promise<{ hex: string; rows: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-rerank-pin-'));
  const seen: RerankCandidates[] = [];
  const recorder: Reranker = {
    id: 'recorder',
    depth: 150,
    score: (c) => (seen.push(c), { scores: c.ids.map((_, i) => -i) }),
  };
  const engine = await createLocalEngine({
    dataDir: dir,
    dbKey: 'rerank-pin-key',
    embedder: { provider: 'hash', dataDir: dir },
    reranker: recorder,
    clock: () => new Date('2023-07-01T00:00:00Z'),
    timeZone: 'UTC',
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await engine.createBrain(tenant, { id: 'b' });
  const order = new Map<string, number>();
  for (const body of history())
    order.set((await engine.rememberRecord(tenant, 'b', body, {})).record.id, order.size);
  await engine.idle();
  const hash = createHash('sha256');
  let rows = 0;
  for (const body of requests) {
    seen.length = 0;
    await engine.createContext(tenant, 'b', { ...body, budget: { tokens: 8000 } }, { requestId: 'req_pin' });
    assert.equal(seen.length, 1, `reranked once: ${body.query}`);
    const c = seen[0]!;
    hash.update(JSON.stringify({ ids: c.ids.map((id) => order.get(id)), threads: c.threads }));
    for (const r of c.rows) hash.update(new Uint8Array(r.buffer, r.byteOffset, r.byteLength));
    for (const n of c.neighbours) hash.update(new Uint8Array(n.buffer, n.byteOffset, n.byteLength));
    rows += c.rows.length;
  }
  return { hex: hash.digest('hex'), rows };
}

describe('the reranker’s features over SQLite', () => {
  it('are the values the shipped model was trained on, to the bit', async () => {
    // Taken from the code that computed the training set's features; a change here needs a retrained
    // model (scripts/reranker/), not a new digest.
    assert.deepEqual(await digest(), {
      hex: '76aac2d5c849674f42f3aa957b82fb941f34720107f4dedaab58a35b9f8b0dd4',
      rows: 62,
    });
  });
});
