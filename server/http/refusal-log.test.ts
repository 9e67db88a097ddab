import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { FileKeyRegistry, hashKey } from '../../engine/index.ts';
import { loggingRefusals } from './refusal-log.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-refusals-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the registry the server answers keys with logs its refusals', () => {
  test('one line a window counts unknown and revoked keys, naming none; good keys log nothing', async () => {
    const file = FileKeyRegistry.ensure(join(dir, 'keys.json'));
    const lines: string[] = [];
    const registry = loggingRefusals(file, (l) => lines.push(l), 50);
    const good = await registry.create({ env: 'test', project: 'p' });
    const gone = await registry.create({ env: 'test', project: 'p' });
    await registry.revoke(gone.key);
    assert.equal((await registry.byHash(hashKey(good.key)))?.id, good.record.id);
    await sleep(80);
    assert.equal(lines.length, 0, 'a good key is no refusal');
    for (const made of ['sk_test_p_aaaa1111', 'sk_test_p_bbbb2222', 'sk_test_p_aaaa1111'])
      assert.equal(await registry.byHash(hashKey(made)), null);
    assert.ok((await registry.byHash(hashKey(gone.key)))?.revoked_at, 'a revoked key is still answered');
    await sleep(80);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /refused 4 requests .* 3 not issued .* 1 revoked/);
    for (const secret of [good.key, gone.key, hashKey(gone.key), 'aaaa1111'])
      assert.ok(!lines[0]!.includes(secret), 'the line names no key');
    await sleep(80);
    assert.equal(lines.length, 1, 'a quiet window writes nothing');
  });
});
