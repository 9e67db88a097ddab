import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryRepository, MemoryVersionRow, SameStatement } from '../ports/index.ts';
import { admitStatement, type StatementAdmission } from './admit-claims.ts';

/**
 * A Memory repository that answers the lookups of a statement with `found` and counts them; any
 * other call than the write path's fails the test.
 */
function counting(found: string | null) {
  const asked: SameStatement[] = [];
  const written: Omit<MemoryVersionRow, 'n'>[] = [];
  const cited: string[] = [];
  const used: Partial<MemoryRepository> = {
    sameStatement: async (q) => {
      asked.push(q);
      return found;
    },
    insert: async (row) => {
      written.push(row);
    },
    addCitation: async (c) => {
      cited.push(c.memory_id);
      return true;
    },
  };
  const memories = new Proxy(used, {
    get: (target, name: string) => target[name as keyof MemoryRepository] ?? assert.fail(`called ${name}`),
  }) as MemoryRepository;
  return { memories, asked, written, cited };
}

const admission = (statement: string): StatementAdmission => ({
  claim: { statement, subject: 'Ana', owner: { state: 'self' } },
  from: { occurredAt: '2024-01-01T00:00:00.000Z', occurredMs: 0, sourceName: null },
  citation: { recordId: 'rec_1', quote: statement },
  cause: 'derived',
});

describe('admitting a statement of no slot', () => {
  it('looks a statement said in other words than its key up once, by its key, and keys what it writes', async () => {
    const repo = counting(null);
    const out = await admitStatement(repo.memories, 'brn_1', admission('I really love hiking!'), 1, 'now');
    assert.equal(out.made, true);
    assert.deepEqual(repo.asked, [
      { norm: 'i love hik', subject: 'Ana', owner_state: 'self', owner_entity: null },
    ]);
    assert.deepEqual(
      repo.written.map((m) => m.norm),
      ['i love hik'],
    );
  });

  it('cites the Memory its key finds, after that one lookup', async () => {
    const repo = counting('mem_1');
    const out = await admitStatement(repo.memories, 'brn_1', admission('I really love hiking!'), 1, 'now');
    assert.deepEqual(out, { id: 'mem_1', made: false });
    assert.equal(repo.asked.length, 1);
    assert.deepEqual(repo.cited, ['mem_1']);
  });
});
