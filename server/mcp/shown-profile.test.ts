import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { allScopes } from '../../engine/auth/scopes.ts';
import { createLocalEngine } from '../../engine/local/index.ts';
import { listedChars, type shownProfile } from './listed-memory.ts';
import { enginePort } from './memory-port.ts';
import { createMcpServer } from './mcp-tools.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-shown-profile-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test("get_profile quotes a line's Record only where it says more than the line, a long one too", async () => {
  const engine = await createLocalEngine({
    dataDir: join(dir, 'data'),
    dbKey: 'p'.repeat(64),
    reranker: null,
  });
  const tenant = { project: 'home', env: 'test' } as const;
  await engine.createBrain(tenant, { id: 'me', self: { type: 'person', name: 'Ana' } });
  const write = (content: unknown) =>
    engine.rememberRecord(tenant, 'me', { content, source: { name: 'mcp' } } as never, {});
  await write({ kind: 'fact', subject: 'Ana', predicate: 'favourite colour', value: 'blue' });
  await write({ kind: 'message', speaker: 'user', text: 'My favourite colour is blue' });
  // A sentence with no slot is its own statement, quoted whole: the line said it twice.
  await write({
    kind: 'message',
    speaker: 'user',
    text: "I'm vegetarian and I love jazz, especially Chet Baker.",
  });
  // A long sentence that is its own statement came twice, whole, in its line.
  const boats = 'in the old building by the river where the boats come in, '.repeat(6);
  await write({
    kind: 'message',
    speaker: 'user',
    text: `I now work as a developer at Farfetch, ${boats}every day.`,
  });
  await engine.idle();
  const v1 = await engine.getProfile(tenant, 'me', { limit: 20 });
  assert.ok(
    v1.lines.some((l) => l.citations.some((c) => c.quote === l.statement)),
    JSON.stringify(v1.lines),
  );

  const [a, b] = InMemoryTransport.createLinkedPair();
  const principal = { tenant, scopes: allScopes, brain: 'me', admin: false };
  await createMcpServer(enginePort(engine, principal, 'req_test')).connect(a);
  const client = new Client({ name: 'shown-profile-test', version: '1.0.0' });
  await client.connect(b);
  const r = await client.callTool({ name: 'get_profile', arguments: {} });
  const shown = JSON.parse((r.content as { text: string }[])[0]!.text) as ReturnType<typeof shownProfile>;
  assert.deepEqual(
    shown.lines.map((l) => l.memory_id),
    v1.lines.map((l) => l.memory_id),
  );
  for (const [i, line] of shown.lines.entries()) {
    const whole = v1.lines[i]!;
    assert.deepEqual(
      line.citations.map((c) => c.record_id),
      whole.citations.map((c) => c.record_id),
    );
    for (const [j, c] of line.citations.entries()) {
      const quote = whole.citations[j]!.quote;
      if (quote === whole.statement) assert.equal('quote' in c, false, JSON.stringify(line));
      else if (quote.length <= listedChars.quote) assert.equal(c.quote, quote);
      else {
        assert.equal(c.quote_cut, true);
        assert.ok(c.quote!.length <= listedChars.quote + 1 && quote.startsWith(c.quote!.slice(0, -1)));
      }
    }
  }
  await client.close();
  await engine.close();
});
