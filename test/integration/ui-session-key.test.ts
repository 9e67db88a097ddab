import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parseApiKey } from '../../engine/auth/api-key.ts';
import { KeyRegistry } from '../../engine/auth/key-registry.ts';
import { startServer } from '../../server/start-server.ts';

test('the one-time UI token yields an admin key once, and that key is revoked when the server stops', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mnemo-ui-key-'));
  const server = await startServer({ engine: 'local', port: 0, dataDir, dbKey: 'a'.repeat(64), ui: true });
  // A failed assertion must not leave the server listening (closing twice is harmless), nor its data.
  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const token = new URL(server.uiUrl!).hash.replace('#ui_token=', '');
  const exchange = () =>
    fetch(`${server.origin}/ui/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
  const first = await exchange();
  assert.equal(first.status, 200);
  const { api_key: key } = (await first.json()) as { api_key: string };
  assert.equal((await exchange()).status, 401, 'the token works once');
  const keys = await fetch(`${server.url}/keys`, { headers: { Authorization: `Bearer ${key}` } });
  assert.equal(keys.status, 200, 'the UI key is an admin key');
  await server.close();
  const registry = new KeyRegistry(server.registry!.path);
  assert.deepEqual(registry.verify(key, parseApiKey(key)!), { ok: false, code: 'key_revoked' });
});
