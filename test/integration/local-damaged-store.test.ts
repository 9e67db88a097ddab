import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { keyPragmas } from '../../engine/adapters/sqlite/open-database.ts';
import { newDatabase } from '../../engine/adapters/sqlite/sqlite-binding.ts';
import { serveLocal } from './serve-local.ts';

// A store file damaged while no server had it open (bytes of one page overwritten: a failing disk, a
// bad copy), then served: the damage shows only when a request reads that page.
const root = mkdtempSync(join(tmpdir(), 'mnemo-damaged-'));
after(() => rmSync(root, { recursive: true, force: true }));
const dataDir = join(root, 'data');
const store = join(dataDir, 'mnemo.db');

/** The page numbers of the leaves of the records table, read with the store's key. */
function recordLeaves(): number[] {
  const db = newDatabase(store, { readonly: true });
  try {
    const key = readFileSync(join(root, 'db.key'), 'utf8').trim();
    for (const pragma of keyPragmas(key)) db.pragma(pragma);
    return (
      db
        .prepare("SELECT pageno FROM dbstat WHERE name = 'records' AND pagetype = 'leaf' ORDER BY pageno")
        .all() as { pageno: number }[]
    ).map((r) => r.pageno);
  } finally {
    db.close();
  }
}

function overwritePage(pageno: number): void {
  const pageSize = 4096;
  const fd = openSync(store, 'r+');
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xaa), 0, pageSize, (pageno - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}

describe('a store damaged in the middle', () => {
  it('is store_unavailable saying so and how to recover, logged once, and health says it too', async () => {
    {
      const { server, auth } = await serveLocal(root, { dataDir });
      const post = (path: string, body: unknown) =>
        fetch(`${server.url}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      assert.equal((await post('/brains', { id: 'life' })).status, 201);
      const writes = Array.from({ length: 60 }, (_, i) =>
        post('/brains/life/records', {
          content: { kind: 'document', text: `note ${i} ${'lorem ipsum '.repeat(90)}` },
        }),
      );
      for (const res of await Promise.all(writes)) assert.equal(res.status, 202);
      await server.engine.idle();
      await server.close();
    }
    const leaves = recordLeaves();
    assert.ok(leaves.length > 4, `records span several pages (${leaves.length})`);
    overwritePage(leaves[Math.floor(leaves.length / 2)]!);

    const lines: string[] = [];
    const { server, auth } = await serveLocal(root, { dataDir, log: (l) => lines.push(l) });
    try {
      const health = () => fetch(`${server.url}/health`);
      assert.equal((await health()).status, 200, 'nothing read the damaged page yet');
      const list = async () => {
        const res = await fetch(`${server.url}/brains/life/records?limit=100`, { headers: auth });
        return { status: res.status, body: (await res.json()) as Record<string, string> };
      };
      for (let i = 0; i < 3; i++) {
        const { status, body } = await list();
        assert.equal(status, 503, JSON.stringify(body));
        assert.equal(body.code, 'store_unavailable');
        assert.equal(body.type, 'internal');
        assert.match(body.message!, /store's file is damaged/);
        assert.match(body.message!, /`mnemo restore --from FILE`/);
        assert.match(body.message!, /File → Restore…/);
        assert.doesNotMatch(body.message!, new RegExp(root), 'no path to a caller');
        // A read failed: no write to resend, and the advice to would bury the way back.
        assert.doesNotMatch(body.message!, /Idempotency-Key/);
        assert.match(body.docs_url!, /\/errors\/store_unavailable$/);
      }
      const said = lines.filter((l) => l.includes('is damaged'));
      assert.equal(said.length, 1, lines.join('\n'));
      assert.match(said[0]!, /^error: the Mnemo store .*mnemo\.db is damaged \(SQLite: /);
      assert.ok(said[0]!.includes(`'mnemo restore --from FILE --data-dir ${dataDir}'`), said[0]);
      assert.equal(lines.filter((l) => l.includes('internal_error')).length, 0, 'no stack per request');

      const res = await health();
      assert.equal(res.status, 503);
      const body = (await res.json()) as Record<string, string>;
      assert.equal(body.code, 'store_unavailable');
      assert.match(body.message!, /damaged/);
    } finally {
      await server.close();
    }
  });
});
