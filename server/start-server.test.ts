import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { lockDataDir } from '../engine/store/data-dir-lock.ts';
import { startServer } from './start-server.ts';

// The embedder's worker thread is beside the point here, and slow to load.
process.env.MNEMO_EMBEDDER = 'none';

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-start-server-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function occupiedPort(): Promise<number> {
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  after(() => blocker.close());
  return (blocker.address() as { port: number }).port;
}

const local = (dataDir: string) => ({
  engine: 'local' as const,
  dataDir,
  dbKey: 'start-server-test-key',
  configDir: join(dataDir, 'config'),
  timeZone: 'UTC',
});

describe('startServer when start-up fails', () => {
  it('refuses a port outside 0-65535 before it creates or opens anything', async () => {
    const dir = join(tempDir(), 'data');
    for (const port of [65_536, 70_000, -1, 1.5, Number.NaN]) {
      await assert.rejects(startServer({ ...local(dir), port }), /port must be an integer from 0 to 65535/);
    }
    assert.equal(existsSync(dir), false, 'no data dir, registry, key or store was made');
  });

  it('closes the engine it opened when the port is taken', async () => {
    const dir = join(tempDir(), 'data');
    const port = await occupiedPort();
    await assert.rejects(startServer({ ...local(dir), port }), /EADDRINUSE/);
    // Closed means its store and data dir lock were let go: the next engine opens the dir at once.
    lockDataDir(dir).release();
    const again = await startServer({ ...local(dir), port: 0 });
    await again.close();
  });
});
